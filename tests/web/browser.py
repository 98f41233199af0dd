"""A real browser on the web door: Debian's headless Chromium driven by Playwright (the system browser, never
one Playwright downloads), its terminal read from the websocket frames the page receives into a pyte screen.

xterm.js draws on a canvas, so the page has no text to read; the bytes the server sends the page are the same
bytes a terminal would draw, and Chromium's DevTools reports each frame (Playwright's ``framereceived``).

Without Chromium (or Playwright) the tests that need it are skipped, naming the package to install; under
``.ci/run`` (``SOLUNA_BROWSER_TEST=required``) they fail instead: CI installs the browser, so its absence is an
error there, never a quiet skip.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from soluna_tui.rules import Move
from soluna_tui.rules.places import PlacedMove
from soluna_tui.server.ssh.ssh_server import SolunaServer

from ..quick_screen import QuickByteStream, QuickScreen
from ..server.helpers import TIMEOUT, SshTerminal, server_places, wait_until
from ..server.test_lobby_e2e import JOIN_KEYS, create
from ..server.test_places_e2e import shows_places
from .helpers import page_url, place_cell

#: Debian's ``chromium`` package.
CHROMIUM = Path("/usr/bin/chromium")
#: Set by ``.ci/run``: a missing browser fails the browser tests instead of skipping them.
REQUIRED = "SOLUNA_BROWSER_TEST"
#: Headless Chromium on a machine with no GPU and a closed network, as root in a container: a software canvas
#: (xterm.js draws with WebGL), no sandbox, nothing fetched in the background, a fresh profile each launch
#: (Playwright's own, removed at the end).
CHROMIUM_FLAGS = ["--enable-unsafe-swiftshader", "--no-sandbox", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-default-apps"]
#: A phone's screen in CSS pixels (portrait), as the issue's test names it: 390 by 844.
PHONE = (390, 844)
#: A cell of a terminal: its column and line, counted from 0.
Cell = tuple[int, int]
#: The keys the tests name (as ``SshTerminal.press`` takes them), as the browser's keyboard names them.
BROWSER_KEYS = {"enter": "Enter", "down": "ArrowDown", "up": "ArrowUp", "right": "ArrowRight", "left": "ArrowLeft",
                "tab": "Tab", "escape": "Escape", "space": " "}


def browser_missing() -> str | None:
    """Why the browser tests cannot run here (``None``: they can)."""
    if not CHROMIUM.exists():
        return f"needs Debian's chromium package ({CHROMIUM}): apt-get install chromium"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "needs Playwright for Python (the test extras: pip install '.[test]')"
    return None


def need_browser() -> None:
    """Skip the test without the browser; under ``.ci/run``, fail it."""
    missing = browser_missing()
    if missing is None:
        return
    if os.environ.get(REQUIRED) == "required":
        pytest.fail(f"{REQUIRED}=required, and the browser test {missing}", pytrace=False)
    pytest.skip(missing)


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """Headless Chromium (Playwright's ``Browser``), closed at the end."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS,
                                                   timeout=TIMEOUT * 2000)
        try:
            yield browser
        finally:
            await browser.close()


