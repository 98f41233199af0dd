"""Runs in the server process.

Every TCP connection to the web door, counted from its first byte: the web door listens itself, and each
connection it accepts is a ``CountedConnection`` standing in front of aiohttp's own protocol for it.

As it is accepted, before aiohttp reads a byte, a connection needs room under the process's bound on open files
(``OpenFiles``, shared with the SSH door) and a place at the gate (``Gate.admit_socket``: a few per address, and
waiting for a request a few per address and in all, the longest waiting at the busiest address making room for a
newcomer); else it is closed at once, with at most a line a second in the log. aiohttp's ``web.Server`` (the
protocol factory behind ``AppRunner``) has no hook before it reads, so the door listens itself
(``loop.create_server``) and puts this small protocol in front. aiohttp has no deadline for a request's headers
(3.14 starts its keep-alive timer at connect, the 3.11 this project allows does not), so the connection keeps its
own: a first request within ``HEADER_TIMEOUT`` seconds or it is closed. Past the first, aiohttp's
``keepalive_timeout`` closes a connection that has not sent its next request in ``KEEPALIVE_TIMEOUT`` seconds
(headers included), the ``deadline`` middleware gives a request (its body included) ``REQUEST_TIMEOUT`` seconds to
be answered (what is left of its body is read for ``LINGERING_TIME``, aiohttp's ``lingering_time``, then the
connection is closed), and a connection whose answers have waited ``STALLED_TIMEOUT`` seconds for the client to read
them is closed. A websocket's game is bounded as a session is (login timeout, heartbeat, idle timeout), not by
these.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from ..gate import Gate, ThrottledLog
from ..open_files import OpenFiles

log = logging.getLogger("soluna.server")

#: Seconds from a connection's first byte to its first request's last header.
HEADER_TIMEOUT = 10.0
#: Seconds a connection may be idle between requests (its next request's headers included): aiohttp's own timer.
KEEPALIVE_TIMEOUT = 10.0
#: Seconds to answer a request that is not a websocket's, its body read included.
REQUEST_TIMEOUT = 10.0
#: Seconds the rest of an answered request's body is read and dropped (so its client reads the answer, not a reset).
LINGERING_TIME = 2.0
#: Seconds a connection's answers may wait for the client to read them (a reader that never reads is closed).
STALLED_TIMEOUT = 30.0
#: Connections the kernel keeps waiting to be accepted, and the most asyncio accepts at once before it looks at any
#: (so fewer than the open files ``OpenFiles`` keeps free).
BACKLOG = 128


class CountedConnection(asyncio.Protocol):
    """One TCP connection: its place at the gate from the first byte, its deadlines, and aiohttp's protocol behind."""

    def __init__(self, door: WebConnections) -> None:
        self.door = door
        self.transport: asyncio.Transport | None = None
        self.address, self.port = "?", 0
        self.admitted = False
        self.handler: asyncio.Protocol | None = None
        self._deadline: asyncio.TimerHandle | None = None
        self._stalled: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername") or ("?", 0)
        self.address, self.port = str(peer[0]), int(peer[1])
        door = self.door
        if not door.open_files.room():  # logged by ``OpenFiles``, once
            transport.abort()
            return
        admission = door.gate.admit_socket(self.address, self, per_address=not door.trusted(self.address))
        if admission.refusal is not None:
            door.refusals.info("web connection from %s:%d refused: %s", self.address, self.port, admission.refusal)
            transport.abort()
            return
        self.admitted = True
        door.open_files.kept()
        door.counted[transport] = self
        if isinstance(admission.evicted, CountedConnection):
            admission.evicted.make_room()
        self._deadline = asyncio.get_running_loop().call_later(HEADER_TIMEOUT, self._close)
        self.handler = door.make_handler()
        self.handler.connection_made(transport)

    def heard(self) -> None:
        """A whole request has come: its deadline and its waiting place are done with."""
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
            self.door.gate.socket_heard(self.address, self)

    def make_room(self) -> None:
        """Every waiting place is taken and this connection has waited longest at the busiest address: it goes."""
        self._close()

    def _close(self) -> None:
        if self._deadline is not None:  # made room, or the deadline itself
            self._deadline.cancel()
            self._deadline = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        if self.handler is not None:
            self.handler.data_received(data)

    def eof_received(self) -> bool | None:
        return self.handler.eof_received() if self.handler is not None else None

    def pause_writing(self) -> None:
        if self.handler is not None:
            self.handler.pause_writing()
            if self._stalled is None:
                self._stalled = asyncio.get_running_loop().call_later(STALLED_TIMEOUT, self._close)

    def resume_writing(self) -> None:
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None
        if self.handler is not None:
            self.handler.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in (self._deadline, self._stalled):
            if timer is not None:
                timer.cancel()
        self._deadline = self._stalled = None
        if self.admitted:
            self.admitted = False
            self.door.gate.release_socket(self.address, self)
            if self.transport is not None:
                self.door.counted.pop(self.transport, None)
        if self.handler is not None:
            self.handler.connection_lost(exc)


class WebConnections:
    """The web door's listener: ``listen()``, ``port``, ``stop()``; ``deadline`` is the middleware that sees each
    request come and bounds its answer."""

    def __init__(self, gate: Gate, open_files: OpenFiles, make_handler: Callable[[], asyncio.Protocol],
                 trusted: Callable[[str], bool]) -> None:
        self.gate = gate
        self.open_files = open_files
        self.make_handler = make_handler
        self.trusted = trusted
        #: Refused web connections: at most a line a second, the rest summed up.
        self.refusals = ThrottledLog(log, per_second=1)
        #: Each admitted connection, by its transport (what a request knows of its connection).
        self.counted: dict[asyncio.BaseTransport, CountedConnection] = {}
        self._server: asyncio.Server | None = None
        #: The port listened on (the one asked for, or the one picked for 0).
        self.port = 0

    async def listen(self, host: str, port: int) -> None:
        self._server = await asyncio.get_running_loop().create_server(
            lambda: CountedConnection(self), host or None, port, reuse_address=True, backlog=BACKLOG)
        self.port = int(self._server.sockets[0].getsockname()[1])

    def stop(self) -> None:
        """No new connection is accepted (those open go on)."""
        if self._server is not None:
            self._server.close()
            self._server = None

    def close(self) -> None:
        self.stop()
        self.refusals.close()

    @web.middleware
    async def deadline(self, request: web.Request,
                       handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """The request has come (its connection's header deadline is met); its answer, body read included, within
        ``REQUEST_TIMEOUT`` (a websocket's game excepted), else 408 and the connection closed."""
        connection = self.counted.get(request.transport) if request.transport is not None else None
        if connection is not None:
            connection.heard()
        if request.method == "GET" and request.headers.get("Upgrade", "").lower() == "websocket":
            return await handler(request)
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):
                return await handler(request)
        except TimeoutError:
            late = web.HTTPRequestTimeout(text="The request took too long.")
            late.force_close()
            raise late from None
