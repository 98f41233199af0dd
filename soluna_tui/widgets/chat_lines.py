"""Table talk's lines, the newest at the bottom (next to the chat line): wrapped to the width the panel has when
drawn (never before it is laid out), as many of the last as its height holds. Plain text, never markup: what a
player typed is never obeyed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

#: Who said a line (``None``: a note, such as why a line was not said), what, and whether this player said it.
Spoken = tuple[str | None, str, bool]


class ChatLines(Widget):
    """The last lines said, as many as fit."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: tuple[Spoken, ...] = ()

    def show(self, lines: Sequence[Spoken]) -> None:
        if tuple(lines) != self._lines:
            self._lines = tuple(lines)
            self.refresh()

    def render(self) -> Text:
        width, height = self.content_size
        if width <= 0 or height <= 0 or not self._lines:
            return Text()
        rows: list[Text] = []
        for name, said, yours in reversed(self._lines):  # the newest first, and only as many as show
            text = (Text.assemble((name, "bold underline" if yours else "bold"), ": ", said) if name is not None
                    else Text(said, style="italic"))
            rows[:0] = text.wrap(self.app.console, width, overflow="fold")
            if len(rows) >= height:
                break
        return Text("\n").join([Text()] * (height - len(rows)) + rows[-height:])  # the newest at the bottom
