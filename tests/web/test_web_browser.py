"""A real browser on the web door: headless Chromium signs in as a guest by typing a name, joins an SSH player's
match, moves by the keyboard and by the mouse, and reads the terminal from the frames its page received."""

from __future__ import annotations

import re

import pytest

from soluna_tui.play.looks import JUMP_KEYS

from ..server.helpers import SshTerminal, play_a_move, server_places, wait_until
from ..server.test_places_e2e import shows_places
from . import browser
from .browser import REQUIRED, browser_joins, chromium, need_browser, pick_up_by_mouse
from .helpers import page_url, web_server

#: A move in the history beside the board: its number, who played it, and its notation.
LISTED = re.compile(r"(\d+)\. (ann|bob)\s+(\S+>\S+)")
#: A lit tower's key, between its marks, and the frame of the tower in hand (its key on its top line).
LIT, PICKED = re.compile(r"▸(\w)◂"), re.compile(r"╔═*(\w)═*╗")


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
            # The page: its own splash until the game drew, and nothing from another site.
            assert await bob.page.text_content(".splash") == "Soluna"
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
            assert "Play again" in await ended.inner_text()
            assert bob.errors == []  # no script on the page threw
        finally:
            await ann.close()
