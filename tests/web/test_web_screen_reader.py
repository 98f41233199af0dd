"""The web door's screen-reader choice: the name page's box (and its address's ``?screen-reader=1``) opens the game in
lines, as ``ssh -t HOST screen-reader`` does, on a terminal in xterm.js's screen-reader mode; headless Chromium plays
a move against the computer and finds it in the page's accessibility tree."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html.parser import HTMLParser

import aiohttp
import pytest

from soluna_tui.link.child_config import SCREEN_READER_COMMAND
from soluna_tui.link.messages import KeepChoices, LobbyChoices
from soluna_tui.link.wire import to_wire
from soluna_tui.server.storage.sign_ins import new_code
from soluna_tui.server.web import sign_in

from ..server.helpers import TIMEOUT, session_named, wait_until
from .browser import BrowserTerminal, chromium, need_browser, open_tab
from .helpers import WebTerminal, page_url, web_server
from .sign_in_helpers import Browser

#: A key, as the store knows it.
ANN = "SHA256:ann"

#: The box's label, as a screen reader says it.
CHOICE = "Screen reader: play as lines"
#: A move announced in lines: ``bob: sun 1 onto sun 2, now a tower of two, sun on top (1S>1S).``
MOVE_LINE = re.compile(r"^(\w+): .* onto .*, now a tower of \w+, \w+ on top \((\S+)\)\.$", re.MULTILINE)
#: The first place a tower may go, as ``moves`` tells it: ``Tower 3, one moon: onto 1, 2 and 4.``
LEGAL = re.compile(r"^Tower (\d+), [^:]*: onto (\d+|any other tower)", re.MULTILINE)
#: The lines xterm.js's accessibility tree holds (one element a row), and its live region's text.
TREE_TEXT = """() => Array.from(document.querySelectorAll(".xterm-accessibility-tree > div"),
                                (row) => row.textContent.trimEnd()).join("\\n")"""
#: Values of the parameter that are not ``1``: each leaves the page on the full screen, with no error.
NOT_ON = ["0", "yes", "true", "on", "2", "01", "1.0", "", "<script>alert(1)</script>", "%00", "1" * 5000]


class Elements(HTMLParser):
    """A page's elements as (tag, attributes), in order, and each label's text by what it is for."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str]]] = []
        self.labels: dict[str, str] = {}
        self.title = ""
        self._in: tuple[str, str] | None = None
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {key: value or "" for key, value in attrs}
        self.found.append((tag, attributes))
        if tag in ("label", "title"):
            self._in = (tag, attributes.get("for", ""))

    def handle_data(self, data: str) -> None:
        if self._in is not None and self._in[0] == "label":
            self.labels[self._in[1]] = self.labels.get(self._in[1], "") + data
        elif self._in is not None:
            self.title += data

    def handle_endtag(self, tag: str) -> None:
        self._in = None

    def one(self, tag: str, **wanted: str) -> dict[str, str]:
        """The one element ``tag`` whose attributes include ``wanted`` (``_`` in a name is ``-``)."""
        matches = [attributes for found, attributes in self.found if found == tag and all(
            attributes.get(key.replace("_", "-")) == value for key, value in wanted.items())]
        assert len(matches) == 1, (tag, wanted, self.found)
        return matches[0]


async def fetched(http: aiohttp.ClientSession, address: str) -> Elements:
    async with http.get(address, timeout=aiohttp.ClientTimeout(total=TIMEOUT)) as answer:
        assert answer.status == 200
        return Elements(await answer.text())


async def test_the_name_page_offers_the_choice_as_a_labelled_box_its_address_can_tick(tmp_path) -> None:
    async with web_server(tmp_path) as server, aiohttp.ClientSession() as http:
        page = await fetched(http, page_url(server))
        box = page.one("input", type="checkbox")
        assert box["id"] == box["name"] == "screen-reader" and box["value"] == "1" and "checked" not in box
        assert page.labels["screen-reader"] == CHOICE
        assert page.one("script")["src"] == "/static/soluna.js"  # which keeps the choice in the browser
        assert page.one("input", type="hidden", name="screen-reader")["value"] == ""  # the sign-in's, following it

        ticked = await fetched(http, page_url(server, "/?screen-reader=1"))  # a helper's bookmark
        assert "checked" in ticked.one("input", type="checkbox")
        assert ticked.one("input", type="hidden", name="screen-reader")["value"] == "1"
        for value in NOT_ON:  # anything else: the box as it is, never an error
            other = await fetched(http, page_url(server, f"/?screen-reader={value}"))
            assert "checked" not in other.one("input", type="checkbox"), value


