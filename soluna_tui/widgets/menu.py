"""A list of choices whose highlight stops at either end (no wrapping round to "Quit" by accident)."""

from __future__ import annotations

from textual.widgets import OptionList


class Menu(OptionList):
    """An ``OptionList`` where Up on the first choice and Down on the last do nothing."""

    def action_cursor_up(self) -> None:
        if self.highlighted is None or self.highlighted > 0:
            super().action_cursor_up()

    def action_cursor_down(self) -> None:
        if self.highlighted is None or self.highlighted < self.option_count - 1:
            super().action_cursor_down()
