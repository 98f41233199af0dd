"""Swindling: exact on the solved tree, and measurably better than perfect play and the old one-move rule."""

from __future__ import annotations

import random
from collections import Counter
from functools import partial

import pytest
from hypothesis import given, settings

from soluna_tui.rules import Budget, Position, Solver, drop, every_drop
from soluna_tui.rules.players import move_chances, top_chances, trap_chances
from soluna_tui.rules.strengths import PERFECT, STRENGTHS, TYPICAL_OPPONENT, Model
from soluna_tui.rules.swindle import Outcomes, Policy, Swindler, chances_to_win, swindler_for

from .strategies import positions

FALLIBLE = STRENGTHS[:-1]


@settings(max_examples=60, deadline=None)
@given(positions(max_discs=12))
def test_the_solver_lists_every_move_by_key_as_positions_do(position: Position) -> None:
    solver = Solver()
    analysis = solver.analyse(position)
    by_position = Counter((solver.key(item.result), item.verdict) for item in analysis.moves)
    assert Counter(solver.outcomes(solver.key(position))) == by_position


class Plainly:
    """The swindle chances walked on positions, without keys or the swindler's tables (slow and sure)."""

    def __init__(self, model: Model, solver: Solver) -> None:
        self.model, self.solver, self.known = model, solver, {}

    def losing(self, position: Position) -> float:
        return max((self.facing(item.result) for item in self.solver.analyse(position).moves), default=0.0)

    def facing(self, position: Position) -> float:
        if position not in self.known:
            replies = self.solver.analyse(position).moves
            chances = self.model.chances([reply.verdict for reply in replies])
            self.known[position] = sum(chance * (self.losing(reply.result) if reply.verdict.wins else 1.0)
                                       for reply, chance in zip(replies, chances, strict=True))
        return self.known[position]


def lost_to_move(position: Position) -> Position:
    """``position`` when its player to move loses with perfect play, else where its first winning move leads (its
    opponent to move there, and losing): most positions drawn win, and throwing them all away failed Hypothesis's
    health check now and then (50 thrown away for 8 kept)."""
    analysis = Solver().analyse(position)
    if not analysis.verdict.wins:
        return position
    return next(item.result for item in analysis.moves if item.verdict.wins)


@settings(max_examples=40, deadline=None)
@given(positions(max_discs=10).filter(lambda position: not position.is_blocked).map(lost_to_move)
       .filter(lambda position: not position.is_blocked))
def test_the_swindle_chances_are_those_of_the_whole_tree(position: Position) -> None:
    solver = Solver()
    analysis = solver.analyse(position)
    assert not analysis.verdict.wins
    for model in (STRENGTHS[2], STRENGTHS[6], TYPICAL_OPPONENT):
        exact = Swindler(solver).chances(Outcomes.of(analysis, solver).children, model)
        plainly = Plainly(model, solver)
        assert exact == pytest.approx([plainly.facing(item.result) for item in analysis.moves])


def lost_layouts() -> list[Position]:
    """Every layout of 12 discs lost for the opener, once each up to renaming symbols (13 of them)."""
    solver, found = Solver(), {}
    for start in every_drop(12):
        if not solver.verdict(start).wins:
            found.setdefault(solver.key(start), start)
    return list(found.values())


def test_swindling_wins_more_lost_starts_than_perfect_play_and_the_old_trap() -> None:
    """Against each strength, over the 13 lost layouts of 12 discs, weighed exactly: the top level swindling
    (knowing the strength, or not) wins more of them than the longest resistance and the one-move rule."""
    solver, starts = Solver(), lost_layouts()
    assert len(starts) == 13

    def won(way: Policy, strength) -> float:
        shares = chances_to_win(starts, way, lambda outcomes: strength.chances(outcomes.verdicts), solver)
        return sum(shares) / len(shares)

    for strength in FALLIBLE:
        perfect = won(lambda outcomes: PERFECT.chances(outcomes.verdicts), strength)
        old_trap = won(partial(trap_chances, solver=solver), strength)
        knowing = won(partial(top_chances, discs=12, opponent=strength, solver=solver), strength)
        assert knowing > old_trap > perfect, strength.label
        if strength.number > 1:  # the typical opponent never misses a win in 1: random is no model of it
            typical = won(partial(top_chances, discs=12, opponent=TYPICAL_OPPONENT, solver=solver), strength)
            assert knowing >= typical > old_trap, strength.label


def test_when_lost_the_top_level_plays_a_likeliest_swindle_and_when_winning_the_fastest_win() -> None:
    solver, lost = Solver(), 0
    for seed in range(30):
        rng = random.Random(seed)
        position = drop(12, rng)
        for _ in range(rng.randrange(4)):
            position = position.after(rng.choice(position.legal_moves)) if len(position) > 4 else position
        analysis = solver.analyse(position)
        played = {move for move, chance in move_chances("perfect", position, solver=solver) if chance > 0}
        if analysis.verdict.wins:
            assert played == {item.move for item in analysis.moves if item.verdict == analysis.verdict}
            continue
        lost += 1
        weights = swindler_for(solver).chances(Outcomes.of(analysis, solver).children, TYPICAL_OPPONENT)
        assert played <= {item.move for item, weight in zip(analysis.moves, weights, strict=True)
                          if weight == pytest.approx(max(weights))}
    assert lost > 5


def test_beyond_sixteen_discs_or_out_of_budget_the_one_move_rule_serves() -> None:
    solver = Solver()
    position = Position.parse("4M 4C 3C 2S 2* 2C")  # 17 discs, lost: the rules disagree here
    outcomes = Outcomes.of(solver.analyse(position), solver)
    rule = trap_chances(outcomes, solver)
    assert top_chances(outcomes, 16, TYPICAL_OPPONENT, solver) != rule
    assert top_chances(outcomes, 17, TYPICAL_OPPONENT, solver) == rule
    assert [chance for _, chance in move_chances("perfect", position, solver=solver)] == list(rule)
    cancelled = Budget(cancelled=lambda: True)
    assert top_chances(outcomes, 16, STRENGTHS[4], solver, cancelled) == rule
