"""The tests, and every process they start, see the same environment and terminal whatever machine runs them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .e2e.pty_terminal import PtyTerminal
from .known_environment import XDG_FOLDERS, known_environment

#: What a 200x50 terminal under ``TERM=dumb`` with ``NO_COLOR`` and a POSIX locale would hand the run.
CALLER = {"PATH": "/usr/bin:/bin", "COLUMNS": "200", "LINES": "50", "TERM": "dumb", "NO_COLOR": "1",
          "COLORTERM": "truecolor", "LANG": "en_US.ISO-8859-1", "LC_ALL": "POSIX", "LC_CTYPE": "C", "HOME": "/root",
          "XDG_DATA_HOME": "/root/data", "TEXTUAL": "debug", "TEXTUAL_FPS": "5", "SSH_AUTH_SOCK": "/tmp/agent",
          "PYTHONPATH": "/src", "TEXTUAL_SNAPSHOT_TEMPDIR": "/tmp/snapshots"}


def test_the_callers_terminal_locale_home_and_agent_are_replaced_and_the_rest_kept() -> None:
    home = Path("/tmp/soluna-test-home-x")
    assert known_environment(CALLER, home) == {
        "PATH": "/usr/bin:/bin", "PYTHONPATH": "/src", "TEXTUAL_SNAPSHOT_TEMPDIR": "/tmp/snapshots",
        "TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": str(home),
        "XDG_CONFIG_HOME": f"{home}/.config", "XDG_DATA_HOME": f"{home}/.local/share",
        "XDG_STATE_HOME": f"{home}/.local/state", "XDG_CACHE_HOME": f"{home}/.cache", "XDG_RUNTIME_DIR": f"{home}/run"}


def test_this_run_has_the_known_environment_and_a_home_of_its_own() -> None:
    assert (os.environ["TERM"], os.environ["LANG"]) == ("xterm-256color", "C.UTF-8")
    assert not {"COLUMNS", "LINES", "NO_COLOR", "LC_ALL"} & set(os.environ)
    home = Path(os.environ["HOME"])
    assert home == Path(os.environ["SOLUNA_TEST_POSTGRES"]) / "home"  # the run's folder, removed after it
    assert all(Path(os.environ[name]).is_dir() and Path(os.environ[name]).is_relative_to(home) for name in XDG_FOLDERS)


def test_a_child_started_without_an_environment_of_its_own_inherits_no_terminal_size() -> None:
    """Not even the one GNU readline put in the C library's environment, unseen by ``os.environ``."""
    code = "import os; print(os.environ.get('COLUMNS'), os.environ.get('LINES'), os.environ['TERM'])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout == "None None xterm-256color\n"


def test_a_child_on_a_pseudo_terminal_sees_its_size_whatever_the_callers_columns_and_lines(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("LINES", "50")
    code = "import shutil, time; print('size', *shutil.get_terminal_size(), 'end', flush=True); time.sleep(60)"
    terminal = PtyTerminal([sys.executable, "-c", code], columns=80, lines=24)
    try:
        assert "size 80 24 end" in terminal.wait_for(lambda text: "end" in text, timeout=30)
    finally:
        terminal.close()
