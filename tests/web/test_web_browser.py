"""A real browser on the web door: headless Chromium signs in as a guest by typing a name, joins an SSH player's
match, moves by the keyboard and by the mouse, and reads the terminal from the frames its page received."""

from __future__ import annotations

import itertools
import re

import pytest

from soluna_tui.play.looks import JUMP_KEYS

from ..server.helpers import SshTerminal, play_a_move, server_places, wait_until
from ..server.test_places_e2e import shows_places
from . import browser
from .browser import (
    PHONE,
    REQUIRED,
    browser_joins,
    chromium,
    need_browser,
    open_phone_tab,
    open_tab,
    pick_up_by_mouse,
    sign_in,
)
from .helpers import page_url, web_server

#: A move in the history beside the board: its number, who played it, and its notation.
LISTED = re.compile(r"(\d+)\. (ann|bob)\s+(\S+>\S+)")
#: A lit tower's key, between its marks, and the frame of the tower in hand (its key on its top line).
LIT, PICKED = re.compile(r"▸(\w)◂"), re.compile(r"╔═*(\w)═*╗")
#: The page's font size on a desktop (soluna.js's PREFERRED_FONT_SIZE), and the least terminal it picks a smaller
#: one for (LEAST_COLUMNS, LEAST_ROWS): the smallest the game lays itself out in.
PREFERRED_FONT_SIZE, LEAST_COLUMNS, LEAST_ROWS = 16, 40, 20
#: The bytes each key of the page's row of keys sends, as the keyboard's keys send them (xterm.js's cursor keys in
#: normal mode: Textual does not ask for the application mode).
KEY_ROW = {"escape": "\x1b", "tab": "\t", "?": "?", "u": "u", "left": "\x1b[D", "up": "\x1b[A", "down": "\x1b[B",
           "right": "\x1b[C", "enter": "\r"}
#: The symbols on the discs: sun, moon, stars, comet.
SYMBOLS = "☀☾✶☄"
#: Each symbol drawn at 16 px in the terminal's fonts: its ink, in whole pixels, at least this; any two differ by
#: at least this many pixels' worth (DejaVu Sans Mono, a visitor's usual fallback, has a comet of 8 and a sun and
#: stars 17 apart; the shipped font, 28 and 29).
LEAST_INK, LEAST_DIFFERENCE = 20, 22
#: Each symbol drawn in a given font stack on a black canvas at 16 px: each pixel's red channel, 0 to 255.
DRAW_SYMBOLS = """async ([family, symbols]) => {
  await document.fonts.load(`16px ${family}`, symbols.join(""));
  return symbols.map((symbol) => {
    const canvas = document.createElement("canvas");
    canvas.width = 20;
    canvas.height = 24;
    const pen = canvas.getContext("2d");
    pen.fillStyle = "#000";
    pen.fillRect(0, 0, 20, 24);
    pen.fillStyle = "#fff";
    pen.font = `16px ${family}`;
    pen.textBaseline = "top";
    pen.fillText(symbol, 2, 2);
    return Array.from(pen.getImageData(0, 0, 20, 24).data.filter((_, index) => index % 4 === 0));
  });
}"""


def listed(text: str) -> list[tuple[str, str, str]]:
    return LISTED.findall(text)


