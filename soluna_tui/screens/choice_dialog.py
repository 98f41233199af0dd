"""A dialog that says something, then offers choices in a list: the shape of most of our dialogs."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..widgets.key_footer import KeyFooter
from .quiet_focus import QuietFocus
from .styled_as_mounted import StyledAsMounted

T = TypeVar("T")


class ChoiceDialog(QuietFocus, StyledAsMounted, ModalScreen[T], Generic[T]):
    """Subclasses give ``body()`` (the widgets above the list) and ``choices()`` (label, value)
    pairs; choosing one, with Enter or a click, dismisses the dialog with its value."""

    #: The id of the dialog's frame (for styles) and its title.
    DIALOG_ID = "dialog"
    DIALOG_TITLE = ""
    AUTO_FOCUS = "#dialog-choices"

    def body(self) -> Iterable[Widget]:
        return ()

    def choices(self) -> list[tuple[str, Any]]:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        self._values = []
        options = []
        for label, value in self.choices():
            options.append(Option(label))
            self._values.append(value)
        frame = Vertical(id=self.DIALOG_ID, classes="dialog")
        frame.border_title = self.DIALOG_TITLE
        with frame:
            yield from self.body()
            yield OptionList(*options, id="dialog-choices")
        yield KeyFooter()

    @on(OptionList.OptionSelected, "#dialog-choices")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self._values[event.option_index])

    def action_choose(self, value: Any) -> None:
        """For keys that pick a choice directly (``y``, ``n``...)."""
        self.dismiss(value)
