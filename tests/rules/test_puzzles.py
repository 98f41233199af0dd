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
    puzzles = [make_puzzle(seed) for seed in range(100)]
    assert "8* 2S 2S" not in {str(puzzle.position) for puzzle in puzzles}
    assert all(len(puzzle.position.legal_moves) >= 2 for puzzle in puzzles)


@pytest.mark.parametrize("discs", range(2, PUZZLE_MIN_DISCS))
def test_too_few_discs_for_a_choice_is_said_at_once(discs: int) -> None:
    with pytest.raises(OptionError, match=f"at least {PUZZLE_MIN_DISCS} discs"):
        make_puzzle(1, ANY, discs)


@pytest.mark.parametrize("discs", [PUZZLE_MIN_DISCS, 8, 16])
def test_small_and_large_tables_still_give_puzzles(discs: int) -> None:
    puzzle = make_puzzle(11, "easy", discs)
    assert puzzle.position.disc_count <= discs and len(puzzle.position.legal_moves) >= MIN_CHOICES["easy"]


@pytest.mark.parametrize("difficulty", [ANY, *DIFFICULTIES])
def test_puzzles_are_positions_reached_in_play_never_the_untouched_table(difficulty: str) -> None:
    """Six of the hard puzzles of seeds 1-10 were the dropped discs, no move played (``1S 1S 1S 1M ...``)."""
    for seed in range(1, 11):
        position = make_puzzle(seed, difficulty).position
        assert position.disc_count == 12 and len(position.towers) < 12, (seed, str(position))


@pytest.mark.parametrize("difficulty", [ANY, *DIFFICULTIES])
def test_seeds_in_a_row_give_different_puzzles(difficulty: str) -> None:
    """Seeds 3 and 4 gave the same hard puzzle; any 16 seeds in a row now differ."""
    puzzles = [make_puzzle(seed, difficulty) for seed in range(20, 36)]
    assert len({str(puzzle.position) for puzzle in puzzles}) == 16


def test_a_seed_takes_its_puzzle_from_its_own_group() -> None:
    from soluna_tui.rules.puzzles import SEED_GROUPS, puzzle_group

    for seed in range(SEED_GROUPS + 3):
        assert puzzle_group(make_puzzle(seed, "hard").position) == seed % SEED_GROUPS
