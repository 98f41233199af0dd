"""The open seeks board's own lines, in a pilot with the test playing the server: a keyed player's seek with no
rating yet says ``new`` where a rating would be, and a refusal of a seek goes once that seek has left the board."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from textual.pilot import Pilot

from soluna_tui.link.protocol import Link
from soluna_tui.online.screens.seeks_board import SeeksBoardScreen

from ..app.helpers import screen_text
from ..snapshots.online import LOBBY, TERMS, WELCOME
from .test_child_app import FakeServer, settle, start, wait_for_screen


@asynccontextmanager
async def in_the_lobby(**welcome: Any) -> AsyncIterator[tuple[Any, Pilot, FakeServer]]:
    """A session's app at 80x24 in the lobby, the test playing the server (its welcome changed by ``welcome``)."""
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({**WELCOME, **welcome})
        server.send(LOBBY)
        await settle(pilot)
        yield app, pilot, server


async def test_a_new_player_s_seek_says_new_and_a_refusal_goes_with_its_seek() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(WELCOME)
        server.send(LOBBY)
        await settle(pilot)
        await pilot.press("s")
        assert (await server.expect("watch_seeks"))["watch"] is True
        seeks = [{"key": "a:1", "name": "cat", "terms": TERMS, "since": 0.0, "keyed": True},
                 {"key": "a:2", "name": "dee (guest)", "terms": TERMS, "since": 0.0}]
        server.send({"type": "open_seeks", "total": 2, "seeks": seeks})
        await wait_for_screen(pilot, app, SeeksBoardScreen, "cat (new):")
        assert "dee (guest):" in screen_text(app)  # a guest's name says so already
        await pilot.press("enter")  # cat's
        accept = await server.expect("accept_seek")
        refusal = "cat is at your address: play someone else."
        server.answer(accept, {"type": "error", "text": refusal})
        await wait_for_screen(pilot, app, SeeksBoardScreen, refusal)
        eve = {"key": "a:3", "name": "eve", "terms": TERMS, "since": 0.0, "rating": 1500, "keyed": True}
        server.send({"type": "open_seeks", "total": 3, "seeks": [*seeks, eve]})  # cat's still there: it holds
        await wait_for_screen(pilot, app, SeeksBoardScreen, "eve (1500):")
        assert refusal in screen_text(app)
        server.send({"type": "open_seeks", "total": 1, "seeks": seeks[1:]})  # dee's stays: so does nothing of cat's
        await settle(pilot)
        assert refusal not in screen_text(app)
        server.send({"type": "open_seeks", "total": 0, "seeks": []})
        await wait_for_screen(pilot, app, SeeksBoardScreen, "Nobody is looking")
        assert "cat is at" not in screen_text(app)


async def test_the_palette_offers_the_lobby_s_keys_by_name_and_opens_the_seeks_board() -> None:
    """Shown nowhere but the help, ``s`` was the only way to the board; the palette (found by name, reached by taps
    alone) opens it too. Challenges is offered only while there are some, as its key is; the board only where the
    server pairs players (below)."""
    async with in_the_lobby() as (app, pilot, server):
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert {"Open seeks", "Tournaments", "Play in a browser"} <= set(titles) and "Challenges" not in titles
        await pilot.press("ctrl+p", *"seeks")
        await settle(pilot)
        await pilot.press("enter")
        assert (await server.expect("watch_seeks"))["watch"] is True
        server.send({"type": "open_seeks", "total": 0, "seeks": []})
        await wait_for_screen(pilot, app, SeeksBoardScreen, "Nobody is looking")
        # The way onto the board, in the menu's own words.
        assert 'right now. "Find me an opponent" (in the' in screen_text(app)


async def test_no_seeks_board_where_the_server_pairs_nobody() -> None:
    """A server without quick matches (``--no-quick-match``) offers no seeks board: neither ``s`` nor the palette
    opens one whose empty text would point at a menu entry that is not there."""
    async with in_the_lobby(quick_match=False) as (app, pilot, _):
        assert "Open seeks" not in [command.title for command in app.get_system_commands(app.screen)]
        await pilot.press("s")
        await settle(pilot)
        assert not isinstance(app.screen, SeeksBoardScreen)
        assert "Find me an opponent" not in screen_text(app)
