"""The line under the board: what to do now, or why the last key did nothing."""

from __future__ import annotations

import textwrap

from textual.widgets import Static

KINDS = ("info", "warning", "error", "thinking")
MIN_LINES, MAX_LINES = 2, 4


class StatusLine(Static):
    """Attributes down: ``say(text, kind)``; the kind becomes a class (``-warning``...) for colour."""

    DEFAULT_CSS = """
    StatusLine {
        height: auto;
        min-height: 2;  /* MIN_LINES */
        max-height: 4;  /* MAX_LINES */
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", markup=False, id=id)
        self.text = ""
        self.kind = "info"
        self._lines = 0

    def say(self, text: str, kind: str = "info") -> None:
        if (text, kind) == (self.text, self.kind):
            return  # unchanged: an update would cost a layout pass for nothing
        for each in KINDS:
            self.set_class(each == kind, f"-{each}")
        width = self.content_region.width
        lines = min(MAX_LINES, max(MIN_LINES, len(textwrap.wrap(text, width)))) if width else 0
        # A new layout only when the message needs another number of lines: it is the
        # costliest part of a keystroke, and most messages fit where the last one was.
        self.update(text, layout=not width or lines != self._lines)
        self.text, self.kind, self._lines = text, kind, lines
