"""The puzzles' difficulty, chosen from a list; asked before an unsolved puzzle is replaced."""

from __future__ import annotations

from collections.abc import Iterator

from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import OptionList, Static

from ..rules.puzzles import ANY, DIFFICULTIES, MIN_CHOICES
from .choice_dialog import ChoiceDialog
from .help import HELP_BINDING


def difficulty_label(difficulty: str) -> str:
    """``Hard: 8+ legal moves, 8 or more plies``: what each difficulty promises."""
    if difficulty == ANY:
        return "Any difficulty"
    low, high = DIFFICULTIES[difficulty]
    length = f"{low} or more plies" if high >= 20 else f"{low}-{high} plies"
    return f"{difficulty.capitalize()}: {MIN_CHOICES[difficulty]}+ legal moves, {length}"


class DifficultyScreen(ChoiceDialog[str]):
    """Returns the difficulty chosen; Escape keeps the current one (and the puzzle shown)."""

    DIALOG_ID = "difficulty"
    DIALOG_TITLE = "Puzzle difficulty"
    BINDINGS = [
        Binding("escape", "keep", "Keep this puzzle"),
        HELP_BINDING,
    ]

    def __init__(self, current: str, unsolved: bool) -> None:
        """``unsolved``: a puzzle is on the board, not solved yet; choosing replaces it."""
        super().__init__()
        self.current = current
        self.unsolved = unsolved

    def body(self) -> Iterator[Widget]:
        text = "Choose the difficulty of the next puzzles."
        if self.unsolved:
            text += " This puzzle is not solved yet: a new one takes its place (Esc keeps it)."
        yield Static(text, markup=False)

    def choices(self) -> list[tuple[str, str]]:
        return [(difficulty_label(difficulty) + (" (now)" if difficulty == self.current else ""), difficulty)
                for difficulty in (ANY, *DIFFICULTIES)]

    def on_mount(self) -> None:
        values = [value for _, value in self.choices()]
        self.query_one("#dialog-choices", OptionList).highlighted = values.index(self.current)

    def action_keep(self) -> None:
        self.dismiss(None)
