"""Over SSH, a player who has pressed no key for a long while: the session is about to close.

It stays on top, counting down, until the player presses a key (or clicks), so someone who was
away sees it when they come back; the app tells the server the player is there.
"""

from __future__ import annotations

import time

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Static

from ...rules.wording import minutes
from ...screens.quiet_focus import QuietFocus
from ...screens.styled_as_mounted import StyledAsMounted

#: Keys a player presses that print nothing (any that prints counts too).
PRESSED_KEYS = frozenset({"enter", "escape", "space", "tab", "shift+tab", "backspace", "delete", "up", "down", "left",
                          "right", "home", "end", "pageup", "pagedown"})


class ClosingSoonScreen(QuietFocus, StyledAsMounted, ModalScreen[None]):
    """Any key or click closes it (the key does nothing else); the countdown goes down every second."""

    def __init__(self, idle: float, seconds: float) -> None:
        super().__init__()
        self.idle = idle
        self.closes_at = time.monotonic() + seconds
        self._ticking: Timer | None = None

    def count_down(self, idle: float, seconds: float) -> None:
        """The server's warning again: the time idle and the time left, as it says now."""
        self.idle = idle
        self.closes_at = time.monotonic() + seconds
        if self.is_mounted:
            self._tick()

    def compose(self) -> ComposeResult:
        with Vertical(id="closing-soon", classes="dialog"):
            yield Static(self.text(), id="closing-soon-text", markup=False)

    def on_mount(self) -> None:
        self.query_one("#closing-soon").border_title = "Still there?"
        self._ticking = self.set_interval(1.0, self._tick)

    def text(self) -> str:
        left = max(0.0, self.closes_at - time.monotonic())
        closes = f"closes in {minutes(left)}" if left >= 1 else "is closing"
        return (f"No key pressed for {minutes(self.idle)}.\nThis session {closes} unless you press a key.\n\n"
                "Press any key to stay.")

    def _tick(self) -> None:
        self.query_one("#closing-soon-text", Static).update(self.text())

    def on_key(self, event: events.Key) -> None:
        """A key a player presses closes it; bytes that are no key (a NUL, a lone Shift) do nothing at all, so that
        they cannot keep an empty session open."""
        event.stop()
        event.prevent_default()
        if event.is_printable or event.key in PRESSED_KEYS:
            self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(None)
