"""Widgets whose lines are handed to the screen again as they are, until something makes them dirty.

Every frame, Textual asks each widget under the changed part of the screen for all its lines,
whether it changed or not, and each answer walks the widget's lines, styles and filters again
(about 0.1-0.3 ms a widget). A key that changes one line of the footer makes that every widget on
screen. These widgets keep their last answer until Textual marks them dirty (a refresh, a new
size, a change of style), so the unchanged ones cost a lookup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.containers import Horizontal, Vertical
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

# A plain mixin at run time: Textual takes a widget's CSS from the chain of its *first* base
# classes, so a mixin that were a widget itself would hide the styles of the class it is mixed into.
if TYPE_CHECKING:
    _Base = Widget
else:
    _Base = object


class CachedLines(_Base):
    """Mixed in before a widget class: ``render_lines`` kept until the widget is next made dirty."""

    _kept_lines: tuple[Region, object, list[Strip]] | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        kept = self._kept_lines
        size = self._size
        if kept is not None and kept[0] == crop and kept[1] == size:
            return kept[2]
        lines: list[Strip] = super().render_lines(crop)
        self._kept_lines = (crop, size, lines)
        return lines

    def _set_dirty(self, *regions: Region) -> None:
        # Every way Textual marks a widget for repainting goes through here.
        self._kept_lines = None
        super()._set_dirty(*regions)

    def notify_style_update(self) -> None:
        self._kept_lines = None
        super().notify_style_update()


class Column(CachedLines, Vertical):
    """A vertical container whose blank lines are not drawn again every frame."""


class Row(CachedLines, Horizontal):
    """A horizontal container whose blank lines are not drawn again every frame."""
