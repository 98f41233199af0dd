"""Puzzles worth solving: one winning move among enough legal moves, for every difficulty."""

from __future__ import annotations

import pytest

from soluna_tui.rules import OptionError, Solver
from soluna_tui.rules.puzzles import ANY, DIFFICULTIES, MIN_CHOICES, PUZZLE_MIN_DISCS, make_puzzle

SEEDS = range(0, 100, 7)


@pytest.mark.parametrize("difficulty", [ANY, *DIFFICULTIES])
def test_every_puzzle_is_a_choice_with_one_winning_move(difficulty: str) -> None:
    solver = Solver()
    low, high = DIFFICULTIES.get(difficulty, (1, 23))
    for seed in SEEDS:
        puzzle = make_puzzle(seed, difficulty, solver=solver)
        legal = puzzle.position.legal_moves
        assert len(legal) >= MIN_CHOICES[difficulty] >= 3, (seed, str(puzzle.position))
        assert low <= puzzle.plies <= high
        winning = [item.move for item in solver.analyse(puzzle.position).winning_moves]
        assert winning == [puzzle.solution]


def test_the_floors_rise_with_the_difficulty() -> None:
    floors = [MIN_CHOICES[name] for name in DIFFICULTIES]
    assert floors == sorted(floors) and min(MIN_CHOICES.values()) >= 2
    assert [low for low, _ in DIFFICULTIES.values()] == sorted(low for low, _ in DIFFICULTIES.values())


def test_the_one_move_puzzles_of_old_are_gone() -> None:
    """Seeds 0-99 used to give 24 puzzles like ``8* 2S 2S``, where the only legal move wins."""
    positions = {str(make_puzzle(seed).position) for seed in range(100)}
    assert "8* 2S 2S" not in positions
    assert all(len(make_puzzle(seed).position.legal_moves) >= 2 for seed in range(100))


@pytest.mark.parametrize("discs", range(2, PUZZLE_MIN_DISCS))
def test_too_few_discs_for_a_choice_is_said_at_once(discs: int) -> None:
    with pytest.raises(OptionError, match=f"at least {PUZZLE_MIN_DISCS} discs"):
        make_puzzle(1, ANY, discs)


@pytest.mark.parametrize("discs", [PUZZLE_MIN_DISCS, 8, 16])
def test_small_and_large_tables_still_give_puzzles(discs: int) -> None:
    puzzle = make_puzzle(11, "easy", discs)
    assert puzzle.position.disc_count <= discs and len(puzzle.position.legal_moves) >= MIN_CHOICES["easy"]
