"""Puzzles: positions reached in play where exactly one move wins.

A puzzle comes from a seed: a standard drop, then random legal moves (at least one: never the
untouched table), stopping at the first position (for any difficulty, from a random number of moves on)
whose player to move has exactly one winning move among enough legal moves to make finding it
a choice, and whose length fits the difficulty.

Different seeds give different puzzles: the puzzles are shared out among ``SEED_GROUPS``
groups by a hash of their position, and a seed takes its puzzle from its own group (its
remainder), so any ``SEED_GROUPS`` seeds in a row give as many different puzzles. Only where
a group holds none (a table of very few discs) does a seed take one from any group.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import OptionError
from .layout import DEFAULT_DISCS, drop
from .position import Move, Position

if TYPE_CHECKING:  # the solver is imported by what solves (the command line reads the difficulties without it)
    from .solver import Budget, Solver

#: Plies to the end (with the winning move) for each difficulty.
DIFFICULTIES: dict[str, tuple[int, int]] = {"easy": (1, 3), "medium": (4, 7), "hard": (8, 23)}
ANY = "any"
#: The fewest legal moves a puzzle of each difficulty offers: with one move there is nothing to find.
MIN_CHOICES: dict[str, int] = {ANY: 3, "easy": 3, "medium": 5, "hard": 8}
#: Below this, no position has one winning move among several (with 3 or 4 discs there is never a choice).
PUZZLE_MIN_DISCS = 5
#: Moves played from the drop before a position may be a puzzle: a position of a game in play,
#: never the untouched table (with 12 discs, no position one move in has a puzzle: they come later).
MIN_MOVES_PLAYED = 1
#: Seeds with different remainders by this take their puzzles from different groups.
SEED_GROUPS = 16
_ATTEMPTS = 10_000


@dataclass(frozen=True)
class Puzzle:
    """Find the only move that wins ``position``; it wins in ``plies``."""

    position: Position
    solution: Move
    plies: int
    seed: int
    difficulty: str

    def to_dict(self) -> dict[str, object]:
        """The shareable form printed by ``soluna puzzle --json``."""
        return {"position": str(self.position), "solution": str(self.solution), "plies": self.plies}

    def is_solution(self, move: Move) -> bool:
        return move == self.solution


def check_difficulty(difficulty: str) -> str:
    if difficulty != ANY and difficulty not in DIFFICULTIES:
        raise OptionError(f"unknown difficulty {difficulty!r}: use {', '.join([*DIFFICULTIES, ANY])}")
    return difficulty


def make_puzzle(seed: int, difficulty: str = ANY, discs: int = DEFAULT_DISCS,
                solver: Solver | None = None, budget: Budget | None = None) -> Puzzle:
    """The puzzle for ``seed``: always the same one for the same seed, difficulty and discs (solved by
    ``solver``, the shared one by default)."""
    if solver is None:
        from .solver import shared_solver

        solver = shared_solver
    low, high = DIFFICULTIES.get(check_difficulty(difficulty), (1, 23))
    if discs < PUZZLE_MIN_DISCS:
        raise OptionError(f"puzzles need at least {PUZZLE_MIN_DISCS} discs: with {discs} there is no choice to make")
    rng = random.Random(f"soluna-puzzle/{seed}/{difficulty}/{discs}")
    for group in (seed % SEED_GROUPS, None):  # the seed's own group, else (few discs) any
        for _ in range(_ATTEMPTS):
            # Any difficulty: from a random point of the game on, for puzzles of every length; a named
            # difficulty bounds the length itself, so every position after the first moves is a candidate.
            start = rng.randrange(MIN_MOVES_PLAYED, max(MIN_MOVES_PLAYED + 1, discs - 1)) if difficulty == ANY \
                else MIN_MOVES_PLAYED
            for position in _positions_in_play(discs, rng, start):
                if len(position.towers) - 1 < low:
                    break  # every move takes a tower away: too few left for a win this long, now and later
                if len(position.legal_moves) < MIN_CHOICES[difficulty]:
                    continue
                if group is not None and puzzle_group(position) != group:
                    continue
                winning = solver.analyse(position, budget).winning_moves
                if len(winning) == 1 and low <= winning[0].verdict.plies <= high:
                    return Puzzle(position, winning[0].move, winning[0].verdict.plies, seed, difficulty)
    raise OptionError(f"no {difficulty} puzzle found with {discs} discs (seed {seed}); "
                      "try an easier difficulty or more discs")


def _positions_in_play(discs: int, rng: random.Random, start: int) -> Iterator[Position]:
    """The positions of a game of random moves from a drop, from move ``start`` to the end."""
    position = drop(discs, rng)
    played = 0
    while not position.is_blocked:
        position = position.after(rng.choice(position.legal_moves))
        played += 1
        if played >= start:
            yield position


def puzzle_group(position: Position) -> int:
    """Which of the ``SEED_GROUPS`` groups a position belongs to (a stable hash of its notation)."""
    return zlib.crc32(str(position).encode()) % SEED_GROUPS


def refutation(position: Position, move: Move, solver: Solver | None = None) -> list[Move]:
    """Perfect play after a wrong ``move``: how the opponent wins from there (by ``solver``, the shared one
    by default)."""
    from .teaching import best_line

    if solver is None:
        from .solver import shared_solver

        solver = shared_solver
    return best_line(position.play(move), solver)
