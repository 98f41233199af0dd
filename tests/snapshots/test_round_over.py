"""The end of a round: its review, then the loser's choice to open or move second."""

from __future__ import annotations

from soluna_tui.screens.review import ReviewScreen
from soluna_tui.screens.round_over import RoundOverScreen

from .helpers import TWO_SIZES, hot_seat_app, play_until


@TWO_SIZES
def test_the_round_review(snap_compare, tmp_path, size) -> None:
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=size, run_before=play_until(ReviewScreen))


@TWO_SIZES
def test_the_loser_chooses_who_opens(snap_compare, tmp_path, size) -> None:
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=size, run_before=play_until(RoundOverScreen))
