"""Widgets whose lines are handed to the screen again as they are, until they are refreshed.

Every frame, Textual asks each widget under the changed part of the screen for all its lines,
whether it changed or not, and each answer walks the widget's lines, styles and filters again
(about 0.1-0.3 ms a widget). A key that changes one line of the footer makes that every widget on
screen. These widgets keep their last answer, by the region asked for and their size, until they
are refreshed (``refresh``, where Textual's repaints of a widget go: a new content, a scroll of a
``ScrollView``, a change of style) or restyled (``notify_style_update``), so the unchanged ones
cost a lookup. Textual's own ``Log`` keeps its lines so, and drops them in ``refresh_lines``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from rich.cells import cell_len
from rich.style import Style
from textual.color import Color
from textual.containers import Horizontal, Vertical
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import Static

from ..compat.textual_internals import repaint_soon

if TYPE_CHECKING:
    from textual.widget import Widget

    _WidgetBase = Widget
else:
    # ``CachedLines`` is a plain mixin at run time (a Widget to the type checker): Textual takes a
    # widget's CSS from the chain of its *first* base classes, so a mixin that were a widget itself
    # would hide the styles of the class it is mixed into.
    _WidgetBase = object


def changed_cells(before: Strip, after: Strip) -> tuple[int, int] | None:
    """The cells from the first to the last that differ between two lines of the same width (their
    text or style), or ``None`` when they are the same: only those are repainted. Whole segments
    are compared, then the characters at the ends of the ones that differ."""
    if before == after:
        return None
    old, new = list(before), list(after)
    start = left = 0
    while start < len(old) and start < len(new) and old[start] == new[start]:
        left += old[start].cell_length
        start += 1
    old_end, new_end, right = len(old), len(new), 0
    while old_end > start and new_end > start and old[old_end - 1] == new[new_end - 1]:
        old_end -= 1
        new_end -= 1
        right += old[old_end].cell_length
    old_middle, new_middle = old[start:old_end], new[start:new_end]
    if old_middle and new_middle:
        first_old, first_new = old_middle[0], new_middle[0]
        same = _alike(first_old.text, first_new.text) if first_old.style == first_new.style else 0
        left += cell_len(first_old.text[:same])
        last_old, last_new = old_middle[-1], new_middle[-1]
        if last_old.style == last_new.style:
            skip = same if len(old_middle) == len(new_middle) == 1 else 0  # what the start took already
            same_end = _alike(last_old.text[skip:][::-1], last_new.text[skip:][::-1])
            right += cell_len(last_old.text[len(last_old.text) - same_end:])
    width = max(before.cell_length, after.cell_length)
    return (left, width - right) if left < width - right else (0, width)


def _alike(old: str, new: str) -> int:
    """How many characters two texts have alike from their start."""
    same = 0
    for old_char, new_char in zip(old, new, strict=False):
        if old_char != new_char:
            break
        same += 1
    return same


class CachedLines(_WidgetBase):
    """Mixed in before a widget class: ``render_lines`` kept until the widget is next refreshed.

    A widget that draws every cell of its lines itself, with no border, padding, tint or
    opacity (``DIRECT_LINES``), hands the screen its own lines, through the app's filters only:
    Textual's styles cache would walk the widget's ancestors for its background, and build each
    line again, for every line that changed.
    """

    #: The widget's ``render_line`` gives whole lines, and its styles add nothing around them.
    DIRECT_LINES = False
    #: The widget draws nothing of its own (a container with a plain background): every line is the
    #: same blank strip, so the screen cuts it up once for all the lines where its children sit alike.
    BLANK_LINES = False
    _kept_lines: tuple[Region, object, list[Strip]] | None = None
    _kept_background: Color | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        kept = self._kept_lines
        size = self.outer_size
        if kept is not None and kept[0] == crop and kept[1] == size:
            return kept[2]
        if self.BLANK_LINES:
            lines = [self._filtered(Strip.blank(crop.width, self.base_style()))] * crop.height
        elif self.DIRECT_LINES:
            lines = self._direct_lines(crop)
        else:
            lines = super().render_lines(crop)
        self._kept_lines = (crop, size, lines)
        return lines

    def _filtered(self, strip: Strip) -> Strip:
        """``strip`` through the app's line filters (colours for the terminal, NO_COLOR's greys)."""
        background = self._kept_background
        if background is None:
            background = self._kept_background = self.background_colors[1]
        for line_filter in self.app.get_line_filters():
            strip = strip.apply_filter(line_filter, background)
        return strip

    def _direct_lines(self, crop: Region) -> list[Strip]:
        filtered = self._filtered
        render_line = self.render_line
        lines = [filtered(render_line(y)) for y in crop.line_range]
        x1, x2 = crop.column_span
        if (x1, x2) != (0, self.outer_size.width):
            lines = [strip.crop(x1, x2) for strip in lines]
        return lines

    def base_style(self) -> Style:
        """The widget's own rich style (background and colour), kept until its styles change: Textual
        works it out afresh from every ancestor on each call."""
        kept = self._kept_styles.get("")
        if kept is None:
            kept = self._kept_styles[""] = self.rich_style
        return kept

    def part_style(self, component: str, partial: bool = False) -> Style:
        """A component class's rich style, kept until the widget's styles change (Textual forgets
        its own on every refresh)."""
        key = f"{'~' if partial else ''}{component}"
        kept = self._kept_styles.get(key)
        if kept is None:
            kept = self._kept_styles[key] = self.get_component_rich_style(component, partial=partial)
        return kept

    @property
    def _kept_styles(self) -> dict[str, Style]:
        styles: dict[str, Style] | None = self.__dict__.get("_styles_kept")
        if styles is None:
            styles = self.__dict__["_styles_kept"] = {}
        return styles

    def repaint_changes(self, old: list[Strip] | None, new: list[Strip]) -> None:
        """Repaint only the cells that differ from ``old`` (what the screen shows) to ``new``."""
        if old is None or len(old) != len(new):
            self.repaint()
            return
        regions = [Region(span[0], y, span[1] - span[0], 1)
                   for y, (before, after) in enumerate(zip(old, new, strict=True))
                   if before is not after and (span := changed_cells(before, after)) is not None]
        if regions:
            self.repaint(*regions)

    def repaint(self, *regions: Region) -> None:
        """Repaint these parts of the widget (all of it without any) in the next frame.

        What ``refresh`` comes to for a widget of a fixed size that draws its own lines, without the
        two messages it goes through on the way (an idle prompt to the widget, then an update to the
        screen): twelve towers lit at once would cost twenty-four (a pick costs a quarter more through
        ``refresh``: ``compat.textual_internals.repaint_soon`` has the figures).
        """
        if not self.is_mounted:
            self.refresh(*regions)
            return
        self._kept_lines = None
        repaint_soon(self, *regions)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Self:
        """Textual's ``refresh``; a repaint asked for (of any part) drops the lines kept."""
        if repaint:
            self._kept_lines = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def notify_style_update(self) -> None:
        self._kept_lines = None
        self._kept_background = None
        self._kept_styles.clear()
        super().notify_style_update()


class Column(CachedLines, Vertical):
    """A vertical container with a plain background, drawn as one blank line repeated."""

    BLANK_LINES = True


class Row(CachedLines, Horizontal):
    """A horizontal container with a plain background, drawn as one blank line repeated."""

    BLANK_LINES = True


class Panel(CachedLines, Vertical):
    """A vertical container drawn with its border and padding (a dialog's frame), its lines kept."""


class Words(CachedLines, Static):
    """A ``Static`` whose lines are kept until its text or style changes."""
