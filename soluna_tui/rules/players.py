"""The computer players: pure functions of a position and a seeded random generator.

Each level gives every legal move a chance (``move_chances``) and ``choose_move`` draws one with
the generator, so a seed replays the same game. The levels are the strengths of ``strengths.py``;
beyond what a strength sees of the solver's verdicts, the top one swindles when lost
(``swindle.py``). The ways of choosing work on a position's ``Outcomes``, so a measure
(``swindle.chances_to_win``) weighs them exactly as they play.

The top level never plays a move it has not proved best: it solves on, however long the proof takes (a
cold start on 24 discs takes seconds), until its caller calls it off. The fallible levels that need the
solver give up on large positions after ``THINK_CPU_SECONDS`` of CPU time and guess (``greedy``): CPU
time, not the wall clock's, so a loaded machine does not change how they play (``think_budget``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence

from .errors import RoundOverError, SearchAborted
from .position import Move, Position
from .solver import Analysis, Budget, Solver, Verdict, shared_solver
from .strengths import GREEDY, LEVELS, PERFECT, RANDOM, TYPICAL_OPPONENT, Model, check_level, strength_of
from .swindle import EXACT_UP_TO, Outcomes, swindler_for

__all__ = ["LEVELS", "check_level", "choose_move", "choose_to_open", "move_chances"]

#: Positions with more discs than this may take seconds to solve, so the fallible levels give up in time.
SOLVE_FREELY_UP_TO = 18
#: The CPU time (of the thread thinking) a fallible level spends on a larger position before it guesses.
THINK_CPU_SECONDS = 3.0
#: Unsure whether a layout is won for the opener, the computer opens this often: people like to move first,
#: but not always (``choose_to_open``).
UNSURE_OPENS = 2 / 3
#: Swindle chances this close are equal (they are sums of products of float chances).
_SAME_CHANCE = 1e-12

#: Each legal move and the chance a player plays it.
Chances = tuple[tuple[Move, float], ...]


def think_budget(level: str, position: Position, cancelled: Callable[[], bool] | None = None) -> Budget:
    """What the computer at ``level`` may spend on ``position``; ``cancelled``: its caller calling it off.

    The top level solves on, however long it takes. The others solve freely up to ``SOLVE_FREELY_UP_TO``
    discs, and beyond for ``THINK_CPU_SECONDS`` of CPU time (the same on a loaded machine), then guess.
    """
    limited = not strength_of(level).is_perfect and position.disc_count > SOLVE_FREELY_UP_TO
    return Budget(cpu_seconds=THINK_CPU_SECONDS if limited else None, cancelled=cancelled)


def _legal(position: Position) -> tuple[Move, ...]:
    moves = position.legal_moves
    if not moves:
        raise RoundOverError(f"no legal move in {position}: the round is over")
    return moves


def uniform(moves: Sequence[Move]) -> Chances:
    """Each of ``moves`` as likely."""
    return tuple((move, 1 / len(moves)) for move in moves)


def draw(chances: Chances, rng: random.Random) -> Move:
    """One move, drawn by its chance (one ``rng.choice`` when all are alike, as the levels always did)."""
    moves = [move for move, chance in chances if chance > 0]
    weights = [chance for _, chance in chances if chance > 0]
    if len(set(weights)) == 1:
        return rng.choice(moves)
    return rng.choices(moves, weights)[0]


def greedy_chances(position: Position) -> Chances:
    """Win at once if possible; else avoid moves that let the opponent win at once. Needs no solver."""
    moves = _legal(position)

    def danger(move: Move) -> int:
        if _leaves_blocked(position, move):
            return 0  # the opponent cannot move: we win
        after = position.after(move)
        gives_away = any(_leaves_blocked(after, reply) for reply in after.legal_moves)
        return 2 if gives_away else 1

    dangers = [danger(move) for move in moves]
    return uniform([move for move, each in zip(moves, dangers, strict=True) if each == min(dangers)])


def _leaves_blocked(position: Position, move: Move) -> bool:
    """Whether ``move`` leaves no move. Only four towers or fewer can (any two differ in symbol), so
    larger tables are not looked at."""
    return len(position) <= 5 and position.after(move).is_blocked


def _evenly(picked: Sequence[bool]) -> tuple[float, ...]:
    """The picked moves, each as likely."""
    count = sum(picked)
    return tuple(1 / count if each else 0.0 for each in picked)


def _longest_among(verdicts: Sequence[Verdict], picked: Sequence[bool]) -> tuple[float, ...]:
    """Of the picked losing moves, those holding out longest, each as likely."""
    longest = max(verdict.plies for verdict, each in zip(verdicts, picked, strict=True) if each)
    return _evenly([each and verdict.plies == longest for verdict, each in zip(verdicts, picked, strict=True)])


def trap_chances(outcomes: Outcomes, solver: Solver) -> tuple[float, ...]:
    """Perfect when winning; when lost, the moves leaving the opponent the most wrong replies, one move
    deep (the old "trap" level; the top level's way beyond ``EXACT_UP_TO`` discs)."""
    verdicts = outcomes.verdicts
    if any(verdict.wins for verdict in verdicts):
        return PERFECT.chances(verdicts)

    def traps(child: Hashable) -> tuple[int, float]:
        replies = swindler_for(solver).node(child).verdicts
        wrong = sum(not verdict.wins for verdict in replies)
        return (wrong, wrong / len(replies))

    scores = [traps(child) for child in outcomes.children]
    return _longest_among(verdicts, [score == max(scores) for score in scores])


def top_chances(outcomes: Outcomes, discs: int, opponent: Model, solver: Solver,
                budget: Budget | None = None) -> tuple[float, ...]:
    """The top level: perfect when winning; when lost, the moves likeliest to win against ``opponent`` over
    the rest of the round, weighed exactly up to ``EXACT_UP_TO`` discs (else, or out of budget, as
    ``trap_chances``). Among equal chances: the longest resistance."""
    verdicts = outcomes.verdicts
    if any(verdict.wins for verdict in verdicts) or discs > EXACT_UP_TO:
        return trap_chances(outcomes, solver)
    try:
        weights = swindler_for(solver).chances(outcomes.children, opponent, budget)
    except SearchAborted:
        return trap_chances(outcomes, solver)
    return _longest_among(verdicts, [weight >= max(weights) - _SAME_CHANCE for weight in weights])


def move_chances(level: str, position: Position, *, solver: Solver = shared_solver, budget: Budget | None = None,
                 opponent: Model = TYPICAL_OPPONENT) -> Chances:
    """Each legal move with the chance the computer at ``level`` plays it (``opponent``: whom it swindles).

    ``budget``: what it may spend (``think_budget`` when ``None``). Out of budget, a fallible level guesses
    (``greedy``); the top level never does: ``SearchAborted`` goes to the caller.
    """
    strength = strength_of(level)
    if strength is RANDOM:
        return uniform(_legal(position))
    if strength is GREEDY:
        return greedy_chances(position)
    budget = budget if budget is not None else think_budget(level, position)
    if strength.is_perfect:
        analysis = _proved(position, solver, budget)
        shares = top_chances(Outcomes.of(analysis, solver), position.disc_count, opponent, solver, budget)
    else:
        solved = _analyse_or_none(position, solver, budget)
        if solved is None:
            return greedy_chances(position)
        analysis = solved
        shares = strength.chances([item.verdict for item in analysis.moves])
    return tuple((item.move, share) for item, share in zip(analysis.moves, shares, strict=True))


def choose_move(level: str, position: Position, rng: random.Random, *, solver: Solver = shared_solver,
                budget: Budget | None = None, opponent: Model = TYPICAL_OPPONENT) -> Move:
    """The move the computer at ``level`` plays in ``position`` (``move_chances``: out of budget, the top
    level raises ``SearchAborted`` and the others guess)."""
    return draw(move_chances(level, position, solver=solver, budget=budget, opponent=opponent), rng)


def random_move(position: Position, rng: random.Random) -> Move:
    """Any legal move, uniformly."""
    return draw(uniform(_legal(position)), rng)


def greedy_move(position: Position, rng: random.Random) -> Move:
    return draw(greedy_chances(position), rng)


def perfect_move(position: Position, rng: random.Random, *, solver: Solver = shared_solver,
                 budget: Budget | None = None) -> Move:
    """The fastest win when there is one, else the longest resistance (``SearchAborted`` out of budget)."""
    analysis = _proved(position, solver, budget if budget is not None else think_budget(PERFECT.level, position))
    shares = PERFECT.chances([item.verdict for item in analysis.moves])
    return draw(tuple((item.move, share) for item, share in zip(analysis.moves, shares, strict=True)), rng)


def trap_move(position: Position, rng: random.Random, *, solver: Solver = shared_solver,
              budget: Budget | None = None) -> Move:
    """The old "trap" level: ``trap_chances`` (``greedy`` out of budget)."""
    analysis = _analyse_or_none(position, solver, budget if budget is not None else Budget())
    if analysis is None:
        return greedy_move(position, rng)
    shares = trap_chances(Outcomes.of(analysis, solver), solver)
    return draw(tuple((item.move, share) for item, share in zip(analysis.moves, shares, strict=True)), rng)


def _proved(position: Position, solver: Solver, budget: Budget) -> Analysis:
    """The full analysis (``SearchAborted`` when the budget runs out first, ``RoundOverError`` with no move)."""
    _legal(position)
    return solver.analyse(position, budget)


def _analyse_or_none(position: Position, solver: Solver, budget: Budget) -> Analysis | None:
    """The full analysis, or ``None`` when the budget ran out first."""
    try:
        return _proved(position, solver, budget)
    except SearchAborted:
        return None


def choose_to_open(level: str, start: Position, rng: random.Random, *, solver: Solver = shared_solver,
                   budget: Budget | None = None) -> bool:
    """Whether the computer, having lost a round, chooses to open the next one.

    As a person would: it opens exactly when the layout is won for the opener if it sees the end of the
    round that far ahead (``Strength.sees``: level 10 always, the weak levels seldom on 12 discs, 1 and 2
    never); unsure, it guesses, opening with the chance ``UNSURE_OPENS``. Level 1 (``random``) flips a coin.
    """
    strength = strength_of(level)
    if strength is RANDOM:
        return rng.random() < 0.5
    if strength.uses_solver:
        try:
            verdict = solver.verdict(start, budget if budget is not None else think_budget(level, start))
        except SearchAborted:
            verdict = None
        if verdict is not None and (strength.is_perfect or rng.random() < strength.sees(verdict.plies)):
            return verdict.wins
    return rng.random() < UNSURE_OPENS
