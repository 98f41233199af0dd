"""Playing on from an earlier position (Tab, Up to the move before, p): whether the computer answers, then the side
line, by hand."""

from __future__ import annotations

from .helpers import TWO_SIZES, hot_seat_app, moves_then

#: Three moves played, then back to the position after the second in the moves.
TO_THE_SECOND_MOVE = ("tab", "up")


@TWO_SIZES
def test_play_on_from_here(snap_compare, tmp_path, size) -> None:
    run_before = moves_then(3, *TO_THE_SECOND_MOVE, "p")
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=size, run_before=run_before)


@TWO_SIZES
def test_a_side_line_by_hand(snap_compare, tmp_path, size) -> None:
    run_before = moves_then(3, *TO_THE_SECOND_MOVE, "p", "b", "right")
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=size, run_before=run_before)
