"""The game screen at several sizes: the compact board at 80x24, larger towers on larger terminals."""

from __future__ import annotations

import pytest

from .helpers import hot_seat_app, moves_then


def test_80x24_a_tower_in_hand(snap_compare, tmp_path) -> None:
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=(80, 24), run_before=moves_then(3, "right", "enter"))


@pytest.mark.parametrize("size", [(120, 40), (160, 50), (200, 50)], ids=["120x40", "160x50", "200x50"])
def test_larger_terminals_draw_larger_towers(snap_compare, tmp_path, size) -> None:
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=size, run_before=moves_then(5, "2", "enter"))


def test_24_discs_at_120x40(snap_compare, tmp_path) -> None:
    assert snap_compare(hot_seat_app(tmp_path, discs=24), terminal_size=(120, 40), run_before=moves_then(8))
