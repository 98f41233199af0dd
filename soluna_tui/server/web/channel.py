"""Runs in the server process.

A browser's websocket as a session's channel (a ``TerminalChannel``, as an SSH channel is): the
game's bytes go out as binary messages, as ``textual.js`` reads them, with back-pressure; the
last line, then the websocket closed once it is sent.

Writing never waits: bytes are queued and one task sends them. Past ``HIGH_WATER`` unsent
bytes the session is told to stop reading its PTY (``pause_writing``, as asyncssh tells it), and
below ``LOW_WATER`` to read on, so a browser that reads slowly holds back its own child, never
the server. Once the session exits, what is queued has ``CLOSE_GRACE`` seconds to go out.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from typing import Protocol

from aiohttp import web

#: Unsent bytes past which the child's output is not read, and below which it is read again.
HIGH_WATER, LOW_WATER = 256 * 1024, 64 * 1024
#: The most bytes in one websocket message.
CHUNK = 64 * 1024
#: Seconds the last bytes have to reach the browser once the session has exited.
CLOSE_GRACE = 3.0
#: The environment a browser's terminal gives its child: xterm.js draws in true colour.
BROWSER_ENVIRONMENT = {"COLORTERM": "truecolor"}


class Writer(Protocol):
    """What the channel tells its session about the queue: full (stop reading the PTY), or drained."""

    def pause_writing(self) -> None: ...

    def resume_writing(self) -> None: ...


class WebChannel:
    """One websocket as a session's channel; ``run`` sends what is written until the session exits."""

    def __init__(self, socket: web.WebSocketResponse, writer: Writer) -> None:
        self.socket = socket
        self.writer = writer
        self.queue = bytearray()
        self.exited = False
        self.paused = False
        #: Set while the session reads the browser's messages (cleared while its PTY is full).
        self.reading = asyncio.Event()
        self.reading.set()
        self._wake = asyncio.Event()

    # ---- a TerminalChannel ----------------------------------------------------------------

    def write(self, data: bytes) -> None:
        if self.exited or not data:
            return
        self.queue += data
        self._wake.set()
        if len(self.queue) > HIGH_WATER and not self.paused:
            self.paused = True
            self.writer.pause_writing()

    def write_stderr(self, data: bytes) -> None:
        self.write(data)

    def exit(self, status: int) -> None:
        """The session is over: what is queued goes out, then the websocket closes."""
        self.exited = True
        self._wake.set()

    def get_environment(self) -> Mapping[str, str]:
        return BROWSER_ENVIRONMENT

    def pause_reading(self) -> None:
        self.reading.clear()

    def resume_reading(self) -> None:
        self.reading.set()

    # ---- sending ----------------------------------------------------------------------------

    async def run(self) -> None:
        """Send what is written, in order, until the session exits; then the rest (for a moment) and close."""
        with contextlib.suppress(ConnectionError, RuntimeError, TimeoutError):
            while not self.exited:
                await self._wake.wait()
                self._wake.clear()
                await self._send_queued()
            async with asyncio.timeout(CLOSE_GRACE):
                await self._send_queued()
        with contextlib.suppress(ConnectionError, RuntimeError, TimeoutError):
            async with asyncio.timeout(CLOSE_GRACE):
                await self.socket.close()

    async def _send_queued(self) -> None:
        while self.queue and not self.socket.closed:
            chunk = bytes(self.queue[:CHUNK])
            del self.queue[:CHUNK]
            await self.socket.send_bytes(chunk)
            if self.paused and len(self.queue) < LOW_WATER:
                self.paused = False
                self.writer.resume_writing()
