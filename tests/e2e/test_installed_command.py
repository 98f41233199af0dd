"""The installed ``soluna`` command in a real pseudo-terminal: start, play a move by keys, see it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pyte import graphics

from .pty_terminal import PtyTerminal

SOLUNA = Path(sys.executable).parent / "soluna"
pytestmark = pytest.mark.skipif(not SOLUNA.exists(), reason="the soluna command is not installed in this venv")


def environment(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "TEXTUAL")}
    env.update({"TERM": "xterm-256color", "LANG": "C.UTF-8", "COLUMNS": "80", "LINES": "24"}, **extra)
    return env


def test_play_a_move_by_keys_and_see_it_in_the_history(tmp_path) -> None:
    terminal = PtyTerminal([str(SOLUNA), "play", "--seed", "1", "--data-dir", str(tmp_path)], env=environment())
    try:
        terminal.wait_for(lambda text: "Player 1 to move" in text)
        assert "Round 1: Player 1 opened" in terminal.text
        terminal.send("\r")  # pick up tower 1
        terminal.wait_for(lambda text: "on a lit tower" in text)
        terminal.send("\x1b[C")  # right arrow
        terminal.pump(0.3)
        terminal.send(" ")  # place it
        # The history and the status line may reach the terminal in separate writes: wait for both.
        text = terminal.wait_for(lambda text: "1. Player 1" in text and "Player 2 to move" in text)
        assert "1S>1S" in text
        terminal.send("q")
        terminal.wait_for(lambda text: terminal.process.poll() is not None, timeout=10)
    finally:
        terminal.close()
    assert (tmp_path / "current-match.json").exists()


def test_ascii_mode_in_a_latin1_locale(tmp_path) -> None:
    terminal = PtyTerminal([str(SOLUNA), "play", "--seed", "1", "--data-dir", str(tmp_path)],
                           env=environment(LANG="en_US.ISO-8859-1", LC_ALL="en_US.ISO-8859-1"))
    try:
        text = terminal.wait_for(lambda text: "Player 1 to move" in text)
        assert all(ord(char) < 128 for char in text), text
        assert "| S |" in text
    finally:
        terminal.close()


def test_dumb_terminal_gets_a_one_line_refusal() -> None:
    result = subprocess.run([str(SOLUNA)], env=environment(TERM="dumb"), capture_output=True, text=True,
                            stdin=subprocess.DEVNULL, timeout=30)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "TERM=dumb" in result.stderr and result.stdout == ""


def test_not_a_terminal_gets_a_one_line_refusal() -> None:
    result = subprocess.run([str(SOLUNA), "play"], env=environment(), capture_output=True, text=True,
                            stdin=subprocess.DEVNULL, timeout=30)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "interactive terminal" in result.stderr


def colours_on(terminal: PtyTerminal) -> set[str]:
    return {value for row in terminal.screen.buffer.values() for char in row.values() for value in (char.fg, char.bg)}


def test_no_color_is_respected(tmp_path) -> None:
    terminal = PtyTerminal([str(SOLUNA), "play", "--seed", "1", "--data-dir", str(tmp_path)],
                           env=environment(NO_COLOR="1"))
    try:
        terminal.wait_for(lambda text: "Player 1 to move" in text)
        terminal.pump(0.5)
        for colour in colours_on(terminal) - {"default"}:
            assert len(colour) == 6 and colour[0:2] == colour[2:4] == colour[4:6], f"{colour} is not a grey"
    finally:
        terminal.close()


def test_a_16_colour_terminal_gets_only_the_16_colours(tmp_path) -> None:
    terminal = PtyTerminal([str(SOLUNA), "play", "--seed", "1", "--data-dir", str(tmp_path)],
                           env=environment(TERM="xterm", COLORTERM=""))
    try:
        terminal.wait_for(lambda text: "Player 1 to move" in text)
        terminal.pump(0.5)
        named = {*graphics.FG_ANSI.values(), *graphics.BG_ANSI.values(), *graphics.FG_AIXTERM.values(),
                 *graphics.BG_AIXTERM.values()}
        assert colours_on(terminal) <= named | {"default"}
        assert len(colours_on(terminal)) > 3  # still in colour
    finally:
        terminal.close()
