"""The open seeks board over SSH, at 80x24 and 40x20: three players waiting (a rating each for the keyed ones, the
terms, how long each has waited), one of them this player's own; and the one-line refusal of a seek accepted."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from soluna_tui.online.screens import seeks_board
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.online.screens.seeks_board import SeeksBoardScreen

from ..server.test_child_app import FakeServer, wait_for_screen
from .helpers import TWO_SIZES
from .online import LOBBY, STOPPED_AT, TERMS, WELCOME, listed, online_app, sends, stop_the_clock

BOARD = {"type": "open_seeks", "total": 3, "seeks": [
    {"key": "a:1", "name": "bob", "terms": TERMS, "since": STOPPED_AT - 75, "rating": 1610},
    {"key": "a:2", "name": "dee (guest)", "terms": {**TERMS, "rated": False, "clock": None}, "since": STOPPED_AT - 9},
    {"key": "b:7", "name": "ann", "terms": {**TERMS, "rated": False}, "since": STOPPED_AT - 3, "yours": True}]}


async def the_board_refusing_a_seek(pilot: Pilot, server: FakeServer) -> None:
    await sends(WELCOME, LOBBY, then=LobbyScreen, ready=listed, keys=("s",))(pilot, server)
    assert (await server.expect("watch_seeks"))["watch"] is True
    server.send(BOARD)
    await wait_for_screen(pilot, pilot.app, SeeksBoardScreen, "bob (1610)")
    await pilot.press("down", "enter")  # dee's
    accept = await server.expect("accept_seek")
    assert accept["key"] == "a:2"
    server.answer(accept, {"type": "error", "text": "dee (guest) has just been paired: that seek is not open any "
                                                     "more."})
    await wait_for_screen(pilot, pilot.app, SeeksBoardScreen, "not open any")


@TWO_SIZES
def test_the_open_seeks_board_and_a_seek_gone_meanwhile(snap_compare, monkeypatch: pytest.MonkeyPatch, size) -> None:
    stop_the_clock(monkeypatch, seeks_board)
    with online_app(the_board_refusing_a_seek) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)
