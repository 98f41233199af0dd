"""Where each tower stands during a round: its place on the table, and moves named by their places.

Positions are canonical (towers sorted), but a table is not: a tower keeps its place from the
opening to the end of the round. A move empties the mover's place and leaves the new tower in
the target's place. When two towers are alike (same height, same symbol on top) the notation
``1S>1S`` does not say which of them moved where; a ``PlacedMove`` does, and it is what a round
keeps, a match document stores and a server sends, so that every screen, a save and a replay
show the same towers in the same places.

Places are numbered from 1 in text (``2:1S>1:1S``: the 1S of place 2 onto the 1S of place 1)
and from 0 in code (``mover_slot``, ``target_slot``). A move written without places (older
documents, a move typed in notation) is placed on the first place holding each tower.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

from .errors import IllegalMoveError, NotationError
from .position import Move, Position, Tower

#: The most places a text may name (a place number has at most this many digits).
_PLACE_DIGITS = 2


@dataclass(frozen=True, slots=True)
class PlacedMove:
    """A move with the places it was played from (``mover_slot``) and onto (``target_slot``), 0-based."""

    move: Move
    mover_slot: int
    target_slot: int

    def __post_init__(self) -> None:
        for slot in (self.mover_slot, self.target_slot):
            if isinstance(slot, bool) or not isinstance(slot, int) or slot < 0:
                raise NotationError(f"a place is a number from 1, not {slot!r}")
        if self.mover_slot == self.target_slot:
            raise NotationError(f"{self} puts a tower on itself: a move names two places")

    @classmethod
    def parse(cls, text: str) -> PlacedMove:
        """Read ``2:1S>1:1S``; ``NotationError`` when a place is missing (see ``parse_move_record``)."""
        found = parse_move_record(text)
        if not isinstance(found, PlacedMove):
            raise NotationError(f"a placed move is written 2:1S>1:1S (place:tower on each side); got {text.strip()!r}")
        return found

    @property
    def places(self) -> tuple[int, int]:
        """The places as players count them (from 1): where the tower left, where the new tower stands."""
        return self.mover_slot + 1, self.target_slot + 1

    def __str__(self) -> str:
        return f"{self.mover_slot + 1}:{self.move.mover}>{self.target_slot + 1}:{self.move.target}"

    def __repr__(self) -> str:
        return f"PlacedMove.parse({str(self)!r})"


def _read_side(text: str) -> tuple[int | None, Tower]:
    """One side of a move record: ``2:1S`` (a place, a tower) or ``1S`` (a tower alone)."""
    place_text, colon, tower_text = text.partition(":")
    if not colon:
        return None, Tower.parse(text)
    place_text = place_text.strip()
    if not place_text.isdigit() or not place_text.isascii() or len(place_text) > _PLACE_DIGITS:
        raise NotationError(f"{text.strip()!r}: a place is a number from 1, like 2:1S")
    place = int(place_text)
    if place < 1:
        raise NotationError(f"{text.strip()!r}: places are numbered from 1")
    return place - 1, Tower.parse(tower_text)


def parse_move_record(text: str) -> Move | PlacedMove:
    """A move as documents and the wire keep it: ``2:1S>1:1S`` with its places, or ``1S>1S`` without
    (placed on the first place holding each tower when it is played)."""
    sides = text.split(">")
    if len(sides) != 2 or not sides[0].strip() or not sides[1].strip():
        raise NotationError(f"a move is written A>B, like 2*>2M or 2:1S>1:1S; got {text.strip()!r}")
    mover_slot, mover = _read_side(sides[0])
    target_slot, target = _read_side(sides[1])
    move = Move(mover, target)
    if mover_slot is None and target_slot is None:
        return move
    if mover_slot is None or target_slot is None:
        raise NotationError(f"{text.strip()!r} names the place of one tower only: name both (2:1S>1:1S) or neither")
    return PlacedMove(move, mover_slot, target_slot)


@dataclass(frozen=True)
class Arrangement:
    """The round's places in order, each holding a tower or nothing (its tower was moved away)."""

    places: tuple[Tower | None, ...]

    @classmethod
    def opening(cls, position: Position) -> Arrangement:
        """A round's first arrangement: the opening towers in canonical order, one place each."""
        return cls(tuple(position.towers))

    def __len__(self) -> int:
        return len(self.places)

    def __getitem__(self, slot: int) -> Tower | None:
        return self.places[slot]

    def __iter__(self) -> Iterator[Tower | None]:
        return iter(self.places)

    @cached_property
    def towers(self) -> tuple[Tower, ...]:
        """The towers standing, in the order of their places."""
        return tuple(tower for tower in self.places if tower is not None)

    @cached_property
    def position(self) -> Position:
        return Position(self.towers)

    @cached_property
    def occupied(self) -> tuple[int, ...]:
        """The places that hold a tower."""
        return tuple(slot for slot, tower in enumerate(self.places) if tower is not None)

    def holds(self, slot: int, tower: Tower) -> bool:
        return 0 <= slot < len(self.places) and self.places[slot] == tower

    def first_slot(self, tower: Tower, besides: int | None = None) -> int | None:
        """The first place holding ``tower`` (other than ``besides``), or ``None``."""
        for slot, standing in enumerate(self.places):
            if standing == tower and slot != besides:
                return slot
        return None

    def resolve(self, move: Move, mover_slot: int | None = None, target_slot: int | None = None) -> PlacedMove:
        """The places ``move`` is played from and onto: those given when they hold the move's towers,
        else the first that do; ``IllegalMoveError`` when the towers are not both on the table."""
        if mover_slot is None or not self.holds(mover_slot, move.mover):
            mover_slot = self.first_slot(move.mover, besides=target_slot)
        if mover_slot is None:
            raise IllegalMoveError(f"{move} is not allowed: there is no {move.mover} tower")
        if target_slot is None or target_slot == mover_slot or not self.holds(target_slot, move.target):
            target_slot = self.first_slot(move.target, besides=mover_slot)
        if target_slot is None:
            raise IllegalMoveError(f"{move} is not allowed: there is no other {move.target} tower")
        return PlacedMove(move, mover_slot, target_slot)

    def place(self, move: Move | PlacedMove) -> PlacedMove:
        """``move`` on this table: a placed move as it is, once its places hold its towers
        (``IllegalMoveError`` when they do not); a bare move on the first places holding its towers."""
        if isinstance(move, Move):
            return self.resolve(move)
        for slot, tower in ((move.mover_slot, move.move.mover), (move.target_slot, move.move.target)):
            if not self.holds(slot, tower):
                standing = self.places[slot] if 0 <= slot < len(self.places) else None
                found = f"holds {standing}" if standing is not None else (
                    "is empty" if slot < len(self.places) else "is not on this table")
                raise IllegalMoveError(f"{move} is not allowed: place {slot + 1} {found}, not {tower}")
        return move

    def is_ambiguous(self, move: Move) -> bool:
        """Whether the notation alone leaves a choice of places for ``move`` (alike towers)."""
        counts = self.position.counts
        # Two alike towers onto each other: either may be the one that moves.
        return move.mover == move.target or counts[move.mover] > 1 or counts[move.target] > 1

    def after(self, placed: PlacedMove) -> Arrangement:
        """The table once ``placed`` is played: the mover's place empty, the new tower on the target's."""
        places = list(self.places)
        places[placed.mover_slot] = None
        places[placed.target_slot] = placed.move.result
        return Arrangement(tuple(places))


def arrange(start: Position, moves: Iterable[Move | PlacedMove]) -> Arrangement:
    """The table after ``moves`` from the opening ``start`` (bare moves on the first places that fit)."""
    table = Arrangement.opening(start)
    for move in moves:
        table = table.after(table.place(move))
    return table
