"""Runs in the child.

What counts as the player being there, told to the server: the idle timeout hears of nothing else.

The server sees only bytes; any client can send bytes that are not keys (a NUL, a focus report,
a mouse moving, a lone Shift) to look busy. The app knows better: a key that ran a binding, a
field that took what was typed or pasted, a click on something that can be chosen; and, for a
spectator, a move of the match they watch (following a live match is not idleness). Each is an
``Activity`` sent to the server, at most one every ``REPORT_EVERY`` seconds.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from textual import events
from textual.actions import ActionParseResult
from textual.app import App
from textual.css.query import NoMatches
from textual.dom import DOMNode
from textual.errors import NoWidget
from textual.widgets import Input

from ..link.child_config import ACTIVITY_EVERY
from ..link.messages import Activity, Request


class ReportsActivity(App[None]):
    """Mixed into the session's app (before its other bases): tells the server when the player does something."""

    #: The fewest seconds between two reports: the idle timeout counts in minutes, the link need not hear every key.
    activity_every = ACTIVITY_EVERY
    _activity_reported_at = float("-inf")

    def send(self, message: Request) -> None:
        raise NotImplementedError

    def player_active(self) -> None:
        """The player did something: tell the server, unless it was told a moment ago."""
        now = time.monotonic()
        if now - self._activity_reported_at >= self.activity_every:
            self._activity_reported_at = now
            self.send(Activity())

    async def run_action(self, action: str | ActionParseResult, default_namespace: DOMNode | None = None,
                         namespaces: Mapping[str, DOMNode] | None = None) -> bool:
        """Every key binding (and a click on the footer's keys) runs here; one that did something counts."""
        ran = await super().run_action(action, default_namespace, namespaces)
        if ran:
            self.player_active()
        return ran

    def on_input_changed(self, event: Input.Changed) -> None:
        """Typed or pasted into a field (a code, a secret, a name)."""
        self.player_active()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.MouseDown) and not event.is_forwarded and self._choosable_at(event):
            self.player_active()
        await super().on_event(event)

    def _choosable_at(self, event: events.MouseDown) -> bool:
        """Whether the click landed on something that can be chosen (a tower, an option, a button)."""
        try:
            widget: Any = self.screen.get_widget_at(event.screen_x, event.screen_y)[0]
        except (NoWidget, NoMatches):
            return False
        return bool(widget.focusable)
