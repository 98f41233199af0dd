"""Hypothesis strategies for rules values."""

from __future__ import annotations

from hypothesis import strategies as st

from soluna_tui.rules import MAX_DISCS, Position, Symbol, Tower

symbols = st.sampled_from(list(Symbol))
towers = st.builds(Tower, st.integers(1, MAX_DISCS), symbols)


@st.composite
def positions(draw, max_discs: int = MAX_DISCS, max_height: int = 6) -> Position:
    """A position whose discs total at most ``max_discs``."""
    chosen: list[Tower] = []
    room = max_discs
    count = draw(st.integers(1, max_discs))
    for _ in range(count):
        if room < 1:
            break
        height = draw(st.integers(1, min(max_height, room)))
        chosen.append(Tower(height, draw(symbols)))
        room -= height
    return Position(chosen)
