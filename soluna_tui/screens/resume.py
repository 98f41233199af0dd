"""On start, an unfinished match is offered to resume exactly where it was."""

from __future__ import annotations

from collections.abc import Iterator

from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static

from ..local.saves import SavedMatch, describe_saved
from .choice_dialog import ChoiceDialog
from .help import HELP_BINDING


class ResumeScreen(ChoiceDialog[bool]):
    """Returns ``True`` to resume the saved match, ``False`` to set up a new one."""

    DIALOG_ID = "resume"
    DIALOG_TITLE = "Welcome back"
    BINDINGS = [
        Binding("r,escape", "choose(True)", "Resume"),
        Binding("n", "choose(False)", "New match"),
        HELP_BINDING,
    ]

    def __init__(self, saved: SavedMatch, new_label: str = "Start a new match", *, notice: str = "") -> None:
        super().__init__()
        self.saved = saved
        self.new_label = new_label
        #: News to read first (another copy of the game is playing the other saved match...).
        self.notice = notice

    def describe(self) -> str:
        return describe_saved(self.saved)

    def body(self) -> Iterator[Widget]:
        if self.notice:
            yield Static(self.notice, id="resume-notice", markup=False)
        yield Static(self.describe(), markup=False)

    def choices(self) -> list[tuple[str, bool]]:
        started = self.saved.match.round_number > 1 or self.saved.match.round.ply > 0
        return [("Resume it" if started else "Play it", True), (self.new_label, False)]
