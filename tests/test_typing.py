"""mypy checks all of ``soluna_tui`` strictly, and ruff the whole tree: both run here, as tests, so the
README's test command (and ``.ci/run``, which runs it) checks them, alongside the other tests."""

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_checks_the_whole_package_strictly() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert settings["strict"] is True
    assert settings["files"] == ["soluna_tui"]


def test_the_package_passes_mypy_strict() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=280)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Success: no issues found" in done.stdout


def test_the_tree_passes_ruff() -> None:
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "soluna_tui", "tests", "benchmarks"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert "The second command of the first code block in README.md" in ci and 'bash -c "$command"' in ci
