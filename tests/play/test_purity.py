"""The play package (picker, coach, view, the match's flow) imports nothing of Textual, so it is tested without
a pilot."""

from __future__ import annotations

from ..fresh import modules_after


def test_play_imports_without_textual() -> None:
    loaded = modules_after(
        "import soluna_tui.play.picker, soluna_tui.play.coach, soluna_tui.play.view, soluna_tui.play.looks\n"
        "import soluna_tui.play.where, soluna_tui.play.match_flow"
    )
    assert [name for name in loaded if name.split(".")[0] in {"textual", "asyncssh"}] == []
