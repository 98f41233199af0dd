"""A few lines of text of a fixed height, drawn with the line API and redrawn only when they change.

The base of the game screen's status line and its last-move line: neither ever changes size
(so a new message costs no layout pass), and a message the same as the one shown costs nothing.
"""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.console import Console
from rich.segment import Segment
from rich.text import Text
from textual.cache import LRUCache
from textual.strip import Strip
from textual.widget import Widget

from ..app.soluna_view import app_view
from .cached_lines import CachedLines

#: What rich needs to wrap text (only its measuring of cells is used).
_CONSOLE = Console(width=1000, color_system=None, force_terminal=False)


def wrap(text: str, width: int, lines: int, ellipsis: str) -> list[str]:
    """``text`` broken into at most ``lines`` lines of ``width`` cells (words kept whole where they
    fit); what does not fit ends the last line with ``ellipsis``."""
    if width <= 0 or lines <= 0:
        return []
    broken: list[str] = []
    for paragraph in text.split("\n"):
        broken.extend(line.plain.rstrip() for line in Text(paragraph).wrap(_CONSOLE, width, overflow="fold"))
    if len(broken) > lines:
        last = broken[lines - 1]
        room = max(0, width - cell_len(ellipsis))
        broken = [*broken[: lines - 1], set_cell_size(last, min(cell_len(last), room)).rstrip() + ellipsis]
    return broken


class TextLines(CachedLines, Widget):
    """``lines`` lines of text in one style; subclasses choose the text and the style's component class."""

    DIRECT_LINES = True

    ALLOW_SELECT: ClassVar[bool] = True
    #: Columns left blank either side of the text.
    margin = 1

    def __init__(self, *, lines: int = 1, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines = lines
        self.text = ""
        self._part = ""
        self._strips: list[Strip] | None = None
        #: Recent drawings by text, style and size: messages come back (a pick's, a put back's).
        self._drawings: LRUCache[tuple[object, ...], list[Strip]] = LRUCache(16)

    def set_text(self, text: str, part: str) -> None:
        """Show ``text`` in the style of the component class ``part``; nothing happens when it is shown already."""
        if (text, part) == (self.text, self._part):
            return
        self.text, self._part = text, part
        old = self._strips
        self._strips = None
        if old is None or not self.content_size.width:
            self.repaint()
            return
        self.repaint_changes(old, self._lines())  # a line left as it was costs nothing

    def on_resize(self) -> None:
        """Drawn again for the new width: asked for, since a screen resized while a dialog (the too-small notice)
        covered it is laid out again as it comes back, and Textual does not always repaint its lines then."""
        self._strips = None
        self.refresh()

    def notify_style_update(self) -> None:
        self._strips = None
        self._drawings.clear()
        super().notify_style_update()

    def text_for(self, width: int) -> str:
        """The text drawn in ``width`` cells (a subclass may word it to fit)."""
        return self.text

    def _draw(self) -> list[Strip]:
        """The lines, each one segment: the margin either side drawn as spaces in the text's style
        (every segment costs the terminal a change of style)."""
        width, height = self.content_size
        margin = self.margin
        room = max(0, width - 2 * margin)
        base = self.base_style()
        style = self.part_style(self._part) if self._part else base
        ellipsis = "..." if app_view(self).ascii_mode else "…"
        lines = wrap(self.text_for(room), room, min(self.lines, height), ellipsis)
        lines += [""] * (height - len(lines))
        return [Strip([Segment(" " * margin + set_cell_size(line, room) + " " * (width - margin - room),
                               style if line else base)], width) for line in lines]

    def _lines(self) -> list[Strip]:
        """The lines as drawn now (kept by text, style and size: messages come back)."""
        if self._strips is None:
            key = (self.text, self._part, self.content_size)
            strips = self._drawings.get(key)
            if strips is None:
                strips = self._drawings[key] = self._draw()
            self._strips = strips
        return self._strips

    def render_line(self, y: int) -> Strip:
        self._lines()
        assert self._strips is not None
        if y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.content_size.width, self.base_style())
