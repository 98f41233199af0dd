"""The help screen: the rules in brief and every key."""

from __future__ import annotations

from .helpers import TWO_SIZES, hot_seat_app, moves_then


@TWO_SIZES
def test_help_over_a_game(snap_compare, tmp_path, size) -> None:
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=size, run_before=moves_then(0, "question_mark"))
