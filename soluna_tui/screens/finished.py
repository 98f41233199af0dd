"""The finished matches kept in the data directory, newest first: Enter replays one."""

from __future__ import annotations

import time
from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ..local.saves import FinishedFile
from ..rules.end_reason import gave_up_words
from .choice_dialog import ChoiceDialog
from .help import HELP_BINDING


def describe_finished(kept: FinishedFile) -> str:
    """One line: when it ended, who played, who won, the stars and how, if not on the board (``You resigned``,
    ``Bob ran out of time``), or why the file cannot be read."""
    try:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(kept.path.stat().st_mtime))
    except OSError:
        when = "?"
    if kept.saved is None:
        return f"{when}  {kept.path.name}: cannot be read ({kept.problem})"
    match = kept.saved.match
    names, stars = match.players, match.stars
    winner = f"{names[match.winner]} won" if match.winner is not None else "unfinished"
    how = (f", {names[match.forfeited_by]} {gave_up_words(kept.saved.ended)}" if match.forfeited_by is not None
           else "")
    return (f"{when}  {names[0]} vs {names[1]}: {winner}, {stars[0]}-{stars[1]}{how} "
            f"({kept.saved.setup.mode_label})")


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