class BrowserTerminal(SshTerminal):
    """A Chromium tab on the play page: keys typed on its keyboard, clicks with its mouse, and the terminal's
    bytes as the page received them, fed to a pyte screen of the size the page told the server.

    It reads as ``SshTerminal`` does (the same waits), so the SSH tests' helpers play with it.
    """

    def __init__(self, page: Any) -> None:
        self.page = page
        self.screen = QuickScreen(80, 24)
        self.stream = QuickByteStream(self.screen)
        self.received = bytearray()
        self.closed = False
        #: The page's own requests, by address (nothing may come from another site).
        self.requests: list[str] = []
        #: The websockets the page opened, by address.
        self.sockets: list[str] = []
        #: What the page's scripts threw and did not catch.
        self.errors: list[str] = []
        #: The sizes the page asked for, in order (columns, lines).
        self.sizes: list[tuple[int, int]] = []
        #: What the page sent as the terminal's input (keys, clicks), message by message.
        self.typed: list[str] = []
        self._incoming: asyncio.Queue[bytes] = asyncio.Queue()
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("websocket", self._watch)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _watch(self, socket: Any) -> None:
        self.sockets.append(socket.url)
        socket.on("framesent", self._sent)
        socket.on("framereceived", self._received)
        socket.on("close", lambda _socket: self._incoming.put_nowait(b""))

    def _sent(self, payload: str | bytes) -> None:
        message = json.loads(payload)
        if message[0] == "stdin":
            self.typed.append(message[1])
        if message[0] == "resize":
            size = (int(message[1]["width"]), int(message[1]["height"]))
            self.sizes.append(size)
            self.screen.resize(size[1], size[0])
            self._display = None

    def _received(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):  # the terminal's bytes (a text frame is a pong)
            self._incoming.put_nowait(payload)

    async def read(self, timeout: float) -> bytes:
        return await asyncio.wait_for(self._incoming.get(), timeout)

    async def finished(self, timeout: float) -> None:
        pass  # the page's websocket is closed once its last bytes are read

    def send(self, data: str | bytes) -> None:
        raise TypeError("a browser tab is typed on with its keyboard (press), not written to")

    async def press(self, *keys: str, pause: float | None = None) -> None:
        """Each key pressed on the page's keyboard, once the app has answered the one before (or ``pause``
        seconds apart)."""
        for key in keys:
            await self.page.keyboard.press(BROWSER_KEYS.get(key, key))
            await (self.answered() if pause is None else self.pump(pause))

    async def cell_box(self) -> tuple[float, float, float, float]:
        """Where the terminal's cells are drawn on the page: left, top, and a cell's width and height in pixels."""
        box = await self.page.locator(".xterm-screen").bounding_box()
        assert box is not None, "the page shows no terminal"
        return box["x"], box["y"], box["width"] / self.screen.columns, box["height"] / self.screen.lines

    async def click(self, column: int, line: int) -> None:
        """A click of the mouse on the middle of a cell (counted from 0); then the pointer rests on the terminal's
        first cell, so that no tooltip of what was clicked covers the board the test reads."""
        left, top, width, height = await self.cell_box()
        await self.page.mouse.click(left + (column + 0.5) * width, top + (line + 0.5) * height)
        await self.page.mouse.move(left + width / 2, top + height / 2)

    async def wait_until_typed(self, sent: list[str]) -> None:
        """Until the page has sent each of ``sent`` as the terminal's input, in that order (among others)."""
        def sent_in_order() -> bool:
            rest = iter(self.typed)
            return all(any(typed == wanted for typed in rest) for wanted in sent)

        await wait_until(sent_in_order, what=f"the page sending {sent!r} (it sent {self.typed!r})")

    async def tap(self, column: int, line: int) -> None:
        """A finger's tap on the middle of a cell (counted from 0), on a page opened with touch."""
        left, top, width, height = await self.cell_box()
        await self.page.touchscreen.tap(left + (column + 0.5) * width, top + (line + 0.5) * height)

    async def font_size(self) -> float:
        """The terminal's font size as the page picked it, in CSS pixels."""
        return float(await self.page.get_attribute("#terminal", "data-font-size") or 0)

    async def screenshot(self, path: Path) -> None:
        await self.page.screenshot(path=str(path))


async def open_tab(browser: Any, address: str, width: int = 900, height: int = 640) -> BrowserTerminal:
    """A new tab of ``width`` by ``height`` pixels on ``address`` (the name page), its terminal watched: the
    page's terminal at its font's size is about 100 columns by 30 lines."""
    page = await browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(TIMEOUT * 1000)
    terminal = BrowserTerminal(page)
    await page.goto(address)
    return terminal


async def open_phone_tab(browser: Any, address: str, width: int = PHONE[0], height: int = PHONE[1]) -> BrowserTerminal:
    """A new tab as a phone opens ``address``: ``width`` by ``height`` CSS pixels, touch, the page's viewport
    honoured (at one device pixel a CSS pixel: headless Chromium's emulated pixel ratio does not reach xterm.js's
    canvas, which then draws at that ratio's size)."""
    context = await browser.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True)
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT * 1000)
    terminal = BrowserTerminal(page)
    await page.goto(address)
    return terminal


async def sign_in(tab: BrowserTerminal, name: str) -> None:
    """A guest's arrival: the name typed into the name page (its field has the focus), Enter, and the play page
    loaded, its terminal's first size sent."""
    await tab.page.wait_for_selector("#name:focus")
    await tab.page.keyboard.type(name)
    await tab.page.keyboard.press("Enter")
    await tab.page.wait_for_selector(".xterm-screen")
    await tab.wait_for(lambda _text: bool(tab.sizes))


async def browser_joins(server: SolunaServer, browser: Any, host: SshTerminal, name: str = "bob") -> tuple[
        str, BrowserTerminal]:
    """``host`` (in the lobby) creates a match; a guest called ``name`` arrives in a new tab of ``browser``, and
    joins it by the keyboard: the match's code, and the tab."""
    code = await create(host)
    tab = await open_tab(browser, page_url(server))
    await sign_in(tab, name)
    await tab.wait_for_text(f"Welcome, {name}", "You play as a guest")
    await tab.press(*JOIN_KEYS, pause=0.05)
    await tab.wait_for_text("Type the four-letter code")
    await tab.press(*code.lower(), "enter")
    await wait_until(lambda: server.lobby.tables[code].match is not None, what="the match beginning")
    return code, tab


async def pick_up_by_mouse(tab: BrowserTerminal, server: SolunaServer, code: str,
                           move: Move | None = None) -> tuple[PlacedMove, Cell]:
    """The tab's player, to move, clicks the tower of ``move`` (the first legal move if ``None``), once the game
    says to put it down: the move, and the cell to click to end it (read before the tower was lifted)."""
    match = server.lobby.tables[code].match
    placed = match.round.table.resolve(move or match.position.legal_moves[0])
    await tab.wait_for_text("Your move")
    await shows_places(tab, server_places(match.round.table))
    lifted, target = (place_cell(tab.screen.display, slot) for slot in (placed.mover_slot, placed.target_slot))
    await tab.click(*lifted)
    await tab.wait_for_text(f"put {placed.move.mover} on a lit tower")
    return placed, target
