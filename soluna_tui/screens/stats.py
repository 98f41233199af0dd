"""The stats screen: matches, rounds, accuracy over time, puzzle streaks."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..local.player_stats import Stats, describe
from ..widgets.key_footer import KeyFooter
from .help import HELP_BINDING
from .quiet_focus import QuietFocus
from .styled_as_mounted import StyledAsMounted

#: The dialog's width where the terminal has room (styles/dialogs.tcss gives the dialogs theirs).
STATS_WIDTH = 70


class StatsScreen(QuietFocus, StyledAsMounted, ModalScreen[None]):
    BINDINGS = [Binding("escape,q,enter", "close", "Close"), HELP_BINDING]

    def __init__(self, stats: Stats, problem: str | None = None, *, ascii_mode: bool = False) -> None:
        super().__init__()
        self.stats = stats
        self.problem = problem
        self.ascii_mode = ascii_mode

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="stats", classes="dialog"):
            if self.problem:
                yield Static(f"The stats file could not be read: {self.problem}.", id="stats-problem", markup=False)
            yield Static("", id="stats-text", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#stats").border_title = "Statistics"
        self._show_stats()

    def on_resize(self) -> None:
        self._show_stats()

    def _show_stats(self) -> None:
        """The lines for the width the dialog has (a phone's: the table in two lines a row)."""
        bar = ("#", ".") if self.ascii_mode else ("█", "░")
        width = min(self.app.size.width, STATS_WIDTH) - 4  # the dialog's border and padding
        self.query_one("#stats-text", Static).update("\n".join(describe(self.stats, bar, width)))

    def action_close(self) -> None:
        self.dismiss(None)
