"""NO_COLOR: greys only, and the large towers still read (the symbols cut into the discs)."""

from __future__ import annotations

from .helpers import hot_seat_app, moves_then


def test_no_color_large_towers(snap_compare, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = hot_seat_app(tmp_path)
    assert snap_compare(app, terminal_size=(120, 40), run_before=moves_then(3, "A", "2", "enter"))
