"""Small screens (a phone, a narrow split): the layouts below 80 columns, down to 40x20."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from ..app.helpers import make_app
from .helpers import hot_seat_app, idle, moves_then
from .test_lobby import lobby_with_matches


@pytest.mark.parametrize("size", [(40, 20), (46, 35), (60, 20)], ids=["40x20", "46x35", "60x20"])
def test_a_tower_in_hand_on_a_small_screen(snap_compare, tmp_path, size) -> None:
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=size, run_before=moves_then(3, "right", "enter"))


def test_the_moves_behind_tab_at_40x20(snap_compare, tmp_path) -> None:
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=(40, 20), run_before=moves_then(3, "tab"))


def test_the_new_match_form_at_40x20(snap_compare, tmp_path) -> None:
    async def run_before(pilot: Pilot) -> None:
        await idle(pilot)
        await pilot.press("left")  # against the computer: the longest form, scrolled to its first field

    assert snap_compare(make_app(tmp_path), terminal_size=(40, 20), run_before=run_before)


def test_the_guided_round_at_40x20(snap_compare, tmp_path) -> None:
    async def run_before(pilot: Pilot) -> None:
        await idle(pilot)
        await pilot.press("1", "enter")

    app = make_app(tmp_path, offer_guided_round=True)
    assert snap_compare(app, terminal_size=(40, 20), run_before=run_before)


def test_the_lobby_at_46x35(snap_compare) -> None:
    with lobby_with_matches() as (app, run_before):
        assert snap_compare(app, terminal_size=(46, 35), run_before=run_before)
