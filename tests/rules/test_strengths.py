"""The strength scale: its names, how far each strength sees, the mistakes it makes, and its ratings."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from soluna_tui.rules import Move, OptionError, Position, Solver, drop
from soluna_tui.rules.players import choose_move, greedy_chances, move_chances
from soluna_tui.rules.solver import Verdict
from soluna_tui.rules.strengths import (
    GREEDY,
    LEVELS,
    PERFECT,
    RANDOM,
    STRENGTHS,
    TYPICAL_OPPONENT,
    check_level,
    seen_choice,
    strength_of,
)
from soluna_tui.server.rating_model import Rating

from .strategies import positions

FALLIBLE = STRENGTHS[1:-1]
solver = Solver()


def test_levels_are_named_by_number_and_by_their_old_names() -> None:
    assert LEVELS == ("random", "greedy", "3", "4", "5", "6", "7", "8", "9", "perfect")
    assert [strength_of(str(number)).number for number in range(1, 11)] == list(range(1, 11))
    assert check_level("1") == "random" and check_level("2") == "greedy" and check_level("7") == "7"
    assert check_level("10") == check_level("Perfect") == check_level("trap") == "perfect"
    assert PERFECT.label == "10 (perfect)" and strength_of("5").summary.startswith("5, rated ")
    for unknown in ("0", "11", "3.5", "", "genius"):
        with pytest.raises(OptionError, match="unknown computer level"):
            check_level(unknown)


def test_each_strength_sees_at_least_as_deep_as_the_one_below() -> None:
    for plies in range(1, 24):
        seen = [strength.sees(plies) for strength in STRENGTHS]
        assert seen == sorted(seen)
    assert RANDOM.sees(1) == 0 and PERFECT.sees(23) == 1
    # From strength 2 up a win in 1 is always seen, and so is a move that hands one over (a loss in 2).
    assert all(strength.sees(1) == strength.sees(2) == 1 for strength in STRENGTHS[1:])
    # A win in 9: strength 3 nearly never sees it, 6 seldom, 9 mostly.
    assert STRENGTHS[2].sees(9) < 0.01 < STRENGTHS[5].sees(9) < 0.1 < 0.5 < STRENGTHS[8].sees(9) < 1
    assert [strength.horizon for strength in STRENGTHS] == [0, 2, 3, 4, 5, 6, 7, 8, 9, 23]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.builds(Verdict, st.booleans(), st.integers(1, 12)), min_size=1, max_size=12),
       st.sampled_from(STRENGTHS))
def test_chances_are_a_mix_of_depth_limited_views(verdicts: list[Verdict], strength) -> None:
    verdicts = [Verdict(verdict.wins, 2 * (verdict.plies // 2) + verdict.wins) for verdict in verdicts]  # wins odd
    chances = strength.chances(verdicts)
    assert sum(chances) == pytest.approx(1)
    possible = {index for depth in range(0, 13) for index in seen_choice(verdicts, depth)}
    assert {index for index, chance in enumerate(chances) if chance > 0} <= possible


def playable(max_discs: int) -> st.SearchStrategy[Position]:
    return positions(max_discs=max_discs).filter(lambda position: not position.is_blocked)


@settings(max_examples=80, deadline=None)
@given(playable(12), st.sampled_from(STRENGTHS[1:]))
def test_no_strength_above_random_misses_a_win_in_1_or_hands_one_over(position: Position, strength) -> None:
    analysis = solver.analyse(position)
    played = {move for move, chance in move_chances(strength.level, position, solver=solver) if chance > 0}
    wins_now = {item.move for item in analysis.moves if item.verdict.wins and item.verdict.plies == 1}
    hands_over = {item.move for item in analysis.moves if not item.verdict.wins and item.verdict.plies == 2}
    if wins_now:
        assert played <= wins_now
    elif len(hands_over) < len(analysis.moves):
        assert not played & hands_over


def test_a_low_strength_misses_deep_wins_and_walks_into_traps() -> None:
    """Here the only win is 4C>4S, a win in 5; every other move walks into a loss in 4."""
    position = Position.parse("4S 4C 1C 1C 1C 1C")
    win = Move.parse("4C>4S")
    chances = [dict(move_chances(level, position, solver=solver)) for level in LEVELS[1:]]
    found = [chance[win] for chance in chances]
    assert found == sorted(found) and found[0] == pytest.approx(0.2) and found[-1] == 1
    # Strength 3 sees the traps 4 plies deep a third of the time, and the win beyond them seldom:
    three = strength_of("3")
    assert found[1] == pytest.approx(three.sees(4) + (1 - three.sees(4)) / 5) and found[1] < 0.5


@settings(max_examples=60, deadline=None)
@given(playable(12))
def test_random_and_greedy_play_as_their_strengths_see(position: Position) -> None:
    """The swindler models every strength by its chances; those of 1 and 2 are the moves they really play."""
    analysis = solver.analyse(position)
    verdicts = [item.verdict for item in analysis.moves]
    greedy = dict(greedy_chances(position))
    assert dict(zip([item.move for item in analysis.moves], GREEDY.chances(verdicts), strict=True)) == \
        pytest.approx({item.move: greedy.get(item.move, 0.0) for item in analysis.moves})
    assert RANDOM.chances(verdicts) == pytest.approx([1 / len(verdicts)] * len(verdicts))


@pytest.mark.parametrize("level", LEVELS)
def test_a_seed_replays_the_same_round(level: str) -> None:
    def moves(seed: int) -> list[str]:
        rng, position, played = random.Random(seed), drop(12, random.Random(7)), []
        while not position.is_blocked:
            move = choose_move((level, "5")[len(played) % 2], position, rng, solver=solver)
            played.append(str(move))
            position = position.after(move)
        return played

    assert moves(1) == moves(1)
    assert len({tuple(moves(seed)) for seed in range(6)}) > 1


def test_the_typical_opponent_never_lets_a_win_in_1_pass() -> None:
    assert RANDOM not in TYPICAL_OPPONENT.strengths
    chances = TYPICAL_OPPONENT.chances([Verdict(False, 6), Verdict(True, 1), Verdict(True, 7)])
    assert chances == pytest.approx((0.0, 1.0, 0.0))


def test_ratings_rise_with_strength_on_the_server_scale() -> None:
    mus = [strength.mu for strength in STRENGTHS]
    assert mus == sorted(mus) and len(set(mus)) == len(mus)
    assert sum(mus) / len(mus) == pytest.approx(25, abs=0.01)  # centred on a newcomer's mu
    for strength in STRENGTHS:
        assert 0 < strength.sigma < 1
        assert strength.rating == Rating(strength.mu, strength.sigma).shown
