"""Perfect play: win or loss for the player to move, and the plies to the end.

Convention (docs/rules.md): a position with no move is lost in 0 plies; a winner takes
the fewest plies to leave the opponent lost, a loser holds out the most plies.

Why it is fast:
- a position's value does not change when symbols are renamed, so a position is
  reduced to the multiset of its four *symbol groups* (the heights of the towers
  under each symbol), up to 24 times fewer positions than towers-with-symbols;
- each distinct group (a partition of at most 24 discs) is interned once as a
  small integer, with its merges (two towers of the group stacked) and its
  height-bitmask computed once, so a child position is a sorted 4-tuple of ints;
- values are one signed int: ``LIMIT - plies`` for a win, ``plies - LIMIT`` for a
  loss, so the best move is just ``min`` over the children's values;
- the cache is kept across calls, so hints, analysis and the computer share work.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Any, cast

from .errors import SearchAborted
from .position import Move, Position
from .symbols import Symbol

#: Larger than any number of plies (a round lasts at most 23 moves).
_LIMIT = 1000
_LOST_NOW = -_LIMIT
#: How many newly solved positions between two looks at the budget.
_CHECK_EVERY = 512

Group = tuple[int, ...]
Key = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The perfect-play result for the player to move: win or loss, and in how many plies."""

    wins: bool
    plies: int

    @property
    def outcome(self) -> str:
        """``"win"`` or ``"loss"``, as docs/rules.md writes it."""
        return "win" if self.wins else "loss"

    @classmethod
    def from_value(cls, value: int) -> Verdict:
        return cls(True, _LIMIT - value) if value > 0 else cls(False, value + _LIMIT)

    def after_move(self) -> Verdict:
        """Seen from the player who moved into a position with this verdict."""
        return Verdict(not self.wins, self.plies + 1)

    def __str__(self) -> str:
        return f"{self.outcome} in {self.plies}"


@dataclass(frozen=True, slots=True)
class MoveVerdict:
    """One legal move, the position it leaves, and its verdict for the player making it."""

    move: Move
    result: Position
    verdict: Verdict

    @property
    def sort_key(self) -> tuple[int, int]:
        """Winning moves first, fastest first; then losing moves, longest resistance first."""
        return (0, self.verdict.plies) if self.verdict.wins else (1, -self.verdict.plies)


