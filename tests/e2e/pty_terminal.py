"""A real pseudo-terminal running a command, read through pyte as a terminal would show it."""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Sequence

from ..quick_screen import QuickByteStream, QuickScreen


def start_on_pty(argv: Sequence[str], columns: int, lines: int,
                 env: dict[str, str] | None) -> tuple[int, subprocess.Popen[bytes]]:
    """``argv`` started in a session of its own on a fresh PTY of ``columns`` x ``lines``: the PTY's master end,
    and the process."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
    # The PTY's size is the only one the child may see: ``COLUMNS`` and ``LINES`` would win over it.
    known = {name: value for name, value in (os.environ if env is None else env).items()
             if name not in ("COLUMNS", "LINES")}
    process = subprocess.Popen(list(argv), stdin=slave, stdout=slave, stderr=slave, env=known,
                               start_new_session=True, close_fds=True)
    os.close(slave)
    return master, process


def end_on_pty(process: subprocess.Popen[bytes], master: int) -> int | None:
    """Stop a program ``start_on_pty`` started (politely, then firmly), reap it and close its PTY: its status."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
    os.close(master)
    return process.returncode


class PtyTerminal:
    """Start ``argv`` on a fresh PTY of ``columns`` x ``lines``; feed its output to a pyte screen."""

    def __init__(self, argv: Sequence[str], *, columns: int = 80, lines: int = 24,
                 env: dict[str, str] | None = None) -> None:
        self.screen = QuickScreen(columns, lines)
        self.stream = QuickByteStream(self.screen)
        self.master, self.process = start_on_pty(argv, columns, lines, env)

    def send(self, data: str | bytes) -> None:
        os.write(self.master, data.encode() if isinstance(data, str) else data)

    def pump(self, seconds: float) -> None:
        """Read whatever arrives for ``seconds``."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], min(left, 0.05))
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    return
                if not data:
                    return
                self.stream.feed(data)

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, predicate: Callable[[str], bool], timeout: float = 15.0) -> str:
        """Read until ``predicate(screen text)`` holds; ``AssertionError`` with the screen if it never does."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.pump(0.1)
            if predicate(self.text):
                return self.text
            if self.process.poll() is not None:
                self.pump(0.2)
                break
        raise AssertionError(f"the screen never matched; it shows:\n{self.text}")

    def close(self) -> int | None:
        """Stop the program (politely, then firmly) and reap it."""
        return end_on_pty(self.process, self.master)
