"""The app an SSH session runs: the lobby first, matches against the computer or through the server.

Everything on screen is the local app's own code (game screen, dialogs, widgets);
only the table differs. A match against the computer is a ``LocalTable`` with no
saves (the server keeps nothing of it); a match with another player is a
``RemoteTable`` fed by the server. Leaving a match (``n``, "New match...") goes
back to the lobby.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

from textual import events, on
from textual.screen import Screen

from ..app import STYLESHEETS, SolunaApp, styles_dir
from ..match_setup import MatchSetup
from ..rules import Match, SolunaError
from ..screens.lobby import LobbyScreen
from ..screens.waiting import WaitingScreen
from ..stats import Stats, StatsStore
from .protocol import Link, ProtocolError
from .remote_table import RemoteTable

LOBBY_STYLESHEET = "lobby.tcss"
NOTICE_SECONDS = 8
#: A session has no data directory: it reads and writes nothing on the server's disk (saves, stats and
#: preferences are the local player's; the server keeps the two-player matches itself).
NO_DATA_DIR = Path("/nonexistent/soluna-ssh-session")


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


class ChildApp(SolunaApp):
    """One SSH player's terminal. ``link`` is this child's end of the socketpair to the server."""

    def __init__(self, *, name: str, link: socket.socket, ascii_mode: bool = False,
                 computer_pause: float = 0.6, reveal_pause: float = 0.5) -> None:
        super().__init__(ascii_mode=ascii_mode, data_dir=NO_DATA_DIR, computer_pause=computer_pause,
                         reveal_pause=reveal_pause)
        sheets: list[Path] = list(self.css_path)
        sheets.insert(len(STYLESHEETS), styles_dir() / LOBBY_STYLESHEET)
        self.css_path = sheets
        self.store = None  # nothing to save or resume (and so nothing remembered either)
        self.stats_store = SessionStats()
        self.player_name = name
        self._link_socket = link
        self.link: Link | None = None
        #: The matches in play, as the server last listed them.
        self.matches_in_play: list[dict[str, Any]] = []
        #: The code of the match this terminal shows or is about to show; updates for others are stale.
        self.following: str | None = None
        self._creating = False
        self.remote: RemoteTable | None = None

    # ---- start-up ------------------------------------------------------------------------

    def get_default_screen(self) -> Screen:
        return LobbyScreen(self.player_name, ascii_mode=self.ascii_mode)

    @property
    def lobby(self) -> LobbyScreen:
        return self.screen_stack[0]

    async def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # no saved match to resume here: the lobby is the first screen
        if self.requested_theme:
            self.theme = self.requested_theme
        self.check_size()
        self.link = await Link.over(self._link_socket)
        self.run_worker(self._listen(), group="server", exclusive=True)

    def send(self, message: dict[str, Any]) -> None:
        """Tell the server something; a server that has gone ends this session."""
        try:
            if self.link is not None:
                self.link.send(message)
        except ProtocolError:
            self.exit()

    # ---- what the server says ------------------------------------------------------------

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.link.receive()
            except ProtocolError:
                message = None
            if message is None:
                self.exit()
                return
            try:
                self._from_server(message)
            except (SolunaError, ProtocolError, KeyError, TypeError):
                self.notify("The server sent news this terminal could not read.", severity="warning")

    def _from_server(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "lobby":
            self.matches_in_play = list(message["matches"])
            self.lobby.show_matches(self.matches_in_play)
        elif kind == "waiting":
            if self._creating:
                self._creating = False
                self.following = message["code"]
                self.push_screen(WaitingScreen(message["code"]), self._waiting_closed)
        elif kind == "match":
            self._match_news(message)
        elif kind == "notice":
            self.notify(str(message["text"]), severity=message.get("severity", "information"),
                        timeout=NOTICE_SECONDS)
        elif kind == "error":
            self._creating = False
            if self.remote is None:
                self.following = None
            self.lobby.say(str(message["text"]), "error")
            if self.remote is not None or not isinstance(self.screen, LobbyScreen):
                self.notify(str(message["text"]), severity="error", timeout=NOTICE_SECONDS)
        elif kind == "exit":
            self.exit()

    def _match_news(self, message: dict[str, Any]) -> None:
        code = message.get("code")
        if code != self.following:
            return  # about a match this terminal has left meanwhile
        if self.remote is not None and self.remote.code == code:
            self.remote.update(message)
            return
        self.remote = RemoteTable(message, self.send)
        self.lobby.say("")
        self._show_game(self.remote)
        notice = message.get("notice")
        if isinstance(notice, str):
            self.remote.notices.append(notice)

    # ---- what the player asks for (from the lobby) ---------------------------------------

    @on(LobbyScreen.PlayComputer)
    def _play_computer(self, event: LobbyScreen.PlayComputer) -> None:
        self.start_match(event.setup)

    @on(LobbyScreen.CreateMatch)
    def _create(self, event: LobbyScreen.CreateMatch) -> None:
        self._creating = True
        self.send({"type": "create", "options": event.options.to_dict(), "hints": event.hints})

    @on(LobbyScreen.JoinMatch)
    def _join(self, event: LobbyScreen.JoinMatch) -> None:
        self.following = event.code
        self.send({"type": "join", "code": event.code, "hints": event.hints})

    @on(LobbyScreen.WatchMatch)
    def _watch(self, event: LobbyScreen.WatchMatch) -> None:
        self.following = event.code
        self.send({"type": "watch", "code": event.code})

    def _waiting_closed(self, cancelled: bool | None) -> None:
        if cancelled:
            self.following = None
            self.send({"type": "cancel"})
            self.lobby.say("Match cancelled.")

    # ---- leaving a match -----------------------------------------------------------------

    def action_new_match(self, previous: MatchSetup | None = None, notice: str = "") -> None:
        """Over SSH a new match starts from the lobby: leave this one (the server holds a seat left)."""
        self.call_after_refresh(self._back_to_lobby, notice)

    def _back_to_lobby(self, notice: str = "") -> None:
        if self.remote is not None:
            self.remote.on_change = None
            self.remote = None
            self.send({"type": "leave"})
        self.following = None
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.lobby.show_matches(self.matches_in_play)
        self.lobby.say(notice)
        self.check_size()

    def start_match(self, setup: MatchSetup, rematch_of: Match | None = None) -> None:
        """A rematch of a remote match needs both players: ask the server; anything else is local."""
        game = self.game
        if rematch_of is not None and game is not None and isinstance(game.table, RemoteTable):
            try:
                game.table.ask_for_rematch()
            except SolunaError as error:
                self.notify(str(error), timeout=NOTICE_SECONDS)
                return
            self.notify("Rematch asked: it starts when your opponent asks too.", timeout=NOTICE_SECONDS)
            return
        if self.remote is not None:
            self.send({"type": "leave"})
            self.remote = None
            self.following = None
        super().start_match(setup, rematch_of)
