"""Runs in the server process.

One session's child, from start to end: forked on a fresh pseudo-terminal, its output pumped to the
channel (``pty_pump``), its link to the server carrying its requests to the lobby and the lobby's
replies back; at the end asked to leave (its terminal restored) or else ended, always reaped
(``ending.retire_child``), and a crash report it sent as it went logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Callable

from ...link.child_config import ACTIVITY_EVERY, ChildConfig
from ...link.messages import Activity, CrashReport, Exit, Reply, Request
from ...link.protocol import Link, ProtocolError
from ..config import ServerConfig
from ..lobby import Guest, Lobby
from .client_env import ascii_wanted, child_environment
from .ending import LEAVE_GRACE, QUIT, TERMINAL_RESET, Ending, retire_child
from .pty_pump import PtyPump, set_window_size
from .session_channel import SessionChannel
from .session_clock import SessionClock
from .spawn import Child, Spawner, SpawnError, base_environment

log = logging.getLogger("soluna.server")


class SessionChild:
    """The session's child process, its PTY pump and its link; ``request_end`` ends the session."""

    def __init__(self, number: int, request_end: Callable[..., None]) -> None:
        self.number = number
        self._request_end = request_end
        self.process: Child | None = None
        self.config: ChildConfig | None = None
        self.pump: PtyPump | None = None
        self.link: Link | None = None
        self.crash_report: str | None = None

    async def start(self, name: str, channel: SessionChannel, config: ServerConfig, spawner: Spawner, *,
                    line_mode: bool = False) -> bool:
        """The child on a fresh PTY, its output pumped to the channel (``line_mode``: the game in lines, for a
        screen reader); ``False`` if it could not start."""
        environment = channel.channel.get_environment()
        limits = config.limits
        self.config = child_config = ChildConfig(
            name=name, ascii_mode=ascii_wanted(channel.terminal, environment),
            environment=base_environment() | child_environment(channel.terminal, environment),
            memory_mb=limits.child_memory_mb, cpu_seconds=limits.child_cpu_seconds,
            computer_pause=config.computer_pause, reveal_pause=config.reveal_pause,
            activity_every=min(ACTIVITY_EVERY, limits.idle_timeout / 4), line_mode=line_mode,
        )
        master, terminal = os.openpty()
        ours, theirs = socket.socketpair()
        try:
            set_window_size(terminal, channel.size)
            self.process = await spawner.spawn(terminal, theirs.fileno(), child_config)
        except (SpawnError, OSError) as error:
            log.warning("session %d: cannot start a child: %s", self.number, error)
            os.close(master)
            ours.close()
            return False
        finally:
            os.close(terminal)
            theirs.close()
        self.pump = PtyPump(master, channel.channel, channel.write, lambda: self._request_end(QUIT),
                            self.process.resized)
        self.pump.start()
        self.link = await Link.over(ours)
        return True

    def send(self, message: Reply) -> None:
        if self.link is None or self.link.closed:
            return
        try:
            self.link.send(message)
        except ProtocolError:
            self._request_end("the child stopped reading")

    async def listen(self, lobby: Lobby, guest: Guest, clock: SessionClock) -> None:
        """The child's requests, passed to the lobby as ``guest``'s, until the child closes the link."""
        link = self.link
        while link is not None:
            try:
                message = await link.receive()
            except ProtocolError as error:
                log.warning("session %d: the child sent a bad line (%s)", self.number, error)
                message = None
            if message is None:
                self._request_end(QUIT)
                return
            if isinstance(message, CrashReport):
                self.crash_report = message.text or "(no report)"
                continue
            if isinstance(message, Activity):
                clock.active()
                continue
            if not isinstance(message, Request):
                log.warning("session %d: the child sent a %r, which only the server sends", self.number, message.TYPE)
                continue
            try:
                lobby.handle(guest, message)
            except Exception:  # noqa: BLE001 - a bug here must end one session, not the server
                log.exception("session %d: the lobby failed on a %r request", self.number, message.TYPE)
                self._request_end("server error", "Sorry: the server hit an internal error; connect again.")
                return

    async def retire(self, ending: Ending, channel: SessionChannel, hold_time: float) -> None:
        """End the child: asked to leave (its terminal restored) unless it quit, else ended, and reaped; the
        terminal reset after a child that failed, and its failure explained; then the pump and the link close."""
        if self.process is not None:
            if channel.open and self.process.running and ending.reason != QUIT:
                self.send(Exit())  # leaving by itself restores the player's terminal
            ending.status, left = await retire_child(self.process, LEAVE_GRACE if channel.open else 0, self.number)
            if self.pump is not None:
                self.pump.drain()
            if not left or ending.child_failed or getattr(self.process, "terminal_unfinished", False):
                channel.write(TERMINAL_RESET)
            ending.explain_failure(hold_time)
            await self._drain_link()
        if self.pump is not None:
            self.pump.close()
        if self.link is not None:
            self.link.close()
        if self.crash_report:
            log.warning("session %d: the child crashed:\n%s", self.number, self.crash_report)

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
