"""The move-history sidebar: every move of the match, numbered, grouped by round."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..play.looks import HistoryEntry


class History(OptionList):
    """Focusable and scrollable; moving through it previews earlier positions.

    Messages up: ``History.Viewed`` while the player browses (only while it has
    focus), ``History.Left`` when the focus leaves, so the screen returns to play.
    """

    BINDINGS = [Binding("escape", "leave", "Back to play")]

    class Viewed(Message):
        def __init__(self, entry: HistoryEntry) -> None:
            super().__init__()
            self.entry = entry

    class Left(Message):
        """The player stopped browsing the history."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._entries: list[HistoryEntry] = []

    def show(self, entries: Sequence[HistoryEntry]) -> None:
        """Replace the list and keep the newest line in view."""
        if list(entries) == self._entries:
            return
        self._entries = list(entries)
        with self.prevent(OptionList.OptionHighlighted):
            self.clear_options()
            self.add_options(
                # Text, not a string: a string prompt is read as markup and loses its leading spaces.
                Option(Text(entry.text, style="bold" if entry.heading else ""),
                       id=f"r{entry.round_number}-p{entry.ply}{'-h' if entry.heading else ''}")
                for entry in self._entries
            )
            if self._entries:
                self.highlighted = len(self._entries) - 1
        self.scroll_end(animate=False)

    @property
    def entries(self) -> list[HistoryEntry]:
        return list(self._entries)

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if self.has_focus and event.option_index < len(self._entries):
            self.post_message(self.Viewed(self._entries[event.option_index]))

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index < len(self._entries):
            self.post_message(self.Viewed(self._entries[event.option_index]))

    def on_focus(self) -> None:
        if self.highlighted is not None and self.highlighted < len(self._entries):
            self.post_message(self.Viewed(self._entries[self.highlighted]))

    def on_blur(self) -> None:
        self.post_message(self.Left())

    def action_leave(self) -> None:
        self.screen.query_one("Board TowerWidget").focus()
