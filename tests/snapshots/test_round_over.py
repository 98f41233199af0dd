"""The end of a round: its review, then the loser's choice to open or move second."""

from __future__ import annotations

from soluna_tui.screens.review import ReviewScreen
from soluna_tui.screens.round_over import RoundOverScreen

from .helpers import hot_seat_app, play_until


def test_the_round_review(snap_compare, tmp_path) -> None:
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=(100, 32), run_before=play_until(ReviewScreen))


def test_the_loser_chooses_who_opens(snap_compare, tmp_path) -> None:
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=(80, 24), run_before=play_until(RoundOverScreen))
