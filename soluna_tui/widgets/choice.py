"""A setting with a few values, changed with left/right (or a click): ``Rules  < box >``.

One line drawn with the line API from kept styles (two where the longest value does not fit beside the label,
as in a phone's narrow dialog: the value under the label): a key that changes the value repaints that
line and nothing else (the dialogs' most frequent key, over SSH too). Its focus look is drawn
too, from the ``choice--focused*`` parts: the focus moving to the next field restyles nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from textual import events
from textual.binding import Binding
from textual.geometry import Offset, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from .cached_lines import CachedLines


class Choice(CachedLines, Widget, can_focus=True):
    """Attributes down: ``values`` (label, value) pairs; messages up: ``Choice.Changed``."""

    DIRECT_LINES = True

    BINDINGS = [
        Binding("left,h", "cycle(-1)", "Previous", show=False),
        Binding("right,l,space", "cycle(1)", "Next", show=False),
    ]
    COMPONENT_CLASSES = {"choice--label", "choice--value", "choice--arrow", "choice--focused",
                         "choice--focused-label", "choice--focused-value", "choice--focused-arrow"}
    DEFAULT_CSS = """
    Choice {
        height: auto;
        width: 1fr;
    }
    """

    #: Repainted by ``watch_index`` (one line, without the messages of a refresh).
    index: reactive[int] = reactive(0, repaint=False)

    class Changed(Message):
        def __init__(self, choice: Choice, value: Any) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

        @property
        def control(self) -> Choice:
            return self.choice

    def __init__(self, label: str, values: Sequence[tuple[str, Any]], value: Any = None, *,
                 ascii_mode: bool = False, label_width: int = 18, id: str | None = None) -> None:
        super().__init__(id=id)
        self.label = label
        self.values = list(values)
        self.ascii_mode = ascii_mode
        self.label_width = label_width
        self.set_reactive(Choice.index, self._index_of(value))

    def _index_of(self, value: Any) -> int:
        for index, (_, candidate) in enumerate(self.values):
            if candidate == value:
                return index
        return 0

    @property
    def value(self) -> Any:
        return self.values[self.index][1]

    @value.setter
    def value(self, value: Any) -> None:
        self.index = self._index_of(value)

    def relabel(self, values: Sequence[tuple[str, Any]]) -> None:
        """New labels (or values), keeping the current value when it is still offered."""
        current = self.value
        self.values = list(values)
        self.index = self._index_of(current)
        self.repaint()

    def watch_has_focus(self, has_focus: bool) -> None:
        """Textual restyles a widget when its focus changes; a Choice has no ``:focus`` rule (its
        focus look is drawn), so the line is repainted instead."""
        self.repaint()

    def watch_index(self) -> None:
        self.repaint()
        self.post_message(self.Changed(self, self.value))

    def action_cycle(self, step: int) -> None:
        self.index = (self.index + step) % len(self.values)

    def on_click(self, event: events.Click) -> None:
        """A click (a tap) on the left arrow goes back a value; anywhere else on the line, on to the next."""
        self.focus()
        one_line = self._one_line(self.size.width)
        value_line, left_arrow = (0, self.label_width) if one_line else (1, 2)
        back = event.y == value_line and left_arrow <= event.x < left_arrow + 2
        self.action_cycle(-1 if back else 1)

    def _one_line(self, width: int) -> bool:
        """Whether every value fits beside the label in ``width`` columns (else each is drawn under it)."""
        longest = max((cell_len(text) for text, _ in self.values), default=0)
        return self.label_width + longest + 4 <= width

    def cursor_cell(self) -> Offset:
        """Where on the screen the terminal's real cursor goes while the setting has the focus (when it follows the
        focus): the first letter of its value."""
        region = self.content_region
        one_line = self._one_line(region.width)
        return region.offset + ((self.label_width + 2, 0) if one_line else (4, 1))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1 if self._one_line(width) else 2

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        focused = self.has_focus
        base = self.part_style("choice--focused") if focused else self.base_style()
        one_line = self._one_line(width)
        if y > (0 if one_line else 1):
            return Strip.blank(width, base)
        left, right = ("<", ">") if self.ascii_mode else ("◂", "▸")
        prefix = "choice--focused-" if focused else "choice--"
        label = [(f"{self.label:<{self.label_width}}", f"{prefix}label")]
        text = self.values[self.index][0]
        room = width - 4 - (self.label_width if one_line else 2)  # a value longer than its line ends with "..."
        if cell_len(text) > room > 1:
            text = set_cell_size(text, room - 1) + ("." if self.ascii_mode else "…")
        value = [(f"{left} ", f"{prefix}arrow"), (text, f"{prefix}value"), (f" {right}", f"{prefix}arrow")]
        pieces = label + value if one_line else label if y == 0 else [("  ", f"{prefix}label"), *value]
        segments = []
        used = 0
        for text, part in pieces:
            text = set_cell_size(text, min(cell_len(text), max(0, width - used)))
            if text:
                segments.append(Segment(text, self.part_style(part)))
                used += cell_len(text)
        if used < width:
            segments.append(Segment(" " * (width - used), base))
        return Strip(segments, width)