@dataclass(frozen=True, slots=True)
class Analysis:
    """A position, its verdict for the player to move, and every legal move's verdict."""

    position: Position
    verdict: Verdict
    moves: tuple[MoveVerdict, ...]

    @property
    def winning_moves(self) -> tuple[MoveVerdict, ...]:
        return tuple(item for item in self.moves if item.verdict.wins)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``soluna analyze --json`` (docs/rules.md)."""
        return {
            "position": str(self.position),
            "to_move": self.verdict.outcome,
            "plies": self.verdict.plies,
            "moves": [
                {
                    "move": str(item.move),
                    "result": str(item.result),
                    "outcome": item.verdict.outcome,
                    "plies": item.verdict.plies,
                }
                for item in self.moves
            ],
        }


@dataclass
class Budget:
    """Limits on one call: a wall-clock deadline, CPU seconds, a count of new positions, a cancel check.

    ``cpu_seconds`` counts the CPU time of the thread that spends the budget (``time.thread_time``), from
    its first look at it: unlike the wall clock, a loaded machine does not make it run out sooner, so a
    computer player's choice does not depend on what else the machine is doing.
    """

    seconds: float | None = None
    max_positions: int | None = None
    cancelled: Callable[[], bool] | None = None
    cpu_seconds: float | None = None

    def __post_init__(self) -> None:
        self._deadline = None if self.seconds is None else time.monotonic() + self.seconds
        self._cpu_deadline: float | None = None
        self.positions = 0

    @property
    def is_cancelled(self) -> bool:
        """The cancel check says stop."""
        return self.cancelled is not None and self.cancelled()

    def spend(self, positions: int) -> None:
        """Count ``positions`` newly solved; ``SearchAborted`` once a limit is passed."""
        self.positions += positions
        if self.max_positions is not None and self.positions > self.max_positions:
            raise SearchAborted(f"gave up after {self.positions} new positions")
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise SearchAborted(f"gave up after {self.seconds:g} seconds")
        if self.cpu_seconds is not None:
            used = time.thread_time()
            if self._cpu_deadline is None:
                self._cpu_deadline = used + self.cpu_seconds
            elif used > self._cpu_deadline:
                raise SearchAborted(f"gave up after {self.cpu_seconds:g} CPU seconds")
        if self.is_cancelled:
            raise SearchAborted("cancelled")


class Solver:
    """An exact endgame table built on demand and kept between calls.

    One solve runs at a time (a lock guards the tables); abort one with a ``Budget``.
    """

    def __init__(self) -> None:
        self._lock = threading.RLock()  # re-entered by the calls made under ``unless_busy``
        self.clear()

    @contextlib.contextmanager
    def unless_busy(self) -> Iterator[bool]:
        """Whether the solver is free (no other thread solving), kept for this thread's calls until the end of the
        block if so: a thread that must never wait (an app's event loop) asks only a free solver, and leaves a busy
        one to its workers (a hint being worked out holds it for seconds)."""
        free = self._lock.acquire(blocking=False)
        try:
            yield free
        finally:
            if free:
                self._lock.release()

    def clear(self) -> None:
        """Forget everything (a cold start)."""
        self._group_ids: dict[Group, int] = {(): 0}
        self._groups: list[Group] = [()]
        self._masks: list[int] = [0]
        self._merges: list[tuple[int, ...] | None] = [()]
        self._crossings: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        self._merge_lists: dict[int, tuple[int, ...]] = {}
        self._values: dict[Key, int] = {}

    @property
    def positions_solved(self) -> int:
        """How many positions (up to renaming symbols) the table holds."""
        return len(self._values)

    # ---- public questions ----------------------------------------------------------------

    def verdict(self, position: Position, budget: Budget | None = None) -> Verdict:
        """Win or loss for the player to move, and the plies to the end."""
        with self._lock:
            return Verdict.from_value(self._solve_root(self._key(position), budget))

    def analyse(self, position: Position, budget: Budget | None = None) -> Analysis:
        """The position's verdict and every legal move's, ordered as docs/rules.md says."""
        with self._lock:
            value = self._solve_root(self._key(position), budget)
            moves = []
            for move in position.legal_moves:
                result = position.after(move)
                child = self._values[self._key(result)]
                moves.append(MoveVerdict(move, result, Verdict.from_value(child).after_move()))
        moves.sort(key=lambda item: item.sort_key)
        return Analysis(position, Verdict.from_value(value), tuple(moves))

    def key(self, position: Position) -> Hashable:
        """``position`` up to renaming its symbols: positions with one key have alike trees and verdicts."""
        with self._lock:
            return self._key(position)

    def outcomes(self, key: Hashable) -> tuple[tuple[Hashable, Verdict], ...]:
        """Each legal move of a solved position, by ``key``: the key after it and its verdict for the mover.

        One entry a move, as ``Position.legal_moves`` counts them (two moves may lead to one key),
        found on the keys alone: a walk over a large tree builds no positions.
        """
        with self._lock:
            values = self._values
            return tuple((child, Verdict.from_value(values[child]).after_move())
                         for child in self._moves_of(key))  # type: ignore[arg-type]

    def is_solved(self, position: Position) -> bool:
        """Whether the answer for ``position`` is already in the table (so it is instant)."""
        return self._key(position) in self._values

    # ---- the table -----------------------------------------------------------------------

    def _key(self, position: Position) -> Key:
        heights: list[list[int]] = [[] for _ in Symbol]
        for tower in position.towers:
            heights[tower.symbol].append(tower.height)
        return tuple(sorted(self._group_id(tuple(sorted(group))) for group in heights))  # type: ignore[return-value]

    def _group_id(self, group: Group) -> int:
        """The small integer standing for a sorted tuple of heights."""
        found = self._group_ids.get(group)
        if found is None:
            found = self._group_ids[group] = len(self._groups)
            self._groups.append(group)
            mask = 0
            for height in group:
                mask |= 1 << height
            self._masks.append(mask)
            self._merges.append(None)
        return found

    def _merges_of(self, group_id: int) -> tuple[int, ...]:
        """Every group made by stacking two towers of this group (same symbol)."""
        found = self._merges[group_id]
        if found is None:
            group = self._groups[group_id]
            results = set()
            for first in range(len(group)):
                for second in range(first + 1, len(group)):
                    rest = [*group[:first], *group[first + 1 : second], *group[second + 1 :]]
                    rest.append(group[first] + group[second])
                    results.add(self._group_id(tuple(sorted(rest))))
            found = self._merges[group_id] = tuple(results)
        return found

    def _without(self, group_id: int, height: int, doubled: bool) -> int:
        """The group with one tower of ``height`` removed, or (``doubled``) grown to twice its height."""
        rest = list(self._groups[group_id])
        rest.remove(height)
        if doubled:
            rest.append(2 * height)
            rest.sort()
        return self._group_id(tuple(rest))

    def _crossings_of(self, first: int, second: int) -> tuple[tuple[int, int], ...]:
        """The two groups after a tower of one lands on an equal-height tower of the other, either way."""
        pair = (first, second)
        found = self._crossings.get(pair)
        if found is None:
            results = []
            without = self._without
            shared = self._masks[first] & self._masks[second]
            height = 0
            while shared:
                if shared & 1:
                    results.append((without(first, height, True), without(second, height, False)))
                    results.append((without(first, height, False), without(second, height, True)))
                shared >>= 1
                height += 1
            found = self._crossings[pair] = tuple(results)
        return found

    def _merge_moves(self, group_id: int) -> tuple[int, ...]:
        """The group after each move within it: two towers of different heights make two moves (either on the other)."""
        found = self._merge_lists.get(group_id)
        if found is not None:
            return found
        group = self._groups[group_id]
        moves = []
        heights = sorted(set(group))
        for index, first in enumerate(heights):
            for second in heights[index + (group.count(first) < 2):]:
                rest = list(group)
                rest.remove(first)
                rest.remove(second)
                merged = self._group_id(tuple(sorted([*rest, first + second])))
                moves.extend([merged] * (1 if first == second else 2))
        found = self._merge_lists[group_id] = tuple(moves)
        return found

    def _moves_of(self, key: Key) -> list[Key]:
        """The key after each legal move, repeats kept (``outcomes``)."""
        moves: list[Key] = []
        for index, group in enumerate(key):
            for merged in self._merge_moves(group):
                moves.append(tuple(sorted((*key[:index], merged, *key[index + 1:]))))  # type: ignore[arg-type]
        masks = self._masks
        for first in range(4):
            for second in range(first + 1, 4):
                if masks[key[first]] & masks[key[second]]:
                    rest = [group for index, group in enumerate(key) if index not in (first, second)]
                    for x, y in self._crossings_of(key[first], key[second]):
                        moves.append(tuple(sorted((x, y, *rest))))  # type: ignore[arg-type]
        return moves

    def _children(self, key: Key) -> set[Key]:
        """Every distinct position one move away, as keys."""
        a, b, c, d = key
        children: set[tuple[int, ...]] = set()
        add = children.add
        for merged in self._merges_of(a):
            add(tuple(sorted((merged, b, c, d))))
        for merged in self._merges_of(b):
            add(tuple(sorted((a, merged, c, d))))
        for merged in self._merges_of(c):
            add(tuple(sorted((a, b, merged, d))))
        for merged in self._merges_of(d):
            add(tuple(sorted((a, b, c, merged))))
        masks = self._masks
        crossings = self._crossings_of
        if masks[a] & masks[b]:
            for x, y in crossings(a, b):
                add(tuple(sorted((x, y, c, d))))
        if masks[a] & masks[c]:
            for x, y in crossings(a, c):
                add(tuple(sorted((x, b, y, d))))
        if masks[a] & masks[d]:
            for x, y in crossings(a, d):
                add(tuple(sorted((x, b, c, y))))
        if masks[b] & masks[c]:
            for x, y in crossings(b, c):
                add(tuple(sorted((a, x, y, d))))
        if masks[b] & masks[d]:
            for x, y in crossings(b, d):
                add(tuple(sorted((a, x, c, y))))
        if masks[c] & masks[d]:
            for x, y in crossings(c, d):
                add(tuple(sorted((a, b, x, y))))
        return children  # type: ignore[return-value]

    def _solve_root(self, key: Key, budget: Budget | None) -> int:
        found = self._values.get(key)
        if found is not None:
            return found
        if budget is None:
            return self._solve(key, None)
        budget.spend(0)
        return self._solve(key, budget)

    def _solve(self, key: Key, budget: Budget | None) -> int:
        """Depth-first, every child solved before its parent; the tables keep all of it."""
        values = self._values
        children = self._children(key)
        if not children:
            value = _LOST_NOW
        else:
            solve = self._solve
            # The best child for the mover is the one worst for the opponent.
            worst = min([values[child] if child in values else solve(child, budget) for child in children])
            value = -worst - 1 if worst < 0 else -worst + 1
        values[key] = value
        if budget is not None and len(values) % _CHECK_EVERY == 0:
            budget.spend(_CHECK_EVERY)
        return value


class ContextSolver:
    """The solver of whoever asks: the process's, or the one ``use_own_solver`` gave the asker's context.

    Each call goes to the solver of the context it is made in (a context variable): in a process that runs several
    players' apps (a house of sessions, ``online/house.py``), each app has a solver of its own, so one player's long
    proof never holds another's computer waiting on the table's lock, and a player's table goes with their app.
    """

    def __getattr__(self, name: str) -> Any:
        return getattr(self.in_context(), name)

    def in_context(self) -> Solver:
        """The solver calls made now go to."""
        return _solver_in_context.get() or _process_solver


def real_solver(solver: Solver) -> Solver:
    """``solver`` itself, or for ``shared_solver`` the solver of the current context: what a cache of a solver's
    keys must be kept by (a key means a position in one solver's table only)."""
    in_context = getattr(solver, "in_context", None)
    return in_context() if in_context is not None else solver


_process_solver = Solver()
_solver_in_context: contextvars.ContextVar[Solver | None] = contextvars.ContextVar("soluna_solver", default=None)


def use_own_solver() -> Solver:
    """From now on, in the current context and those made from it (an app's tasks, and its workers' threads where
    they run in a copy of it), ``shared_solver`` is a solver of this context's own."""
    solver = Solver()
    _solver_in_context.set(solver)
    return solver


#: The solver the app, the CLI and the computer players share, so work done once is reused (a house of sessions:
#: each app's own, ``ContextSolver``).
shared_solver: Solver = cast(Solver, ContextSolver())
