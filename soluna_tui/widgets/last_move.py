"""The line that says the latest move in words, until the next move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len

from .text_lines import TextLines


class LastMoveLine(TextLines):
    """Attributes down: ``show(wordings)``, the same move worded from the longest to the shortest;
    the line draws the longest that fits its width."""

    DEFAULT_CSS = """
    LastMoveLine {
        height: 1;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"last-move-line--text"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(lines=1, id=id)
        self.wordings: tuple[str, ...] = ()

    def show(self, wordings: Sequence[str]) -> None:
        self.wordings = tuple(wordings)
        self.set_text("\n".join(self.wordings), "last-move-line--text")

    def text_for(self, width: int) -> str:
        for wording in self.wordings:
            if cell_len(wording) <= width:
                return wording
        return self.wordings[-1] if self.wordings else ""
