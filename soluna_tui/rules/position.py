"""Towers, moves and positions: small immutable values with a canonical form."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from .errors import IllegalMoveError, PositionError
from .notation import read_move, read_position, read_tower
from .symbols import Symbol

#: The most discs a position may hold (twice the physical game's twelve).
MAX_DISCS = 24


@dataclass(frozen=True, slots=True)
class Tower:
    """A stack of discs; all that matters of it is its height and the symbol on top."""

    height: int
    symbol: Symbol

    def __post_init__(self) -> None:
        if not isinstance(self.symbol, Symbol):
            object.__setattr__(self, "symbol", Symbol(self.symbol))
        if not 1 <= self.height <= MAX_DISCS:
            raise PositionError(f"a tower holds 1 to {MAX_DISCS} discs, not {self.height}")

    @classmethod
    def parse(cls, text: str) -> Tower:
        """Read ``3M``, ``3 moon``, ``3☾``..."""
        return cls(*read_tower(text))

    @property
    def sort_key(self) -> tuple[int, int]:
        """Canonical order: height descending, then S, M, *, C."""
        return (-self.height, self.symbol)

    def accepts(self, mover: Tower) -> bool:
        """Whether ``mover`` may be put on this tower: same height or same top symbol."""
        return mover.height == self.height or mover.symbol == self.symbol

    def __str__(self) -> str:
        return f"{self.height}{self.symbol.letter}"


@dataclass(frozen=True, slots=True)
class Move:
    """Put the whole tower ``mover`` on the tower ``target`` (notation ``A>B``)."""

    mover: Tower
    target: Tower

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``2*>2M`` (aliases allowed on either side)."""
        mover, target = read_move(text)
        return cls(Tower(*mover), Tower(*target))

    @property
    def result(self) -> Tower:
        """The tower the move makes: both heights, the mover's symbol on top."""
        return Tower(self.mover.height + self.target.height, self.mover.symbol)

    @property
    def sort_key(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Canonical order of moves: by the moved tower, then by the target."""
        return (self.mover.sort_key, self.target.sort_key)

    def __str__(self) -> str:
        return f"{self.mover}>{self.target}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


@dataclass(frozen=True)
class Position:
    """The towers on the table, kept in canonical order. Whose turn it is lives in the round."""

    towers: tuple[Tower, ...] = field()

    def __init__(self, towers: Iterable[Tower]) -> None:
        ordered = tuple(sorted(towers, key=lambda tower: tower.sort_key))
        if not ordered:
            raise PositionError("a position needs at least one tower")
        discs = sum(tower.height for tower in ordered)
        if discs > MAX_DISCS:
            raise PositionError(f"a position holds at most {MAX_DISCS} discs, this one has {discs}")
        object.__setattr__(self, "towers", ordered)

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read towers separated by spaces, in any order: ``1S 1S 2M``."""
        return cls(Tower(*parts) for parts in read_position(text))

    @cached_property
    def counts(self) -> Counter[Tower]:
        """How many towers of each kind (equal towers are interchangeable)."""
        return Counter(self.towers)

    @property
    def disc_count(self) -> int:
        return sum(tower.height for tower in self.towers)

    def __len__(self) -> int:
        return len(self.towers)

    def __iter__(self) -> Iterator[Tower]:
        return iter(self.towers)

    def __contains__(self, tower: object) -> bool:
        return tower in self.counts

    @cached_property
    def legal_moves(self) -> tuple[Move, ...]:
        """Every distinct legal move once, in canonical order (mover, then target)."""
        kinds = sorted(self.counts, key=lambda tower: tower.sort_key)
        return tuple(
            Move(mover, target)
            for mover in kinds
            for target in kinds
            if target.accepts(mover) and (mover != target or self.counts[mover] >= 2)
        )

    @property
    def is_blocked(self) -> bool:
        """True when the player to move has no legal move and so loses the round."""
        return not self.legal_moves

    def why_illegal(self, move: Move) -> str | None:
        """A one-line reason the move is not allowed here, or ``None`` when it is legal."""
        mover, target = move.mover, move.target
        for tower in (mover, target):
            if tower not in self.counts:
                return f"there is no {tower} tower"
        if mover == target and self.counts[mover] < 2:
            return f"there is only one {mover} tower"
        if not target.accepts(mover):
            return (
                f"{mover} cannot go on {target}: the heights differ ({mover.height}, {target.height}) "
                f"and so do the symbols ({mover.symbol.word}, {target.symbol.word})"
            )
        return None

    def play(self, move: Move) -> Position:
        """The position after ``move``; ``IllegalMoveError`` if this position does not allow it."""
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(f"{move} is not allowed: {reason}")
        return self.after(move)

    def after(self, move: Move) -> Position:
        """The position after a move already known to be legal (no checks)."""
        rest = list(self.towers)
        rest.remove(move.mover)
        rest.remove(move.target)
        rest.append(move.result)
        return Position(rest)

    def __str__(self) -> str:
        return " ".join(str(tower) for tower in self.towers)

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"
