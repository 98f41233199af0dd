"""Runs in the child.

The app with its link to the server: what the server said of this player and which match this
terminal follows (state the lobby half and the match half read and set), the questions asked and
where their answers go, and nothing on the server's disk.

A screen's question to the server (the leaderboard, a record, a name, a join) is numbered
(``ask``); the server's answer carries the number back, so it reaches the screen that asked
whatever is on top meanwhile (``asker``), and goes nowhere once that screen has closed.

What the server says is read by a plain asyncio task, not a Textual worker: a screen that cancels
"its" workers (``workers`` is the app's manager) must never be able to stop this terminal from
hearing the server.
"""

from __future__ import annotations

import asyncio
import itertools
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from textual import events, on
from textual.app import SystemCommand
from textual.screen import Screen

from ..app.soluna_app import SolunaApp
from ..compat.textual_internals import report_app_error
from ..link.messages import Answer, ListedMatch, Message, Question, Request
from ..link.protocol import End, Link, ProtocolError
from ..local.files import SaveError
from ..local.player_stats import Stats, StatsStore
from ..local.table import Table
from ..rules import SolunaError
from ..rules.clock import ClockSetting
from .activity import ReportsActivity
from .remote_table import RemoteTable
from .screens.lobby import LobbyScreen
from .who_is_online import OnlineBook

LOBBY_STYLESHEET = "lobby.tcss"
#: Table talk's panel, in the lobby and beside the board.
TALK_STYLESHEET = "talk.tcss"
#: Seconds a notice (news from the server, a refusal outside the lobby) stays on screen.
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


@dataclass(frozen=True)
class Asked:
    """A question on its way to the server: the screen that asked, and how it shows a refusal."""

    screen: Screen[Any]
    refused: Callable[[str], None]


class LinkedApp(ReportsActivity, SolunaApp):
    """One SSH player's app, linked to the server. ``link`` is this child's end of the socketpair to the server."""

    STYLES_AT_ONCE = True  # the lobby comes first, itself a dialog
    EXTRA_STYLESHEETS = (LOBBY_STYLESHEET, TALK_STYLESHEET)

    def __init__(self, *, name: str, link: socket.socket, ascii_mode: bool = False,
                 computer_pause: float = 0.6, reveal_pause: float = 0.5) -> None:
        super().__init__(ascii_mode=ascii_mode, data_dir=NO_DATA_DIR, computer_pause=computer_pause,
                         reveal_pause=reveal_pause)
        #: No save file here (``store``): a match against the computer is kept by the server.
        self.store = None
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
        #: The matches in play, as the server last listed them, and when (``time.monotonic()``).
        self.matches_in_play: tuple[ListedMatch, ...] = ()
        self.listed_at = 0.0
        #: Who is online, as the server last said (the lobby draws from it).
        self.online = OnlineBook()
        #: The code of the match this terminal shows or is about to show; updates for others are stale.
        self.following: str | None = None
        self.remote: RemoteTable | None = None
        #: The questions asked and not yet answered, by number.
        self._asked: dict[int, Asked] = {}
        self._numbers = itertools.count(1)
        #: What each message from the server does (the app's halves say).
        self._handlers: dict[type[Message], Callable[[Any], None]] = {}

    # ---- start-up ------------------------------------------------------------------------

    def first_screen(self) -> Screen[Any]:
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
        self.close_link()

    def close_link(self) -> None:
        """Close the link as the app ends: the server hears the end at once, even from a process that goes on (a
        house of sessions)."""
        if self.link is not None:
            self.link.close()
        else:
            self._link_socket.close()

    def _listener_ended(self, task: asyncio.Task[None]) -> None:
        """A bug in reading the server is this app's crash (reported as any other), never silence."""
        if task.cancelled():
            return
        error = task.exception()
        if isinstance(error, Exception):
            report_app_error(self, error)

    def show_table(self, table: Table) -> None:
        """Show the match at ``table`` on the game screen, above the lobby."""
        self.matches.show(table)

    def ring(self) -> None:
        """The terminal's bell (BEL: the opponent moved, a challenge came, a pairing was made), unless the player
        turned it off in the lobby's settings."""
        if self.lobby.settings.value("bell"):
            self.bell()

    # ---- talking to the server -----------------------------------------------------------

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

    def asker(self, answer: Answer) -> Asked | None:
        """Who asked the question ``answer`` answers, if they are still on the screen stack."""
        asked = self._asked.pop(answer.answer_to, None) if answer.answer_to is not None else None
        return asked if asked is not None and asked.screen in self.screen_stack else None

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

    # ---- nothing on the server's disk ----------------------------------------------------

    def remember(self, **choices: object) -> None:
        """Nothing is remembered on the server's disk but a keyed player's lobby settings, kept with their key: of
        what the palette sets, the cursor on the focus and the lines next visit (``LobbySettings.keep_aside``)."""
        if self.rated:
            self.lobby.settings.keep_aside(**{setting: bool(value) for setting, value in choices.items()})

    @property
    def keeps_choices(self) -> bool:
        """A player with a key has their lobby settings kept with it."""
        return self.rated

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The app's commands but those that write on the server's disk; in the lobby, its own too."""
        if isinstance(screen, LobbyScreen):
            yield from screen.palette_commands()
        for command in super().get_system_commands(screen):
            if command.title not in DISK_COMMANDS:
                yield command

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        self.notify("Screenshots are not taken over SSH: use your terminal's own.", severity="warning")

    def deliver_screenshot(self, *args: Any, **kwargs: Any) -> None:
        self.action_screenshot()

    def save_screenshot(self, *args: Any, **kwargs: Any) -> str:
        raise SaveError("nothing is written on the server's disk")
