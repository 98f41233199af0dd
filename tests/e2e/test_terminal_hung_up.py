"""A terminal that goes away without a hangup signal (its process was started in a session of its own on it):
``soluna`` ends within seconds, its match saved, instead of spinning on a terminal that reads as ended."""

from __future__ import annotations

import json
import os
import time

from soluna_tui.app.hangup import CHECK_SECONDS

from .pty_terminal import PtyTerminal
from .test_installed_command import SOLUNA, environment, pytestmark  # noqa: F401 (skip when not installed)
from .test_two_copies_and_odd_files import play_first_move

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def test_a_terminal_gone_without_a_hangup_ends_the_game_with_its_match_saved(tmp_path) -> None:
    terminal = PtyTerminal([str(SOLUNA), "play", "--seed", "1", "--data-dir", str(tmp_path)], env=environment())
    try:
        terminal.wait_for(lambda text: "to move" in text)
        play_first_move(terminal, "Player 1")
        spent = cpu_seconds(terminal.process.pid)
        os.close(terminal.master)  # the terminal goes: the process has no controlling terminal, so no SIGHUP
        deadline = time.monotonic() + CHECK_SECONDS + 10
        while terminal.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        if terminal.process.poll() is None:
            used = cpu_seconds(terminal.process.pid) - spent
            raise AssertionError(f"soluna still runs on a terminal gone {CHECK_SECONDS + 10:.0f} s ago "
                                 f"({used:.1f} s of CPU meanwhile)")
    finally:
        if terminal.process.poll() is None:
            terminal.process.kill()
        terminal.process.wait(timeout=5)
    save = json.loads((tmp_path / "current-match.json").read_text(encoding="utf-8"))
    assert save["match"]["rounds"][0]["moves"] == ["1:1S>2:1S"]  # the move played before the terminal went
