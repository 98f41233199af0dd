"""The rules package imports nothing from the user interface."""

from __future__ import annotations

import subprocess
import sys


def test_rules_import_without_textual() -> None:
    code = (
        "import sys, soluna_tui.rules, soluna_tui.rules.players, soluna_tui.rules.solver\n"
        "soluna_tui.rules.shared_solver.verdict(soluna_tui.rules.Position.parse('1S 1M 2C'))\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'textual', 'rich', 'asyncssh'})\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
