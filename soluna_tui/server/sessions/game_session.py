"""Runs in the server process.

One SSH session: a refusal in one line unless it is a game terminal (or the game in lines, asked for with the one
command accepted, ``screen-reader``); else a child on a PTY, pumped.

``GameSession`` is asyncssh's session object: it answers asyncssh's callbacks and wires the
parts that do the work, each in a module of its own: the channel written to (``session_channel``)
and the child with its PTY and link (``session_child``). The server moves the bytes between the
SSH channel and the child's pseudo-terminal itself, window sizes clamped first (``pty_pump``:
back-pressure both ways, resizes gathered); input is paid for, and what the child says the player
did (``Activity``: bytes that are no keys do not count) puts off the idle timeout, warned first
(``session_clock``); every channel request is paid for from the
session's budget, and a client that floods them is cut off (``channel_guard``). The child's
link joins the lobby as a guest. Every way a session ends goes through ``request_end``
(``ending``): the opponent is told at once, the child is asked to leave (its terminal restored)
or else terminated and killed, it is always reaped, a child that failed (killed, out of memory,
an internal error) gets the player's terminal reset and one line, and one log line says who it
was and how it ended (a child's report of its failure, a traceback, is logged apart). What players
type is never logged. What a session needs of its server is handed to it (``SessionServices``).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Protocol

from ...link.child_config import SCREEN_READER_COMMAND
from ...link.messages import ClosingSoon, Reply
from ..config import ServerConfig
from ..gate import Gate, ThrottledLog
from ..lobby import Lobby
from ..ssh.channel_guard import RequestBudget, Verdict
from ..ssh.quiet_asyncssh import asyncssh
from ..storage import StorageError
from .client_env import term_refusal
from .ending import TERMINAL_RESET, Ending
from .session_channel import SessionChannel, TerminalChannel
from .session_child import SessionChild
from .session_clock import IdleWarning, SessionClock, TimeUp
from .spawn import Spawner

log = logging.getLogger("soluna.server")

EXEC_REFUSAL = ("This server offers only the game, no commands: connect with plain "
                f"'ssh -p PORT HOST' (no command), or 'ssh -t -p PORT HOST {SCREEN_READER_COMMAND}' for the game "
                "in lines, for a screen reader.")
LINE_MODE_NEEDS_A_TERMINAL = (f"The game in lines needs a terminal: connect with 'ssh -t -p PORT HOST "
                              f"{SCREEN_READER_COMMAND}' (with -t).")
REQUEST_FLOOD = "Slow down: more terminal requests (resizes, signals) than this server accepts; disconnected."
INPUT_FLOOD = "Slow down: more input than this server accepts; disconnected."


class SessionsConnection(Protocol):
    """What a session uses of its SSH connection (``server.SolunaConnection``): who is there, and what to tell
    it. Named here, so that the connection's module (which makes sessions) and this one do not import each other."""

    player_name: str
    fingerprint: str | None
    address: str
    port: int
    client_version: str

    def session_began(self) -> None: ...

    def game_admitted(self) -> None: ...

    def session_gone(self, session: GameSession) -> None: ...

    def close(self, reason: str) -> None: ...


@dataclass(frozen=True)
class SessionServices:
    """What a session uses of its server, handed to it rather than reached for through its connection."""

    #: Its limits, and the settings every child gets.
    config: ServerConfig
    #: Places for game sessions in all.
    gate: Gate
    #: Where the session's child goes as a guest.
    lobby: Lobby
    #: What starts the child.
    spawner: Spawner
    #: The log of refused sessions (throttled under a flood).
    refusals: ThrottledLog


