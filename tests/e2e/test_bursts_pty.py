"""Keys written to a real terminal in one go (as a paste or one SSH packet delivers them) play in order."""

from __future__ import annotations

from .pty_terminal import PtyTerminal
from .test_installed_command import SOLUNA, environment, pytestmark  # noqa: F401  (skipped without the command)


def test_bursts_written_in_one_go_play_in_order(tmp_path) -> None:
    terminal = PtyTerminal([str(SOLUNA), "play", "--seed", "1", "--data-dir", str(tmp_path)], env=environment())
    try:
        terminal.wait_for(lambda text: "Player 1 to move" in text)
        terminal.send("llll\r")  # four steps right, then Enter: one write
        terminal.wait_for(lambda text: "put 1M on a lit tower" in text)  # tower 5
        terminal.send("6\r")  # onto tower 6
        # The history and the status line may reach the terminal in separate writes: wait for both.
        text = terminal.wait_for(lambda text: "1. Player 1" in text and "Player 2 to move" in text)
        assert "1M>1M" in text
        terminal.send(":2>3\r4\r")  # a typed move (2M comes first now: towers 2 and 3 are 1S), then tower 4
        text = terminal.wait_for(lambda text: "2. Player 2" in text and "on a lit tower" in text)
        assert "1S>1S" in text and "Player 1: put 1S on a lit tower" in text
    finally:
        terminal.close()
