"""The computer players: legal, reproducible, and as strong as their level says."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from soluna_tui.rules import LEVELS, Budget, OptionError, Position, Round, Solver, choose_move, choose_to_open, drop
from soluna_tui.rules.players import UNSURE_OPENS, greedy_move, move_chances, perfect_move, trap_move
from soluna_tui.rules.strengths import strength_of

from .strategies import positions


@settings(max_examples=60, deadline=None)
@given(positions(max_discs=14).filter(lambda p: not p.is_blocked), st.sampled_from(LEVELS), st.integers(0, 99))
def test_every_level_plays_a_legal_move_reproducibly(position: Position, level: str, seed: int) -> None:
    move = choose_move(level, position, random.Random(seed))
    assert move in position.legal_moves
    assert choose_move(level, position, random.Random(seed)) == move
    assert dict(move_chances(level, position))[move] > 0


def test_unknown_level_is_refused() -> None:
    with pytest.raises(OptionError, match="unknown computer level 'genius'"):
        choose_move("genius", Position.parse("1S 1S"), random.Random(0))


def gives_away_a_win(position: Position, move) -> bool:
    after = position.after(move)
    return any(after.after(reply).is_blocked for reply in after.legal_moves)


@settings(max_examples=200, deadline=None)
@given(positions(max_discs=16).filter(lambda p: not p.is_blocked), st.integers(0, 99))
def test_greedy_takes_a_win_in_one_and_avoids_giving_one(position: Position, seed: int) -> None:
    move = greedy_move(position, random.Random(seed))
    wins_now = [m for m in position.legal_moves if position.after(m).is_blocked]
    safe = [m for m in position.legal_moves if not gives_away_a_win(position, m)]
    if wins_now:
        assert move in wins_now
    elif safe:
        assert move in safe


def test_greedy_sees_the_win_in_one() -> None:
    assert str(greedy_move(Position.parse("2S 2M 1C"), random.Random(0))) in {"2S>2M", "2M>2S"}


@pytest.mark.parametrize("seed", range(6))
def test_perfect_wins_every_won_start_against_random(seed: int) -> None:
    rng = random.Random(seed)
    solver = Solver()
    start = next(p for p in (drop(12, rng) for _ in range(100)) if solver.verdict(p).wins)
    game = Round(start, opener=0)
    while not game.is_over:
        level = "perfect" if game.to_move == 0 else "random"
        game.play(choose_move(level, game.position, rng, solver=solver))
    assert game.outcome.winner == 0


def test_perfect_play_takes_the_fastest_win_and_the_longest_resistance() -> None:
    solver = Solver()
    for seed in range(30):
        position = drop(10, random.Random(seed))
        analysis = solver.analyse(position)
        move = perfect_move(position, random.Random(seed), solver=solver)
        chosen = next(item for item in analysis.moves if item.move == move)
        assert chosen.verdict == analysis.verdict


def test_the_old_trap_is_perfect_when_winning_and_sets_the_most_traps_when_losing() -> None:
    solver = Solver()
    checked_lost = 0
    for seed in range(40):
        position = drop(10, random.Random(seed))
        analysis = solver.analyse(position)
        move = trap_move(position, random.Random(seed), solver=solver)
        chosen = next(item for item in analysis.moves if item.move == move)
        if analysis.verdict.wins:
            assert chosen.verdict == analysis.verdict
        else:
            checked_lost += 1

            def wrong_replies(item):
                return sum(not reply.verdict.wins for reply in solver.analyse(item.result).moves)

            assert wrong_replies(chosen) == max(wrong_replies(item) for item in analysis.moves)
    assert checked_lost > 10


@pytest.mark.parametrize("level", ["3", "5", "9"])
def test_an_exhausted_budget_falls_back_to_a_legal_move(level: str) -> None:
    """A fallible level guesses; level 10 never does (``test_thinking_under_load.py``)."""
    position = drop(22, random.Random(1))
    solver = Solver()
    move = choose_move(level, position, random.Random(1), solver=solver, budget=Budget(max_positions=200))
    assert move in position.legal_moves
    assert not solver.is_solved(position)


def test_choosing_to_open_follows_the_verdict() -> None:
    solver = Solver()
    for seed in range(20):
        start = drop(12, random.Random(seed))
        assert choose_to_open("perfect", start, random.Random(0), solver=solver) == solver.verdict(start).wins
        assert choose_to_open("trap", start, random.Random(0), solver=solver) == solver.verdict(start).wins


def won_and_lost_starts(solver: Solver) -> tuple[Position, Position]:
    """A 12-disc layout won for the opener, and one lost for the opener."""
    starts = [drop(12, random.Random(seed)) for seed in range(40)]
    won = next(start for start in starts if solver.verdict(start).wins)
    lost = next(start for start in starts if not solver.verdict(start).wins)
    return won, lost


def share_moving_second(level: str, start: Position, solver: Solver, tries: int = 600) -> float:
    return sum(not choose_to_open(level, start, random.Random(dice), solver=solver) for dice in range(tries)) / tries


@pytest.mark.parametrize("level", ["greedy", "3"])
def test_a_weak_level_guesses_who_opens_as_a_person_does_not_always_itself(level: str) -> None:
    """Levels 2 and 3 never see the end of a 12-disc round from its start: they guess, opening two times in
    three, whether the layout is won or lost for the opener (a person's liking to move first, not a rule)."""
    solver = Solver()
    for start in won_and_lost_starts(solver):
        assert share_moving_second(level, start, solver) == pytest.approx(1 - UNSURE_OPENS, abs=0.06)


def test_a_fallible_level_moves_second_when_it_sees_the_round_lost_for_the_opener_else_guesses() -> None:
    solver = Solver()
    won, lost = won_and_lost_starts(solver)
    nine = strength_of("9")
    unsure = 1 - UNSURE_OPENS
    seen_won, seen_lost = nine.sees(solver.verdict(won).plies), nine.sees(solver.verdict(lost).plies)
    assert share_moving_second("9", won, solver) == pytest.approx((1 - seen_won) * unsure, abs=0.06)
    second = share_moving_second("9", lost, solver)
    assert second == pytest.approx(seen_lost + (1 - seen_lost) * unsure, abs=0.06)
    assert 0.4 < second < 0.95  # a round of 12 discs is at the edge of what strength 9 sees
