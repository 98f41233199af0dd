"""The rules package imports nothing from the user interface."""

from __future__ import annotations

from ..fresh import modules_after


def test_rules_import_without_textual() -> None:
    loaded = modules_after(
        "import soluna_tui.rules, soluna_tui.rules.players, soluna_tui.rules.solver\n"
        "soluna_tui.rules.shared_solver.verdict(soluna_tui.rules.Position.parse('1S 1M 2C'))"
    )
    assert [name for name in loaded if name.split(".")[0] in {"textual", "rich", "asyncssh"}] == []
