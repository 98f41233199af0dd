"""The new-match screen, opened from a game with n."""

from __future__ import annotations

from .helpers import hot_seat_app, moves_then


def test_new_match_from_a_game(snap_compare, tmp_path) -> None:
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=(80, 24), run_before=moves_then(0, "n"))
