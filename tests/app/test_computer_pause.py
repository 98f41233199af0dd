"""The computer's pause before its move lands: a preference, set on the new-match screen or in the palette."""

from __future__ import annotations

import json

from soluna_tui.app.soluna_app import SolunaApp
from soluna_tui.local.preferences import Preferences
from soluna_tui.screens.game import GameScreen
from soluna_tui.widgets.choice import Choice

from .burst import burst
from .helpers import screen_text, wait_for_text


def app_with_preferences(data_dir) -> SolunaApp:
    """An app that takes the pause from the preferences, as ``soluna`` does (the tests' helper sets 0)."""
    return SolunaApp(data_dir=data_dir, offer_guided_round=False)


def remembered_pause(data_dir) -> float | None:
    return json.loads((data_dir / "preferences.json").read_text()).get("computer_pause")


async def test_the_new_match_screen_sets_the_pause_and_it_is_remembered(tmp_path) -> None:
    app = app_with_preferences(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.pause == 1.0 and (app.computer_pause, app.reveal_pause) == (0.5, 0.5)
        await pilot.press("right")  # against the computer: the pause is offered
        await pilot.pause()
        pause = app.screen.query_one("#pause", Choice)
        assert pause.display and "Computer's pause" in screen_text(app)
        pause.focus()
        await pilot.press("left", "left", "enter")  # 1 s, 0.5 s, none; start
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.pause == 0 and (app.computer_pause, app.reveal_pause) == (0, 0)
        assert remembered_pause(tmp_path) == 0
    again = app_with_preferences(tmp_path)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert (again.computer_pause, again.reveal_pause) == (0, 0)


async def test_the_pause_is_not_offered_for_two_players(tmp_path) -> None:
    app = app_with_preferences(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.screen.query_one("#pause", Choice).display
        assert "Computer's pause" not in screen_text(app)


async def test_the_palette_sets_the_pause(tmp_path) -> None:
    app = app_with_preferences(tmp_path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await burst(pilot, "ctrl+p", *"computer's pause", "enter")
        await wait_for_text(pilot, app, "1 s (now)")
        await burst(pilot, *"2 s", "enter")
        await pilot.pause()
        assert app.pause == 2.0 and (app.computer_pause, app.reveal_pause) == (1.5, 0.5)
        assert remembered_pause(tmp_path) == 2.0
        await wait_for_text(pilot, app, "The computer now pauses")  # a toast, in the sidebar's columns: it wraps
        await burst(pilot, "ctrl+p", *"computer's pause", "enter")
        await wait_for_text(pilot, app, "2 s (now)")
        await burst(pilot, *"none", "enter")  # said in words, not "now pauses none"
        await wait_for_text(pilot, app, "The computer no longer")


async def test_a_damaged_pause_in_the_preferences_is_ignored(tmp_path) -> None:
    Preferences(tmp_path).remember(theme="nord", computer_pause=3.0)
    path = tmp_path / "preferences.json"
    for damaged in ("forever", -1, 1e9, True):
        path.write_text(path.read_text().replace('"computer_pause": 3.0', f'"computer_pause": {json.dumps(damaged)}'))
        preferences = Preferences(tmp_path)
        assert preferences.problem is None and preferences.theme == "nord" and preferences.computer_pause is None
        app = app_with_preferences(tmp_path)
        assert app.pause == 1.0
        path.write_text(path.read_text().replace(f'"computer_pause": {json.dumps(damaged)}', '"computer_pause": 3.0'))
