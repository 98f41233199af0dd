"""Runs in the child.

The app an SSH session runs: the lobby first, matches against the computer or through the server.

Everything on screen is the local app's own code (game screen, dialogs, widgets);
only the table differs. A match against the computer is a ``LocalTable`` whose
saves go to the server (kept there in memory, so a lost connection loses nothing:
the lobby offers it back); a match with another player is a ``RemoteTable`` fed
by the server. Leaving a match (``n``, "New match...") goes back to the lobby.

A screen's question to the server (the leaderboard, a record, a name, a join) is
numbered (``ask``); the server's answer carries the number back, so it reaches the
screen that asked whatever is on top meanwhile, and goes nowhere once that screen
has closed. A screen the answer reaches before it has drawn itself keeps it and
shows it when ready.

The session's process writes nothing on the server's disk: no saves, statistics,
preferences or screenshots (the command palette does not offer them).

What the server says is read by a plain asyncio task, not a Textual worker: a
screen that cancels "its" workers (``workers`` is the app's manager) must never
be able to stop this terminal from hearing the server.
"""

from __future__ import annotations

import asyncio
import itertools
import socket
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from textual import events, on
from textual.app import SystemCommand
from textual.screen import Screen

from ..app import SolunaApp
from ..compat import report_app_error
from ..files import SaveError
from ..link.clock import ClockSetting
from ..link.keeping import computer_keep, duration
from ..link.messages import (
    Answer,
    AskFinishedMatch,
    AskLeaderboard,
    AskRecord,
    CancelMatch,
    ChooseName,
    ClosingSoon,
    ComputerDropped,
    ComputerGameKept,
    ComputerResult,
    ComputerResume,
    ComputerSaved,
    CreateMatch,
    ErrorReply,
    Exit,
    FinishedMatch,
    JoinMatch,
    KeepChoices,
    LeaderboardPage,
    LeaveMatch,
    ListedMatch,
    LobbyListing,
    MatchGone,
    MatchState,
    Message,
    Moved,
    Notice,
    PlayerRecord,
    Question,
    Request,
    SecretNeeded,
    SyncMatch,
    Waiting,
    WatchMatch,
    Welcome,
)
from ..link.protocol import End, Link, ProtocolError
from ..match_setup import MatchSetup
from ..play.where import Where
from ..play.wording import minutes
from ..rules import Match, SolunaError
from ..rules.strengths import strength_of
from ..saves import SavedMatch
from ..screens.choose_name import ChooseNameScreen
from ..screens.closing_soon import ClosingSoonScreen
from ..screens.confirm import ConfirmScreen
from ..screens.help import server_rules_text
from ..screens.leaderboard import LeaderboardScreen
from ..screens.lobby import LobbyScreen
from ..screens.record import RecordScreen
from ..screens.replay import ReplayScreen
from ..screens.waiting import WaitingScreen
from ..stats import Stats, StatsStore
from ..table import LocalTable
from .activity import ReportsActivity
from .table import RemoteTable

LOBBY_STYLESHEET = "lobby.tcss"
NOTICE_SECONDS = 8
#: A session has no data directory: it reads and writes nothing on the server's disk (saves, stats and
#: preferences are the local player's; the server keeps the matches itself).
NO_DATA_DIR = Path("/nonexistent/soluna-ssh-session")
#: Palette commands that would write on (or read the local player's files from) the server's disk.
DISK_COMMANDS = {"Screenshot", "Replay a finished match"}
#: Questions remembered until answered; beyond this many the oldest is forgotten (a join that led to
#: a match is answered by the match itself, never by an ``Answer``).
QUESTIONS_KEPT = 32


class SessionStats(StatsStore):
    """Statistics for this SSH session only, kept in memory: a child writes nothing on the server's disk."""

    def __init__(self) -> None:
        super().__init__(NO_DATA_DIR)
        self._stats = Stats()

    def load(self) -> Stats:
        self.problem = None
        return self._stats

    def save(self, stats: Stats) -> None:
        self._stats = stats


class ServerStore:
    """Where a match against the computer is kept over SSH: sent to the server, which keeps it for this
    player through a lost connection (a ``MatchKeeper``; nothing is written on the server's disk)."""

    def __init__(self, app: ChildApp) -> None:
        self._app = app

    def save(self, saved: SavedMatch) -> None:
        self._app.send(ComputerSaved(saved.to_document()))

    def discard(self) -> None:
        self._app.send(ComputerDropped())

    def keep_finished(self, saved: SavedMatch, replacing: Path | None = None) -> Path | None:
        """Nothing on the server's disk: a finished computer match is replayed from the game screen itself. A rated
        one goes to the server as it ended, to be filed and rated (``ComputerResult`` says what it did)."""
        if saved.setup.rated and replacing is None:
            self._app.send(ComputerSaved(saved.to_document()))
        return None

    def withdraw_finished(self, path: Path) -> None:
        """Nothing was kept, so nothing to take back."""


