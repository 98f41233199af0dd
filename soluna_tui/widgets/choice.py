"""A setting with a few values, changed with left/right (or a click): ``Rules  < box >``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class Choice(Widget, can_focus=True):
    """Attributes down: ``values`` (label, value) pairs; messages up: ``Choice.Changed``."""

    BINDINGS = [
        Binding("left,h", "cycle(-1)", "Previous", show=False),
        Binding("right,l,space", "cycle(1)", "Next", show=False),
    ]
    COMPONENT_CLASSES = {"choice--label", "choice--value", "choice--arrow"}
    DEFAULT_CSS = """
    Choice {
        height: 1;
        width: 1fr;
    }
    """

    index: reactive[int] = reactive(0)

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
        self.refresh()

    def watch_index(self) -> None:
        self.post_message(self.Changed(self, self.value))

    def action_cycle(self, step: int) -> None:
        self.index = (self.index + step) % len(self.values)

    def on_click(self, event: events.Click) -> None:
        self.focus()
        self.action_cycle(1)

    def render(self) -> Text:
        left, right = ("<", ">") if self.ascii_mode else ("◂", "▸")
        text = Text()
        text.append(f"{self.label:<{self.label_width}}", self.get_component_rich_style("choice--label"))
        text.append(f"{left} ", self.get_component_rich_style("choice--arrow"))
        text.append(self.values[self.index][0], self.get_component_rich_style("choice--value"))
        text.append(f" {right}", self.get_component_rich_style("choice--arrow"))
        return text
