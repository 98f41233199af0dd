"""Runs in the server process.

The process's open files, kept well below its ``RLIMIT_NOFILE``: past the bound, both doors close each new
connection at once, so accepting never fails for want of a file descriptor (asyncio would log a traceback for
each failed accept, and SSH clients would wait for a banner that never comes).

The count is the kernel's own (the entries of ``/proc/self/fd``, or ``/dev/fd``), read again at most
``MEASURE_EVERY`` seconds apart, plus the connections kept since: a flood costs a listing a few times a second,
not one a connection. Crossing the bound is logged once, and so is coming back under it (with how many were
refused meanwhile), so a flood that fills the bound writes two lines, not one a connection. Should accepting
fail all the same (another process's descriptors are not counted), the event loop's traceback for it becomes a
line a second (``quiet_failed_accepts``).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import resource
import time
from collections.abc import Callable
from typing import Any

from .gate import ThrottledLog

#: The share of the limit kept free for what is not a new connection (sessions' terminals and links, the store,
#: the log, a listing of the descriptors) and for the connections a listener accepts at once before any of them is
#: looked at (asyncio accepts up to its listen backlog in one go: 100 on the SSH door, 128 on the web door); at
#: least ``RESERVE``.
FREE_SHARE, RESERVE = 4, 64
#: Seconds a count of the descriptors is trusted (with the connections kept since added to it).
MEASURE_EVERY, MEASURE_AGAIN = 0.1, 0.01
#: A limit the system does not set: counted as this many.
UNLIMITED = 1 << 20
#: What asyncio tells its exception handler when accepting fails for want of a descriptor (it retries a second later).
ACCEPT_FAILED = "socket.accept() out of system resource"
#: Where the kernel lists a process's own descriptors (Linux; macOS and the BSDs).
DESCRIPTOR_DIRECTORIES = ("/proc/self/fd", "/dev/fd")


def file_limit() -> int:
    """The process's soft limit on open files."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return UNLIMITED if soft == resource.RLIM_INFINITY or soft > UNLIMITED else int(soft)


def count_descriptors() -> int | None:
    """The process's open descriptors now (``None`` where the system lists none)."""
    for directory in DESCRIPTOR_DIRECTORIES:
        try:
            return len(os.listdir(directory)) - 1  # the listing's own descriptor
        except OSError:
            continue
    return None


class OpenFiles:
    """``room()``: whether a new connection may be kept; ``kept()``: one was."""

    def __init__(self, logger: logging.Logger, limit: int | None = None,
                 count: Callable[[], int | None] = count_descriptors,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.limit = file_limit() if limit is None else limit
        self.bound = self.limit - max(RESERVE, self.limit // FREE_SHARE)
        self.count = count
        self.clock = clock
        self.full = False
        #: Connections refused since the bound was crossed.
        self.refused = 0
        self._counted = 0
        self._kept_since = 0
        self._counted_at = -MEASURE_EVERY

    def room(self) -> bool:
        """Whether the process is under its bound (a listing only now and then); crossing it either way is logged."""
        now = self.clock()
        estimate, age = self._counted + self._kept_since, now - self._counted_at
        if age >= MEASURE_EVERY or (estimate >= self.bound and age >= MEASURE_AGAIN):
            counted = self.count()
            if counted is None:  # nothing to list: the bound is never reached
                counted = 0
            self._counted, self._kept_since, self._counted_at = counted, 0, now
            estimate = counted
        full = estimate >= self.bound
        if full and not self.full:
            self.logger.warning("refusing new connections: %d files open, past the bound of %d (the process's limit "
                                "is %d); one line when it is back under", estimate, self.bound, self.limit)
        elif self.full and not full:
            self.logger.warning("accepting connections again: %d files open (bound %d); %d refused meanwhile",
                                estimate, self.bound, self.refused)
            self.refused = 0
        self.full = full
        if full:
            self.refused += 1
        return not full

    def kept(self) -> None:
        """A connection was kept open (counted until the next listing sees it)."""
        self._kept_since += 1


class QuietFailedAccepts:
    """The event loop's exception handler while the server runs: a failed accept is a line a second (the rest summed
    up), not a traceback each; anything else goes to the handler there was before."""

    def __init__(self, logger: logging.Logger) -> None:
        self.lines = ThrottledLog(logger, per_second=1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._before: Callable[[asyncio.AbstractEventLoop, dict[str, Any]], object] | None = None

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop, self._before = loop, loop.get_exception_handler()
        loop.set_exception_handler(self)

    def remove(self) -> None:
        if self._loop is not None:
            self._loop.set_exception_handler(self._before)
            self._loop = None
        self.lines.close()

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if context.get("message") == ACCEPT_FAILED and isinstance(error, OSError):
            self.lines.info("accepting a connection failed: %s (errno %s); trying again in a second",
                            error.strerror, errno.errorcode.get(error.errno or 0, error.errno))
        elif self._before is not None:
            self._before(loop, context)
        else:
            loop.default_exception_handler(context)
