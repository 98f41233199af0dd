"""PostgreSQL is an extra: a player who only plays here installs no PostgreSQL driver, and a server asked for
a PostgreSQL database without it says in one line which extra to install."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: A Python without psycopg, as after ``pip install .`` (importing it fails as a missing package does).
WITHOUT_DRIVER = "import sys; sys.modules['psycopg'] = None; sys.modules['psycopg_pool'] = None; "


def test_the_game_alone_installs_no_postgresql_driver() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not [need for need in project["dependencies"] if need.startswith("psycopg")]
    extras = project["optional-dependencies"]
    assert any(need.startswith("psycopg[") for need in extras["postgres"])
    assert "soluna-tui[postgres]" in extras["test"]  # the tests run the PostgreSQL store too


def test_a_server_store_on_postgresql_without_the_driver_names_the_extra() -> None:
    """What ``soluna serve --database postgresql://...`` opens first: one line (a ``StorageError``, which the
    command prints as its error), the password never in it."""
    code = (WITHOUT_DRIVER + "from soluna_tui.server.storage import StorageError, describe_location, storage_for\n"
            "url = 'postgresql://soluna:hunter2@db.example/soluna'\n"
            "try:\n    storage_for(url)\nexcept StorageError as error:\n    print(error)\n"
            "print(describe_location(url))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0 and done.stderr == ""
    said, shown = done.stdout.splitlines()
    assert said.endswith("pip install 'soluna-tui[postgres]'") and shown == "postgresql://..."


def test_exporting_from_postgresql_without_the_driver_names_the_extra() -> None:
    code = (WITHOUT_DRIVER + "from soluna_tui.cli import main; "
            "sys.exit(main(['export', '--database', 'postgresql://soluna:hunter2@db.example/soluna', '--id', '1']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "soluna-tui[postgres]" in done.stderr and "hunter2" not in done.stderr