def test_without_chromium_the_browser_test_is_skipped_naming_the_package_but_fails_under_ci(
        tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(browser, "CHROMIUM", tmp_path / "chromium")
    monkeypatch.delenv(REQUIRED, raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"Debian's chromium package .*: apt-get install chromium"):
        need_browser()
    monkeypatch.setenv(REQUIRED, "required")  # as .ci/run sets it
    with pytest.raises(pytest.fail.Exception, match=r"needs Debian's chromium package"):
        need_browser()


async def test_a_chromium_guest_plays_an_ssh_player_by_keyboard_and_by_mouse(tmp_path) -> None:
    need_browser()
    async with web_server(tmp_path, hold_time=120) as server, chromium() as chrome:
        assert server.web is not None
        ann = await SshTerminal.open(server.port, username="ann", columns=100, lines=30)
        try:
            await ann.wait_for_text("Welcome, ann")
            code, bob = await browser_joins(server, chrome, ann)
            # The page: its own splash until the game drew, and nothing from another site; on a desktop, the
            # font at its preferred size and no row of keys.
            assert await bob.page.text_content(".splash") == "Soluna"
            assert await bob.font_size() == PREFERRED_FONT_SIZE and await bob.page.locator(".keys").is_hidden()
            assert await bob.page.locator(".splash").is_hidden()
            own = page_url(server, "")
            assert bob.requests and all(url.startswith(own) for url in bob.requests), bob.requests
            assert bob.sockets == [f"{own.replace('http', 'ws', 1)}/ws/bob?width={bob.sizes[0][0]}"
                                   f"&height={bob.sizes[0][1]}"]
            assert bob.sizes[-1] == (bob.screen.columns, bob.screen.lines)

            await play_a_move(server, code, [ann, bob])  # ann opens
            typed = server.lobby.tables[code].match.position.legal_moves[0]
            await play_a_move(server, code, [ann, bob])  # bob, on the browser's keyboard: the towers' keys
            for terminal in (bob, ann):
                await terminal.wait_for(lambda text: ("2", "bob", str(typed)) in listed(text))
            await play_a_move(server, code, [ann, bob])

            table = server.lobby.tables[code]
            match, version, before = table.match, table.version, server_places(table.match.round.table)
            placed, target = await pick_up_by_mouse(bob, server, code)  # the tower clicked is lifted, its targets lit
            takers = {move.target for move in match.position.legal_moves if move.mover == placed.move.mover}
            lit = {JUMP_KEYS[slot] for slot, tower in enumerate(match.round.table)
                   if tower in takers and slot != placed.mover_slot}
            await bob.wait_for(lambda text: set(LIT.findall(text)) == lit)
            assert PICKED.findall(bob.text) == [JUMP_KEYS[placed.mover_slot]]

            await bob.click(*target)  # a lit tower: the move
            await wait_until(lambda: server.lobby.tables[code].version == version + 1, what="the server taking it")
            after = server_places(server.lobby.tables[code].match.round.table)
            assert after != before and after[placed.mover_slot] is None
            for terminal in (bob, ann):
                await shows_places(terminal, after)
                await terminal.wait_for(lambda text: ("4", "bob", str(placed.move)) in listed(text))
            assert not LIT.findall(bob.text) and not PICKED.findall(bob.text)
            assert [number for number, _, _ in listed(bob.text)] == ["1", "2", "3", "4"]

            await bob.press("q")  # leaving: the page says so, in view, with the way back
            await bob.wait_for_text("Leave Soluna?")
            await bob.press("y")
            await bob.wait_closed()
            ended = bob.page.locator(".ended")
            await ended.wait_for(state="visible")
            box, viewport = await ended.bounding_box(), bob.page.viewport_size
            assert box is not None and viewport is not None and box["y"] + box["height"] <= viewport["height"]
            assert await bob.page.locator("#terminal").is_hidden()
            again = bob.page.get_by_role("button", name="Play again")
            assert await again.is_visible() and await again.evaluate("button => button === document.activeElement")
            # The server's last line: the way back to the match.
            last_line = bob.received.decode().rstrip("\r\n").rsplit("\r\n", 1)[-1]
            assert last_line.startswith(f"Your seat in match {code} is held")
            assert await bob.page.text_content(".last-line") == last_line
            assert bob.errors == []  # no script on the page threw
        finally:
            await ann.close()


async def test_a_phone_gets_a_terminal_of_forty_columns_at_the_largest_font_that_allows_it_and_taps_click(
        tmp_path) -> None:
    need_browser()
    async with web_server(tmp_path) as server, chromium() as chrome:
        phone = await open_phone_tab(chrome, page_url(server))
        await sign_in(phone, "bob")
        await phone.wait_for_text("Welcome, bob")
        columns, lines = phone.sizes[-1]
        assert columns >= LEAST_COLUMNS and lines >= LEAST_ROWS, phone.sizes
        assert await phone.font_size() == PREFERRED_FONT_SIZE  # 390 pixels hold 43 columns of 16 px

        # A tap is a click: xterm.js's mouse report of a press and a release on the cell tapped.
        phone.typed.clear()
        await phone.tap(5, 3)
        await phone.wait_until_typed(["\x1b[<0;6;4M", "\x1b[<0;6;4m"])

        # The row of keys a phone's keyboard lacks: each sends what its key sends.
        assert await phone.page.locator(".keys").is_visible()
        for key, sent in KEY_ROW.items():
            phone.typed.clear()
            await phone.page.locator(f'.keys button[data-key="{key}"]').tap()
            await phone.wait_until_typed([sent])
            assert phone.typed == [sent], key
        assert await phone.page.evaluate("document.activeElement.classList.contains('xterm-helper-textarea')")

        # Turned to landscape: 390 pixels high less the keys hold 16 lines at 16 px, so the font shrinks to give
        # 20, and the game is told the new size.
        asked = len(phone.sizes)
        await phone.page.set_viewport_size({"width": PHONE[1], "height": PHONE[0]})
        await phone.wait_for(lambda _text: len(phone.sizes) > asked and phone.screen.lines >= LEAST_ROWS)
        assert phone.sizes[-1][0] > columns and await phone.font_size() < PREFERRED_FONT_SIZE

        # A narrower phone (320 pixels: 35 columns at 16 px): a smaller font, 40 columns.
        await phone.page.set_viewport_size({"width": 320, "height": 568})
        await phone.wait_for(lambda _text: phone.sizes[-1][0] < columns)
        assert phone.sizes[-1][0] >= LEAST_COLUMNS and phone.sizes[-1][1] >= LEAST_ROWS
        assert await phone.font_size() < PREFERRED_FONT_SIZE
        assert phone.errors == []


async def test_the_symbols_are_drawn_in_the_font_the_page_ships_distinct_and_bold(tmp_path) -> None:
    need_browser()
    async with web_server(tmp_path) as server, chromium() as chrome:
        tab = await open_tab(chrome, page_url(server))
        await sign_in(tab, "bob")
        family = await tab.page.evaluate("textualTerminal.terminal.options.fontFamily")
        drawn = await tab.page.evaluate(DRAW_SYMBOLS, [family, list(SYMBOLS)])
        # The terminal's fonts draw them as the shipped font alone does: not as whatever the visitor has.
        assert drawn == await tab.page.evaluate(DRAW_SYMBOLS, ["'Soluna Symbols'", list(SYMBOLS)])
        ink = {symbol: sum(pixels) / 255 for symbol, pixels in zip(SYMBOLS, drawn, strict=True)}
        assert min(ink.values()) >= LEAST_INK, ink
        for (one, first), (other, second) in itertools.combinations(zip(SYMBOLS, drawn, strict=True), 2):
            difference = sum(abs(a - b) for a, b in zip(first, second, strict=True)) / 255
            assert difference >= LEAST_DIFFERENCE, (one, other, difference)
        font = await tab.page.request.get(page_url(server, "/static/SolunaSymbols-LICENSE.txt"))
        assert font.ok and "Bitstream Vera Fonts Copyright" in await font.text()


async def test_the_ended_session_is_a_page_with_its_last_line_and_the_way_back(tmp_path) -> None:
    need_browser()
    async with web_server(tmp_path, session_time=4) as server, chromium() as chrome:
        tab = await open_phone_tab(chrome, page_url(server))
        await sign_in(tab, "bob")
        # The session's time is up: the server's farewell on the terminal, longer than a phone's line, and the end.
        await tab.wait_closed()
        ended = tab.page.locator(".ended")
        await ended.wait_for(state="visible")
        assert await tab.page.locator("#terminal").is_hidden()
        assert await tab.page.text_content(".ended h1") == "Session ended"
        farewell = "This session reached its limit of 4 seconds. Thanks for playing!"
        assert len(farewell) > tab.screen.columns and await tab.page.text_content(".last-line") == farewell
        again = tab.page.get_by_role("button", name="Play again")
        await again.click()  # back to the game under the same name
        await tab.page.wait_for_url(page_url(server, "/?name=bob"))
        await tab.page.wait_for_selector(".xterm-screen")
        assert tab.errors == []
