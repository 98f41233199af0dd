"""A browser's websocket as ``textual.js`` speaks it (aiohttp), its terminal a pyte screen, and a server with a
web door started for one test."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

import aiohttp

from soluna_tui.server.config import Limits, ServerConfig, WebDoor
from soluna_tui.server.ssh.ssh_server import SolunaServer
from soluna_tui.server.web.page import LINES_SOCKET_PREFIX

from ..clean_up import within
from ..quick_screen import QuickByteStream, QuickScreen
from ..server.helpers import HOST_KEY, PLACE_BASE, TIMEOUT, SshTerminal
from ..warm_zygotes import warm


@contextlib.asynccontextmanager
async def web_server(tmp_path: Path, public_url: str | None = None, proxy_from: tuple = (),
                     host_names: tuple[str, ...] = (), **limits) -> AsyncIterator[SolunaServer]:
    """A server on 127.0.0.1 with its web door there too, both on free ports; a computer without pauses."""
    config = ServerConfig(data_dir=tmp_path, host="127.0.0.1", port=0, host_key=HOST_KEY,
                          limits=replace(Limits(), **limits), computer_pause=0, reveal_pause=0,
                          web=WebDoor(port=0, public_url=public_url, proxy_from=proxy_from, host_names=host_names))
    server = warm(SolunaServer(config))
    await server.start()
    try:
        yield server
    finally:
        await within(server.close(), "closing the server", TIMEOUT)


def page_url(server: SolunaServer, path: str = "/") -> str:
    assert server.web is not None
    return f"http://127.0.0.1:{server.web.port}{path}"


class WebTerminal(SshTerminal):
    """A browser tab's terminal: ``textual.js``'s messages on a websocket, the bytes back fed to a pyte screen.

    It reads and writes as ``SshTerminal`` does (the same waits and keys), so the SSH tests' helpers play with it.
    """

    def __init__(self, http: aiohttp.ClientSession, socket: aiohttp.ClientWebSocketResponse, columns: int,
                 lines: int) -> None:
        self.http, self.socket = http, socket
        self.screen = QuickScreen(columns, lines)
        self.stream = QuickByteStream(self.screen)
        self.received = bytearray()
        self.closed = False
        #: The text messages the server sent (pongs), in order.
        self.texts: list[str] = []
        self._incoming: asyncio.Queue[bytes] = asyncio.Queue()
        self._outgoing: asyncio.Queue[str] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._receive()), loop.create_task(self._send())]

    @classmethod
    async def open(cls, port: int, name: str | None = "ann", columns: int = 80, lines: int = 24,  # type: ignore[override]
                   origin: str | None = None, size_first: bool = True,
                   headers: dict[str, str] | None = None, in_lines: bool = False) -> WebTerminal:
        """A tab on the web door at ``port``, as the page opens it: the websocket, then the terminal's size
        (unless not ``size_first``); ``name`` ``None``: a signed-in browser's tab (its cookie in ``headers``);
        ``in_lines``: the page's screen-reader choice made (its websocket under ``LINES_SOCKET_PREFIX``)."""
        http = aiohttp.ClientSession()
        try:
            path = "/ws" if name is None else f"/ws/{quote(name, safe='')}"
            path = f"{LINES_SOCKET_PREFIX}{path}" if in_lines else path
            socket = await http.ws_connect(f"http://127.0.0.1:{port}{path}",
                                           origin=origin or f"http://127.0.0.1:{port}",
                                           timeout=aiohttp.ClientWSTimeout(ws_close=TIMEOUT), headers=headers)
        except BaseException:
            await http.close()
            raise
        terminal = cls(http, socket, columns, lines)
        if size_first:
            terminal.message("resize", {"width": columns, "height": lines})
        return terminal

    def message(self, *envelope: object) -> None:
        """Send one of ``textual.js``'s messages (after those sent before it)."""
        self.send_raw(json.dumps(list(envelope)))

    def send_raw(self, text: str) -> None:
        self._outgoing.put_nowait(text)

    async def _send(self) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            while True:
                await self.socket.send_str(await self._outgoing.get())

    async def _receive(self) -> None:
        while True:
            message = await self.socket.receive()
            if message.type is aiohttp.WSMsgType.BINARY:
                self._incoming.put_nowait(message.data)
            elif message.type is aiohttp.WSMsgType.TEXT:
                self.texts.append(message.data)
            else:
                self._incoming.put_nowait(b"")
                return

    async def read(self, timeout: float) -> bytes:
        return await asyncio.wait_for(self._incoming.get(), timeout)

    async def finished(self, timeout: float) -> None:
        await asyncio.wait_for(asyncio.shield(self._tasks[0]), timeout)

    def send(self, data: str | bytes) -> None:
        self.message("stdin", data.decode() if isinstance(data, bytes) else data)

    def click(self, column: int, line: int) -> None:
        """A click of the left button on a cell (counted from 0), as xterm.js reports it to an app asking for SGR
        mouse reports: the press, then the release."""
        self.send(f"\x1b[<0;{column + 1};{line + 1}M\x1b[<0;{column + 1};{line + 1}m")

    def resize(self, columns: int, lines: int) -> None:
        self.screen.resize(lines, columns)
        self._display = None
        self.message("resize", {"width": columns, "height": lines})

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.socket.close(), TIMEOUT)
        await self.http.close()


def place_cell(lines: list[str], slot: int) -> tuple[int, int]:
    """A cell inside the tower at ``slot`` (the board's order, as ``places_on_board`` reads it): just above the
    middle of its base line."""
    sidebar = next((line.find("╭─ Soluna") for line in lines if "╭─ Soluna" in line), -1)
    found = [(match.start() + (match.end() - match.start()) // 2, row) for row, line in enumerate(lines)
             for match in PLACE_BASE.finditer(line[:sidebar] if sidebar > 0 else line)]
    column, row = found[slot]
    return column, row - 1
