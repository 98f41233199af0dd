"""The stats screen: matches, rounds, accuracy over time, puzzle streaks."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..stats import Stats, describe
from ..widgets.key_footer import KeyFooter
from .help import HELP_BINDING
from .quiet_focus import QuietFocus


class StatsScreen(QuietFocus, ModalScreen[None]):
    BINDINGS = [Binding("escape,q,enter", "close", "Close"), HELP_BINDING]

    def __init__(self, stats: Stats, problem: str | None = None, *, ascii_mode: bool = False) -> None:
        super().__init__()
        self.stats = stats
        self.problem = problem
        self.ascii_mode = ascii_mode

    def compose(self) -> ComposeResult:
        bar = ("#", ".") if self.ascii_mode else ("█", "░")
        with VerticalScroll(id="stats", classes="dialog"):
            if self.problem:
                yield Static(f"The stats file could not be read: {self.problem}.", id="stats-problem", markup=False)
            yield Static("\n".join(describe(self.stats, bar)), markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#stats").border_title = "Statistics"

    def action_close(self) -> None:
        self.dismiss(None)
