"""mypy passes on the typed layers (``[tool.mypy] files`` in pyproject.toml), so CI runs it with the tests."""

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The layers checked strictly: the rules and the play logic every screen stands on, the link between
#: the SSH server and its children (what the server must never misread), the lobby that decides every
#: match, and the child's side of the link (its app, its remote table, the lobby's screens).
TYPED = {"soluna_tui/rules", "soluna_tui/play", "soluna_tui/link", "soluna_tui/server/lobby",
         "soluna_tui/server/child_app.py", "soluna_tui/server/remote_table.py", "soluna_tui/table.py",
         "soluna_tui/screens/lobby.py", "soluna_tui/screens/leaderboard.py", "soluna_tui/screens/record.py"}


def test_the_typed_layers_are_the_ones_mypy_checks_strictly() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert settings["strict"] is True
    assert TYPED <= set(settings["files"])


def test_mypy_passes_on_the_typed_layers() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout
