"""A yes/no question before something that cannot be taken back."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..widgets.key_footer import KeyFooter


class ConfirmScreen(ModalScreen[bool]):
    """Returns ``True`` only for an explicit yes; Escape and ``n`` say no."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, yes: str, no: str, title: str = "Are you sure?") -> None:
        super().__init__()
        self.question = question
        self.yes = yes
        self.no = no
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm", classes="dialog"):
            yield Static(self.question, markup=False)
            yield OptionList(Option(self.no, id="no"), Option(self.yes, id="yes"), id="confirm-choices")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#confirm").border_title = self.title_text
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected, "#confirm-choices")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
