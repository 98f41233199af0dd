"""``soluna play --cursor-follows-focus`` on a real pseudo-terminal (issue 41): the terminal's cursor is shown, on
the focused tower's top symbol, and goes with the focus to the next tower after a key. The positions the app
works out are ``tests/app/test_focus_cursor.py``'s."""

from __future__ import annotations

import pytest

from soluna_tui.rules import Symbol
from soluna_tui.terminal.glyphs import UNICODE

from .pty_terminal import PtyTerminal
from .test_installed_command import SOLUNA, environment

pytestmark = pytest.mark.skipif(not SOLUNA.exists(), reason="the soluna command is not installed in this venv")
SYMBOLS = {UNICODE.symbol(symbol) for symbol in Symbol}


def under_the_cursor(terminal: PtyTerminal) -> str:
    cursor = terminal.screen.cursor
    return terminal.screen.buffer[cursor.y][cursor.x].data


def test_the_cursor_is_shown_on_the_focused_tower_and_follows_a_key(tmp_path) -> None:
    terminal = PtyTerminal([str(SOLUNA), "play", "--seed", "1", "--data-dir", str(tmp_path), "--cursor-follows-focus"],
                           env=environment())
    try:
        terminal.wait_for(lambda text: "Player 1 to move" in text)
        terminal.pump(0.3)
        cursor = terminal.screen.cursor
        assert not cursor.hidden
        first = (cursor.x, cursor.y)
        assert under_the_cursor(terminal) in SYMBOLS, terminal.text
        terminal.send("\x1b[C")  # right arrow: the next tower
        terminal.wait_for(lambda text: (terminal.screen.cursor.x, terminal.screen.cursor.y) != first)
        terminal.pump(0.2)
        assert not terminal.screen.cursor.hidden
        assert terminal.screen.cursor.x > first[0] and under_the_cursor(terminal) in SYMBOLS, terminal.text
        terminal.send("q")
    finally:
        terminal.close()
