"""mypy checks all of ``soluna_tui`` strictly: the settings say so (``.ci/run`` runs mypy and ruff)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_checks_the_whole_package_strictly() -> None:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert settings["strict"] is True
    assert settings["files"] == ["soluna_tui"]


def test_ci_runs_mypy_and_ruff_after_the_readme_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert ".venv/bin/python -m mypy" in ci and ".venv/bin/python -m ruff check" in ci
