"""Hints, reviews, advice and puzzles agree with the solver."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from soluna_tui.rules import Move, OptionError, Position, Round, Solver, drop
from soluna_tui.rules.puzzles import DIFFICULTIES, make_puzzle, refutation
from soluna_tui.rules.teaching import Hint, Judgement, best_line, opener_advice, review_round


def won_with_a_losing_move(solver: Solver) -> Position:
    for seed in range(100):
        position = drop(8, random.Random(seed))
        analysis = solver.analyse(position)
        if analysis.verdict.wins and any(not item.verdict.wins for item in analysis.moves):
            return position
    raise AssertionError("no won position with a losing move")


def test_judgements_follow_the_verdicts() -> None:
    solver = Solver()
    position = won_with_a_losing_move(solver)
    analysis = solver.analyse(position)
    played = Round(position)
    losing = next(item.move for item in analysis.moves if not item.verdict.wins)
    played.play(losing)
    review = review_round(played, solver)
    assert review.moves[0].judgement is Judgement.THREW
    assert review.first_blunder is review.moves[0]
    assert review.accuracy(0) == 0.0 and review.accuracy(1) is None


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_a_scripted_round_review_finds_the_known_blunder(seed: int) -> None:
    solver = Solver()
    rng = random.Random(seed)
    played = Round(drop(10, rng))
    blunder_ply = None
    while not played.is_over:
        analysis = solver.analyse(played.position)
        losing = [item for item in analysis.moves if not item.verdict.wins]
        if blunder_ply is None and analysis.verdict.wins and losing:
            blunder_ply = played.ply
            played.play(losing[0].move)
        else:
            played.play(analysis.moves[0].move)
    review = review_round(played, solver)
    if blunder_ply is None:
        assert review.first_blunder is None
    else:
        assert review.first_blunder.ply == blunder_ply
        blunderer = played.mover_at(blunder_ply)
        kept, made = review.kept_and_made(blunderer)
        assert kept == made - 1
    for item in review.moves:
        if item.judgement is not Judgement.THREW:
            assert item.after.wins == item.before.wins


def test_best_resistance_is_recognised() -> None:
    solver = Solver()
    position = Position.parse("4C 2M 2M 1* 1* 1C 1C")  # lost; 1*>1* holds out 6 plies, 4C>1C only 4
    assert not solver.verdict(position).wins
    for move, judgement, best in (("1*>1*", Judgement.BEST_RESISTANCE, True), ("4C>1C", Judgement.GAVE_IN, False)):
        played = Round(position)
        played.play(Move.parse(move))
        review = review_round(played, solver)
        assert review.moves[0].judgement is judgement
        # Giving in sooner is an error (marked ?): it does not count as keeping the best outcome.
        assert judgement.kept_best_outcome is best and review.kept_and_made(0) == (int(best), 1)


def test_a_move_is_shown_by_its_own_result_for_its_player() -> None:
    """One number per move everywhere: the move's result (``after``), never the position's value before it."""
    solver = Solver()
    position = won_with_a_losing_move(solver)
    analysis = solver.analyse(position)
    losing = next(item for item in analysis.moves if not item.verdict.wins)
    played = Round(position)
    played.play(losing.move)
    judged = review_round(played, solver).moves[0]
    assert judged.annotation == f"loss in {losing.verdict.plies}, threw the win away ??"
    assert judged.before.wins and str(judged.before) not in judged.annotation


def test_hint_steps() -> None:
    solver = Solver()
    analysis = solver.analyse(won_with_a_losing_move(solver))
    hint = Hint(analysis)
    assert "Ann can win, in" in hint.describe(1, "Ann")
    assert f"move the {hint.move.mover} tower" in hint.describe(2, "Ann")
    assert str(hint.move) in hint.describe(3, "Ann")
    assert hint.move in [item.move for item in analysis.winning_moves]


def test_best_line_reaches_the_end_in_the_promised_plies() -> None:
    solver = Solver()
    for seed in range(10):
        position = drop(11, random.Random(seed))
        line = best_line(position, solver)
        assert len(line) == solver.verdict(position).plies
        for move in line:
            position = position.play(move)
        assert position.is_blocked


def test_opener_advice_says_the_winning_choice() -> None:
    solver = Solver()
    for seed in range(10):
        start = drop(12, random.Random(seed))
        advice = opener_advice(start, solver)
        assert ("choose to open" in advice) == solver.verdict(start).wins


@pytest.mark.parametrize("seed", range(0, 1000, 37))
def test_puzzles_have_exactly_one_winning_move_which_is_the_solution(seed: int) -> None:
    solver = Solver()
    puzzle = make_puzzle(seed, solver=solver)
    analysis = solver.analyse(puzzle.position)
    assert [item.move for item in analysis.winning_moves] == [puzzle.solution]
    assert analysis.verdict.plies == puzzle.plies
    assert make_puzzle(seed, solver=solver) == puzzle  # the same seed, the same puzzle
    document = puzzle.to_dict()
    assert document == {"position": str(puzzle.position), "solution": str(puzzle.solution), "plies": puzzle.plies}
    assert Position.parse(document["position"]) == puzzle.position
    assert Move.parse(document["solution"]) == puzzle.solution


@pytest.mark.parametrize("difficulty", list(DIFFICULTIES))
def test_difficulty_bounds_the_plies(difficulty: str) -> None:
    low, high = DIFFICULTIES[difficulty]
    for seed in range(5):
        puzzle = make_puzzle(seed, difficulty)
        assert low <= puzzle.plies <= high


def test_a_wrong_answer_is_refuted_by_perfect_play() -> None:
    solver = Solver()
    puzzle = make_puzzle(3, solver=solver)
    wrong = next(move for move in puzzle.position.legal_moves if move != puzzle.solution)
    line = refutation(puzzle.position, wrong, solver)
    position = puzzle.position.play(wrong)
    for move in line:
        position = position.play(move)
    assert position.is_blocked
    assert len(line) % 2 == 1  # the opponent makes the last move: the solver of the puzzle is blocked


def test_unknown_difficulty_is_refused() -> None:
    with pytest.raises(OptionError, match="unknown difficulty"):
        make_puzzle(1, "nightmare")


def both_blunder(seed: int, solver: Solver) -> tuple[Round, dict[int, int | None]]:
    """A round where each player throws a win away at their first chance (once), and plays best otherwise."""
    played = Round(drop(10, random.Random(seed)))
    threw: dict[int, int | None] = {0: None, 1: None}
    while not played.is_over:
        analysis = solver.analyse(played.position)
        losing = [item for item in analysis.moves if not item.verdict.wins]
        mover = played.to_move
        if threw[mover] is None and analysis.verdict.wins and losing:
            threw[mover] = played.ply
            played.play(losing[0].move)
        else:
            played.play(analysis.moves[0].move)
    return played, threw


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_each_player_s_first_blunder_is_their_own(seed: int) -> None:
    """The review's "try again" against the computer starts from your mistake, not the computer's."""
    solver = Solver()
    played, threw = both_blunder(seed, solver)
    review = review_round(played, solver)
    for player in (0, 1):
        found = review.first_blunder_by(player)
        assert (found.ply if found is not None else None) == threw[player]
    assert review.first_blunder_by(None) is review.first_blunder
