"""The tests read the screen as text (``screen_text``) the quick way; it must agree with the app's own screenshot,
character for character: a game, a dialog over its dimmed board, a narrow layout, and a lobby whose names carry
characters of no width."""

from __future__ import annotations

import pytest

from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.help import HelpScreen

from .helpers import drawn_lines, hot_seat, make_app, screen_text, screenshot_text, wait_for, welcomed_session


@pytest.mark.parametrize("size", [(80, 24), (40, 20), (120, 40)])
async def test_the_screen_read_as_text_is_the_screenshot_s_text(tmp_path, size) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, app, lambda: isinstance(app.screen, GameScreen), "the game")
        await pilot.press("right", "enter")  # a tower picked up: its targets lit
        await pilot.pause()
        assert screen_text(app) == screenshot_text(app)
        assert "Ann" in screen_text(app)
        await pilot.press("question_mark")
        await wait_for(pilot, app, lambda: isinstance(app.screen, HelpScreen), "the help")
        text = screen_text(app)
        assert text == screenshot_text(app)
        assert len(text.splitlines()) == size[1]


async def test_a_lobby_s_names_read_as_the_screenshot_shows_them() -> None:
    """A name as an SSH client may give it, a zero-width space in it: left out, as the screenshot leaves it out."""
    with welcomed_session("ann\u200b") as app:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, app, lambda: "Welcome, ann." in screenshot_text(app), "the lobby")
            assert any("\u200b" in line for line in drawn_lines(app))
            assert screen_text(app) == screenshot_text(app)
            assert "Welcome, ann." in screen_text(app)
