"""A list of choices whose highlight stops at either end (no wrapping round to "Quit" by accident).

Moving the highlight repaints the two options it leaves and reaches, not the whole list (Textual's
``OptionList`` repaints every option on each key).
"""

from __future__ import annotations

from textual.css.scalar import Unit
from textual.geometry import Region
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import OptionList

from ..compat.textual_internals import option_lines
from ..terminal.sizes import NARROW_CLASS


class Menu(OptionList):
    """An ``OptionList`` where Up on the first choice and Down on the last do nothing."""

    #: ``OptionList.highlighted``, repainted by ``_watch_highlighted`` (the two options concerned).
    highlighted: reactive[int | None] = reactive(None, repaint=False)

    def _watch_highlighted(self, before: int | None, after: int | None) -> None:
        self._repaint_option(before)
        self._repaint_option(after)
        if self.has_focus and self.app.has_class(NARROW_CLASS):  # a phone's lobby scrolls: the choice kept in view
            self.call_after_refresh(self._scroll_to_highlighted)

    def _scroll_to_highlighted(self) -> None:
        """Scroll the container the menu stands in (a phone's lobby) just enough to show the highlighted option."""
        lines = option_lines(self, self.highlighted) if self.highlighted is not None and self.is_attached else None
        if lines is not None:
            scroll_container_to(self, *lines)

    def _repaint_option(self, index: int | None) -> None:
        lines = option_lines(self, index) if index is not None and self.is_mounted else None
        if lines is None:
            self.refresh()
            return
        first, height = lines
        self.refresh(Region(0, first - self.scroll_offset.y, self.size.width, height))

    def fit_height(self, count: int) -> None:
        """As tall as ``count`` options of a line each, up to the style's ``max-height``: set here rather than left
        ``auto``, whose every change of the options lays the whole screen out again, though the height (the most
        lines shown, for as long as there are that many) has not changed."""
        tallest = self.styles.max_height
        most = int(tallest.value) if tallest is not None and tallest.unit is Unit.CELLS else count
        self.styles.height = min(count, most)
        self.call_after_refresh(self._fit_wrapped_lines, most)

    def _fit_wrapped_lines(self, most: int) -> None:
        """Options that wrap (a phone's narrow lobby) take more lines than they count: as tall as those lines."""
        lines = self.virtual_size.height
        if self.is_attached and lines > self.option_count and self.styles.height is not None and (
                int(self.styles.height.value) < min(lines, most)):
            self.styles.height = min(lines, most)

    def action_cursor_up(self) -> None:
        if self.highlighted is None or self.highlighted > 0:
            super().action_cursor_up()

    def action_cursor_down(self) -> None:
        if self.highlighted is None or self.highlighted < self.option_count - 1:
            super().action_cursor_down()


def scroll_container_to(widget: Widget, first: int, height: int) -> None:
    """Scroll the container ``widget`` stands in (a phone's lobby) just enough to show ``height`` of the widget's
    lines from ``first`` (before its own scrolling)."""
    container = next((node for node in widget.ancestors if isinstance(node, Widget) and node.allow_vertical_scroll),
                     None)
    if container is None:
        return
    top = widget.content_region.y + first - widget.scroll_offset.y
    view = container.scrollable_content_region
    if top < view.y:
        container.scroll_to(y=container.scroll_y - (view.y - top), animate=False)
    elif top + height > view.bottom:
        container.scroll_to(y=container.scroll_y + (top + height - view.bottom), animate=False)
