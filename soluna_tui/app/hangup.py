"""The terminal is gone: the app ends as if the player had quit, its match kept.

A terminal that closes sends its programs a hangup signal, and they end on it. A program started on a terminal
that is not its controlling terminal (a launcher or supervisor that starts it in a session of its own with the
terminal's descriptors, a test's or a benchmark's pseudo-terminal) gets no signal: its terminal only reads as
ended, and Textual's input thread then reads nothing, again and again, a whole core for as long as the process
lives (Textual's pull request #6690, open, and the same in ``less`` and other programs). So the app asks the
terminal, every few seconds, whether it has hung up (``poll``'s ``POLLHUP``, which a closed pseudo-terminal and a
hung-up line both report, with no read that could take a key) and, if so, quits as ``q`` would: the match is saved
as after every move, the save slot let go.
"""

from __future__ import annotations

import os
import select
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App

#: How often the app asks: the most a gone terminal's process spins before it ends.
CHECK_SECONDS = 3.0
#: What ``poll`` says of a terminal that is gone.
GONE = select.POLLHUP | select.POLLERR | select.POLLNVAL


def hung_up(fd: int) -> bool:
    """Whether the terminal on ``fd`` is gone (closed, hung up), without reading from it."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return any(events & GONE for _, events in poller.poll(0))


def terminal_fd() -> int | None:
    """The descriptor the app reads its keys from (Textual's driver reads standard input), if it is a terminal."""
    stream = sys.__stdin__
    if stream is None:
        return None
    try:
        fd = stream.fileno()
    except (OSError, ValueError):  # closed, or not a real file (an embedding's stream)
        return None
    return fd if os.isatty(fd) else None


def end_when_hung_up(app: App[object]) -> None:
    """Check the app's terminal every ``CHECK_SECONDS`` and quit once it has hung up; nothing for an app without
    a terminal of its own (a test's headless app, a browser's session)."""
    if app.is_headless or getattr(app, "terminal_fd", None) is not None:
        return  # in a house of sessions (online/house.py) the driver reads the terminal on the loop: it sees it go
    fd = terminal_fd()
    if fd is None:
        return

    def check() -> None:
        if hung_up(fd):
            app.exit()

    app.set_interval(CHECK_SECONDS, check, name="terminal hung up?")
