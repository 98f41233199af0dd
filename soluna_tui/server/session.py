"""Runs in the server process.

One SSH session: a refusal in one line unless it is a game terminal; else a child on a PTY, pumped.

``GameSession`` is asyncssh's session object: it answers asyncssh's callbacks and wires the
parts that do the work, each in a module of its own. The server moves the bytes between the
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
import contextlib
import logging
import os
import socket
from dataclasses import dataclass
from typing import Any, Protocol

import asyncssh

from ..link.child_config import ACTIVITY_EVERY, ChildConfig
from ..link.messages import Activity, ClosingSoon, CrashReport, Exit, Reply, Request
from ..link.protocol import Link, ProtocolError
from .channel_guard import RequestBudget, Verdict
from .client_env import ascii_wanted, child_environment, clamp_size, term_refusal
from .config import ServerConfig
from .ending import LEAVE_GRACE, QUIT, TERMINAL_RESET, Ending, retire_child
from .gate import Gate, ThrottledLog
from .lobby import Lobby
from .pty_pump import PtyPump, set_window_size
from .session_clock import IdleWarning, SessionClock, TimeUp
from .spawn import Child, Spawner, SpawnError, base_environment

log = logging.getLogger("soluna.server")

EXEC_REFUSAL = ("This server offers only the game, no commands: connect with plain "
                "'ssh -p PORT HOST' (no command).")
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
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.channel_open = False
        self.exited = False
        self.term: str | None = None
        self.size = (80, 24)
        self.requested_size = (80, 24)
        self.command: str | None = None
        self.child: Child | None = None
        self.child_config: ChildConfig | None = None
        self.pump: PtyPump | None = None
        self.link: Link | None = None
        self.crash_report: str | None = None
        self.clock = SessionClock(self.limits)
        self.requests = RequestBudget(self.limits)
        self.ending = Ending()
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

    @property
    def running(self) -> bool:
        """The session has started (a shell, or a command to refuse): it has a task that will end it."""
        return self.task is not None

    @property
    def channel(self) -> asyncssh.SSHServerChannel[bytes]:
        """The session's channel: there from ``connection_made`` on, before every other callback."""
        if self.chan is None:
            raise RuntimeError("the session's channel is not open yet")
        return self.chan

    @property
    def terminal(self) -> str:
        """The terminal type the client asked for (a session without one is refused: ``term_refusal``)."""
        if self.term is None:
            raise RuntimeError("no terminal was asked for")
        return self.term

    @property
    def requests_refused(self) -> int:
        return self.requests.refused

    def send(self, message: Reply) -> None:
        if self.link is None or self.link.closed:
            return
        try:
            self.link.send(message)
        except ProtocolError:
            self.request_end("the child stopped reading")

    # ---- asyncssh's callbacks ------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan
        self.channel_open = True

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.term = term_type
        self.requested_size = (term_size[0], term_size[1])
        self.size = clamp_size(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command  # accepted only to answer it with one clear line
        return True

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
            if self.pump is not None and self.pump.open and self.term is not None:
                self._write(TERMINAL_RESET)
            self._say(REQUEST_FLOOD)
        self.connection.close("request flood")

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.pump is None or self.ending.requested:
            return
        if not self.clock.typed(len(data)):
            self.request_end("input rate limit", INPUT_FLOOD)
            return
        self.pump.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = clamp_size(width, height)
        if self.pump is not None:
            self.pump.resize(self.size)

    def break_received(self, msec: int) -> bool:
        return False

    def eof_received(self) -> bool:
        self.request_end("the client closed its input")
        return True

    def pause_writing(self) -> None:
        if self.pump is not None:
            self.pump.read_output(False)

    def resume_writing(self) -> None:
        if self.pump is not None:
            self.pump.read_output(True)

    def connection_lost(self, exc: Exception | None) -> None:
        self.channel_open = False
        self.request_end("the client disconnected")
        self.connection.session_gone(self)

    # ---- the session's life --------------------------------------------------------------

    def request_end(self, reason: str, farewell: str | None = None) -> None:
        """End the session (the first reason given is the one logged); ``farewell`` is shown to the player."""
        self.ending.request(reason, farewell)

    def send_away(self, farewell: str) -> None:
        """Its player took their seat back on another terminal: this session ends, ``farewell`` its last line."""
        self.request_end("the player came back on another terminal", farewell)

    async def _run(self) -> None:
        counted = False
        try:
            refusal = self.refusal or self._refusal()
            if refusal is None:
                refusal = self.services.gate.admit_session()
                counted = refusal is None
            if refusal is not None:
                self.ending.reason = f"refused: {refusal}"
                self._say(refusal)
                return
            self.connection.game_admitted()
            if not await self._start():
                return
            self.services.lobby.arrive(self)
            listener = asyncio.get_running_loop().create_task(self._listen())
            clock = asyncio.get_running_loop().create_task(self._watch_the_clock())
            await self.ending.wait()
            listener.cancel()
            clock.cancel()
        finally:
            await self._close(counted)

    def _refusal(self) -> str | None:
        if self.command is not None:
            return EXEC_REFUSAL
        return term_refusal(self.term)

    async def _start(self) -> bool:
        """The child on a fresh PTY, its output pumped to the channel; ``False`` if it could not start."""
        environment = self.channel.get_environment()
        config = self.services.config
        self.child_config = child_config = ChildConfig(
            name=self.name, ascii_mode=ascii_wanted(self.terminal, environment),
            environment=base_environment() | child_environment(self.terminal, environment),
            memory_mb=self.limits.child_memory_mb, cpu_seconds=self.limits.child_cpu_seconds,
            computer_pause=config.computer_pause, reveal_pause=config.reveal_pause,
            activity_every=min(ACTIVITY_EVERY, self.limits.idle_timeout / 4),
        )
        master, terminal = os.openpty()
        ours, theirs = socket.socketpair()
        try:
            set_window_size(terminal, self.size)
            self.child = await self.services.spawner.spawn(terminal, theirs.fileno(), child_config)
        except (SpawnError, OSError) as error:
            log.warning("session %d: cannot start a child: %s", self.number, error)
            os.close(master)
            ours.close()
            self.ending.reason = "no child"
            self._say("Sorry: the server could not start your game; try again in a moment.")
            return False
        finally:
            os.close(terminal)
            theirs.close()
        self.pump = PtyPump(master, self.channel, self._write, lambda: self.request_end(QUIT))
        self.pump.start()
        self.link = await Link.over(ours)
        return True

    async def _listen(self) -> None:
        """The child's requests, passed to the lobby, until the child closes the link."""
        link = self.link
        while link is not None:
            try:
                message = await link.receive()
            except ProtocolError as error:
                log.warning("session %d: the child sent a bad line (%s)", self.number, error)
                message = None
            if message is None:
                self.request_end(QUIT)
                return
            if isinstance(message, CrashReport):
                self.crash_report = message.text or "(no report)"
                continue
            if isinstance(message, Activity):
                self.clock.active()
                continue
            if not isinstance(message, Request):
                log.warning("session %d: the child sent a %r, which only the server sends", self.number, message.TYPE)
                continue
            try:
                self.services.lobby.handle(self, message)
            except Exception:  # noqa: BLE001 - a bug here must end one session, not the server
                log.exception("session %d: the lobby failed on a %r request", self.number, message.TYPE)
                self.request_end("server error", "Sorry: the server hit an internal error; connect again.")
                return

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
        way_back = self.services.lobby.way_back(self) if self.link is not None else None
        self.services.lobby.depart(self)
        if self.child is not None:
            if self.channel_open and self.child.running and ending.reason != QUIT:
                self.send(Exit())  # leaving by itself restores the player's terminal
            ending.status, left = await retire_child(self.child, LEAVE_GRACE if self.channel_open else 0,
                                                     self.number)
            if self.pump is not None:
                self.pump.drain()
            if not left or ending.child_failed:
                self._write(TERMINAL_RESET)
            ending.explain_failure(self.limits.hold_time)
            await self._drain_link()
        if self.pump is not None:
            self.pump.close()
        if self.link is not None:
            self.link.close()
        if self.crash_report:
            log.warning("session %d: the child crashed:\n%s", self.number, self.crash_report)
        last_line = " ".join(part for part in (ending.farewell, way_back) if part)
        if last_line:
            self._say(last_line, 1 if ending.farewell else ending.exit_status)
        else:
            self._exit(ending.exit_status)
        if counted:
            self.services.gate.release_session()
        if ending.refused:
            self.services.refusals.info("%s", self.log_line())
        else:
            log.info("%s", self.log_line())

    async def _drain_link(self) -> None:
        """A crash report the child sent as it went (after the PTY closed, so not yet read)."""
        link = self.link
        if link is None:
            return
        with contextlib.suppress(TimeoutError, ProtocolError):
            async with asyncio.timeout(LEAVE_GRACE):
                while (message := await link.receive()) is not None:
                    if isinstance(message, CrashReport):
                        self.crash_report = message.text

    def log_line(self) -> str:
        connection = self.connection
        width, height = self.requested_size
        return (f"session {self.number} from {connection.address}:{connection.port} user={self.name!r} "
                f"key={connection.fingerprint or 'none'} term={(self.term or '')[:40]!r} size={width}x{height} "
                f"client={connection.client_version!r} lasted {self.clock.lasted():.0f}s "
                f"ended: {self.ending.how_it_ended()}"
                + (f" ({self.requests_refused} channel requests refused)" if self.requests_refused else ""))

    # ---- the channel ---------------------------------------------------------------------

    def _write(self, data: bytes) -> None:
        if self.channel_open:
            with contextlib.suppress(BrokenPipeError, OSError):
                self.channel.write(data)

    def _say(self, line: str, status: int = 1) -> None:
        """One line to the player (on the terminal, or on standard error without one), then the end (``status``)."""
        if self.channel_open and not self.exited:
            # On a terminal the line starts afresh below whatever was drawn; without one it is plain stderr.
            text = f"\r\n{line}\r\n" if self.term is not None else f"{line}\n"
            write = self.channel.write if self.term is not None else self.channel.write_stderr
            with contextlib.suppress(BrokenPipeError, OSError):
                write(text.encode())
        self._exit(status)

    def _exit(self, status: int) -> None:
        """Close the channel with an exit status, once."""
        if self.channel_open and not self.exited:
            self.exited = True
            with contextlib.suppress(BrokenPipeError, OSError):
                self.channel.exit(status)
