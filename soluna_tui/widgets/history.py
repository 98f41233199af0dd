"""The move-history sidebar: every move of the match, numbered, grouped by round.

One line per entry, drawn with the line API: a move adds a line at the end, a take-back removes
it, and only the lines that change are repainted (the new one and the highlight it takes over).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..compat.textual_internals import set_virtual_size_quietly
from ..play.looks import HistoryEntry
from .cached_lines import CachedLines


class History(CachedLines, ScrollView, can_focus=True):
    """Focusable and scrollable; moving through it previews earlier positions.

    Messages up: ``History.Viewed`` while the player browses (only while it has focus, or on a
    click or Enter), ``History.Left`` when the focus leaves, so the screen returns to play.
    ``History.Highlighted`` whenever the highlight moves (a screen may ``prevent`` it).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", "Back to play"),
        Binding("up,left", "cursor(-1)", "Earlier", show=False),
        Binding("down,right", "cursor(1)", "Later", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "edge(0)", "First", show=False),
        Binding("end", "edge(-1)", "Last", show=False),
        Binding("enter", "select", "Show", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"history--line", "history--heading", "history--highlighted"}
    DEFAULT_CSS = """
    History {
        background: $surface;
        color: $foreground;
        padding: 0 1;
        overflow-x: hidden;
        overflow-y: auto;
        & > .history--heading { text-style: bold; }
        & > .history--highlighted {
            color: $block-cursor-blurred-foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .history--highlighted {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
    }
    """

    class Viewed(Message):
        def __init__(self, entry: HistoryEntry) -> None:
            super().__init__()
            self.entry = entry

    class Left(Message):
        """The player stopped browsing the history."""

    class Highlighted(Message):
        """The highlight moved to ``index``."""

        def __init__(self, history: History, index: int) -> None:
            super().__init__()
            self.history = history
            self.index = index

        @property
        def control(self) -> History:
            return self.history

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._entries: list[HistoryEntry] = []
        self._highlighted: int | None = None
        self._drawn: LRUCache[tuple[object, ...], Strip] = LRUCache(256)

    # ---- attributes down -------------------------------------------------------------------

    def show(self, entries: Sequence[HistoryEntry]) -> None:
        """Show these lines, the newest highlighted and in view; repaint only the lines that changed."""
        new = list(entries)
        old = self._entries
        if new == old:
            return
        self._entries = new
        if len(new) != len(old):
            self._resize_content()
        changed = [index for index in range(max(len(old), len(new)))
                   if index >= len(old) or index >= len(new) or old[index] != new[index]]
        self._refresh_entries(*changed)
        with self.prevent(self.Highlighted):
            self.highlighted = len(new) - 1 if new else None

    @property
    def entries(self) -> list[HistoryEntry]:
        return list(self._entries)

    @property
    def option_count(self) -> int:
        return len(self._entries)

    @property
    def highlighted(self) -> int | None:
        return self._highlighted

    @highlighted.setter
    def highlighted(self, index: int | None) -> None:
        if index is not None:
            index = max(0, min(index, len(self._entries) - 1)) if self._entries else None
        before = self._highlighted
        if index == before:
            return
        self._highlighted = index
        self._refresh_entries(*(line for line in (before, index) if line is not None))
        if index is not None:
            self.scroll_to_highlight()
            self.post_message(self.Highlighted(self, index))

    def scroll_to_highlight(self) -> None:
        """Bring the highlighted line into view (again once laid out, when it was set before)."""
        if self._highlighted is not None:
            self.scroll_to_region(Region(0, self._highlighted, max(1, self.scrollable_content_region.width), 1),
                                  animate=False, force=True, immediate=True)

    def _refresh_entries(self, *indexes: int) -> None:
        """Repaint the lines of these entries, where they are in view."""
        top = round(self.scroll_offset.y)
        width, height = self.scrollable_content_region.size
        rows = sorted(index - top for index in indexes if 0 <= index - top < height)
        if rows:
            self.repaint(Region(0, rows[0], width, rows[-1] - rows[0] + 1))

    # ---- drawing ---------------------------------------------------------------------------

    def notify_style_update(self) -> None:
        self._drawn.clear()
        super().notify_style_update()

    def render_line(self, y: int) -> Strip:
        index = round(self.scroll_offset.y) + y
        width = self.scrollable_content_region.width
        if not 0 <= index < len(self._entries):
            return Strip.blank(width, self.base_style())
        entry = self._entries[index]
        highlighted = index == self._highlighted
        key = (entry.text, entry.heading, highlighted, width)
        strip = self._drawn.get(key)
        if strip is None:
            part = "history--highlighted" if highlighted else "history--heading" if entry.heading else "history--line"
            style = self.part_style(part)
            if highlighted and entry.heading:
                style += self.part_style("history--heading", partial=True)
            text = entry.text if cell_len(entry.text) <= width else set_cell_size(entry.text, width)
            strip = Strip([Segment(text, style)], cell_len(text)).adjust_cell_length(width, style)
            self._drawn[key] = strip
        return strip

    def on_resize(self) -> None:
        self._resize_content()

    def _resize_content(self) -> None:
        """One line an entry. Set without the new layout a change of ``virtual_size`` asks for: only
        the scroll bar needs to know (and it lays the screen out again itself when it appears)."""
        size = Size(self.scrollable_content_region.width, len(self._entries))
        if size != self.virtual_size:
            set_virtual_size_quietly(self, size)

    # ---- keys and the mouse ------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        if self._entries:
            current = self._highlighted if self._highlighted is not None else len(self._entries) - 1
            self.highlighted = current + step

    def action_page(self, direction: int) -> None:
        self.action_cursor(direction * max(1, self.scrollable_content_region.height - 1))

    def action_edge(self, index: int) -> None:
        if self._entries:
            self.highlighted = index if index >= 0 else len(self._entries) - 1

    def action_select(self) -> None:
        if self._highlighted is not None:
            self.post_message(self.Viewed(self._entries[self._highlighted]))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = round(self.scroll_offset.y) + offset.y
        if 0 <= index < len(self._entries):
            event.stop()
            self.highlighted = index
            self.post_message(self.Viewed(self._entries[index]))

    def on_history_highlighted(self, event: Highlighted) -> None:
        if event.history is self and self.has_focus and event.index < len(self._entries):
            self.post_message(self.Viewed(self._entries[event.index]))

    def on_focus(self) -> None:
        if self._highlighted is not None and self._highlighted < len(self._entries):
            self.post_message(self.Viewed(self._entries[self._highlighted]))

    def on_blur(self) -> None:
        self.post_message(self.Left())

    def action_leave(self) -> None:
        self.screen.query_one("Board").focus()
