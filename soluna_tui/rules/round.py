"""A round: a starting layout, the moves played on it, undo/redo and the outcome."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import OutOfTurnError, RoundOverError
from .json_fields import is_one_of
from .places import Arrangement, PlacedMove
from .position import Move, Position

PLAYERS = (0, 1)


def other(player: int) -> int:
    """The opponent of ``player`` (players are 0 and 1)."""
    return 1 - player


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """Who won the round and who lost it: the loser is the player left without a move."""

    winner: int

    @property
    def loser(self) -> int:
        return other(self.winner)


class Round:
    """One round of play from a layout; the opener moves first.

    Keeps every position reached, and every table (each tower in its place), so undo is a
    pop and any earlier moment can be shown. Each move is kept with its places
    (``PlacedMove``). Undone moves wait on a redo stack until a different move is played.
    """

    def __init__(self, start: Position, opener: int = 0) -> None:
        if not is_one_of(opener, PLAYERS):
            raise OutOfTurnError(f"the opener must be player 0 or 1, not {opener!r}")
        self.start = start
        self.opener = opener
        self._positions: list[Position] = [start]
        self._tables: list[Arrangement] = [Arrangement.opening(start)]
        self._moves: list[PlacedMove] = []
        self._redo: list[PlacedMove] = []

    @property
    def position(self) -> Position:
        """The position on the table now."""
        return self._positions[-1]

    @property
    def table(self) -> Arrangement:
        """The table now: every tower in the place it has kept since the opening."""
        return self._tables[-1]

    def table_at(self, ply: int) -> Arrangement:
        """The table after ``ply`` moves (0 is the opening)."""
        return self._tables[ply]

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(placed.move for placed in self._moves)

    def placed_at(self, ply: int) -> PlacedMove:
        """Move ``ply`` (0-based) with the places it was played from and onto."""
        return self._moves[ply]

    @property
    def placed_moves(self) -> tuple[PlacedMove, ...]:
        """Every move with the places it was played from and onto."""
        return tuple(self._moves)

    @property
    def redo_moves(self) -> tuple[PlacedMove, ...]:
        """Undone moves with their places, the next one to redo first."""
        return tuple(reversed(self._redo))

    @property
    def ply(self) -> int:
        """How many moves have been played."""
        return len(self._moves)

    def position_at(self, ply: int) -> Position:
        """The position after ``ply`` moves (0 is the starting layout)."""
        return self._positions[ply]

    def mover_at(self, ply: int) -> int:
        """The player who makes move number ``ply`` (0-based) of this round."""
        return self.opener if ply % 2 == 0 else other(self.opener)

    @property
    def to_move(self) -> int:
        """The player whose turn it is (or would be, if the round is over)."""
        return self.mover_at(self.ply)

    @property
    def outcome(self) -> RoundOutcome | None:
        """The result once the round is decided, else ``None``."""
        if self.position.is_blocked:
            return RoundOutcome(winner=other(self.to_move))
        return None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def _check_can_act(self, player: int | None, action: str) -> None:
        if self.is_over:
            raise RoundOverError(f"cannot {action}: the round is over")
        if player is not None and player != self.to_move:
            raise OutOfTurnError(f"cannot {action}: it is player {self.to_move + 1}'s turn")

    def play(self, move: Move | PlacedMove, player: int | None = None) -> Position:
        """Play ``move`` for the player to move (checked against ``player`` when given): a placed move
        from and onto its places, a bare one from and onto the first places holding its towers."""
        bare = move if isinstance(move, Move) else move.move
        self._check_can_act(player, f"play {bare}")
        after = self.position.play(bare)
        placed = self.table.place(move)
        self._positions.append(after)
        self._tables.append(self.table.after(placed))
        self._moves.append(placed)
        if self._redo and self._redo[-1] == placed:
            self._redo.pop()
        else:
            self._redo.clear()
        return after

    @property
    def can_undo(self) -> bool:
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo) and not self.is_over

    def undo(self) -> PlacedMove:
        """Take back the last move; it can be redone until another move is played."""
        if not self._moves:
            raise OutOfTurnError("nothing to undo in this round")
        placed = self._moves.pop()
        self._positions.pop()
        self._tables.pop()
        self._redo.append(placed)
        return placed

    def redo(self) -> PlacedMove:
        """Play again the last undone move, from and onto the same places."""
        if not self._redo:
            raise OutOfTurnError("nothing to redo")
        placed = self._redo[-1]
        self.play(placed)
        return placed
