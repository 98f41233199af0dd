"""Keys written to a real terminal in one go (as a paste or one SSH packet delivers them) play in order."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

from .pty_terminal import PtyTerminal
from .test_installed_command import SOLUNA, environment, pytestmark  # noqa: F401  (skipped without the command)


@contextmanager
def hot_seat_match(data_dir) -> Iterator[PtyTerminal]:
    """``soluna play --seed 1`` on a fresh pseudo-terminal, once it shows the first turn; closed after."""
    terminal = PtyTerminal([str(SOLUNA), "play", "--seed", "1", "--data-dir", str(data_dir)], env=environment())
    try:
        terminal.wait_for(lambda text: "Player 1 to move" in text)
        yield terminal
    finally:
        terminal.close()


def test_bursts_written_in_one_go_play_in_order(tmp_path) -> None:
    with hot_seat_match(tmp_path) as terminal:
        terminal.send("llll\r")  # four steps right, then Enter: one write
        terminal.wait_for(lambda text: "put 1M on a lit tower" in text)  # tower 5
        terminal.send("6\r")  # onto tower 6
        # The history and the status line may reach the terminal in separate writes: wait for both.
        text = terminal.wait_for(lambda text: "1. Player 1" in text and "Player 2 to move" in text)
        assert "1M>1M" in text
        terminal.send(":2>3\r4\r")  # a typed move (2M comes first now: towers 2 and 3 are 1S), then tower 4
        text = terminal.wait_for(lambda text: "2. Player 2" in text and "on a lit tower" in text)
        assert "1S>1S" in text and "Player 1: put 1S on a lit tower" in text


def test_enter_twice_in_the_theme_palette_changes_the_theme_and_then_plays_on(tmp_path) -> None:
    """Textual's palette popped the game's screen on the second Enter (ScreenStackError) and the game stopped."""
    with hot_seat_match(tmp_path) as terminal:
        terminal.send("\x10")  # Ctrl+P
        terminal.wait_for(lambda text: "Search for commands" in text)
        terminal.send("theme")
        terminal.wait_for(lambda text: "Change the colours" in text)
        terminal.send("\r")
        terminal.wait_for(lambda text: "Search for themes" in text)
        terminal.send("nord")
        terminal.wait_for(lambda text: "nord" in text)
        terminal.send("\r\r")  # one write: the theme, then the game's Enter (pick up the tower in focus)
        terminal.wait_for(lambda text: "put 1S on a lit tower" in text)
        assert terminal.process.poll() is None
        assert json.loads((tmp_path / "preferences.json").read_text())["theme"] == "nord"


def test_a_command_then_escape_in_one_write_runs_the_command_and_plays_on(tmp_path) -> None:
    """Ctrl+P, a command, Enter and Escape written at once: the game ended on a second dismiss
    of the palette (or on ``NoMatches: CommandList``)."""
    with hot_seat_match(tmp_path) as terminal:
        terminal.send("\x10help\r\x1b")  # the help opens, and Escape closes it
        terminal.pump(1.0)
        terminal.send("\x10analysis\rl")  # analysis on, then a step right on the board
        text = terminal.wait_for(lambda text: "analysis on" in text and "┍━2━┑" in text)
        assert "Discs lie on the table" not in text and terminal.process.poll() is None


def test_escape_and_a_key_in_one_write_put_the_tower_back_then_do_the_key(tmp_path) -> None:
    """The terminal parser read ESC 3 as Option+3 ("£") and ESC l as Alt+L: the tower stayed lifted."""
    with hot_seat_match(tmp_path) as terminal:
        terminal.send("\r")
        terminal.wait_for(lambda text: "put 1S on a lit tower" in text)
        terminal.send("\x1b3")  # put back, then jump to tower 3
        terminal.wait_for(lambda text: "Player 1 to move" in text and "┍━3━┑" in text)
        terminal.send("\r")
        terminal.wait_for(lambda text: "put 1S on a lit tower" in text)
        terminal.send("\x1bl")  # put back, then a step right
        terminal.wait_for(lambda text: "Player 1 to move" in text and "┍━4━┑" in text)
        terminal.send("\r\x1b :2>3\r")  # lift, put back, lift again, put back by ':', type a move
        text = terminal.wait_for(lambda text: "1. Player 1" in text and "Player 2 to move" in text)
        assert "1S>1S" in text
