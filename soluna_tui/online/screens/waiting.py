"""A match created over SSH, waiting for the second player: its code, big enough to read out."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ...screens.help import HELP_BINDING
from ...screens.quiet_focus import QuietFocus
from ...screens.styled_as_mounted import StyledAsMounted
from ...widgets.key_footer import KeyFooter


class WaitingScreen(QuietFocus, StyledAsMounted, ModalScreen[bool]):
    """Goes when the opponent joins (the game replaces it); Escape cancels the match (returns True)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel the match"), HELP_BINDING]

    def __init__(self, code: str, paired: bool = False) -> None:
        """``paired``: made for a quick match or a challenge accepted, the opponent is joining already."""
        super().__init__()
        self.code = code
        self.paired = paired

    def compose(self) -> ComposeResult:
        with Vertical(id="waiting", classes="dialog"):
            yield Static(f"Your match code:  {' '.join(self.code)}", id="waiting-code", markup=False)
            if self.paired:
                text = "Your opponent is joining: the match starts as soon as they are in.\n\nEscape cancels the match."
            else:
                text = ("Tell it to your opponent: they connect to this server, choose \"Join a match by code\" and "
                        "type it. The match starts as soon as they join.\n\nEscape cancels the match.")
            yield Static(text, id="waiting-text", markup=False)
        yield KeyFooter()  # its own keys: not the lobby's underneath, whose Escape is another thing

    def on_mount(self) -> None:
        self.query_one("#waiting").border_title = "Waiting for an opponent"

    def action_cancel(self) -> None:
        self.dismiss(True)
