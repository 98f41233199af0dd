"""ASCII mode: the whole screen in 7-bit characters, the footer never overlapping."""

from __future__ import annotations

from .helpers import hot_seat_app, moves_then


def test_ascii_80x24_after_a_move(snap_compare, tmp_path) -> None:
    app = hot_seat_app(tmp_path, ascii_mode=True)
    assert snap_compare(app, terminal_size=(80, 24), run_before=moves_then(1, "enter"))


def test_ascii_large_towers(snap_compare, tmp_path) -> None:
    app = hot_seat_app(tmp_path, ascii_mode=True)
    assert snap_compare(app, terminal_size=(160, 50), run_before=moves_then(4, "3", "enter"))


def test_ascii_help(snap_compare, tmp_path) -> None:
    app = hot_seat_app(tmp_path, ascii_mode=True)
    assert snap_compare(app, terminal_size=(80, 24), run_before=moves_then(0, "question_mark"))
