"""One SSH session: a refusal in one line unless it is a game terminal; else a child on a PTY, pumped.

The server moves the bytes between the SSH channel and the child's pseudo-terminal
itself: window sizes are clamped before ``TIOCSWINSZ``, input is rate-limited and
counts as activity for the idle timeout (with a warning first), and the PTY is not
read while the channel's buffer is full (back-pressure reaches the child). Every
channel request (window change, env, signal, break...) is paid for from the
session's budget, and a client that floods them is cut off; ``env`` is taken only
before the game starts, a few short variables at most. The child's link joins
the lobby as a guest. Every way a session ends goes through ``request_end``: the
opponent is told at once, the child is asked to leave (its terminal restored) or
else terminated and killed, it is always reaped, a child that was killed gets
the player's terminal reset and one line, and one log line says who it was and
how it ended. What players type is never logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import signal
import socket
import struct
import termios
import time
from typing import TYPE_CHECKING, Any

import asyncssh

from .child import ChildConfig
from .client_env import ENV_BYTES, ENV_VARIABLES, ascii_wanted, child_environment, clamp_size, term_refusal
from .gate import TokenBucket
from .lobby import minutes
from .protocol import Link, ProtocolError
from .spawn import Child, SpawnError, base_environment

if TYPE_CHECKING:
    from .server import SolunaConnection

log = logging.getLogger("soluna.server")

#: Time a child has to leave by itself (restoring the player's terminal) when the server ends a session.
LEAVE_GRACE = 3.0
#: Seconds gathering window changes into one.
RESIZE_PAUSE = 0.05
#: Input queued for the PTY beyond this pauses reading from the channel.
INPUT_BACKLOG = 64 * 1024
#: What a terminal needs after a program that could not restore it: no mouse reports (any kind), no bracketed
#: paste, focus or resize reports, the keyboard protocol popped, line wrap on, the main screen, the cursor shown,
#: plain text.
TERMINAL_RESET = (b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l\x1b[?2004l\x1b[?1004l"
                  b"\x1b[?2048l\x1b[<u\x1b[?7h\x1b[?1049l\x1b[?25h\x1b[0m")
EXEC_REFUSAL = ("This server offers only the game, no commands: connect with plain "
                "'ssh -p PORT HOST' (no command).")
REQUEST_FLOOD = "Slow down: more terminal requests (resizes, signals) than this server accepts; disconnected."
#: The channel requests that start a session; ``env`` after one of them is refused.
STARTING_REQUESTS = frozenset({"shell", "exec", "subsystem"})


class GuardedChannel(asyncssh.SSHServerChannel):
    """A session channel that asks its ``GameSession`` before acting on any channel request.

    asyncssh keeps every ``env`` request a client sends and acts on every window change, signal or
    break, however many come, and it has no public hook before it does. Every channel request goes
    through ``SSHChannel._service_next_request`` (asyncssh 2.x), so this overrides that one private
    method: a request the session refuses is answered "failure" and never reaches asyncssh's handler.
    The channel itself is made by asyncssh's public ``create_server_channel``, then given this class,
    so asyncssh sets it up exactly as it would its own.
    """

    game_session: GameSession

    @classmethod
    def guarding(cls, chan: asyncssh.SSHServerChannel, session: GameSession) -> GuardedChannel:
        chan.__class__ = cls
        chan.game_session = session
        return chan

    def _service_next_request(self) -> None:
        request, packet, _ = self._request_queue[0]
        if self.game_session.request_allowed(request, len(packet.get_remaining_payload())):
            super()._service_next_request()
        else:
            self._report_response(False)


class GameSession(asyncssh.SSHServerSession):
    """The game on one SSH channel (or a polite one-line refusal)."""

    def __init__(self, connection: SolunaConnection, number: int, refusal: str | None = None) -> None:
        self.connection = connection
        self.server = connection.server
        self.limits = self.server.config.limits
        self.number = number
        self.refusal = refusal
        self.chan: asyncssh.SSHServerChannel | None = None
        self.channel_open = False
        self.exited = False
        self.term: str | None = None
        self.size = (80, 24)
        self.requested_size = (80, 24)
        self.command: str | None = None
        self.child: Child | None = None
        self.child_config: ChildConfig | None = None
        self.master: int | None = None
        self.link: Link | None = None
        self.crash_report: str | None = None
        self.started = time.monotonic()
        self.last_input = self.started
        self.warned = False
        self.input_budget = TokenBucket(self.limits.input_rate, self.limits.input_burst)
        self.request_budget = TokenBucket(self.limits.request_rate, self.limits.request_burst)
        self.start_asked = False
        self.env_taken = 0
        self.requests_refused = 0
        self.backlog = bytearray()
        self.reading_pty = False
        self.input_paused = False
        self.end_reason: str | None = None
        self.farewell: str | None = None
        self.status: int | None = None
        self._ended = asyncio.Event()
        self._resize: asyncio.TimerHandle | None = None
        self.task: asyncio.Task | None = None

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

    def send(self, message: dict[str, Any]) -> None:
        if self.link is None or self.link.closed:
            return
        try:
            self.link.send(message)
        except ProtocolError:
            self.request_end("the child stopped reading")

    # ---- asyncssh's callbacks ------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
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
        """Whether a channel request may be acted on: within the budget, and ``env`` only early and small."""
        if self.end_reason is not None:
            self.requests_refused += 1
            return False
        if not self.request_budget.take():
            self.requests_refused += 1
            self._cut_off()
            return False
        if request == "env":
            if self.start_asked or self.env_taken >= ENV_VARIABLES or size > ENV_BYTES:
                self.requests_refused += 1
                return False
            self.env_taken += 1
        elif request in STARTING_REQUESTS:
            self.start_asked = True
        return True

    def _cut_off(self) -> None:
        """A flood of channel requests: one line to a player whose game runs, and the connection closed now.

        Closing the connection at once (not after the child's grace) stops paying for the rest of the flood.
        """
        self.request_end("request flood")
        if self.running:
            if self.master is not None and self.term is not None:
                self._write(TERMINAL_RESET)
            self._say(REQUEST_FLOOD)
        self.connection.close("request flood")

    def data_received(self, data: bytes, datatype: Any) -> None:
        self._input(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = clamp_size(width, height)
        if self.master is not None and self._resize is None:
            # At most one resize per RESIZE_PAUSE reaches the child: a flood of them would only burn its CPU.
            self._resize = asyncio.get_running_loop().call_later(RESIZE_PAUSE, self._resized)

    def _resized(self) -> None:
        self._resize = None
        if self.master is not None:
            self._set_size(self.master)

    def break_received(self, msec: int) -> bool:
        return False

    def eof_received(self) -> bool:
        self.request_end("the client closed its input")
        return True

    def pause_writing(self) -> None:
        self._read_pty(False)

    def resume_writing(self) -> None:
        self._read_pty(True)

    def connection_lost(self, exc: Exception | None) -> None:
        self.channel_open = False
        self.request_end("the client disconnected")
        self.connection.session_gone(self)

    # ---- the session's life --------------------------------------------------------------

    def request_end(self, reason: str, farewell: str | None = None) -> None:
        """End the session (the first reason given is the one logged); ``farewell`` is shown to the player."""
        if self.end_reason is None:
            self.end_reason = reason
            self.farewell = farewell
        self._ended.set()

    async def _run(self) -> None:
        counted = False
        try:
            refusal = self.refusal or self._refusal()
            if refusal is None:
                refusal = self.server.gate.admit_session()
                counted = refusal is None
            if refusal is not None:
                self.end_reason = f"refused: {refusal}"
                self._say(refusal)
                return
            if not await self._start():
                return
            self.server.lobby.arrive(self)
            listener = asyncio.get_running_loop().create_task(self._listen())
            clock = asyncio.get_running_loop().create_task(self._clock())
            await self._ended.wait()
            listener.cancel()
            clock.cancel()
        finally:
            await self._close(counted)

    @property
    def child_killed(self) -> bool:
        """The child was ended by a signal (or never reaped): it could not restore the player's terminal."""
        return self.status is None or self.status < 0

    def _explain_the_end(self) -> None:
        """One line for a player whose game was killed under them (by a signal, its CPU or memory limit)."""
        if self.end_reason != "quit" or self.farewell is not None or not self.child_killed:
            return
        number = -self.status if self.status is not None else 0
        why = {signal.SIGXCPU: "it used up its CPU time", signal.SIGKILL: "it was killed"}.get(
            number, f"it was ended by {signal.Signals(number).name}" if number in signal.valid_signals()
            else "it would not stop")
        self.farewell = (f"Sorry: your game stopped unexpectedly ({why}). Connect again: a match in play "
                         f"keeps your seat for {minutes(self.limits.hold_time)}.")

    def _refusal(self) -> str | None:
        if self.command is not None:
            return EXEC_REFUSAL
        return term_refusal(self.term)

    async def _start(self) -> bool:
        """The child on a fresh PTY, its output pumped to the channel; ``False`` if it could not start."""
        environment = self.chan.get_environment()
        self.child_config = config = ChildConfig(
            name=self.name, ascii_mode=ascii_wanted(self.term, environment),
            environment=base_environment() | child_environment(self.term, environment),
            memory_mb=self.limits.child_memory_mb, cpu_seconds=self.limits.child_cpu_seconds,
            computer_pause=self.server.config.computer_pause, reveal_pause=self.server.config.reveal_pause,
        )
        master, terminal = os.openpty()
        ours, theirs = socket.socketpair()
        try:
            self._set_size(terminal)
            self.child = await self.server.spawner.spawn(terminal, theirs.fileno(), config)
        except (SpawnError, OSError) as error:
            log.warning("session %d: cannot start a child: %s", self.number, error)
            os.close(master)
            ours.close()
            self.end_reason = "no child"
            self._say("Sorry: the server could not start your game; try again in a moment.")
            return False
        finally:
            os.close(terminal)
            theirs.close()
        os.set_blocking(master, False)
        self.master = master
        self._read_pty(True)
        self.link = await Link.over(ours)
        return True

    async def _listen(self) -> None:
        """The child's requests, passed to the lobby, until the child closes the link."""
        while True:
            try:
                message = await self.link.receive()
            except ProtocolError as error:
                log.warning("session %d: the child sent a bad line (%s)", self.number, error)
                message = None
            if message is None:
                self.request_end("quit")
                return
            if message["type"] == "crash":
                text = message.get("text")
                self.crash_report = text if isinstance(text, str) else "(no report)"
                continue
            try:
                self.server.lobby.handle(self, message)
            except Exception:  # noqa: BLE001 - a bug here must end one session, not the server
                log.exception("session %d: the lobby failed on a %r request", self.number, message.get("type"))
                self.request_end("server error", "Sorry: the server hit an internal error; connect again.")
                return

    async def _clock(self) -> None:
        """The idle timeout (warned first) and the longest session."""
        limits = self.limits
        while True:
            now = time.monotonic()
            idle = now - self.last_input
            if now - self.started >= limits.session_time:
                self.request_end("session time limit", f"This session reached its limit of "
                                                       f"{minutes(limits.session_time)}. Thanks for playing!")
                return
            if idle >= limits.idle_timeout:
                self.request_end("idle timeout", f"Closed after {minutes(limits.idle_timeout)} without a key press.")
                return
            warn_at = limits.idle_timeout - limits.idle_warning
            if idle >= warn_at and not self.warned:
                self.warned = True
                self.send({"type": "notice", "severity": "warning",
                           "text": f"No key pressed for {minutes(idle)}: this session closes in "
                                   f"{minutes(limits.idle_timeout - idle)} unless you press a key."})
            moments = [self.started + limits.session_time, self.last_input + limits.idle_timeout]
            if not self.warned:
                moments.append(self.last_input + warn_at)
            await asyncio.sleep(max(min(moments) - now, 0.05))

    async def _close(self, counted: bool) -> None:
        """Leave the lobby, end and reap the child, say goodbye, and log one line."""
        self.server.lobby.depart(self)
        if self.child is not None:
            if self.channel_open and self.child.running:
                if self.end_reason != "quit":
                    self.send({"type": "exit"})  # leaving by itself restores the player's terminal
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(self.child.wait()), LEAVE_GRACE)
            clean = not self.child.running
            try:
                self.status = await self.child.stop()
            except TimeoutError:
                log.warning("session %d: child %d would not die", self.number, self.child.pid)
            self._drain_pty()
            if not clean or self.child_killed:
                self._write(TERMINAL_RESET)
            self._explain_the_end()
            await self._drain_link()
        if self._resize is not None:
            self._resize.cancel()
        if self.master is not None:
            self._read_pty(False)
            with contextlib.suppress(ValueError):
                asyncio.get_running_loop().remove_writer(self.master)
            os.close(self.master)
            self.master = None
        if self.link is not None:
            self.link.close()
        if self.crash_report:
            log.warning("session %d: the child crashed:\n%s", self.number, self.crash_report)
        if self.farewell:
            self._say(self.farewell)
        else:
            self._exit(0 if self.status == 0 and self.end_reason == "quit" else 1)
        if counted:
            self.server.gate.release_session()
        if (self.end_reason or "").startswith("refused"):
            self.server.refusals.info("%s", self.log_line())
        else:
            log.info("%s", self.log_line())

    async def _drain_link(self) -> None:
        """A crash report the child sent as it went (after the PTY closed, so not yet read)."""
        if self.link is None:
            return
        with contextlib.suppress(TimeoutError, ProtocolError):
            async with asyncio.timeout(LEAVE_GRACE):
                while (message := await self.link.receive()) is not None:
                    if message["type"] == "crash" and isinstance(message.get("text"), str):
                        self.crash_report = message["text"]

    def how_it_ended(self) -> str:
        reason = self.end_reason or "unknown"
        if reason == "quit" and self.status not in (0, None):
            if self.status < 0:
                name = signal.Signals(-self.status).name if -self.status in signal.valid_signals() else self.status
                reason = f"child killed by {name}" + (" (CPU limit)" if self.status == -signal.SIGXCPU else "")
            else:
                reason = f"child failed (status {self.status})"
        return reason

    def log_line(self) -> str:
        connection = self.connection
        width, height = self.requested_size
        return (f"session {self.number} from {connection.address}:{connection.port} user={self.name!r} "
                f"key={connection.fingerprint or 'none'} term={(self.term or '')[:40]!r} size={width}x{height} "
                f"client={connection.client_version!r} lasted {time.monotonic() - self.started:.0f}s "
                f"ended: {self.how_it_ended()}"
                + (f" ({self.requests_refused} channel requests refused)" if self.requests_refused else ""))

    # ---- the pump ------------------------------------------------------------------------

    def _set_size(self, fd: int) -> None:
        columns, lines = self.size
        with contextlib.suppress(OSError):
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))

    def _read_pty(self, on: bool) -> None:
        if self.master is None or on == self.reading_pty:
            return
        loop = asyncio.get_running_loop()
        if on:
            loop.add_reader(self.master, self._output)
        else:
            loop.remove_reader(self.master)
        self.reading_pty = on

    def _output(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""  # EIO: the child has closed its terminal
        if not data:
            self._read_pty(False)
            self.request_end("quit")
            return
        self._write(data)

    def _drain_pty(self) -> None:
        """What the child wrote before it went (its last frame, the terminal restored)."""
        for _ in range(64):
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self._write(data)

    def _write(self, data: bytes) -> None:
        if self.channel_open:
            with contextlib.suppress(BrokenPipeError, OSError):
                self.chan.write(data)

    def _say(self, line: str) -> None:
        """One line to the player (on the terminal, or on standard error without one), then the end."""
        if self.channel_open and not self.exited:
            # On a terminal the line starts afresh below whatever was drawn; without one it is plain stderr.
            text = f"\r\n{line}\r\n" if self.term is not None else f"{line}\n"
            write = self.chan.write if self.term is not None else self.chan.write_stderr
            with contextlib.suppress(BrokenPipeError, OSError):
                write(text.encode())
        self._exit(1)

    def _exit(self, status: int) -> None:
        """Close the channel with an exit status, once."""
        if self.channel_open and not self.exited:
            self.exited = True
            with contextlib.suppress(BrokenPipeError, OSError):
                self.chan.exit(status)

    def _input(self, data: bytes) -> None:
        if self.master is None or self._ended.is_set():
            return
        if not self.input_budget.take(len(data)):
            self.request_end("input rate limit", "Slow down: more input than this server accepts; disconnected.")
            return
        self.last_input = time.monotonic()
        self.warned = False
        self.backlog += data
        self._flush_input()

    def _flush_input(self) -> None:
        loop = asyncio.get_running_loop()
        while self.backlog and self.master is not None:
            try:
                written = os.write(self.master, self.backlog[:65536])
            except BlockingIOError:
                break
            except OSError:
                self.backlog.clear()
                break
            del self.backlog[:written]
        if self.master is None:
            return
        if self.backlog:
            loop.add_writer(self.master, self._flush_input)
            if len(self.backlog) > INPUT_BACKLOG and not self.input_paused:
                self.input_paused = True
                self.chan.pause_reading()
        else:
            loop.remove_writer(self.master)
            if self.input_paused:
                self.input_paused = False
                self.chan.resume_reading()
