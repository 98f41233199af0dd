"""Puzzles: positions from real games where exactly one move wins.

A puzzle comes from a seed: a standard drop, then random legal moves, stopping at
the first position (after a random number of moves) whose player to move has
exactly one winning move among enough legal moves to make finding it a choice,
and whose length fits the difficulty.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .errors import OptionError
from .layout import DEFAULT_DISCS, drop
from .position import Move, Position
from .solver import Budget, Solver, shared_solver
from .teaching import best_line

#: Plies to the end (with the winning move) for each difficulty.
DIFFICULTIES: dict[str, tuple[int, int]] = {"easy": (1, 3), "medium": (4, 7), "hard": (8, 23)}
ANY = "any"
#: The fewest legal moves a puzzle of each difficulty offers: with one move there is nothing to find.
MIN_CHOICES: dict[str, int] = {ANY: 3, "easy": 3, "medium": 5, "hard": 8}
#: Below this, no position has one winning move among several (with 3 or 4 discs there is never a choice).
PUZZLE_MIN_DISCS = 5
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
                solver: Solver = shared_solver, budget: Budget | None = None) -> Puzzle:
    """The puzzle for ``seed``: always the same one for the same seed, difficulty and discs."""
    low, high = DIFFICULTIES.get(check_difficulty(difficulty), (1, 23))
    if discs < PUZZLE_MIN_DISCS:
        raise OptionError(f"puzzles need at least {PUZZLE_MIN_DISCS} discs: with {discs} there is no choice to make")
    rng = random.Random(f"soluna-puzzle/{seed}/{difficulty}/{discs}")
    for _ in range(_ATTEMPTS):
        position = drop(discs, rng)
        for _ in range(rng.randrange(discs - 1)):
            if position.is_blocked:
                break
            position = position.after(rng.choice(position.legal_moves))
        if len(position.legal_moves) < MIN_CHOICES[difficulty]:
            continue
        analysis = solver.analyse(position, budget)
        winning = analysis.winning_moves
        if len(winning) == 1 and low <= winning[0].verdict.plies <= high:
            return Puzzle(position, winning[0].move, winning[0].verdict.plies, seed, difficulty)
    raise OptionError(f"no {difficulty} puzzle found with {discs} discs (seed {seed}); "
                      "try an easier difficulty or more discs")


def refutation(position: Position, move: Move, solver: Solver = shared_solver) -> list[Move]:
    """Perfect play after a wrong ``move``: how the opponent wins from there."""
    return best_line(position.play(move), solver)
