"""Hints and analysis on the board: marks under the towers in the line kept for them."""

from __future__ import annotations

import pytest

from .helpers import hot_seat_app, moves_then


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_analysis_mode(snap_compare, tmp_path, size) -> None:
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=size, run_before=moves_then(4, "A"))


def test_a_hint_to_its_last_step(snap_compare, tmp_path) -> None:
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=(120, 40), run_before=moves_then(4, "H", "H", "H"))
