"""Swindling: from a lost position, the move a fallible opponent is likeliest to answer wrongly.

Against perfect play every move of a lost position loses; against a player who errs at a known
rate (a ``Model``: each move's chance, given the verdicts) they differ. ``Swindler`` computes on the
solved tree, exactly, the chance that the loser still wins when they choose every move to raise
it and the opponent plays by the model: the opponent's first move that throws the win away wins
the round (the loser plays perfectly from there). Kept between calls, as the solver's table is.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from .position import Position
from .solver import Analysis, Budget, Solver, Verdict, real_solver
from .strengths import Model

#: Larger positions have too large a tree to weigh every reply in a few seconds: the one-move rule serves.
EXACT_UP_TO = 16
#: How many newly weighed positions between two looks at the budget.
_CHECK_EVERY = 256



@dataclass(frozen=True, slots=True)
class Outcomes:
    """A position's legal moves, one entry a move: its verdict for the mover and the position key after it."""

    verdicts: tuple[Verdict, ...]
    children: tuple[Hashable, ...]

    @classmethod
    def of(cls, analysis: Analysis, solver: Solver) -> Outcomes:
        """In the order of ``analysis.moves``."""
        return cls(tuple(item.verdict for item in analysis.moves),
                   tuple(solver.key(item.result) for item in analysis.moves))

    @classmethod
    def by_key(cls, key: Hashable, solver: Solver) -> Outcomes:
        """A solved position's, from its key alone (``Solver.outcomes``), shortest first."""
        found = sorted(solver.outcomes(key), key=lambda outcome: outcome[1].plies)
        return cls(tuple(verdict for _, verdict in found), tuple(child for child, _ in found))


#: A way of playing, as the chance of each move of a position given its ``Outcomes``.
Policy = Callable[[Outcomes], Sequence[float]]


class Swindler:
    """The swindle chances over a solver's table, walked by position keys; one computation at a time."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver
        self._lock = threading.Lock()
        #: Each position walked.
        self._nodes: dict[Hashable, Outcomes] = {}
        #: Per model: the loser's chance at each position key (the loser to move, or the winner facing them).
        self._tables: dict[Model, dict[Hashable, float]] = {}
        #: Per model: its chances for a position's verdicts (positions alike in verdicts are many).
        self._chances: dict[Model, dict[tuple[Verdict, ...], tuple[float, ...]]] = {}
        self._new = 0

    def chances(self, children: Sequence[Hashable], model: Model, budget: Budget | None = None) -> tuple[float, ...]:
        """For each move of a lost position, by the key it leaves: the chance the round is still won after it."""
        if budget is not None:
            budget.spend(0)
        with self._lock:
            walk = _Walk(self, model, budget)
            return tuple(walk.facing(child) for child in children)

    def node(self, key: Hashable) -> Outcomes:
        """A solved position's ``Outcomes``, kept (walks, trap counts and measures come back to them)."""
        found = self._nodes.get(key)
        if found is None:
            found = self._nodes[key] = Outcomes.by_key(key, self.solver)
        return found

    def kept(self, budget: Budget | None) -> None:
        """One more position weighed: a look at the budget now and then."""
        self._new += 1
        if budget is not None and self._new % _CHECK_EVERY == 0:
            budget.spend(_CHECK_EVERY)


class _Walk:
    """One computation: the swindler's tables for one model, and the budget."""

    def __init__(self, swindler: Swindler, model: Model, budget: Budget | None) -> None:
        self.swindler = swindler
        self.model = model
        self.budget = budget
        self.table = swindler._tables.setdefault(model, {})
        self.chances = swindler._chances.setdefault(model, {})

    def losing(self, key: Hashable) -> float:
        """The loser to move: their best chance."""
        found = self.table.get(key)
        if found is None:
            found = max(map(self.facing, self.swindler.node(key).children), default=0.0)
            self.table[key] = found
            self.swindler.kept(self.budget)
        return found

    def facing(self, key: Hashable) -> float:
        """The winner to move, playing by the model: the loser's chance."""
        found = self.table.get(key)
        if found is None:
            node = self.swindler.node(key)
            verdicts, children = node.verdicts, node.children
            chances = self.chances.get(verdicts)
            if chances is None:
                chances = self.chances[verdicts] = self.model.chances(verdicts)
            found = 0.0
            for verdict, chance, child in zip(verdicts, chances, children, strict=True):
                if chance:
                    found += chance * (self.losing(child) if verdict.wins else 1.0)
            self.table[key] = found
            self.swindler.kept(self.budget)
        return found


_swindlers: weakref.WeakKeyDictionary[Solver, Swindler] = weakref.WeakKeyDictionary()


def swindler_for(solver: Solver) -> Swindler:
    """The swindler over ``solver``'s table (one per solver, so its chances are kept too)."""
    solver = real_solver(solver)
    found = _swindlers.get(solver)
    if found is None:
        found = _swindlers[solver] = Swindler(solver)
    return found


def chances_to_win(starts: Iterable[Position], mover: Policy, other: Policy, solver: Solver) -> list[float]:
    """For each start: the exact chance the player to move wins when both play by their policies.

    A measure, not play: how a way of playing fares from given positions, with no dice thrown.
    """
    memo: dict[tuple[Hashable, bool], float] = {}
    node_of = swindler_for(solver).node

    def chance(key: Hashable, first: bool) -> float:
        found = memo.get((key, first))
        if found is None:
            node = node_of(key)
            shares = (mover if first else other)(node) if node.children else ()
            found = memo[key, first] = sum(share * (1 - chance(child, not first))
                                           for child, share in zip(node.children, shares, strict=True) if share)
        return found

    keys = []
    for start in starts:
        solver.verdict(start)
        keys.append(solver.key(start))
    return [chance(key, True) for key in keys]
