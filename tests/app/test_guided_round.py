"""The guided round: shown at a newcomer's first start at 80x24, played by keys step by step, skipped with one key,
never shown again once done or skipped, and reachable later from the help and the palette (on this terminal only)."""

from __future__ import annotations

import json

from soluna_tui.local.player_stats import StatsStore
from soluna_tui.play.guided import Step
from soluna_tui.play.looks import JUMP_KEYS
from soluna_tui.rules import Position
from soluna_tui.screens.guided_round import GuidedRoundScreen
from soluna_tui.screens.help import HelpScreen
from soluna_tui.screens.new_match import MATCH_LEVEL, NewMatchScreen
from soluna_tui.widgets.choice import Choice

from .burst import burst
from .helpers import footer_keys, make_app, screen_text, wait_for_text


def newcomer_app(data_dir):
    return make_app(data_dir, offer_guided_round=True)


async def play_a_fitting_move(pilot, screen: GuidedRoundScreen) -> None:
    """The first move the step takes, by the towers' keys (pick up, then put down)."""
    lesson = screen.lesson
    move = next(move for move in lesson.table.position.legal_moves if lesson.refusal(move) is None)
    placed = lesson.table.resolve(move)
    await pilot.press(JUMP_KEYS[placed.mover_slot], "enter", JUMP_KEYS[placed.target_slot], "enter")
    await pilot.pause()


def remembered(data_dir) -> dict:
    return json.loads((data_dir / "preferences.json").read_text())


async def test_a_first_start_teaches_a_round_step_by_step_then_offers_a_match_at_your_strength(tmp_path) -> None:
    app = newcomer_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GuidedRoundScreen)
        text = screen_text(app)
        assert "Step 1 of 4: pick a tower" in text and "n Skip" in text.splitlines()[-1]
        assert footer_keys(app).get("Help") is True
        await pilot.press("1", "enter")  # pick a tower up: every other tower is lit (all as high as it)
        await pilot.pause()
        assert "Step 2 of 4" in screen_text(app) and "SAME HEIGHT" in screen_text(app)
        assert sum(look.target for look in screen.board.looks) == 7
        await pilot.press("escape")  # put back: the step stays
        await pilot.pause()
        assert screen.lesson.step is Step.BY_HEIGHT
        await play_a_fitting_move(pilot, screen)
        assert screen.lesson.step is Step.BY_SYMBOL
        assert "The computer put" in screen_text(app) and "SAME SYMBOL" in screen_text(app)
        ones = [slot for slot, tower in enumerate(screen.lesson.table) if tower is not None and tower.height == 1]
        await pilot.press(JUMP_KEYS[ones[0]], "enter")
        await pilot.pause()
        held = screen.picking.picked_tower
        lit = [look.tower for look in screen.board.looks if look.target]
        assert held is not None and all(t.symbol == held.symbol and t.height != held.height for t in lit)
        await pilot.press(JUMP_KEYS[ones[1]], "enter")  # legal by height, not lit: refused, and why
        await pilot.pause()
        assert "Legal by height, but this step is about" in screen_text(app)
        assert screen.lesson.step is Step.BY_SYMBOL and screen.picking.picked_tower == held  # still in hand
        await pilot.press("escape")
        await play_a_fitting_move(pilot, screen)
        assert "Step 4 of 4: play on" in screen_text(app)
        while not screen.lesson.over:
            await play_a_fitting_move(pilot, screen)
        assert "LOSE" in screen_text(app) and "Enter goes on" in screen_text(app)
        footer = screen_text(app).splitlines()[-1]
        assert "Go on" in footer and "Start again" in footer and "Pick/place" not in footer and "Skip" not in footer
        assert Position(screen.lesson.table.towers).is_blocked
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)
        assert app.screen.query_one("#mode", Choice).value == "computer"
        assert app.screen.query_one("#level", Choice).value == MATCH_LEVEL
        assert remembered(tmp_path)["guided_round_done"] is True
    again = newcomer_app(tmp_path)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, NewMatchScreen)  # done once: not offered again


async def test_n_skips_it_to_the_new_match_form_and_it_is_not_shown_again(tmp_path) -> None:
    app = newcomer_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GuidedRoundScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)
        assert remembered(tmp_path)["guided_round_done"] is True
    again = newcomer_app(tmp_path)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, NewMatchScreen)


async def test_a_player_with_stats_or_a_finished_match_is_no_newcomer(tmp_path) -> None:
    StatsStore(tmp_path / "stats").update(lambda stats: stats)
    (tmp_path / "finished" / "finished").mkdir(parents=True)
    for data_dir in (tmp_path / "stats", tmp_path / "finished"):
        app = newcomer_app(data_dir)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, NewMatchScreen), data_dir


async def test_the_help_and_the_palette_open_it_later_and_it_goes_back_where_it_was(tmp_path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and "New to Soluna? Press g" in screen_text(app)
        assert footer_keys(app).get("Guided round") is True
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, GuidedRoundScreen)
        assert not any(isinstance(screen, HelpScreen) for screen in app.screen_stack)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)
        await burst(pilot, "ctrl+p", *"guided round")
        await wait_for_text(pilot, app, "Learn to play")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GuidedRoundScreen)


async def test_it_is_covered_by_the_too_small_notice_below_40x20(tmp_path) -> None:
    app = newcomer_app(tmp_path)
    async with app.run_test(size=(39, 20)) as pilot:
        await pilot.pause()
        assert any(isinstance(screen, GuidedRoundScreen) for screen in app.screen_stack)
        assert "too small" in screen_text(app).lower()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert isinstance(app.screen, GuidedRoundScreen) and "Step 1 of 4" in screen_text(app)
