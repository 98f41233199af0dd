"""The finished matches kept in the data directory, newest first: Enter replays one."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ..local.saves import FinishedFile, describe_finished
from .choice_dialog import ChoiceDialog
from .help import HELP_BINDING


class FinishedListScreen(ChoiceDialog[FinishedFile | None]):
    """Returns the match chosen, or ``None`` (Escape, or nothing kept yet)."""

    DIALOG_ID = "finished-list"
    DIALOG_TITLE = "Replay a finished match"
    BINDINGS = [Binding("escape", "choose(None)", "Close"), HELP_BINDING]

    def __init__(self, kept: Sequence[FinishedFile]) -> None:
        super().__init__()
        self.kept = [entry for entry in kept]

    def body(self) -> ComposeResult:
        text = ("Newest first. Enter replays a match, every move judged by perfect play."
                if self.kept else "No finished match is kept yet: the last 50 you finish on this computer "
                                  "are kept here.")
        yield Static(text, markup=False)

    def choices(self) -> list[tuple[str, FinishedFile | None]]:
        if not self.kept:
            return [("Close", None)]
        return [(describe_finished(entry), entry if entry.saved is not None else None) for entry in self.kept]
