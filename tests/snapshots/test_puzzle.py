"""Puzzles: one solved (the table after the winning move, the new tower marked), and the choice of difficulty."""

from __future__ import annotations

from textual.pilot import Pilot

from soluna_tui.rules.puzzles import make_puzzle
from soluna_tui.widgets.board import JUMP_KEYS

from ..app.helpers import make_app
from .helpers import TWO_SIZES, idle

PUZZLE_SEED = 5


async def solve(pilot: Pilot) -> None:
    await idle(pilot)
    puzzle = make_puzzle(PUZZLE_SEED)
    towers = puzzle.position.towers
    mover = towers.index(puzzle.solution.mover)
    target = next(slot for slot, tower in enumerate(towers) if tower == puzzle.solution.target and slot != mover)
    await pilot.press(JUMP_KEYS[mover], "enter", JUMP_KEYS[target], "enter")
    await idle(pilot)


@TWO_SIZES
def test_a_solved_puzzle(snap_compare, tmp_path, size) -> None:
    app = make_app(tmp_path, puzzle=(PUZZLE_SEED, "any", 12))
    assert snap_compare(app, terminal_size=size, run_before=solve)


@TWO_SIZES
def test_the_difficulty_over_an_unsolved_puzzle(snap_compare, tmp_path, size) -> None:
    async def choose_the_difficulty(pilot: Pilot) -> None:
        await idle(pilot)
        await pilot.press("D")
        await idle(pilot)

    app = make_app(tmp_path, puzzle=(PUZZLE_SEED, "any", 12))
    assert snap_compare(app, terminal_size=size, run_before=choose_the_difficulty)
