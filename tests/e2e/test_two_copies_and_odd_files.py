"""The real ``soluna`` command on a PTY: odd files in the data directory, and two copies at once.

Every wait has a deadline, so a regression (a read that blocks on a pipe, a copy that
writes over the other) fails the test instead of hanging it.
"""

from __future__ import annotations

import json
import os

from .pty_terminal import PtyTerminal
from .test_installed_command import SOLUNA, environment, pytestmark  # noqa: F401 (skip when not installed)

ESCAPE = "\x1b"


def start(*argv: str) -> PtyTerminal:
    return PtyTerminal([str(SOLUNA), *argv], env=environment())


def quit_and_wait(terminal: PtyTerminal, key: str = "q") -> int:
    """Press ``key`` and return the exit status (the terminal is closed by the caller)."""
    terminal.send(key)
    terminal.wait_for(lambda _: terminal.process.poll() is not None, timeout=15)
    return terminal.process.wait(timeout=5)


def play_first_move(terminal: PtyTerminal, who: str) -> None:
    """Enter picks tower 1 up; right arrow and space put it on the next lit tower."""
    terminal.send("\r")
    terminal.wait_for(lambda text: "on a lit tower" in text)
    terminal.send("\x1b[C")
    terminal.pump(0.3)
    terminal.send(" ")
    terminal.wait_for(lambda text: f"1. {who}" in text)


def test_a_pipe_and_links_to_dev_zero_neither_hang_nor_eat_memory(tmp_path) -> None:
    os.mkfifo(tmp_path / "current-match.json")
    (tmp_path / "preferences.json").symlink_to("/dev/zero")
    (tmp_path / "stats.json").symlink_to("/dev/zero")
    terminal = start("--data-dir", str(tmp_path))
    try:
        text = terminal.wait_for(lambda text: "New match" in text and "is a pipe" in text, timeout=20)
        assert "Preferences unreadable" in text and "is a device" in text
        assert quit_and_wait(terminal, ESCAPE) == 0
    finally:
        terminal.close()
    aside = sorted(path.name.split(".corrupt-")[0] for path in tmp_path.glob("*.corrupt-*"))
    assert aside == ["current-match.json", "preferences.json"]  # stats are read when shown or counted


def test_two_copies_on_one_data_directory_each_keep_their_match(tmp_path) -> None:
    first = start("play", "--seed", "1", "--data-dir", str(tmp_path))
    second = None
    try:
        first.wait_for(lambda text: "Player 1 to move" in text)
        play_first_move(first, "Player 1")
        kept = json.loads((tmp_path / "current-match.json").read_text())["match"]
        second = start("--data-dir", str(tmp_path))
        text = second.wait_for(lambda text: "Another copy of Soluna has the saved match;" in text
                               and "New match" in text and "Start match" in text)
        assert "Welcome back" not in text  # not offered the first copy's match
        second.send("\r")  # start its own match
        second.wait_for(lambda text: "Player 1 to move" in text)
        play_first_move(second, "Player 1")
        assert json.loads((tmp_path / "current-match.json").read_text())["match"] == kept
        assert len(json.loads((tmp_path / "current-match-2.json").read_text())["match"]["rounds"][0]["moves"]) == 1
        first.send("\x1b[D")  # the first copy plays on, unaware
        assert quit_and_wait(second) == 0
        assert quit_and_wait(first) == 0
    finally:
        first.close()
        if second is not None:
            second.close()
    again = start("--data-dir", str(tmp_path))
    try:
        again.wait_for(lambda text: "Welcome back" in text and "move 2" in text)
    finally:
        again.close()