@dataclass(frozen=True)
class Asked:
    """A question on its way to the server: the screen that asked, and how it shows a refusal."""

    screen: Screen[Any]
    refused: Callable[[str], None]


class ChildApp(ReportsActivity, SolunaApp):
    """One SSH player's terminal. ``link`` is this child's end of the socketpair to the server."""

    STYLES_AT_ONCE = True  # the lobby comes first, itself a dialog
    EXTRA_STYLESHEETS = (LOBBY_STYLESHEET,)

    def __init__(self, *, name: str, link: socket.socket, ascii_mode: bool = False,
                 computer_pause: float = 0.6, reveal_pause: float = 0.5) -> None:
        super().__init__(ascii_mode=ascii_mode, data_dir=NO_DATA_DIR, computer_pause=computer_pause,
                         reveal_pause=reveal_pause)
        #: No save file here (``store``): a match against the computer is kept by the server.
        self.store = None
        self.server_store = ServerStore(self)
        self.stats_store = SessionStats()
        self.player_name = name
        self._link_socket = link
        self.link: Link | None = None
        self._listener: asyncio.Task[None] | None = None
        self._lobby: LobbyScreen | None = None
        #: This session's secret (the proof for the seats it takes), and how long the server holds a seat.
        self.secret = ""
        self.hold_seconds = 300.0
        #: The clocks the server offers, and the rated matches that put a player on its leaderboard (so many,
        #: against so many established opponents; a pair's rated matches in 24 hours).
        self.clocks: tuple[ClockSetting, ...] = ()
        self.ranked_after = self.ranked_opponents = self.pair_rated_per_day = 0
        #: Whether this player came with a key (rated, a name of their own), as the server last said.
        self.rated = False
        #: A keyed player is offered to choose their name once a visit (Escape means not now).
        self._name_offered = False
        #: The matches in play, as the server last listed them, and when (``time.monotonic()``).
        self.matches_in_play: tuple[ListedMatch, ...] = ()
        self._listed_at = 0.0
        #: How to come back to the seat this session last left in a match in play ("code ABCD, secret KQXPMR").
        self._left_seat = ""
        #: The code of the match this terminal shows or is about to show; updates for others are stale.
        self.following: str | None = None
        self.remote: RemoteTable | None = None
        #: The questions asked and not yet answered, by number.
        self._asked: dict[int, Asked] = {}
        self._numbers = itertools.count(1)
        #: What each reply from the server does.
        self._handlers: dict[type[Message], Callable[[Any], None]] = {
            Welcome: self._welcome, LobbyListing: self._heard_listing, Waiting: self._heard_waiting,
            MatchState: self._match_news, Moved: self._match_news, SecretNeeded: self._heard_secret_needed,
            ComputerGameKept: self._resume_computer_game, Notice: self._heard_notice, MatchGone: self._heard_match_gone,
            ClosingSoon: self._closing_soon,
            LeaderboardPage: self._heard_leaderboard_page, PlayerRecord: self._heard_record,
            FinishedMatch: self._replay_finished, ErrorReply: self._heard_error, Exit: self._heard_exit,
            ComputerResult: self._heard_computer_result,
        }

    # ---- start-up ------------------------------------------------------------------------

    def get_default_screen(self) -> Screen[Any]:
        return self.lobby

    @property
    def lobby(self) -> LobbyScreen:
        """The first screen, always at the bottom of the stack."""
        if self._lobby is None:
            self._lobby = LobbyScreen(self.player_name, ascii_mode=self.ascii_mode)
        return self._lobby

    @on(events.Mount)
    async def _connect(self, event: events.Mount) -> None:
        event.prevent_default()  # no saved match to resume here: the lobby is the first screen
        if self.requested_theme:
            self.theme = self.requested_theme
        self.check_size()
        self.link = await Link.over(self._link_socket, End.CHILD)
        self._listener = asyncio.get_running_loop().create_task(self._listen(self.link))
        self._listener.add_done_callback(self._listener_ended)

    def on_unmount(self) -> None:
        if self._listener is not None:
            self._listener.cancel()

    def _listener_ended(self, task: asyncio.Task[None]) -> None:
        """A bug in reading the server is this app's crash (reported as any other), never silence."""
        if task.cancelled():
            return
        error = task.exception()
        if isinstance(error, Exception):
            report_app_error(self, error)

    def remember(self, **choices: object) -> None:
        """Nothing is remembered on the server's disk."""

    def send(self, message: Request) -> None:
        """Tell the server something; a server that has gone ends this session."""
        try:
            if self.link is not None:
                self.link.send(message)
        except ProtocolError:
            self.exit()

    def ask(self, question: Question, screen: Screen[Any], refused: Callable[[str], None]) -> None:
        """Ask the server something for ``screen``: its answer (or ``refused`` with why not) goes to it."""
        number = next(self._numbers)
        self._asked[number] = Asked(screen, refused)
        while len(self._asked) > QUESTIONS_KEPT:
            del self._asked[next(iter(self._asked))]
        self.send(replace(question, ask=number))

    def _asker(self, answer: Answer) -> Asked | None:
        """Who asked the question ``answer`` answers, if they are still on the screen stack."""
        asked = self._asked.pop(answer.answer_to, None) if answer.answer_to is not None else None
        return asked if asked is not None and asked.screen in self.screen_stack else None

    # ---- what the server says ------------------------------------------------------------

    async def _listen(self, link: Link) -> None:
        while True:
            try:
                message = await link.receive()
            except ProtocolError:
                message = None
            if message is None:
                self.exit()
                return
            try:
                self._handlers[type(message)](message)
            except (SolunaError, ProtocolError, KeyError, TypeError, ValueError):
                self.notify("The server sent news this terminal could not read.", severity="warning")
                if self.remote is not None:
                    self.remote.ask_for_state()

    def _heard_listing(self, message: LobbyListing) -> None:
        self.matches_in_play, self._listed_at = message.matches, time.monotonic()
        self.lobby.show_matches(self.matches_in_play)
        self.lobby.show_computer_offer(message.computer)

    def _heard_waiting(self, message: Waiting) -> None:
        if self._asker(message) is not None:  # the lobby's "Create a match", still wanted
            self.following = message.code
            self.lobby.say(f"Match {message.code} created: waiting for an opponent.")
            self.push_screen(WaitingScreen(message.code), self._waiting_closed)

    def _heard_secret_needed(self, message: SecretNeeded) -> None:
        self._asker(message)
        self.following = None
        self.lobby.ask_secret(message.code)

    def _heard_notice(self, message: Notice) -> None:
        """News from the server: in the lobby's status line when the lobby is what the player sees (it stays
        there), else a notice."""
        if self.screen is self.lobby:
            self.lobby.say(message.text, "error" if message.severity == "error" else "info")
        elif self.game is not None and self.screen is self.game:
            if self.game.is_mounted:
                self.game.show_notice(message.text)
            else:  # a match just begun (its first save answered at once): shown as its screen first draws
                self.game.table.notices.append(message.text)
        else:
            self.notify(message.text, severity=message.severity, timeout=NOTICE_SECONDS)

    def _closing_soon(self, message: ClosingSoon) -> None:
        """No key for a long while: on top of everything, counting down, until a key says the player is here."""
        for screen in self.screen_stack:
            if isinstance(screen, ClosingSoonScreen):  # shown already (perhaps under a dialog since): set anew
                screen.count_down(message.idle, message.seconds)
                return
        self.push_screen(ClosingSoonScreen(message.idle, message.seconds), self._still_here)

    def _watched_a_move(self) -> None:
        """Following a match that moves is not idleness: a spectator's session stays open while the players play
        (and a warning that it would close goes)."""
        self.player_active()
        if isinstance(self.screen, ClosingSoonScreen):
            self.screen.dismiss(None)

    def _still_here(self, _: None) -> None:
        self._activity_reported_at = float("-inf")  # told at once, however recently the last report went
        self.player_active()

    def _heard_match_gone(self, message: MatchGone) -> None:
        """The match shown went from play without a result (aborted, abandoned): back to the lobby, told why."""
        if message.code == self.following and self.remote is not None:
            self._back_to_lobby(message.text)
        else:
            self.notify(message.text, timeout=NOTICE_SECONDS)

    def _heard_leaderboard_page(self, message: LeaderboardPage) -> None:
        asked = self._asker(message)
        if asked is not None and isinstance(asked.screen, LeaderboardScreen):
            asked.screen.show_page(message)

    def _heard_record(self, message: PlayerRecord) -> None:
        asked = self._asker(message)
        if asked is not None and isinstance(asked.screen, RecordScreen):
            asked.screen.show_record(message)

    def _heard_error(self, message: ErrorReply) -> None:
        asked = self._asker(message)
        if asked is not None:
            asked.refused(message.text)
            return
        if message.answer_to is not None:
            return  # the screen that asked has closed: nobody is waiting for this
        # Not an answer: a move, a round or a rematch the server could not take.
        if self.remote is None:
            self.following = None
        self.lobby.say(message.text, "error")
        if self.remote is not None or self.screen is not self.lobby:
            self.notify(message.text, severity="error", timeout=NOTICE_SECONDS)

    def _lobby_refused(self, text: str) -> None:
        """The server could not do what the lobby asked (a join, a watch, a creation, a resume)."""
        if self.remote is None:
            self.following = None
        self.lobby.refused(text)
        if self.screen is not self.lobby:
            self.notify(text, severity="error", timeout=NOTICE_SECONDS)

    def _heard_exit(self, message: Exit) -> None:
        self.exit()

    def _welcome(self, message: Welcome) -> None:
        """Who the server says this player is (on arrival, and as the answer to a name chosen)."""
        asked = self._asker(message)
        self.secret = message.secret
        self.hold_seconds = message.hold_seconds
        self.clocks, self.ranked_after = message.clocks, message.ranked_after
        self.ranked_opponents, self.pair_rated_per_day = message.ranked_opponents, message.pair_rated_per_day
        self.lobby.show_clocks(message.clocks)
        if message.choices is not None:  # after the clocks: the clock kept is one of them
            self.lobby.show_choices(message.choices)
        if message.name:
            self.player_name = message.name
        self.rated = message.rated is True
        self.lobby.show_player(self.player_name, message.rated)
        if asked is not None and isinstance(asked.screen, ChooseNameScreen):
            if message.name_chosen:
                if self.screen is asked.screen:
                    asked.screen.dismiss(None)
                self.lobby.say(f"You are {self.player_name} on every visit with this key.")
        elif self.rated and not message.name_chosen and not self._name_offered:
            self._name_offered = True
            self.push_screen(ChooseNameScreen(self.player_name))

    def _replay_finished(self, message: FinishedMatch) -> None:
        """A finished match the player asked for: replayed and judged here (the server runs no solver)."""
        asked = self._asker(message)
        if asked is None or not isinstance(asked.screen, RecordScreen):
            return  # the record it was asked from has closed
        try:
            match = Match.from_dict(message.match)
        except SolunaError as error:
            asked.screen.say(f"That match could not be read: {error}.", error=True)
            return
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(message.finished_at))
        details = [f"Server match #{message.id}: {message.result.words}, finished {when}"]
        asked.screen.say("")
        self.push_screen(ReplayScreen(match, details, ascii_mode=self.ascii_mode))

    def _match_news(self, message: MatchState | Moved) -> None:
        code = message.code
        if code != self.following:
            return  # about a match this terminal has left meanwhile
        if self.remote is not None and self.remote.code == code:
            self.remote.update(message)
            if isinstance(message, Moved) and self.remote.watching:
                self._watched_a_move()
            return
        if not isinstance(message, MatchState):
            self.send(SyncMatch(code))  # a move before the whole match: ask for it
            return
        self.remote = RemoteTable(message, self.send)
        self.lobby.match_begun()
        self._show_game(self.remote)
        if message.notice is not None:
            self.remote.notices.append(message.notice)

    def _resume_computer_game(self, message: ComputerGameKept) -> None:
        self._asker(message)
        try:
            saved = SavedMatch.from_document(message.save)
        except SaveError as error:
            self.lobby.say(f"That match could not be resumed: {error}.", "error")
            return
        self.secret = message.secret or self.secret
        self._leave_remote()
        self.lobby.match_begun()
        self._show_game(self._computer_table(saved.setup, saved.match, saved.hints_used, saved.analysis))

    def _computer_table(self, setup: MatchSetup, match: Match, hints_used: tuple[int, int] = (0, 0),
                        analysis_on: bool = False) -> LocalTable:
        table = LocalTable(setup, match, self.server_store, hints_used, analysis_on)
        table.comeback = f"secret {self.secret}" if self.secret else ""
        if setup.rated and setup.computer_level is not None:
            table.notices.append(f"Rated against level {strength_of(setup.computer_level).rated}: no hints, no "
                                 "take-backs.")
        return table

    def _heard_computer_result(self, message: ComputerResult) -> None:
        """A rated match against the computer, filed: the ratings in its summary (or why it was not rated)."""
        lines = tuple(shift.line for shift in message.ratings) or ((message.unrated,) if message.unrated else ())
        game = self.game
        if game is not None and isinstance(game.table, LocalTable) and game.table.setup.rated:
            game.table.result_notes = lines
            game.table.changed()
        elif lines:
            self.notify("\n".join(lines), timeout=NOTICE_SECONDS)

    # ---- what the player asks for (from the lobby) ---------------------------------------

    def _ask_for_the_lobby(self, question: Question) -> None:
        self.ask(question, self.lobby, self._lobby_refused)

    @on(LobbyScreen.PlayComputer)
    def _play_computer(self, event: LobbyScreen.PlayComputer) -> None:
        self.start_match(event.setup)

    @on(LobbyScreen.ResumeComputer)
    def _resume_computer(self, event: LobbyScreen.ResumeComputer) -> None:
        self._ask_for_the_lobby(ComputerResume(event.secret))

    @on(LobbyScreen.CreateMatch)
    def _create(self, event: LobbyScreen.CreateMatch) -> None:
        self._ask_for_the_lobby(CreateMatch(event.options.to_dict(), event.hints, event.clock))

    @on(LobbyScreen.JoinMatch)
    def _join(self, event: LobbyScreen.JoinMatch) -> None:
        self.following = event.code
        self._ask_for_the_lobby(JoinMatch(event.code, event.hints, event.secret))

    @on(LobbyScreen.WatchMatch)
    def _watch(self, event: LobbyScreen.WatchMatch) -> None:
        self.following = event.code
        self._ask_for_the_lobby(WatchMatch(event.code))

    @on(LobbyScreen.ShowLeaderboard)
    def _show_leaderboard(self) -> None:
        screen = LeaderboardScreen(self.player_name)
        self.push_screen(screen)
        self.ask(AskLeaderboard(0), screen, screen.refused)

    @on(LeaderboardScreen.PageWanted)
    def _leaderboard_page(self, event: LeaderboardScreen.PageWanted) -> None:
        self.ask(AskLeaderboard(event.offset), event.control, event.control.refused)

    @on(LobbyScreen.ShowRecord)
    def _show_record(self) -> None:
        screen = RecordScreen()
        self.push_screen(screen)
        self.ask(AskRecord(), screen, screen.refused)

    @on(RecordScreen.ReplayWanted)
    def _replay_wanted(self, event: RecordScreen.ReplayWanted) -> None:
        self.ask(AskFinishedMatch(event.match_id), event.control, event.control.refused)

    @on(LobbyScreen.ChoicesChanged)
    def _keep_choices(self, event: LobbyScreen.ChoicesChanged) -> None:
        """A player with a key finds the lobby's settings so on their next visit (a guest's last the visit)."""
        if self.rated:
            self.send(KeepChoices(event.choices))

    @on(LobbyScreen.ChooseName)
    def _offer_name_choice(self) -> None:
        self.push_screen(ChooseNameScreen(self.player_name))

    @on(ChooseNameScreen.Chosen)
    def _name_chosen(self, event: ChooseNameScreen.Chosen) -> None:
        screen = next(each for each in reversed(self.screen_stack) if isinstance(each, ChooseNameScreen))
        self.ask(ChooseName(event.name), screen, screen.show_error)

    def _waiting_closed(self, cancelled: bool | None) -> None:
        if cancelled:
            self.following = None
            self.send(CancelMatch())
            self.lobby.say("Match cancelled.")

    # ---- leaving a match, quitting -------------------------------------------------------

    def action_new_match(self, previous: MatchSetup | None = None, notice: str = "") -> None:
        """Over SSH a new match starts from the lobby: leave this one (the server holds a seat left,
        and keeps a match against the computer for the lobby to offer back). A player's seat in a match
        in play is left only once they said so."""
        remote = self.remote
        if remote is None or remote.watching or remote.match.is_over:
            self.call_after_refresh(self._back_to_lobby, notice)
            return
        if isinstance(self.screen, ConfirmScreen) and self.screen.DIALOG_TITLE == "Leave the match?":
            return
        question = (f"Back to the lobby? Your seat is held for {minutes(self.hold_seconds)}, then your opponent "
                    "wins by forfeit. \"Return to your match\" in the lobby takes it back.")

        def answered(leave: bool | None) -> None:
            if leave:
                self.call_after_refresh(self._back_to_lobby, notice)

        self.push_screen(ConfirmScreen(question, "Leave", "Stay", "Leave the match?"), answered)

    def _leave_remote(self) -> None:
        if self.remote is not None:
            if not self.remote.watching and not self.remote.match.is_over:
                self._left_seat = self.remote.comeback
            self.remote.on_change = None
            self.remote = None
            self.send(LeaveMatch())
        self.following = None

    def _back_to_lobby(self, notice: str = "") -> None:
        if self.remote is not None:
            self._leave_remote()
        else:  # from a match against the computer: the listing again, with that match to resume
            self.send(LeaveMatch())
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.lobby.show_matches(self.matches_in_play)
        self.lobby.say(notice)
        self.lobby.action_menu()  # not the field last typed in: the menu, a match to come back to first
        self.check_size()

    @property
    def where(self) -> Where:
        """The lobby (and its dialogs), a match against the computer, a seat at a match between players, or
        watching one."""
        game = self.game
        if game is None:
            return Where.LOBBY
        table = game.table
        if isinstance(table, RemoteTable):
            return Where.WATCHING if table.watching else Where.MATCH_OVER_SSH
        return Where.COMPUTER_OVER_SSH

    def server_rules(self) -> str:
        """For the help: this server's rules for matches between players (time away, clocks, what is rated)."""
        return server_rules_text(self.hold_seconds, self.clocks, self.ranked_after, self.ranked_opponents,
                                 self.pair_rated_per_day)

    async def action_quit(self) -> None:
        """Ask first: what quitting means here (a seat held, a match kept) and how to come back."""
        if isinstance(self.screen, ConfirmScreen) and self.screen.DIALOG_TITLE == "Quit?":
            return
        self.push_screen(ConfirmScreen(self._quit_question(), "Quit", "Stay", "Quit?"), self._quit_answered)

    def _quit_answered(self, yes: bool | None) -> None:
        if yes:
            self.exit()

    def _quit_question(self) -> str:
        game = self.game
        held = minutes(self.hold_seconds)
        if game is None or game.match.is_over:
            return self._held_seat_words() or "Leave Soluna? You can connect again at any time."
        table = game.table
        if isinstance(table, RemoteTable):
            if table.watching:
                return "Stop watching and leave Soluna?"
            return (f"Leave Soluna? Your seat is held for what is left of your {held} away from this match, then "
                    f"your opponent wins by forfeit. To come back, join with the {table.comeback}.")
        kept = duration(computer_keep(self.rated))
        proof = "with the same key, or your secret" if self.rated else "with your secret"
        return (f"Leave Soluna? Your match against the computer is kept for {kept}: the lobby offers it "
                f"when you connect again ({proof} {self.secret}).")

    def _held_seat_words(self) -> str | None:
        """From the lobby, with a seat of this player's held in a match in play: that it is held, for how long,
        and how to come back (``None``: no such seat)."""
        listed = next((each for each in self.matches_in_play if each.held is not None), None)
        if listed is None or listed.held is None:
            return None
        left = minutes(max(0.0, self._listed_at + listed.held - time.monotonic()))
        way = (f"join with the {self._left_seat}" if self._left_seat.startswith(f"code {listed.code},")
               else f"join {listed.code} with the same key, or the secret shown beside the board")
        return (f"Leave Soluna? Your seat in match {listed.code} is held for {left}, then your opponent wins by "
                f"forfeit. To come back, {way}.")

    def start_match(self, setup: MatchSetup, rematch_of: Match | None = None) -> None:
        """A rematch of a remote match needs both players: ask the server; anything else is local."""
        game = self.game
        if rematch_of is not None and game is not None and isinstance(game.table, RemoteTable):
            try:
                game.table.ask_for_rematch()  # the server says what came of it: asked, or the rematch begins
            except SolunaError as error:
                self.notify(str(error), timeout=NOTICE_SECONDS)
            return
        self._leave_remote()
        match = rematch_of.rematch(setup.seed) if rematch_of is not None else setup.new_match()
        table = self._computer_table(setup, match)
        table.save()
        self._show_game(table)

    # ---- nothing on the server's disk ----------------------------------------------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if command.title not in DISK_COMMANDS:
                yield command

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        self.notify("Screenshots are not taken over SSH: use your terminal's own.", severity="warning")

    def deliver_screenshot(self, *args: Any, **kwargs: Any) -> None:
        self.action_screenshot()

    def save_screenshot(self, *args: Any, **kwargs: Any) -> str:
        raise SaveError("nothing is written on the server's disk")
