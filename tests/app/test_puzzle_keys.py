"""The puzzle screen's difficulty key asks before it replaces an unsolved puzzle."""

from __future__ import annotations

from soluna_tui.rules.puzzles import make_puzzle
from soluna_tui.screens.difficulty import DifficultyScreen
from soluna_tui.screens.puzzle import PuzzleScreen

from .helpers import make_app, screen_text
from .test_teaching import play_by_keys_on, wait


async def test_difficulty_asks_before_replacing_an_unsolved_puzzle_and_escape_keeps_it(tmp_path) -> None:
    app = make_app(tmp_path, puzzle=(7, "any", 12))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait(pilot, app)
        screen = app.screen
        assert isinstance(screen, PuzzleScreen) and screen.puzzle == make_puzzle(7)
        await pilot.press("D")
        await pilot.pause()
        assert isinstance(app.screen, DifficultyScreen)
        assert "This puzzle is not" in screen_text(app)
        await pilot.press("escape")
        await wait(pilot, app)
        assert app.screen is screen and screen.puzzle == make_puzzle(7) and screen.difficulty == "any"
        await pilot.press("D", "down", "down", "down", "enter")  # any, easy, medium, hard
        await wait(pilot, app)
        assert app.screen is screen and screen.difficulty == "hard"
        assert screen.puzzle == make_puzzle(7, "hard")


async def test_difficulty_after_a_solved_puzzle_does_not_warn(tmp_path) -> None:
    app = make_app(tmp_path, puzzle=(7, "any", 12))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait(pilot, app)
        screen = app.screen
        puzzle = make_puzzle(7)
        await play_by_keys_on(pilot, screen, puzzle.position, puzzle.solution)
        await pilot.press("D")
        await pilot.pause()
        assert isinstance(app.screen, DifficultyScreen) and "This puzzle is not" not in screen_text(app)
        assert "Hard: 8+ legal moves, 8 or more plies" in screen_text(app)
        await pilot.press("down", "enter")
        await wait(pilot, app)
        assert screen.difficulty == "easy" and screen.puzzle == make_puzzle(7, "easy")


async def test_a_puzzle_answered_by_typing_it(tmp_path) -> None:
    """``:`` opened nothing on the puzzle screen, and the digits typed next picked towers up: it opens the
    prompt there as in a game; a wrong spelling says why and keeps the text, the answer typed is judged."""
    app = make_app(tmp_path, puzzle=(7, "any", 12))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait(pilot, app)
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        puzzle = make_puzzle(7)
        await pilot.press("colon", *"9x>1", "enter")
        await pilot.pause()
        assert screen.picking.move_prompt.is_open and screen.answered is None and screen.picking.picked_slot is None
        assert "Unknown symbol 'x' in '9x'" in screen_text(app)
        await pilot.press("escape")
        assert not screen.picking.move_prompt.is_open
        await pilot.press("colon", *str(puzzle.solution), "enter")
        await wait(pilot, app)
        assert screen.answered == puzzle.solution and screen.solved and not screen.picking.move_prompt.is_open
        assert "Solved" in screen_text(app)
