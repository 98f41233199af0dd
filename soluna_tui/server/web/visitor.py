"""Runs in the server process.

One browser tab as a session's connection (what ``GameSession`` asks of an SSH connection): who it
is (its address, the name typed on the page, made safe as an SSH user name is; or, signed in with a
code, the key's player, known by its cookie alone), its place at the gate (counted with SSH
connections: per address, unstarted, in all), and how it is closed.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..admin.bans import CLOSED_LINE
from ..gate import Gate, ThrottledLog
from ..lobby import player_name
from ..sessions.game_session import GameSession
from ..storage.browsers import BrowserSignIn
from .channel import WebChannel
from .sign_in import SIGNED_OUT

#: The most characters of the browser's User-Agent kept for the log.
AGENT_LIMIT = 60


class WebVisitor:
    """A browser tab: a websocket with at most one game session."""

    def __init__(self, address: str, port: int, typed_name: str, agent: str, gate: Gate, refusals: ThrottledLog,
                 close_socket: Callable[[], None]) -> None:
        self.address, self.port = address, port
        self.player_name = player_name(typed_name)
        self.fingerprint: str | None = None
        self.client_version = "web " + "".join(char for char in agent if char.isprintable())[:AGENT_LIMIT]
        self.gate = gate
        self.refusals = refusals
        self.close_socket = close_socket
        self.session: GameSession | None = None
        self.channel: WebChannel | None = None
        self.admitted = False
        self.played = False
        self.opened = time.monotonic()
        self.closing_reason: str | None = None
        #: The sign-in it plays under (the key's player), if the browser showed a cookie that is one.
        self.sign_in: int | None = None

    def sign_in_as(self, signed_in: BrowserSignIn) -> None:
        """The browser's cookie is a sign-in: this tab is the key's player (their name as they were linked; the
        lobby shows the name the key keeps)."""
        self.sign_in, self.fingerprint = signed_in.id, signed_in.fingerprint
        self.player_name = player_name(signed_in.name)

    def signed_out(self) -> None:
        """Its sign-in is gone (revoked, signed out, run out): the game ends with one line, or the tab is closed."""
        self._close_for_good("the browser's sign-in is gone", SIGNED_OUT)

    # ---- what a session asks of its connection ----------------------------------------------

    def session_began(self) -> None:
        self.played = True

    def game_admitted(self) -> None:
        self.gate.started(self.address, self)

    def session_gone(self, session: GameSession) -> None:
        self.close_socket()

    def close(self, reason: str) -> None:
        """Close the tab's websocket once its last line is out (``reason``: the log's, if no game was played)."""
        if self.closing_reason is None:
            self.closing_reason = reason
        if self.channel is not None:
            self.channel.exit(1)
        else:
            self.close_socket()

    # ---- the gate and the ban list ----------------------------------------------------------------

    def make_room(self) -> None:
        """Every unstarted place is taken and this tab has waited longest without a game: it goes."""
        self.close("made room for a newer connection (every unstarted place taken)")

    def shut_out(self, why: str) -> None:
        """The ban list now bans this address (or key): the game ends with the one line, or the tab is closed."""
        self._close_for_good(why, CLOSED_LINE)

    def _close_for_good(self, why: str, line: str) -> None:
        if self.session is not None and self.session.running:
            self.session.close_for_good(why, line)
        else:
            self.close(why)

    def release(self) -> None:
        """The websocket has closed: its place at the gate is free, and a tab that never played is logged."""
        if self.admitted:
            self.admitted = False
            self.gate.release_connection(self.address, self)
            if not self.played:
                self.refusals.info("web connection from %s:%d name=%r lasted %.0fs without a game: %s",
                                   self.address, self.port, self.player_name, time.monotonic() - self.opened,
                                   self.closing_reason or "client disconnected")
