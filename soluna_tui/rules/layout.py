"""The standard disc set and the layouts it drops onto the table."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations

from .errors import OptionError
from .position import MAX_DISCS, Position, Tower
from .symbols import Symbol

MIN_DISCS = 2
DEFAULT_DISCS = 12

#: The six unordered pairs of different symbols, in the fixed cycle discs are dealt from.
SYMBOL_PAIRS: tuple[tuple[Symbol, Symbol], ...] = tuple(combinations(Symbol, 2))


def check_disc_count(discs: int) -> int:
    """``discs`` itself when it is a disc count the game allows, else ``OptionError``."""
    if isinstance(discs, bool) or not isinstance(discs, int) or not MIN_DISCS <= discs <= MAX_DISCS:
        raise OptionError(f"the number of discs must be {MIN_DISCS} to {MAX_DISCS}, not {discs!r}")
    return discs


def disc_set(discs: int = DEFAULT_DISCS) -> tuple[tuple[Symbol, Symbol], ...]:
    """The two faces of each disc: the six symbol pairs dealt in a fixed cycle."""
    check_disc_count(discs)
    return tuple(SYMBOL_PAIRS[index % len(SYMBOL_PAIRS)] for index in range(discs))


def layout_from_faces(discs: int, faces: int) -> Position:
    """The layout where bit ``i`` of ``faces`` says which face of disc ``i`` lies up."""
    return Position(Tower(1, pair[(faces >> index) & 1]) for index, pair in enumerate(disc_set(discs)))


def drop(discs: int, rng: random.Random) -> Position:
    """Drop the discs on the table: a fair coin per disc decides the face that lies up."""
    return layout_from_faces(discs, rng.getrandbits(check_disc_count(discs)))


def every_drop(discs: int = DEFAULT_DISCS) -> Iterator[Position]:
    """All ``2**discs`` equally likely drops, repeats included, in order of their face bits."""
    for faces in range(1 << check_disc_count(discs)):
        yield layout_from_faces(discs, faces)