class GameSession(asyncssh.SSHServerSession[bytes]):
    """The game on one SSH channel (or a polite one-line refusal)."""

    def __init__(self, connection: SessionsConnection, services: SessionServices, number: int,
                 refusal: str | None = None) -> None:
        self.connection = connection
        self.services = services
        self.limits = services.config.limits
        self.number = number
        self.refusal = refusal
        self.channel = SessionChannel()
        self.child = SessionChild(number, self.request_end)
        self.clock = SessionClock(self.limits)
        self.requests = RequestBudget(self.limits)
        self.ending = Ending()
        #: The player may not come back (banned): their last line gives no way back to a match.
        self.shut_out = False
        self.task: asyncio.Task[None] | None = None

    # ---- who this is (the lobby's Guest) -------------------------------------------------

    @property
    def name(self) -> str:
        return self.connection.player_name

    @property
    def fingerprint(self) -> str | None:
        return self.connection.fingerprint

    @property
    def address(self) -> str:
        return self.connection.address

    def send(self, message: Reply) -> None:
        self.child.send(message)

    def send_away(self, farewell: str) -> None:
        """Its player took their seat back on another terminal: this session ends, ``farewell`` its last line."""
        self.request_end("the player came back on another terminal", farewell)

    @property
    def running(self) -> bool:
        """The session has started (a shell, or a command to refuse): it has a task that will end it."""
        return self.task is not None

    @property
    def requests_refused(self) -> int:
        return self.requests.refused

    # ---- asyncssh's callbacks ------------------------------------------------------------

    def connection_made(self, chan: TerminalChannel) -> None:
        self.channel.opened(chan)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.channel.terminal_asked(term_type, term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.channel.command = command  # the line mode's, or accepted only to answer it with one clear line
        return True

    @property
    def line_mode(self) -> bool:
        """The game in lines, for a screen reader: the one command a session may ask for."""
        return self.channel.command == SCREEN_READER_COMMAND

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # no SFTP, nor any other subsystem

    def session_started(self) -> None:
        self.connection.session_began()
        self.task = asyncio.get_running_loop().create_task(self._run())

    def request_allowed(self, request: str, size: int) -> bool:
        """Whether a channel request may be acted on (``GuardedChannel`` asks): none once the session ends."""
        if self.ending.reason is not None:
            self.requests.refuse()
            return False
        verdict = self.requests.judge(request, size)
        if verdict is Verdict.CUT_OFF:
            self._cut_off()
        return verdict is Verdict.ACT

    def _cut_off(self) -> None:
        """A flood of channel requests: one line to a player whose game runs, and the connection closed now.

        Closing the connection at once (not after the child's grace) stops paying for the rest of the flood.
        """
        self.request_end("request flood")
        if self.running:
            pump = self.child.pump
            if pump is not None and pump.open and self.channel.term is not None:
                self.channel.write(TERMINAL_RESET)
            self.channel.say(REQUEST_FLOOD)
        self.connection.close("request flood")

    def data_received(self, data: bytes, datatype: Any) -> None:
        pump = self.child.pump
        if pump is None or self.ending.requested:
            return
        if not self.clock.typed(len(data)):
            self.request_end("input rate limit", INPUT_FLOOD)
            return
        pump.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        size = self.channel.resized(width, height)
        if self.child.pump is not None:
            self.child.pump.resize(size)

    def break_received(self, msec: int) -> bool:
        return False

    def eof_received(self) -> bool:
        self.request_end("the client closed its input")
        return True

    def pause_writing(self) -> None:
        if self.child.pump is not None:
            self.child.pump.read_output(False)

    def resume_writing(self) -> None:
        if self.child.pump is not None:
            self.child.pump.read_output(True)

    def connection_lost(self, exc: Exception | None) -> None:
        self.channel.closed()
        self.request_end("the client disconnected")
        self.connection.session_gone(self)

    # ---- the session's life --------------------------------------------------------------

    def request_end(self, reason: str, farewell: str | None = None) -> None:
        """End the session (the first reason given is the one logged); ``farewell`` is shown to the player."""
        self.ending.request(reason, farewell)

    def close_for_good(self, reason: str, farewell: str) -> None:
        """End the session with ``farewell`` as the player's last line, and no word of a way back to a match."""
        self.shut_out = True
        self.request_end(reason, farewell)

    async def _run(self) -> None:
        counted = False
        try:
            refusal = self.refusal or self._refusal()
            if refusal is None:
                refusal = self.services.gate.admit_session()
                counted = refusal is None
            if refusal is not None:
                self.ending.reason = f"refused: {refusal}"
                self.channel.say(refusal)
                return
            self.connection.game_admitted()
            line_mode = self.line_mode or await self._lines_kept()
            if not await self.child.start(self.name, self.channel, self.services.config, self.services.spawner,
                                          line_mode=line_mode):
                self.ending.reason = "no child"
                self.channel.say("Sorry: the server could not start your game; try again in a moment.")
                return
            self.services.lobby.arrive(self)
            listener = asyncio.get_running_loop().create_task(self.child.listen(self.services.lobby, self, self.clock))
            clock = asyncio.get_running_loop().create_task(self._watch_the_clock())
            await self.ending.wait()
            listener.cancel()
            clock.cancel()
        finally:
            await self._close(counted)

    def _refusal(self) -> str | None:
        if self.line_mode:  # lines need a terminal, but not one that draws (TERM=dumb will do)
            term = self.channel.term
            if term is None:
                return LINE_MODE_NEEDS_A_TERMINAL
            return None if term in ("", "dumb") else term_refusal(term)
        if self.channel.command is not None:
            return EXEC_REFUSAL
        return term_refusal(self.channel.term)

    async def _lines_kept(self) -> bool:
        """Whether this player's key keeps the game in lines for every visit (a lobby setting), asked for or not."""
        try:
            choices = await self.services.lobby.choices.of(self)
        except StorageError:
            return False  # the store is away: the game as asked for
        return choices is not None and choices.screen_reader

    async def _watch_the_clock(self) -> None:
        """The idle timeout (warned first) and the longest session."""
        while True:
            due = self.clock.due()
            if isinstance(due, TimeUp):
                self.request_end(due.reason, due.farewell)
                return
            if isinstance(due, IdleWarning):  # shown until a key, counting down
                self.send(ClosingSoon(due.idle, due.left))
            await asyncio.sleep(self.clock.wait())

    async def _close(self, counted: bool) -> None:
        """Leave the lobby, end and reap the child, say goodbye, and log one line."""
        ending = self.ending
        # Asked before leaving the lobby, which lets the seat go: the code and secret that find the match again.
        way_back = self.services.lobby.way_back(self) if self.child.link is not None and not self.shut_out else None
        self.services.lobby.depart(self)
        await self.child.retire(ending, self.channel, self.limits.hold_time)
        last_line = " ".join(part for part in (ending.farewell, way_back) if part)
        if last_line:
            self.channel.say(last_line, 1 if ending.farewell else ending.exit_status)
        else:
            self.channel.exit(ending.exit_status)
        if counted:
            self.services.gate.release_session()
        if ending.refused:
            self.services.refusals.info("%s", self.log_line())
        else:
            log.info("%s", self.log_line())

    def log_line(self) -> str:
        connection, channel = self.connection, self.channel
        width, height = channel.requested_size
        return (f"session {self.number} from {connection.address}:{connection.port} user={self.name!r} "
                f"key={connection.fingerprint or 'none'} term={(channel.term or '')[:40]!r} size={width}x{height} "
                f"client={connection.client_version!r} lasted {self.clock.lasted():.0f}s "
                f"ended: {self.ending.how_it_ended()}"
                + (f" ({self.requests_refused} channel requests refused)" if self.requests_refused else ""))
