"""The line under the board: what to do now, or why the last key did nothing."""

from __future__ import annotations

from textual.widgets import Static

KINDS = ("info", "warning", "error", "thinking")


class StatusLine(Static):
    """Attributes down: ``say(text, kind)``; the kind becomes a class (``-warning``...) for colour."""

    DEFAULT_CSS = """
    StatusLine {
        height: auto;
        min-height: 2;
        max-height: 4;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", markup=False, id=id)
        self.text = ""
        self.kind = "info"

    def say(self, text: str, kind: str = "info") -> None:
        for each in KINDS:
            self.set_class(each == kind, f"-{each}")
        self.text, self.kind = text, kind
        self.update(text)