async def test_the_play_page_in_lines_opens_the_lines_websocket_in_screen_reader_mode_and_nothing_else_does(
        tmp_path) -> None:
    async with web_server(tmp_path) as server, aiohttp.ClientSession() as http:
        socket = page_url(server, "").replace("http", "ws", 1)
        lines = await fetched(http, page_url(server, "/?name=ann&screen-reader=1"))
        terminal = lines.one("div", id="terminal")
        assert terminal["data-session-websocket-url"] == f"{socket}/{SCREEN_READER_COMMAND}/ws/ann"
        assert terminal["data-screen-reader"] == "1"
        assert lines.title == "Soluna in lines" and lines.one("h1", **{"class": "unseen"}) is not None
        # Play again, and Change name, stay in lines.
        assert lines.one("input", type="hidden", name="screen-reader")["value"] == "1"
        assert lines.one("a", href="/?screen-reader=1") is not None
        for value in NOT_ON:
            full = await fetched(http, page_url(server, f"/?name=ann&screen-reader={value}"))
            terminal = full.one("div", id="terminal")
            assert terminal["data-session-websocket-url"] == f"{socket}/ws/ann", value
            assert terminal["data-screen-reader"] == "" and full.title == "Soluna", value


async def test_a_failed_sign_in_keeps_the_choice_and_a_lines_socket_from_another_site_is_refused(
        tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sign_in, "WRONG_DELAY", 0)
    async with web_server(tmp_path) as server, aiohttp.ClientSession() as http:
        origin = page_url(server, "")
        async with http.post(page_url(server, "/sign-in"), data={"code": "ABCD-EFGHJK", "screen-reader": "1"},
                             headers={"Origin": origin}, allow_redirects=False) as answer:
            assert answer.status == 403
            page = Elements(await answer.text())
        assert "checked" in page.one("input", type="checkbox")
        async with http.get(page_url(server, f"/{SCREEN_READER_COMMAND}/ws/ann"),
                            headers={"Origin": "http://evil.example", "Connection": "Upgrade", "Upgrade": "websocket",
                                     "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
                            ) as answer:
            assert answer.status == 403


async def test_a_signed_in_browser_keeps_the_choice_made_at_sign_in_and_a_key_kept_in_lines_has_its_page_in_lines(
        tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        code = new_code()
        assert await server.store.browsers.add_code(code, ANN, "ann")
        browser = Browser(server.web.port)
        try:
            async with browser.http.post(page_url(server, "/sign-in"), data={"code": code, "screen-reader": "1"},
                                         headers={"Origin": browser.origin}, allow_redirects=False) as answer:
                assert answer.status == 303 and answer.headers["Location"] == "/?screen-reader=1"
            socket = browser.origin.replace("http", "ws", 1)
            lines = Elements(await browser.page("/?screen-reader=1"))
            assert lines.one("div", id="terminal")["data-session-websocket-url"] == \
                f"{socket}/{SCREEN_READER_COMMAND}/ws"
            assert lines.one("a", href="/?screen-reader=0") is not None  # the way to the full screen
            full = Elements(await browser.page("/"))
            assert full.one("div", id="terminal")["data-screen-reader"] == ""
            assert full.one("a", href="/?screen-reader=1") is not None

            # The key keeps the game in lines ("remember" in the SSH lobby's lines): its session will be in lines
            # whatever the page asks, so the page is too, with no way to a full screen it would not get.
            kept = replace(LobbyChoices("1", "box", 4, 12, 0, True), screen_reader=True)
            await server.store.players.keep_lobby_choices(ANN, json.dumps(to_wire(KeepChoices(kept))))
            for address in ("/", "/?screen-reader=0"):
                page = Elements(await browser.page(address))
                assert page.one("div", id="terminal")["data-screen-reader"] == "1", address
                assert not [attributes for tag, attributes in page.found if tag == "a"], address
        finally:
            await browser.close()


@pytest.mark.parametrize("lines", [True, False])
async def test_a_tab_in_lines_is_a_session_asking_for_the_screen_reader_command_as_ssh_does(
        tmp_path, lines: bool) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        ann = await WebTerminal.open(server.web.port, name="ann", in_lines=lines)
        try:
            await ann.wait_for_text("Welcome, ann")
            session = session_named(server, "ann")
            assert session.channel.command == (SCREEN_READER_COMMAND if lines else None)
            assert session.line_mode is lines
            if lines:
                await ann.wait_for_text("Soluna in lines", "Lobby> ")
                assert b"\x1b" not in ann.received  # lines, never a full screen
            else:
                assert b"\x1b[?1049h" in ann.received  # the full screen's alternate screen
        finally:
            await ann.close()


def heard(tab: BrowserTerminal) -> str:
    """Everything the server sent the tab, as lines."""
    return tab.received.decode("utf-8", "replace").replace("\r\n", "\n")


async def in_the_tree(tab: BrowserTerminal, *texts: str) -> str:
    """Once the server has sent each of ``texts`` to the tab, and its page's accessibility tree holds them: the
    tree's rows, one a line."""
    await tab.wait_for(lambda _screen: all(text in heard(tab) for text in texts))
    rows = ""

    async def holds() -> bool:
        nonlocal rows
        rows = str(await tab.page.evaluate(TREE_TEXT))
        return all(text in rows for text in texts)

    try:
        await wait_until(holds, what=f"the accessibility tree holding {texts}")
    except AssertionError as error:
        raise AssertionError(f"{error}; it holds:\n{rows}") from None
    return rows


async def test_a_chromium_player_ticks_the_box_plays_the_computer_in_lines_and_the_move_is_in_the_accessibility_tree(
        tmp_path) -> None:
    need_browser()
    async with web_server(tmp_path) as server, chromium() as chrome:
        tab = await open_tab(chrome, page_url(server))
        page = tab.page
        await page.wait_for_selector("#name:focus")
        await page.keyboard.type("bob")
        await page.get_by_label(CHOICE).check()  # found by its label, as a screen reader finds it
        await page.locator("#name").press("Enter")
        await page.wait_for_url(re.compile(r"screen-reader=1"))
        assert await page.title() == "Soluna in lines"
        assert await page.evaluate("localStorage.getItem('soluna-screen-reader')") == "1"  # kept for next time
        await page.wait_for_selector(".xterm-accessibility .live-region", state="attached")
        assert tab.sockets[0].split("?")[0].endswith(f"/{SCREEN_READER_COMMAND}/ws/bob")
        assert await page.locator(".keys").is_hidden()

        async def say(line: str) -> None:
            await page.keyboard.type(line)
            await page.keyboard.press("Enter")

        await in_the_tree(tab, "Welcome, bob: Soluna in lines", "Lobby>")
        # The keyboard is the terminal's once connected: what is typed reaches the game without a click.
        assert await page.evaluate("document.activeElement.classList.contains('xterm-helper-textarea')")
        await say("stars 1")  # the cheapest match: one star, five discs
        await in_the_tree(tab, "box rules, 1 star")
        await say("discs 5")
        await in_the_tree(tab, "box rules, 1 star", "5 discs")
        await say("computer 1")
        await in_the_tree(tab, "Soluna. bob against Computer at level 1")
        await tab.wait_for(lambda _screen: heard(tab).endswith("Your move> "))
        mark = len(heard(tab))
        await say("moves")
        await tab.wait_for(lambda _screen: LEGAL.search(heard(tab)[mark:]) is not None)
        found = LEGAL.search(heard(tab)[mark:])
        assert found is not None
        mover, target = found.group(1), found.group(2)
        if not target.isdigit():  # onto any other tower
            target = next(str(number) for number in range(1, 6) if str(number) != mover)
        await say(f"{mover}>{target}")
        await tab.wait_for(lambda _screen: any(name == "bob" for name, _ in MOVE_LINE.findall(heard(tab)[mark:])))
        [mine] = [line for line in heard(tab)[mark:].splitlines() if MOVE_LINE.match(line) and line.startswith("bob:")]
        await in_the_tree(tab, mine)  # the move's line, as the server said it, in the page's accessibility tree
        live = await page.text_content(".xterm-accessibility .live-region") or ""
        assert " onto " in live, live  # and what a screen reader says as it comes: the output since the last key

        await page.goto(page_url(server))  # the next visit: the box ticked as the browser keeps it
        await wait_until(page.get_by_label(CHOICE).is_checked, what="the box ticked")
        assert tab.errors == []
