"""The end of a match: the winner, the stars, the hints and accuracy, and what next."""

from __future__ import annotations

from soluna_tui.screens.match_over import MatchOverScreen

from .helpers import TWO_SIZES, hot_seat_app, play_until


@TWO_SIZES
def test_a_one_star_match_won(snap_compare, tmp_path, size) -> None:
    app = hot_seat_app(tmp_path, stars_to_win=1)
    assert snap_compare(app, terminal_size=size, run_before=play_until(MatchOverScreen))
