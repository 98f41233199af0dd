"""A yes/no question before something that cannot be taken back."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from .choice_dialog import ChoiceDialog
from .help import HELP_BINDING


class ConfirmScreen(ChoiceDialog[bool]):
    """Returns ``True`` only for an explicit yes; Escape and ``n`` say no."""

    DIALOG_ID = "confirm"
    BINDINGS = [
        Binding("y", "choose(True)", "Yes"),
        Binding("n,escape", "choose(False)", "No"),
        HELP_BINDING,
    ]

    def __init__(self, question: str, yes: str, no: str, title: str = "Are you sure?") -> None:
        super().__init__()
        self.question = question
        self.yes = yes
        self.no = no
        self.DIALOG_TITLE = title

    def body(self) -> ComposeResult:
        yield Static(self.question, markup=False)

    def choices(self) -> list[tuple[str, bool]]:
        return [(self.no, False), (self.yes, True)]
