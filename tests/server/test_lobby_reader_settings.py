"""A keyed player's settings for a braille display or a screen reader on the full screen over SSH (issue 41), kept
with the key and set from the palette (the tallest lobby has no line to spare at 80x24): the terminal's cursor on the
focus, shown at once as kept, and the game in lines from the next visit (what ``remember`` keeps in the line lobby).
A guest has the cursor for the visit only, and no lines next time: nothing would keep them."""

from __future__ import annotations

from soluna_tui.link.protocol import Link
from soluna_tui.online.screens.lobby import LobbyScreen

from ..app.helpers import screen_text
from .test_child_app import FakeServer, start, wait_for_screen
from .test_lobby_screens import welcome

KEPT = {"level": "greedy", "rules": "box", "stars": 2, "discs": 12, "opener": 0, "hints": False,
        "cursor_follows_focus": True}


def palette(app) -> dict:
    return {command.title: command.callback for command in app.get_system_commands(app.screen)}


async def test_a_keyed_player_finds_the_cursor_as_kept_and_keeps_the_lines_for_next_time_from_the_palette() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({**welcome(), "quick_match": True, "challenges": True, "choices": KEPT})
        await wait_for_screen(pilot, app, LobbyScreen, "Play the computer")
        assert app.cursor_follows_focus  # shown at once, as the key kept it
        x, y = app.cursor_position  # on the menu's highlighted entry
        assert screen_text(app).splitlines()[y][x:].startswith(str(app.focused.highlighted_option.prompt))
        palette(app)["Screen reader: play in lines next time"]()
        told = (await server.expect("keep_choices"))["choices"]
        assert told["screen_reader"] is True and told["cursor_follows_focus"] is True
        palette(app)["Cursor follows focus: turn off"]()
        await pilot.pause()
        assert not app.cursor_follows_focus
        told = (await server.expect("keep_choices"))["choices"]
        assert told["cursor_follows_focus"] is False and told["screen_reader"] is True  # the other kept as it was


async def test_a_guest_has_the_cursor_for_the_visit_and_no_lines_next_time() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({**welcome(rated=False), "quick_match": True, "challenges": True})
        await wait_for_screen(pilot, app, LobbyScreen, "Play the computer")
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        assert "Screen reader: play in lines next time" not in commands
        assert commands["Cursor follows focus: turn on"].help.endswith("(for this visit)")
        commands["Cursor follows focus: turn on"].callback()
        await pilot.pause()
        assert app.cursor_follows_focus


async def test_the_lobby_forgets_a_code_and_secret_whatever_of_its_fields_are_made_yet() -> None:
    """A keyed player seated straight back at their match as they connect is seated while the lobby is still being
    made: forgetting the code and the secret then must not look for a field not there yet (it crashed the session)."""
    from textual.widgets import Input

    from soluna_tui.online.panes.lobby_settings import LobbySettings

    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({**welcome(), "quick_match": True, "challenges": True})
        await wait_for_screen(pilot, app, LobbyScreen, "Play the computer")
        settings = app.screen.query_one(LobbySettings)
        settings.query_one("#code", Input).value = "ABCD"
        await settings.query_one("#secret", Input).remove()  # as if not made yet
        settings.forget()
        await pilot.pause()
        assert settings.query_one("#code", Input).value == "" and settings.secret_for is None
