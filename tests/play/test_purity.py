"""The play package (picker, coach, view) imports nothing of Textual, so it is tested without a pilot."""

from __future__ import annotations

import subprocess
import sys


def test_play_imports_without_textual() -> None:
    code = (
        "import sys, soluna_tui.play.picker, soluna_tui.play.coach, soluna_tui.play.view, soluna_tui.play.looks\n"
        "import soluna_tui.play.slots\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'textual', 'asyncssh'})\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
