"""Runs in the child.

The session app's match half: the match this terminal shows, and how it is left.

Everything on screen is the local app's own code (game screen, dialogs, widgets); only the table
differs. A match against the computer is a ``LocalTable`` whose saves go to the server (kept there
in memory, so a lost connection loses nothing: the lobby offers it back); a match with another
player is a ``RemoteTable`` fed by the server. Leaving a match (``n``, "New match...") goes back
to the lobby; quitting first says what is kept, and how to come back.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..link.keeping import computer_keep, duration
from ..link.messages import (
    AnswerTakeback,
    BackAtTable,
    ComputerDropped,
    ComputerGameKept,
    ComputerResult,
    ComputerSaved,
    LeaveMatch,
    MatchGone,
    MatchState,
    Message,
    Moved,
    SeatPeople,
    Spectators,
    SyncMatch,
)
from ..local.files import SaveError
from ..local.match_setup import MatchSetup
from ..local.saves import SavedMatch
from ..local.table import LocalTable
from ..rules import Match, SolunaError
from ..rules.strengths import strength_of
from ..rules.wording import minutes
from ..screens.confirm import ConfirmScreen
from .linked_app import NOTICE_SECONDS, LinkedApp
from .remote_table import RemoteTable
from .screens.closing_soon import ClosingSoonScreen
from .screens.takeback_request import TakebackRequestScreen


class ServerStore:
    """Where a match against the computer is kept over SSH: sent to the server, which keeps it for this
    player through a lost connection (a ``MatchKeeper``; nothing is written on the server's disk)."""

    def __init__(self, app: LinkedApp) -> None:
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


def computer_comeback(secret: str) -> str:
    """How to come back to a match against the computer kept by the server, as its tally says it ("secret KQXPMR");
    nothing while the server has not told this session its secret."""
    return f"secret {secret}" if secret else ""


class MatchHalf:
    """The match shown, its news from the server, and leaving it (``app`` holds what both halves read)."""

    def __init__(self, app: LinkedApp) -> None:
        self.app = app
        self.server_store = ServerStore(app)
        #: How to come back to the seat this session last left in a match in play ("code ABCD, secret KQXPMR").
        self._left_seat = ""
        #: The opponent's takeback request on screen, until answered or lapsed.
        self._takeback: TakebackRequestScreen | None = None
        #: The notice that came with the opponent's takeback request: it goes once the request is answered or lapses.
        self._request_line: str | None = None

    @property
    def handlers(self) -> dict[type[Message], Callable[[Any], None]]:
        """What each of the server's messages about a match does."""
        return {
            MatchState: self._match_news, Moved: self._match_news, ComputerGameKept: self._resume_computer_game,
            MatchGone: self._heard_match_gone, ComputerResult: self._heard_computer_result,
            Spectators: self._heard_spectators, BackAtTable: self._heard_back_at_table,
            SeatPeople: self._heard_seat_people,
        }

    # ---- what the server says ------------------------------------------------------------

    def _match_news(self, message: MatchState | Moved) -> None:
        app = self.app
        code = message.code
        if code != app.following:
            return  # about a match this terminal has left meanwhile
        if app.remote is not None and app.remote.code == code:
            if isinstance(message, Moved) and app.remote.opponents_move(message):
                app.ring()
            app.remote.update(message)
            if isinstance(message, Moved) and app.remote.watching:
                self._watched_a_move()
            self._follow_takeback(app.remote, message.notice)
            return
        if not isinstance(message, MatchState):
            app.send(SyncMatch(code))  # a move before the whole match: ask for it
            return
        game = app.game
        if game is not None:
            # The match shown before (a tournament's last pairing, its end still being judged) opens no dialog now:
            # one pushed before this match is on screen would strand it behind (its screen would never refresh).
            game.computer.stop()
        app.remote = RemoteTable(message, app.send)
        app.lobby.match_begun()
        app.show_table(app.remote)
        if message.notice is not None:
            app.remote.notices.append(message.notice)
        self._follow_takeback(app.remote, message.notice)

    def _heard_back_at_table(self, message: BackAtTable) -> None:
        """Connected again while this player's match runs: straight back to their seat (its state follows)."""
        self.app.following = message.code
        self.app.lobby.say(f"Your match {message.code} is running: back at your seat.")

    def _follow_takeback(self, remote: RemoteTable, notice: str | None) -> None:
        """The opponent's takeback request, as the server last said: asked, the player is asked to accept or decline
        it; lapsed (answered, or gone with a move), its dialog and its notice go (the answer's own line, if any,
        comes in their place)."""
        round_ = remote.match.round
        asking = (not remote.watching and remote.takeback is not None and remote.takeback != remote.my_seat
                  and round_.ply > 0)
        shown = self._takeback
        if asking and shown is None and remote.takeback is not None:
            self._request_line = notice or self._request_line
            self._takeback = TakebackRequestScreen(remote.match.players[remote.takeback], str(round_.placed_moves[-1]))
            self.app.push_screen(self._takeback, self._takeback_answered)
        elif not asking:
            line, self._request_line = self._request_line, None
            game = self.app.game
            if line is not None and line in remote.notices:
                remote.notices.remove(line)  # not shown yet
            elif line is not None and game is not None and game.is_mounted:
                game.withdraw_notice(line)
            if shown is not None:
                self._takeback = None
                if self.app.screen is shown:
                    shown.dismiss(None)

    def _takeback_answered(self, accept: bool | None) -> None:
        if accept is not None and self._takeback is not None:
            self._takeback = None
            self.app.send(AnswerTakeback(accept))

    def _watched_a_move(self) -> None:
        """Following a match that moves is not idleness: a spectator's session stays open while the players play
        (and a warning that it would close goes)."""
        self.app.player_active()
        if isinstance(self.app.screen, ClosingSoonScreen):
            self.app.screen.dismiss(None)

    def _heard_spectators(self, message: Spectators) -> None:
        """Who watches the match shown: a line of the tally, drawn again (no notice: the board stays as it is)."""
        remote, game = self.app.remote, self.app.game
        if remote is None or message.code != remote.code or message.code != self.app.following:
            return
        remote.spectators, remote.spectator_names = message.count, message.names
        if game is not None and game.table is remote and game.is_mounted:
            game.redraw()

    def _heard_seat_people(self, message: SeatPeople) -> None:
        """Who sits at each seat of the match shown: a keyed player's rating beside their name in the tally, and
        the number their card is asked by."""
        remote, game = self.app.remote, self.app.game
        if remote is None or message.code != remote.code or len(message.seats) != 2:
            return
        remote.seat_people = message.seats
        first, second = (person.rating if person.keyed else None for person in message.seats)
        remote.seat_ratings = (first, second)
        if game is not None and game.table is remote and game.is_mounted:
            game.redraw()

    def _heard_match_gone(self, message: MatchGone) -> None:
        """The match shown went from play without a result (aborted, abandoned): back to the lobby, told why."""
        if message.code == self.app.following and self.app.remote is not None:
            self.back_to_lobby(message.text)
        else:
            self.app.notify(message.text, timeout=NOTICE_SECONDS)

    def _resume_computer_game(self, message: ComputerGameKept) -> None:
        app = self.app
        app.asker(message)
        try:
            saved = SavedMatch.from_document(message.save)
        except SaveError as error:
            app.lobby.say(f"That match could not be resumed: {error}.", "error")
            return
        app.secret = message.secret or app.secret
        self._leave_remote()
        app.lobby.match_begun()
        app.show_table(self._computer_table(saved))

    def _computer_table(self, saved: SavedMatch) -> LocalTable:
        """A match against the computer at this terminal, kept by the server (its clock too, as it was kept)."""
        setup = saved.setup
        table = LocalTable.from_saved(saved, self.server_store)
        table.comeback = computer_comeback(self.app.secret)
        if setup.rated and setup.computer_level is not None:
            table.notices.append(f"Rated against level {strength_of(setup.computer_level).rated}: no hints, no "
                                 "take-backs.")
        return table

    def _heard_computer_result(self, message: ComputerResult) -> None:
        """A rated match against the computer, filed: the ratings in its summary (or why it was not rated)."""
        lines = tuple(shift.line for shift in message.ratings) or ((message.unrated,) if message.unrated else ())
        game = self.app.game
        if game is not None and isinstance(game.table, LocalTable) and game.table.setup.rated:
            game.table.result_notes = lines
            game.table.changed()
        elif lines:
            self.app.notify("\n".join(lines), timeout=NOTICE_SECONDS)

    # ---- a match begun, left -------------------------------------------------------------

    def start(self, setup: MatchSetup, rematch_of: Match | None = None) -> None:
        """A rematch of a remote match needs both players: ask the server; anything else is local."""
        app = self.app
        game = app.game
        if rematch_of is not None and game is not None and isinstance(game.table, RemoteTable):
            try:
                game.table.ask_for_rematch()  # the server says what came of it: asked, or the rematch begins
            except SolunaError as error:
                app.notify(str(error), timeout=NOTICE_SECONDS)
            return
        self._leave_remote()
        match = rematch_of.rematch(setup.seed) if rematch_of is not None else setup.new_match()
        table = self._computer_table(SavedMatch(setup, match))
        table.save()
        app.show_table(table)

    def leave(self, notice: str = "") -> None:
        """Back to the lobby (the server holds a seat left, and keeps a match against the computer for the lobby
        to offer back). A player's seat in a match in play is left only once they said so."""
        app = self.app
        remote = app.remote
        if remote is None or remote.watching or remote.match.is_over:
            app.call_after_refresh(self._back_from, remote, notice)
            return
        if isinstance(app.screen, ConfirmScreen) and app.screen.DIALOG_TITLE == "Leave the match?":
            return
        question = (f"Back to the lobby? Your seat is held for {minutes(app.hold_seconds)}, then your opponent "
                    "wins by forfeit. \"Return to your match\" in the lobby takes it back.")

        def answered(leave: bool | None) -> None:
            if leave:
                app.call_after_refresh(self._back_from, remote, notice)

        app.push_screen(ConfirmScreen(question, "Leave", "Stay", "Leave the match?"), answered)

    def _back_from(self, remote: RemoteTable | None, notice: str) -> None:
        """Back to the lobby from the match ``remote`` (``None``: against the computer), asked before a refresh: not
        if another match has come on screen in its place meanwhile (a tournament's next pairing)."""
        if self.app.remote is remote:
            self.back_to_lobby(notice)

    def _leave_remote(self) -> None:
        """The match between players shown is left (the server told which: never the one seated at meanwhile); the
        match followed, if another (paired as this one ended), is still followed."""
        app = self.app
        self._takeback = self._request_line = None  # its dialog goes with the match's screens
        remote = app.remote
        if remote is not None:
            if not remote.watching and not remote.match.is_over:
                self._left_seat = remote.comeback
            remote.on_change = remote.on_keys_change = None
            app.remote = None
            app.send(LeaveMatch(remote.code))
        if remote is None or app.following == remote.code:
            app.following = None

    def back_to_lobby(self, notice: str = "") -> None:
        app = self.app
        if app.remote is not None:
            self._leave_remote()
        else:  # from a match against the computer: the listing again, with that match to resume
            app.send(LeaveMatch())
        while len(app.screen_stack) > 1:
            app.pop_screen()
        app.lobby.show_matches(app.matches_in_play)
        app.lobby.say(notice)
        app.lobby.action_menu()  # not the field last typed in: the menu, a match to come back to first
        app.check_size()

    # ---- quitting ------------------------------------------------------------------------

    def quit_question(self) -> str:
        """What quitting means now (a seat held, a match kept) and how to come back."""
        app = self.app
        game = app.game
        held = minutes(app.hold_seconds)
        if game is None or game.match.is_over:
            return self._held_seat_words() or "Leave Soluna? You can connect again at any time."
        table = game.table
        if isinstance(table, RemoteTable):
            if table.watching:
                return "Stop watching and leave Soluna?"
            return (f"Leave Soluna? Your seat is held for what is left of your {held} away from this match, then "
                    f"your opponent wins by forfeit. To come back, join with the {table.comeback}.")
        kept = duration(computer_keep(app.rated))
        proof = "with the same key, or your secret" if app.rated else "with your secret"
        return (f"Leave Soluna? Your match against the computer is kept for {kept}: the lobby offers it "
                f"when you connect again ({proof} {app.secret}).")

    def _held_seat_words(self) -> str | None:
        """From the lobby, with a seat of this player's held in a match in play: that it is held, for how long,
        and how to come back (``None``: no such seat)."""
        app = self.app
        listed = next((each for each in app.matches_in_play if each.held is not None), None)
        if listed is None or listed.held is None:
            return None
        left = minutes(max(0.0, app.listed_at + listed.held - time.monotonic()))
        way = (f"join with the {self._left_seat}" if self._left_seat.startswith(f"code {listed.code},")
               else f"join {listed.code} with the same key, or the secret shown beside the board")
        return (f"Leave Soluna? Your seat in match {listed.code} is held for {left}, then your opponent wins by "
                f"forfeit. To come back, {way}.")
