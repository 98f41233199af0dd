"""The command palette with keys that arrive together: in order, never closing twice, never crashing."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from soluna_tui.screens.command_palette import OrderlyCommandPalette
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.stats import StatsScreen

from .burst import burst
from .helpers import game, help_and_palette, hot_seat, make_app, screen_text, wait_for_text


async def test_enter_twice_after_a_theme_changes_the_theme_and_then_picks_up_a_tower(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await burst(pilot, "ctrl+p", *"theme", "enter", *"nord", "enter", "enter")
        assert app.return_code is None and app.theme == "nord"
        assert [type(screen) for screen in app.screen_stack] == [GameScreen]
        assert game(app).picking.picked_slot == 0  # the last Enter reached the game, as typed slowly it would


async def test_enter_twice_after_a_command_runs_it_once(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await burst(pilot, "ctrl+p", *"analysis", "enter", "enter")
        assert app.return_code is None and game(app).table.analysis_on  # not turned on and off again
        assert [type(screen) for screen in app.screen_stack] == [GameScreen]


@pytest.mark.parametrize("typed", ["help", "undo", "zzz", ""])
async def test_enter_then_escape_at_once_never_crashes(tmp_path, typed: str) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await burst(pilot, "ctrl+p", *typed, "enter", "escape")
        assert app.return_code is None
        await pilot.pause(0.7)  # past the palette's "No matches" countdown
        assert app.return_code is None
        assert not isinstance(app.screen, OrderlyCommandPalette)


async def test_enter_right_after_typing_chooses_from_what_was_typed(tmp_path) -> None:
    """Not from the list of every command still showing from before the search."""
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await burst(pilot, "ctrl+p", *"statis", "enter")
        assert isinstance(app.screen, StatsScreen)
        assert not game(app).table.analysis_on


async def test_a_search_with_no_match_runs_nothing_on_enter(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await burst(pilot, "ctrl+p", *"zzz", "enter")
        await wait_for_text(pilot, app, "No matches found")
        assert isinstance(app.screen, OrderlyCommandPalette)
        assert not game(app).table.analysis_on
        await burst(pilot, "escape")
        assert isinstance(app.screen, GameScreen)


async def test_the_palette_offers_only_what_means_something_in_the_game(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        titles = [command.title for command in app.get_system_commands(app.screen)]
        for textual_only in ("Keys", "Maximize", "Minimize", "Screenshot"):
            assert textual_only not in titles
        for ours in ("Theme", "Quit", "Undo", "Hint", "Help", "New match"):
            assert ours in titles


async def test_in_ascii_mode_both_palettes_are_plain_ascii(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1), ascii_mode=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await burst(pilot, "ctrl+p")
        await wait_for_text(pilot, app, "Search for commands")
        text = screen_text(app)
        assert re.search(r"> +Search for commands\.\.\.", text) and text.isascii()
        await burst(pilot, *"theme", "enter")
        await wait_for_text(pilot, app, "Search for themes")
        text = screen_text(app)
        assert re.search(r"> +Search for themes\.\.\.", text) and text.isascii()


@pytest.mark.parametrize("hints", [True, False])
async def test_on_this_terminal_help_and_palette_list_take_backs_puzzles_and_hints_where_allowed(tmp_path,
                                                                                                  hints) -> None:
    app = make_app(tmp_path, replace(hot_seat(seed=1), hints=hints))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        keys, titles = await help_and_palette(pilot, app)
        for listed in ("u / r", "r is a rematch", "R (shift+r)", "new match", "puzzles, statistics",
                       "the match is saved"):
            assert listed in keys
        assert ("H (shift+h)" in keys) is hints and ("A (shift+a)" in keys) is hints
        assert "Tab, Shift+Tab" not in keys and "back to the lobby" not in keys  # the lobby's keys, SSH's
        for offered in ("New match", "Undo", "Redo", "Resign", "Rematch", "Puzzles (any)", "Statistics",
                        "Replay a finished match", "Computer's pause", "Help", "Theme", "Quit"):
            assert offered in titles
        assert ("Hint" in titles) is hints and ("Analysis mode" in titles) is hints
        assert "Back to the lobby" not in titles
