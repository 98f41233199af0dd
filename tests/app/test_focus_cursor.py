"""The terminal's real cursor on the focus (``--cursor-follows-focus``, issue 41): the position the app hands
Textual for each frame is the cell of the focused tower's top symbol, as the focus moves on the board, into a
dialog and back; and, with the option off, Textual's own (nothing worked out). The real terminal's side (the
cursor shown, and where) is ``tests/e2e/test_cursor_follows_focus_pty.py``."""

from __future__ import annotations

from soluna_tui.app.focus_cursor import cursor_wanted
from soluna_tui.local.preferences import Preferences
from soluna_tui.screens.new_match import NewMatchScreen
from soluna_tui.widgets.board import Board
from soluna_tui.widgets.choice import Choice

from .helpers import hot_seat, make_app, screen_text


def under_the_cursor(app) -> str:
    """The character the app puts the terminal's cursor on, read from what the screen shows."""
    x, y = app.cursor_position
    return screen_text(app).splitlines()[y][x]


def on_the_towers_top(app, board: Board) -> bool:
    """The cursor is on the top symbol of the tower the board's cursor is on, inside that tower's place."""
    slot = board.cursor
    tower = board.looks[slot].tower
    region = board.tower_widgets[slot].region
    return region.contains_point(app.cursor_position) and under_the_cursor(app) == board.glyphs.symbol(tower.symbol)


async def test_the_cursor_is_on_the_focused_towers_top_symbol_as_the_focus_moves(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=3, discs=8), cursor_follows_focus=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen.query_one(Board)
        assert board.has_focus
        assert on_the_towers_top(app, board)
        seen = {app.cursor_position}
        for key in ("right", "right", "left", "down", "end"):
            await pilot.press(key)
            await pilot.pause()
            assert on_the_towers_top(app, board), key
            seen.add(app.cursor_position)
        assert len(seen) >= 3  # it moved with the board's cursor
        on_the_board = app.cursor_position

        await pilot.press("n")  # the new-match dialog: its first setting has the focus
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)
        choice = app.focused
        assert isinstance(choice, Choice)
        value = choice.values[choice.index][0]
        x, y = app.cursor_position
        assert screen_text(app).splitlines()[y][x:x + len(value)] == value
        await pilot.press("down")  # the next setting
        await pilot.pause()
        assert app.focused is not choice and app.cursor_position.y > y

        await pilot.press("escape")  # back to the board: on the same tower
        await pilot.pause()
        assert app.screen.query_one(Board) is board
        assert app.cursor_position == on_the_board and on_the_towers_top(app, board)


async def test_the_palette_turns_it_on_and_off_and_it_is_remembered(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=3, discs=8))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen.query_one(Board)
        textuals = app.cursor_position  # off: Textual's own (where an input last put it), nothing worked out
        assert not on_the_towers_top(app, board)
        await pilot.press("right")
        assert app.cursor_position == textuals
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        commands["Cursor follows focus: turn on"].callback()
        await pilot.pause()
        assert app.cursor_follows_focus and on_the_towers_top(app, board)
        assert Preferences(tmp_path).cursor_follows_focus
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        commands["Cursor follows focus: turn off"].callback()
        await pilot.pause()
        assert not app.cursor_follows_focus and app.cursor_position == textuals
        assert not Preferences(tmp_path).cursor_follows_focus
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        commands["Screen reader: play in lines next time"].callback()  # as --screen-reader, remembered
        assert Preferences(tmp_path).screen_reader


def test_the_flag_is_remembered_and_soluna_cursor_decides_one_run(tmp_path) -> None:
    preferences = Preferences(tmp_path)
    assert not cursor_wanted(None, preferences, {})
    assert cursor_wanted(None, preferences, {"SOLUNA_CURSOR": "focus"})  # one run: nothing remembered
    assert not Preferences(tmp_path).cursor_follows_focus
    assert cursor_wanted(True, preferences, {})  # --cursor-follows-focus
    assert Preferences(tmp_path).cursor_follows_focus and cursor_wanted(None, Preferences(tmp_path), {})
    assert not cursor_wanted(None, Preferences(tmp_path), {"SOLUNA_CURSOR": "hidden"})
    assert not cursor_wanted(False, preferences, {})  # --no-cursor-follows-focus
    assert not Preferences(tmp_path).cursor_follows_focus
