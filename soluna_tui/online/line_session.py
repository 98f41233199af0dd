"""Runs in the child.

A session's child in lines (``ssh -t -p PORT HOST screen-reader``): the lobby and its matches as short sentences on
the session's pseudo-terminal, read by a screen reader, with no full screen at all.

The terminal stays as the kernel sets it up (lines typed are echoed and edited by the terminal itself, and come
whole when Enter is pressed); each answer is written as the local line mode writes it (``TerminalLines``: the lines,
then the prompt). Everything runs on one event loop: the link to the server, the lines typed, and the answers of
the match's slow work, handed back to the loop (``LoopRunner``), so the lobby and its match are never touched from
two threads. A line typed, and a move of a match watched, count as the player being there (``Activity``, at most
one every ``activity_every`` seconds), as keys do in the full-screen app; Ctrl+C is ``quit``, and the end of
input or the server's ``exit`` ends the session.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ..line_mode.runner import CallOff, ThreadRunner
from ..line_mode.terminal_door import TerminalLines
from ..link.child_config import FAILED, ChildConfig
from ..link.messages import Activity, Request
from ..link.protocol import End, Link, ProtocolError
from ..rules import SolunaError
from .line_lobby import LineLobby

if TYPE_CHECKING:
    from ..rules.solver import Budget

Answer = TypeVar("Answer")
#: The most bytes of one read of the terminal (a line longer than this comes in parts, and is taken whole).
READ_SIZE = 4096
#: The longest line kept while it is typed: past it, what was typed is taken as it stands.
LONGEST_LINE = 2000
#: The niceness of a thread that solves (the computer's move, a hint, a review): the lowest priority.
SOLVING_NICENESS = 19


class LoopRunner:
    """The match's slow work in threads (``ThreadRunner``) at the lowest priority, its answers and timers on the
    event loop: this process is one session of many on a server, and the perfect level's proof of a large layout
    takes many CPU seconds, which at niceness 19 are only what the other sessions leave (as the full-screen
    session's solver workers, ``screens/solver_work.py``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._threads = ThreadRunner()

    def solve(self, job: Callable[[Budget], Answer], seconds: float | None,
              done: Callable[[Answer | None], None]) -> CallOff:
        called_off = False

        def deliver(answer: Answer | None) -> None:
            if not called_off:
                done(answer)

        def answered(answer: Answer | None) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: the session is over
                self._loop.call_soon_threadsafe(deliver, answer)

        def lowly(budget: Budget) -> Answer:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), SOLVING_NICENESS)  # this thread only
            return job(budget)

        stop_thinking = self._threads.solve(lowly, seconds, answered)

        def call_off() -> None:
            nonlocal called_off
            called_off = True
            stop_thinking()

        return call_off

    def later(self, seconds: float, then: Callable[[], None]) -> CallOff:
        return self._loop.call_later(max(0.0, seconds), then).cancel


class LineSession:
    """The lobby in lines on this terminal, linked to the server, until the player or the server ends it."""

    def __init__(self, config: ChildConfig, link: Link, loop: asyncio.AbstractEventLoop) -> None:
        self.config = config
        self.link = link
        self.loop = loop
        self.lines = TerminalLines(sys.stdout.buffer, "utf-8", ascii_only=config.ascii_mode)
        self.lobby = LineLobby(config.name, self.send, self.lines.say, LoopRunner(loop), self.player_active)
        self.lines.prompt_of = lambda: self.lobby.prompt
        self.over = asyncio.Event()
        self._typed = bytearray()
        self._reported_at = float("-inf")

    def send(self, message: Request) -> None:
        """Tell the server something; a server that has gone ends this session."""
        try:
            self.link.send(message)
        except ProtocolError:
            self.over.set()

    def player_active(self) -> None:
        """The player typed a line (or watches a match that moves): told the server, unless told a moment ago."""
        now = time.monotonic()
        if now - self._reported_at >= self.config.activity_every:
            self._reported_at = now
            self.send(Activity())

    async def run(self) -> None:
        self.loop.add_reader(0, self._readable)
        self.loop.add_signal_handler(signal.SIGINT, self._take, "quit")
        for ignored in (signal.SIGQUIT, signal.SIGTSTP):  # no core, and no stopped session nobody can resume
            signal.signal(ignored, signal.SIG_IGN)
        listener = self.loop.create_task(self._listen())
        try:
            self.lobby.start()
            await self.over.wait()
        finally:
            listener.cancel()
            self.loop.remove_reader(0)
            self.lobby.stop()
            self.link.close()
        if listener.done() and not listener.cancelled() and (error := listener.exception()) is not None:
            raise error  # a bug in hearing the server: this session's failure, reported as any other

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.link.receive()
            except ProtocolError:
                message = None
            if message is None:
                break
            try:
                self.lobby.heard(message)
            except (SolunaError, ProtocolError, KeyError, TypeError, ValueError):
                self.lobby.misheard()
            if self.lobby.finished:
                break
        self.over.set()

    def _readable(self) -> None:
        try:
            data = os.read(0, READ_SIZE)
        except OSError:
            data = b""
        if not data:  # the end of input (Ctrl+D on an empty line), or the terminal gone
            self.loop.remove_reader(0)
            self._take("quit")
            self.over.set()
            return
        self._typed += data
        while b"\n" in self._typed or len(self._typed) > LONGEST_LINE:
            line, _, rest = bytes(self._typed).partition(b"\n")
            self._typed = bytearray(rest)
            self._take(line.decode("utf-8", "replace").strip("\r"))

    def _take(self, line: str) -> None:
        self.lines.typed()
        self.lobby.take(line)
        if self.lobby.finished:
            self.over.set()


def run_in_lines(config: ChildConfig, link_fd: int) -> tuple[int, str]:
    """The session's child in lines, on the terminal that is its standard input and output: its exit status, and
    the report of what went wrong (never shown to the player: the server logs it)."""
    failures: list[str] = []

    async def session() -> None:
        loop = asyncio.get_running_loop()
        link = await Link.over(socket.socket(fileno=link_fd), End.CHILD)
        running = LineSession(config, link, loop)

        def failed(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            """A bug in a callback: reported to the server, and the session ended (never a traceback on screen)."""
            error = context.get("exception")
            report = "".join(traceback.format_exception(error)) if isinstance(error, BaseException) else ""
            failures.append(f"{context.get('message', 'error')}\n{report}")
            running.over.set()

        loop.set_exception_handler(failed)
        await running.run()

    asyncio.run(session())
    return (FAILED, "\n".join(failures)) if failures else (0, "")
