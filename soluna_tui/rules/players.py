"""The computer players: pure functions of a position and a seeded random generator.

Ties are broken with the generator over moves in canonical order, so a seed
replays the same game. Levels that need the solver fall back to ``greedy`` when
their budget runs out (large positions), so the computer always answers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .errors import OptionError, RoundOverError, SearchAborted
from .position import Move, Position
from .solver import Analysis, Budget, MoveVerdict, Solver, shared_solver

LEVELS = ("random", "greedy", "trap", "perfect")
LEVEL_DESCRIPTIONS = {
    "random": "any legal move",
    "greedy": "looks one move ahead",
    "trap": "perfect, and sets traps when losing",
    "perfect": "never misses a win",
}
#: Positions with more discs than this may take seconds to solve, so levels give up in time.
SOLVE_FREELY_UP_TO = 18
DEFAULT_THINK_SECONDS = 3.0

T = TypeVar("T")


def check_level(level: str) -> str:
    """``level`` itself when it names a computer level, else ``OptionError``."""
    if level not in LEVELS:
        raise OptionError(f"unknown computer level {level!r}: use one of {', '.join(LEVELS)}")
    return level


def think_seconds(position: Position) -> float | None:
    """No time limit for positions solved in a blink; a few seconds for larger ones."""
    return None if position.disc_count <= SOLVE_FREELY_UP_TO else DEFAULT_THINK_SECONDS


def default_budget(position: Position) -> Budget:
    """The time a computer player takes over ``position`` (``think_seconds``)."""
    return Budget(seconds=think_seconds(position))


def _best(items: Sequence[T], key: Callable[[T], Any], rng: random.Random) -> T:
    """One of the items with the smallest key, chosen by ``rng``."""
    smallest = min(key(item) for item in items)
    return rng.choice([item for item in items if key(item) == smallest])


def _legal(position: Position) -> tuple[Move, ...]:
    moves = position.legal_moves
    if not moves:
        raise RoundOverError(f"no legal move in {position}: the round is over")
    return moves


def random_move(position: Position, rng: random.Random) -> Move:
    """Any legal move, uniformly."""
    return rng.choice(_legal(position))


def greedy_move(position: Position, rng: random.Random) -> Move:
    """Win at once if possible; else avoid moves that let the opponent win at once."""
    moves = _legal(position)

    def danger(move: Move) -> int:
        after = position.after(move)
        if after.is_blocked:
            return 0  # the opponent cannot move: we win
        gives_away = any(after.after(reply).is_blocked for reply in after.legal_moves)
        return 2 if gives_away else 1

    return _best(moves, danger, rng)


def perfect_move(position: Position, rng: random.Random, *, solver: Solver = shared_solver,
                 budget: Budget | None = None) -> Move:
    """The fastest win when there is one, else the longest resistance."""
    analysis = _analyse_or_none(position, solver, budget)
    if analysis is None:
        return greedy_move(position, rng)
    return _best(analysis.moves, lambda item: item.sort_key, rng).move


def trap_move(position: Position, rng: random.Random, *, solver: Solver = shared_solver,
              budget: Budget | None = None) -> Move:
    """Perfect when winning; when lost, the move leaving the opponent the most ways to go wrong."""
    analysis = _analyse_or_none(position, solver, budget)
    if analysis is None:
        return greedy_move(position, rng)
    if analysis.verdict.wins:
        return _best(analysis.moves, lambda item: item.sort_key, rng).move

    def traps(item: MoveVerdict) -> tuple[int, float, int]:
        replies = solver.analyse(item.result).moves
        wrong = sum(not reply.verdict.wins for reply in replies)
        return (-wrong, -wrong / len(replies), -item.verdict.plies)

    return _best(analysis.moves, traps, rng).move


def _analyse_or_none(position: Position, solver: Solver, budget: Budget | None) -> Analysis | None:
    """The full analysis, or ``None`` when the budget ran out first."""
    _legal(position)
    try:
        return solver.analyse(position, budget if budget is not None else default_budget(position))
    except SearchAborted:
        return None


def choose_move(level: str, position: Position, rng: random.Random, *, solver: Solver = shared_solver,
                budget: Budget | None = None) -> Move:
    """The move the computer at ``level`` plays in ``position``."""
    check_level(level)
    if level == "random":
        return random_move(position, rng)
    if level == "greedy":
        return greedy_move(position, rng)
    chooser = perfect_move if level == "perfect" else trap_move
    return chooser(position, rng, solver=solver, budget=budget)


def choose_to_open(level: str, start: Position, rng: random.Random, *, solver: Solver = shared_solver,
                   budget: Budget | None = None) -> bool:
    """Whether the computer, having lost a round, chooses to open the next one.

    ``trap`` and ``perfect`` open exactly when the layout is won for the opener;
    ``greedy`` likes to open; ``random`` flips a coin.
    """
    check_level(level)
    if level == "random":
        return rng.random() < 0.5
    if level == "greedy":
        return True
    try:
        return solver.verdict(start, budget if budget is not None else default_budget(start)).wins
    except SearchAborted:
        return True

