"""The lines under the board: what to do now, or why the last key did nothing."""

from __future__ import annotations

from typing import ClassVar

from .text_lines import TextLines

KINDS = ("info", "warning", "error", "thinking")
#: Lines the status keeps, whatever it says: a longer message ends with an ellipsis.
STATUS_LINES = 3


class StatusLine(TextLines):
    """Attributes down: ``say(text, kind)``; the kind is drawn in its own style (``status-line--warning``...)."""

    DEFAULT_CSS = """
    StatusLine {
        height: 3;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {f"status-line--{kind}" for kind in KINDS}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(lines=STATUS_LINES, id=id)
        self.kind = "info"

    def say(self, text: str, kind: str = "info") -> None:
        self.kind = kind if kind in KINDS else "info"
        self.set_text(text, f"status-line--{self.kind}")
