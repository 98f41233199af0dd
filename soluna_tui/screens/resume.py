"""On start, an unfinished match is offered to resume exactly where it was."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..saves import SavedMatch
from ..widgets.key_footer import KeyFooter


class ResumeScreen(ModalScreen[bool]):
    """Returns ``True`` to resume the saved match, ``False`` to set up a new one."""

    BINDINGS = [
        Binding("r,escape", "choose(True)", "Resume"),
        Binding("n", "choose(False)", "New match"),
    ]

    def __init__(self, saved: SavedMatch, new_label: str = "Start a new match") -> None:
        super().__init__()
        self.saved = saved
        self.new_label = new_label

    def describe(self) -> str:
        match = self.saved.match
        names, stars = match.players, match.stars
        state = "between rounds" if match.round.is_over else f"move {match.round.ply + 1}"
        return (f"You have an unfinished match:\n{names[0]} {stars[0]} - {stars[1]} {names[1]}, "
                f"round {match.round_number}, {state} ({self.saved.setup.mode_label}).")

    def compose(self) -> ComposeResult:
        with Vertical(id="resume", classes="dialog"):
            yield Static(self.describe(), markup=False)
            yield OptionList(Option("Resume it", id="resume"), Option(self.new_label, id="new"),
                             id="resume-choices")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#resume").border_title = "Welcome back"
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected, "#resume-choices")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id == "resume")

    def action_choose(self, resume: bool) -> None:
        self.dismiss(resume)
