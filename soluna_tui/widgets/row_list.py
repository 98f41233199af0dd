"""A list of rows drawn with the line API, each row kept by its identity: the lobby's people online and matches
in play.

An ``OptionList`` given its options again (a person came, went, or changed what they do; a line of a match
changed) makes every option anew and repaints the whole list, in every lobby listing it. Here each row is a
value kept by its identity (a person's number, a match's code), drawn as the lines of its text: ``show`` hands
the rows as they are now, and only the lines in view whose text or highlight differ are repainted (a row that
changed, or the rows under one that came or went, shifted a line); a line's strip is kept by its text, so a
shifted row is not drawn again. The list shows a window of its lines, as tall as its style's ``max-height``,
and scrolls. Keys and the mouse as a ``Menu``'s: the arrows, Page Up and Down, Home and End move the highlight
(stopping at either end), Enter or a click chooses (``RowList.Selected``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.css.scalar import Unit
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..compat.textual_internals import set_virtual_size_quietly
from ..terminal.sizes import NARROW_CLASS
from .cached_lines import CachedLines
from .menu import scroll_container_to
from .text_lines import wrap

ValueT = TypeVar("ValueT")

#: The width rows are made for while the list has no size yet (the lobby's list, less its padding and scroll bar).
DEFAULT_WIDTH = 74
#: The most lines one row wraps into (a match's line on a phone takes two).
ROW_LINES = 4


class RowList(CachedLines, ScrollView, Generic[ValueT], can_focus=True):
    """Rows of values, each a line or a few; subclasses say what a row's text is (``row_text``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "edge(0)", "First", show=False),
        Binding("end", "edge(-1)", "Last", show=False),
        Binding("enter", "select", "Select", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"row-list--row", "row-list--highlighted", "row-list--hover"}
    DEFAULT_CSS = """
    RowList {
        height: auto;
        background: $surface;
        color: $foreground;
        padding: 0 1;
        overflow-x: hidden;
        overflow-y: auto;
        & > .row-list--highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .row-list--hover {
            background: $block-hover-background;
        }
        &:focus > .row-list--highlighted {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
    }
    """

    class Selected(Message):
        """Enter or a click on row ``index``."""

        def __init__(self, row_list: RowList[Any], index: int) -> None:
            super().__init__()
            self.row_list, self.index = row_list, index

        @property
        def control(self) -> RowList[Any]:
            return self.row_list

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The rows, in order: each one's identity and value.
        self._keys: tuple[Hashable, ...] = ()
        self._values: dict[Hashable, ValueT] = {}
        #: Each row's lines, as made for its value and a width (made again only when either changes).
        self._made: dict[Hashable, tuple[ValueT, int, tuple[str, ...]]] = {}
        #: The lines, in order: each one's text and the index of its row; where each row's lines start.
        self._lines: tuple[tuple[str, int], ...] = ()
        self._firsts: tuple[int, ...] = ()
        self._width = 0
        self._highlighted: int | None = None
        #: The row under the mouse (lit as an ``OptionList`` lights it).
        self._hovered: int | None = None
        #: Lines drawn, by their text, whether highlighted or under the mouse, and the width.
        self._strips: LRUCache[tuple[str, bool, bool, int], Strip] = LRUCache(256)

    def row_text(self, value: ValueT, width: int) -> str:
        """The row's text: cut to ``width`` cells by the subclass, or wrapped onto more lines."""
        raise NotImplementedError

    # ---- attributes down -------------------------------------------------------------------

    def show_rows(self, rows: Sequence[tuple[Hashable, ValueT]]) -> None:
        """The rows now, in order, each by its identity; the highlight stays on the row it was on (or at its
        place, if that row went), and only the lines in view that changed are repainted."""
        keys = tuple(key for key, _ in rows)
        values = dict(rows)
        if keys == self._keys and values == self._values:
            return
        was = self._keys[self._highlighted] if self._highlighted is not None else None
        shown = self._shown(self._lines, round(self.scroll_offset.y))  # as the screen shows it, before the change
        self._keys, self._values = keys, values
        self._made = {key: made for key, made in self._made.items() if key in values}
        highlighted = self._highlighted
        if keys:
            where = keys.index(was) if was in values else min(highlighted or 0, len(keys) - 1)
            self._highlighted = where
        else:
            self._highlighted = None
        self._lay_out(shown)

    @property
    def option_count(self) -> int:
        """How many rows (as an ``OptionList`` counts its options)."""
        return len(self._keys)

    def value_at(self, index: int) -> ValueT:
        return self._values[self._keys[index]]

    @property
    def highlighted(self) -> int | None:
        return self._highlighted

    @highlighted.setter
    def highlighted(self, index: int | None) -> None:
        if index is not None:
            index = max(0, min(index, len(self._keys) - 1)) if self._keys else None
        before = self._highlighted
        if index == before:
            return
        self._highlighted = index
        self._repaint_rows(*(row for row in (before, index) if row is not None))
        if index is not None:
            self._scroll_to_row(index)

    # ---- the lines -------------------------------------------------------------------------

    def _content_width(self) -> int:
        return self.scrollable_content_region.width if self.size.width else DEFAULT_WIDTH

    def _lay_out(self, old_shown: list[tuple[str, bool, bool]] | None = None) -> None:
        """The lines of every row at the width the list has, the list's height and scroll bar to fit them, and
        the lines in view that changed from ``old_shown`` (what the window showed) repainted."""
        old_top = round(self.scroll_offset.y)
        if old_shown is None:
            old_shown = self._shown(self._lines, old_top)
        for _ in range(2):  # once more if the scroll bar came or went: the width changed with it
            width = self._content_width()
            self._make_lines(width)
            self._fit_height(len(self._lines))
            size = Size(width, len(self._lines))
            if self.is_mounted and size != self.virtual_size:  # else the scroll bar repainted for nothing
                set_virtual_size_quietly(self, size)
            if self._content_width() == width:
                break
        if not self.is_mounted or not self.size.height:
            return
        if self._highlighted is not None:
            self._scroll_to_row(self._highlighted, lobby_too=False)
        top = round(self.scroll_offset.y)
        if top != old_top:
            return  # scrolled: the whole window repainted already
        new_shown = self._shown(self._lines, top)
        changed = [y for y in range(max(len(old_shown), len(new_shown)))
                   if y >= len(old_shown) or y >= len(new_shown) or old_shown[y] != new_shown[y]]
        if changed:
            self.refresh(Region(0, changed[0], self.size.width, changed[-1] - changed[0] + 1))

    def _shown(self, lines: tuple[tuple[str, int], ...], top: int) -> list[tuple[str, bool, bool]]:
        """What the window shows from line ``top``: each line's text, whether highlighted, whether under the
        mouse."""
        highlighted, hovered = self._highlighted, self._hovered
        return [(text, row == highlighted, row == hovered) for text, row in lines[top:top + self.size.height]]

    def _make_lines(self, width: int) -> None:
        lines: list[tuple[str, int]] = []
        firsts: list[int] = []
        made = self._made
        for index, key in enumerate(self._keys):
            value = self._values[key]
            kept = made.get(key)
            if kept is None or kept[1] != width or kept[0] != value:
                text = self.row_text(value, width)
                texts = (text,) if cell_len(text) <= width else tuple(wrap(text, width, ROW_LINES, "…"))
                kept = made[key] = (value, width, texts)
            firsts.append(len(lines))
            lines.extend((text, index) for text in kept[2])
        self._lines, self._firsts, self._width = tuple(lines), tuple(firsts), width

    def _fit_height(self, count: int) -> None:
        """As tall as its lines, up to the style's ``max-height``: set here rather than left ``auto``, which lays
        the whole screen out again on every change of the rows though the height stays the same."""
        tallest = self.styles.max_height
        most = int(tallest.value) if tallest is not None and tallest.unit is Unit.CELLS else count
        self.styles.height = max(1, min(count, most))

    def _row_span(self, index: int) -> tuple[int, int]:
        """The first line of row ``index`` and its number of lines."""
        first = self._firsts[index]
        end = self._firsts[index + 1] if index + 1 < len(self._firsts) else len(self._lines)
        return first, end - first

    def _repaint_rows(self, *indexes: int) -> None:
        """Repaint the lines of these rows, where they are in view."""
        if not self.is_mounted:
            return
        top, height = round(self.scroll_offset.y), self.size.height
        spans = [self._row_span(index) for index in indexes if index < len(self._firsts)]
        rows = sorted(y - top for first, lines in spans for y in range(first, first + lines)
                      if 0 <= y - top < height)
        if rows:
            self.repaint(Region(0, rows[0], self.size.width, rows[-1] - rows[0] + 1))

    def _scroll_to_row(self, index: int, lobby_too: bool = True) -> None:
        """The row's lines in the list's window; on a phone, whose lobby scrolls, in the lobby's too (when the
        player moved the highlight, not when others' news moved the row)."""
        if not self.is_mounted or index >= len(self._firsts):
            return
        first, lines = self._row_span(index)
        self.scroll_to_region(Region(0, first, max(1, self._width), lines), animate=False, force=True,
                              immediate=True)
        if lobby_too and self.has_focus and self.app.has_class(NARROW_CLASS):
            self.call_after_refresh(self._scroll_lobby_to_row, index)

    def _scroll_lobby_to_row(self, index: int) -> None:
        if self.is_attached and index < len(self._firsts):
            first, lines = self._row_span(index)
            scroll_container_to(self, first, lines)

    # ---- drawing ---------------------------------------------------------------------------

    def notify_style_update(self) -> None:
        self._strips.clear()
        super().notify_style_update()

    def render_line(self, y: int) -> Strip:
        index = round(self.scroll_offset.y) + y
        width = self.scrollable_content_region.width
        if not 0 <= index < len(self._lines):
            return Strip.blank(width, self.base_style())
        text, row = self._lines[index]
        highlighted, hovered = row == self._highlighted, row == self._hovered
        key = (text, highlighted, hovered, width)
        strip = self._strips.get(key)
        if strip is None:
            style = self.part_style("row-list--highlighted" if highlighted else "row-list--row")
            if hovered and not highlighted:
                style += self.part_style("row-list--hover", partial=True)
            shown = text if cell_len(text) <= width else set_cell_size(text, width)
            strip = Strip([Segment(shown, style)], cell_len(shown)).adjust_cell_length(width, style)
            self._strips[key] = strip
        return strip

    def on_resize(self) -> None:
        """Laid out, or at another width: the rows made again for it (cut or wrapped to it)."""
        self._lay_out()
        self.refresh()

    def on_focus(self) -> None:
        """Shown and focused at once (``o`` in the lobby): brought into view once it has a place, where the lobby
        scrolls (a phone's); focused before it is laid out, it would scroll nowhere."""
        self.call_after_refresh(self.scroll_visible, animate=False, immediate=True)

    # ---- keys and the mouse ------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        if self._keys:
            self.highlighted = (self._highlighted or 0) + step if self._highlighted is not None else 0

    def action_page(self, direction: int) -> None:
        self.action_cursor(direction * max(1, self.scrollable_content_region.height - 1))

    def action_edge(self, index: int) -> None:
        if self._keys:
            self.highlighted = index if index >= 0 else len(self._keys) - 1

    def action_select(self) -> None:
        if self._highlighted is not None:
            self.post_message(self.Selected(self, self._highlighted))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        offset = event.get_content_offset(self)
        line = round(self.scroll_offset.y) + offset.y if offset is not None else -1
        self._hover(self._lines[line][1] if 0 <= line < len(self._lines) else None)

    def on_leave(self) -> None:
        self._hover(None)

    def _hover(self, row: int | None) -> None:
        before = self._hovered
        if row != before:
            self._hovered = row
            self._repaint_rows(*(each for each in (before, row) if each is not None))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        line = round(self.scroll_offset.y) + offset.y
        if 0 <= line < len(self._lines):
            event.stop()
            row = self._lines[line][1]
            self.highlighted = row
            self.post_message(self.Selected(self, row))
