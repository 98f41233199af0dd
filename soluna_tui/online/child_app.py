"""Runs in the child.

The app an SSH session runs: the lobby first, matches against the computer or through the server.

``LinkedApp`` holds its link to the server and what the server said; the halves it owns do the rest,
one for each of the lobby's panes (``lobby_half.py``: the menu and settings; ``pairing_half.py``: quick
matches and challenges; ``people_half.py``: who is online; ``records_half.py``: the leaderboard and
records; ``browsers_half.py``: browsers signed in; ``talk_half.py``: table talk) and the match half
(``match_half.py``: the match shown, its news, leaving it). This module hands each wish of the lobby's
screens and each message from the server to its half, and says what quitting means.

The session's process writes nothing on the server's disk: no saves, statistics,
preferences or screenshots (the command palette does not offer them).
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

from textual import on
from textual.binding import Binding

from ..link.messages import ClosingSoon, ErrorReply, Exit, Notice
from ..local.match_setup import MatchSetup
from ..local.table import Table
from ..play.where import Where
from ..rules import Match
from ..screens.confirm import ConfirmScreen
from ..screens.help import server_rules_text
from ..widgets.chat_input import ChatInput
from .browsers_half import BrowsersHalf
from .cards_half import CardsHalf
from .linked_app import NOTICE_SECONDS, LinkedApp
from .lobby_half import LobbyHalf
from .match_half import MatchHalf
from .pairing_half import PairingHalf
from .people_half import PeopleHalf
from .records_half import RecordsHalf
from .remote_table import RemoteTable
from .screens.closing_soon import ClosingSoonScreen
from .screens.lobby_wish import LobbyWish
from .screens.seeking import SeekingScreen
from .talk_half import TalkHalf
from .tournaments_half import TournamentsHalf


class ChildApp(LinkedApp):
    """One SSH player's terminal. ``link`` is this child's end of the socketpair to the server."""

    #: Table talk's key: the lobby's and a match's (on the board, c picks tower 12).
    BINDINGS = [Binding("C", "talk", "Talk"), Binding("I", "card", "Player card", show=False)]

    def __init__(self, *, name: str, link: socket.socket, ascii_mode: bool = False,
                 computer_pause: float = 0.6, reveal_pause: float = 0.5) -> None:
        super().__init__(name=name, link=link, ascii_mode=ascii_mode, computer_pause=computer_pause,
                         reveal_pause=reveal_pause)
        self.lobby_half = LobbyHalf(self)
        self.pairing_half = PairingHalf(self.lobby_half)
        self.people_half = PeopleHalf(self)
        self.records_half = RecordsHalf(self)
        self.browsers_half = BrowsersHalf(self)
        self.match_half = MatchHalf(self)
        self.talk_half = TalkHalf(self)
        self.cards_half = CardsHalf(self, self.talk_half)
        self.tournaments_half = TournamentsHalf(self)
        #: What each wish of the lobby's screens does, and each message from the server: as their halves say.
        lobby_halves = (self.lobby_half, self.pairing_half, self.records_half, self.browsers_half,
                        self.tournaments_half)
        self._wishes: dict[type[LobbyWish], Callable[[Any], None]] = {
            wish: granted for half in lobby_halves for wish, granted in half.wishes.items()}
        self._wishes.update(self.cards_half.wishes)
        for half in (*lobby_halves, self.people_half, self.match_half, self.talk_half, self.cards_half):
            self._handlers.update(half.handlers)
        self._handlers.update({Notice: self._heard_notice, ClosingSoon: self._closing_soon,
                               ErrorReply: self._heard_error, Exit: self._heard_exit})

    @on(LobbyWish)
    def _lobby_wish(self, wish: LobbyWish) -> None:
        self._wishes[type(wish)](wish)

    def action_talk(self) -> None:
        self.talk_half.open()

    def action_card(self) -> None:
        """``I`` (at a match, ``i`` picks a tower): the card of a player at the match shown."""
        self.cards_half.at_the_table()

    @on(ChatInput.Said)
    def _said(self, message: ChatInput.Said) -> None:
        self.talk_half.said(message.text)

    @on(ChatInput.Closed)
    def _talk_closed(self, message: ChatInput.Closed) -> None:
        self.talk_half.close()

    def show_table(self, table: Table) -> None:
        """The match shown, with its talk beside the board (drawn once its screen is: the match's talk, sent whole
        as its player sits down, often comes first)."""
        self.matches.show(table, self.talk_half.redraw)

    # ---- what the server says to whatever is shown ---------------------------------------

    def _heard_notice(self, message: Notice) -> None:
        """News from the server: in the notice lines of a match on its way to the screen (a tournament's pairing),
        in the lobby's status line when the lobby is what the player sees (it stays there), in the quick match's
        dialog while it waits (also news that comes before the dialog), in the match's notice lines when a match
        is shown (``GameScreen.show_notice``: never a toast over the board), else a notice."""
        self.pairing_half.heard_news(message.text)
        remote, game = self.remote, self.game
        if (remote is not None and remote.code == self.following
                and (game is None or game.table is not remote or not game.is_mounted)):
            remote.notices.append(message.text)  # its screen shows it as it draws
        elif isinstance(self.screen, SeekingScreen):
            self.screen.show_news(message.text)
        elif self.screen is self.lobby:
            self.lobby.say(message.text, "error" if message.severity == "error" else "info")
        elif game is not None:
            if game.is_mounted and not game.table.notices:
                game.show_notice(message.text)
            else:
                # A match just begun (its first save answered at once): shown as its screen first draws. Or news of
                # the match's own is still to be drawn (a resignation, with the state that came just before): this,
                # sent after it, is shown after it, not replaced by it.
                game.table.notices.append(message.text)
        else:
            self.notify(message.text, severity=message.severity, timeout=NOTICE_SECONDS)

    def _closing_soon(self, message: ClosingSoon) -> None:
        """No key for a long while: on top of everything, counting down, until a key says the player is here."""
        for screen in self.screen_stack:
            if isinstance(screen, ClosingSoonScreen):  # shown already (perhaps under a dialog since): set anew
                screen.count_down(message.idle, message.seconds)
                return
        self.push_screen(ClosingSoonScreen(message.idle, message.seconds), self._still_here)

    def _still_here(self, _: None) -> None:
        self._activity_reported_at = float("-inf")  # told at once, however recently the last report went
        self.player_active()

    def _heard_error(self, message: ErrorReply) -> None:
        asked = self.asker(message)
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

    def _heard_exit(self, message: Exit) -> None:
        self.exit()

    # ---- the app's own actions, over SSH -------------------------------------------------

    def start_match(self, setup: MatchSetup, rematch_of: Match | None = None) -> None:
        """A rematch of a remote match needs both players: ask the server; anything else is local."""
        self.match_half.start(setup, rematch_of)

    def action_new_match(self, previous: MatchSetup | None = None, notice: str = "") -> None:
        """Over SSH a new match starts from the lobby: leave this one (a seat in a match in play once the player
        said so)."""
        self.match_half.leave(notice)

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
        self.push_screen(ConfirmScreen(self.match_half.quit_question(), "Quit", "Stay", "Quit?"), self._quit_answered)

    def _quit_answered(self, yes: bool | None) -> None:
        if yes:
            self.exit()
