"""Every footer fits 80 columns, in every state, in Unicode and ASCII: no key is cut off (issue 19).

The states are walked as a player reaches them: a tower in hand, the move prompt, undo and redo
both on offer, the history view, analysis on, the round and match over dialogs, a puzzle after a
wrong answer, a replay. Keys that do nothing where they are shown are not shown (the history view
offers no picking, typing or hints).
"""

from __future__ import annotations

import random

import pytest

from soluna_tui.rules import MatchOptions, choose_move
from soluna_tui.screens.match_over import MatchOverScreen
from soluna_tui.screens.puzzle import PuzzleScreen
from soluna_tui.screens.round_over import RoundOverScreen
from soluna_tui.widgets.history import History
from soluna_tui.widgets.key_footer import KeyFooter

from .helpers import footer_keys, game, hot_seat, make_app, play_by_keys, play_randomly_until

WIDTH = 80


def cut_keys(app) -> list[str]:
    """The keys the footer draws past the terminal's right edge (cut off), by description."""
    footer = app.screen.query_one(KeyFooter)
    return [placed.entry.description for placed in footer.placed if placed.end > app.size.width]


def assert_fits(app, state: str) -> None:
    cut = cut_keys(app)
    assert not cut, f"{state}: cut off at {app.size.width} columns: {cut}"


@pytest.mark.parametrize("ascii_mode", [False, True], ids=["unicode", "ascii"])
async def test_every_game_footer_fits_80_columns(tmp_path, ascii_mode) -> None:
    app = make_app(tmp_path, hot_seat(seed=7, stars_to_win=1), ascii_mode=ascii_mode)
    async with app.run_test(size=(WIDTH, 24)) as pilot:
        screen = game(app)
        assert_fits(app, "the start")
        await pilot.press("enter")
        await pilot.pause()
        assert_fits(app, "a tower in hand")
        await pilot.press("escape", "colon")
        await pilot.pause()
        assert_fits(app, "the move prompt")
        await pilot.press("escape")
        rng = random.Random(7)
        for _ in range(2):
            await play_by_keys(pilot, app, choose_move("random", screen.match.position, rng))
            await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        assert footer_keys(app).get("Undo") and footer_keys(app).get("Redo")
        assert_fits(app, "undo and redo")
        await pilot.press("A")
        await pilot.pause()
        assert_fits(app, "analysis on")
        await pilot.press("tab")
        await pilot.pause()
        assert isinstance(app.focused, History)
        assert_fits(app, "the history view")
        offered = footer_keys(app)
        assert not {"Pick/place", "Cancel", "Type", "Hint"} & set(offered), offered
        assert "Back to play" in offered
        await pilot.press("escape")
        await pilot.pause()
        await play_randomly_until(pilot, app, rng, RoundOverScreen, MatchOverScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert_fits(app, f"the {type(app.screen).__name__}")


@pytest.mark.parametrize("ascii_mode", [False, True], ids=["unicode", "ascii"])
async def test_the_puzzle_footer_fits_after_a_wrong_answer(tmp_path, ascii_mode) -> None:
    app = make_app(tmp_path, puzzle=(5, "any", 12), ascii_mode=ascii_mode)
    async with app.run_test(size=(WIDTH, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PuzzleScreen) and screen.puzzle is not None
        assert_fits(app, "a puzzle")
        wrong = next(move for move in screen.puzzle.position.legal_moves if not screen.puzzle.is_solution(move))
        arrangement = screen.picking_arrangement
        placed = arrangement.resolve(wrong)
        from soluna_tui.play.looks import JUMP_KEYS

        await pilot.press(JUMP_KEYS[placed.mover_slot], "enter", JUMP_KEYS[placed.target_slot], "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.answered == wrong and not screen.solved
        assert_fits(app, "a wrong answer")
        # Nothing frozen in mid-air: the table after the wrong move, that move marked, r takes it back.
        looks = screen.board.looks
        assert not any(look.picked or look.target for look in looks)
        assert looks[placed.mover_slot].tower is None and looks[placed.target_slot].last
        assert looks[placed.target_slot].tower == wrong.result
        await pilot.press("r")
        await pilot.pause()
        assert screen.answered is None and screen.board.looks[placed.mover_slot].tower == wrong.mover


async def test_the_replay_footer_fits(tmp_path) -> None:
    from soluna_tui.rules import Match
    from soluna_tui.screens.replay import ReplayScreen

    match = Match(MatchOptions(stars_to_win=1), ("Ann", "Bob"), seed=3)
    rng = random.Random(3)
    while not match.is_over:
        if match.round.outcome is not None:
            match.start_next_round(match.round.outcome.loser)
        else:
            match.play(choose_move("random", match.position, rng))
    for ascii_mode in (False, True):
        app = make_app(tmp_path / str(ascii_mode), ascii_mode=ascii_mode)
        async with app.run_test(size=(WIDTH, 24)) as pilot:
            await app.push_screen(ReplayScreen(match, ["A test match"], ascii_mode=ascii_mode))
            await pilot.pause()
            assert_fits(app, f"a replay ({'ASCII' if ascii_mode else 'Unicode'})")
