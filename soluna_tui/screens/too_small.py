"""Shown instead of the layout while the terminal is below the minimum size."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

from ..terminal.sizes import MIN_HEIGHT, MIN_WIDTH


class TooSmallScreen(ModalScreen[None]):
    """Goes away by itself when the terminal is large enough again (the app watches resizes and keeps
    the notice on top of whatever opens or closes under it)."""

    BINDINGS = [("q,ctrl+q", "app.quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Static("", id="too-small", markup=False)

    def on_mount(self) -> None:
        self.update_size()

    def on_resize(self) -> None:
        self.update_size()

    def update_size(self) -> None:
        width, height = self.app.size
        self.query_one("#too-small", Static).update(
            f"Terminal too small: {width}x{height}.\n"
            f"Soluna needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n"
            "Enlarge the window (or press q to quit)."
        )
