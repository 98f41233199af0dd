"""A finished match as the export writes it, in a read-only text area the player can select and copy from."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from ..widgets.key_footer import KeyFooter
from .help import HELP_BINDING
from .quiet_focus import QuietFocus
from .styled_as_mounted import StyledAsMounted


class AnnotatedTextScreen(QuietFocus, StyledAsMounted, ModalScreen[None]):
    """Escape closes; ``c`` copies the whole text to the terminal's clipboard (over SSH, the player's own).

    Nothing is written to disk: a player who wants a file runs ``soluna export`` locally."""

    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("c", "copy_all", "Copy all"),
        HELP_BINDING,
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="annotated-text", classes="dialog"):
            yield Static("Select with the mouse or Shift+arrows; c copies it all.", id="annotated-help",
                         markup=False)
            yield TextArea(self.text, read_only=True, soft_wrap=True, show_line_numbers=False,
                           id="annotated-area")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#annotated-text").border_title = "The match, annotated"
        self.query_one("#annotated-area").focus()

    def action_copy_all(self) -> None:
        self.app.copy_to_clipboard(self.text)
        self.notify("The whole text was sent to your terminal's clipboard.")

    def action_close(self) -> None:
        self.dismiss(None)
