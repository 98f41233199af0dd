"""Where each tower stands during a round: its place on the table (its slot, and so its key).

Positions are canonical (towers sorted), but a table is not: a tower keeps its place from the
opening to the end of the round. A move empties the mover's place and leaves the new tower in
the target's place. When the places a move was played from and onto are known (the player
picked them) they are used; otherwise, among identical towers, the first place holding the
tower is the one taken, so every screen that knows only the moves (an opponent's, a
spectator's, a resumed match) arranges them the same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from ..rules import IllegalMoveError, Move, Position, Tower


@dataclass(frozen=True)
class Placed:
    """A move with the places it was played from and onto."""

    move: Move
    mover_slot: int
    target_slot: int


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

    def resolve(self, move: Move, mover_slot: int | None = None, target_slot: int | None = None) -> Placed:
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
        return Placed(move, mover_slot, target_slot)

    def after(self, placed: Placed) -> Arrangement:
        """The table once ``placed`` is played: the mover's place empty, the new tower on the target's."""
        places = list(self.places)
        places[placed.mover_slot] = None
        places[placed.target_slot] = placed.move.result
        return Arrangement(tuple(places))


def arrange(start: Position, moves: Sequence[Move], placed: Mapping[int, Placed] | None = None) -> Arrangement:
    """The table after ``moves`` from the opening ``start``; ``placed`` gives, by ply (0 for the first
    move), the places a move was played from and onto where they are known."""
    arrangement = Arrangement.opening(start)
    for _step, after in _steps(arrangement, moves, placed or {}):
        arrangement = after
    return arrangement


def move_slots(start: Position, moves: Sequence[Move], placed: Mapping[int, Placed] | None = None) -> list[Placed]:
    """Every move of ``moves`` with the places it was played from and onto, as ``arrange`` plays them."""
    return [step for step, _after in _steps(Arrangement.opening(start), moves, placed or {})]


def _steps(
    opening: Arrangement, moves: Sequence[Move], known: Mapping[int, Placed]
) -> Iterator[tuple[Placed, Arrangement]]:
    """Each move placed on the table as it stands when the move is played, with the table after it."""
    arrangement = opening
    for ply, move in enumerate(moves):
        chosen = known.get(ply)
        if chosen is not None and chosen.move == move:
            step = arrangement.resolve(move, chosen.mover_slot, chosen.target_slot)
        else:
            step = arrangement.resolve(move)
        arrangement = arrangement.after(step)
        yield step, arrangement


class PlacesKept:
    """The places players chose for their moves, by round and ply, so that undo, redo, the history
    and a redraw all show the table as it was played. A move played anew at a ply replaces what
    was kept there."""

    def __init__(self) -> None:
        self._placed: dict[tuple[int, int], Placed] = {}
        self._last: tuple[tuple[int, Position, tuple[Move, ...]], Arrangement] | None = None

    def remember(self, round_number: int, ply: int, placed: Placed) -> None:
        self._placed[(round_number, ply)] = placed
        self._last = None

    def placed_in(self, round_number: int) -> dict[int, Placed]:
        return {ply: placed for (number, ply), placed in self._placed.items() if number == round_number}

    def arrangement(self, round_number: int, start: Position, moves: Sequence[Move]) -> Arrangement:
        """The table of round ``round_number`` after ``moves`` (the last one asked for is kept)."""
        key = (round_number, start, tuple(moves))
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        arrangement = arrange(start, moves, self.placed_in(round_number))
        self._last = (key, arrangement)
        return arrangement

    def steps(self, round_number: int, start: Position, moves: Sequence[Move]) -> list[Placed]:
        """Each move of the round with its places."""
        return move_slots(start, moves, self.placed_in(round_number))
