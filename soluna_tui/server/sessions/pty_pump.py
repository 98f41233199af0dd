"""Runs in the server process.

The bytes of one session between its SSH channel and its child's pseudo-terminal, each way held back.

The PTY is not read while the channel's send buffer is full (asyncssh calls ``pause_writing``),
so back-pressure reaches the child instead of piling up in the server. Input the PTY cannot
take yet waits in a backlog, and past ``INPUT_BACKLOG`` the channel is not read until it
drains. Window changes are gathered: at most one ``TIOCSWINSZ`` per ``RESIZE_PAUSE``, with the
latest size.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import struct
import termios
from collections.abc import Callable
from typing import Protocol

#: Seconds gathering window changes into one.
RESIZE_PAUSE = 0.05
#: Input queued for the PTY beyond this pauses reading from the channel.
INPUT_BACKLOG = 64 * 1024
#: The most read from or written to the PTY at once.
CHUNK = 65536
#: The most chunks read from a PTY whose child has gone (its last frame, its terminal restored).
LAST_CHUNKS = 64


def set_window_size(fd: int, size: tuple[int, int]) -> None:
    """Tell a terminal its size, ``(columns, lines)`` (a terminal already gone is left alone)."""
    columns, lines = size
    with contextlib.suppress(OSError):
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))


class PausableReader(Protocol):
    """The SSH channel as the pump sees it: a reader it can pause while the PTY is full."""

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


class PtyPump:
    """A PTY master pumped on the running event loop: output to ``write``, input from ``feed``.

    ``hung_up`` is called once the child has closed its terminal. The pump owns ``master``
    from ``start`` until ``close``.
    """

    def __init__(self, master: int, channel: PausableReader, write: Callable[[bytes], None],
                 hung_up: Callable[[], None], resized: Callable[[], None] = lambda: None) -> None:
        self.master: int | None = master
        self.channel = channel
        self.write = write
        self.hung_up = hung_up
        #: Called once the PTY has its new size (a child that is not the terminal's process hears it so).
        self.resized = resized
        self.backlog = bytearray()
        self.reading = False
        self.input_paused = False
        self.size: tuple[int, int] | None = None
        self._resize: asyncio.TimerHandle | None = None

    @property
    def open(self) -> bool:
        return self.master is not None

    def start(self) -> None:
        if self.master is not None:
            os.set_blocking(self.master, False)
            self.read_output(True)

    # ---- child to player -----------------------------------------------------------------

    def read_output(self, on: bool) -> None:
        """Read the PTY or stop (the channel's buffer is full: the child waits instead of the server)."""
        if self.master is None or on == self.reading:
            return
        loop = asyncio.get_running_loop()
        if on:
            loop.add_reader(self.master, self._output)
        else:
            loop.remove_reader(self.master)
        self.reading = on

    def _output(self) -> None:
        if self.master is None:
            return
        try:
            data = os.read(self.master, CHUNK)
        except BlockingIOError:
            return
        except OSError:
            data = b""  # EIO: the child has closed its terminal
        if not data:
            self.read_output(False)
            self.hung_up()
            return
        self.write(data)

    def drain(self) -> None:
        """What the child wrote before it went (its last frame, the terminal restored)."""
        if self.master is None:
            return
        for _ in range(LAST_CHUNKS):
            try:
                data = os.read(self.master, CHUNK)
            except OSError:
                return
            if not data:
                return
            self.write(data)

    # ---- player to child -----------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Input for the child: written now, or kept until the PTY takes it."""
        if self.master is None:
            return
        self.backlog += data
        self._flush_input()

    def _flush_input(self) -> None:
        loop = asyncio.get_running_loop()
        while self.backlog and self.master is not None:
            try:
                written = os.write(self.master, self.backlog[:CHUNK])
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
                self.channel.pause_reading()
        else:
            loop.remove_writer(self.master)
            if self.input_paused:
                self.input_paused = False
                self.channel.resume_reading()

    # ---- window size ---------------------------------------------------------------------

    def resize(self, size: tuple[int, int]) -> None:
        """The terminal's new size, passed on after ``RESIZE_PAUSE`` with any that follow it.

        At most one resize per pause reaches the child: a flood of them would only burn its CPU.
        """
        self.size = size
        if self.master is not None and self._resize is None:
            self._resize = asyncio.get_running_loop().call_later(RESIZE_PAUSE, self._resized)

    def _resized(self) -> None:
        self._resize = None
        if self.master is not None and self.size is not None:
            set_window_size(self.master, self.size)
            self.resized()

    def close(self) -> None:
        """Stop pumping and close the master (the child's terminal hangs up if it still runs)."""
        if self._resize is not None:
            self._resize.cancel()
            self._resize = None
        if self.master is None:
            return
        self.read_output(False)
        with contextlib.suppress(ValueError):
            asyncio.get_running_loop().remove_writer(self.master)
        os.close(self.master)
        self.master = None
