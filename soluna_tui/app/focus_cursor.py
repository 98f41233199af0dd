"""The terminal's real cursor on what has the focus, for a braille display and a screen reader's review cursor
(``--cursor-follows-focus``, ``SOLUNA_CURSOR=focus``, a lobby setting over SSH; docs/accessibility.md).

Textual hides the terminal's cursor, and after every frame moves it to ``App.cursor_position`` (where its own
``Input`` puts it, for the terminal's input methods). With the option on, the app's driver shows the cursor
(``terminal/driver.py``) and the app works that position out from the focused widget as each frame is written:
the top symbol of the tower the board's cursor is on, a setting's value (each widget of ours says where, with
``cursor_cell``), the highlighted option of a list, the caret of a text field, a button's label. Every key that
moves the focus or a cursor repaints something, so its frame puts the cursor where it now belongs. With the option
off nothing is worked out: the position is Textual's own.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

from textual.app import ScreenStackError
from textual.geometry import Offset

from ..compat.textual_internals import option_lines

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

    from ..local.preferences import Preferences

    _AppBase = App[None]
else:
    _AppBase = object

#: The environment variable that puts the cursor on the focus (``focus``) or hides it (``hidden``) for one run.
SWITCH = "SOLUNA_CURSOR"
FOLLOWS, HIDDEN = "focus", "hidden"


def cursor_wanted(flag: bool | None, preferences: Preferences, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether the real cursor follows the focus: ``--cursor-follows-focus`` or ``--no-cursor-follows-focus``
    (``flag``, remembered in the preferences), else ``SOLUNA_CURSOR`` for this run, else what the preferences
    remember."""
    if flag is not None:
        if flag != preferences.cursor_follows_focus:
            preferences.remember(cursor_follows_focus=flag)
        return flag
    switch = environ.get(SWITCH, "").strip().casefold()
    if switch in (FOLLOWS, HIDDEN):
        return switch == FOLLOWS
    return preferences.cursor_follows_focus


def focus_cell(widget: Widget) -> Offset | None:
    """Where on the screen the real cursor belongs while ``widget`` has the focus (``None``: not laid out yet)."""
    from textual.widgets import Button, DataTable, OptionList

    own = getattr(widget, "cursor_cell", None)  # the board's, a setting's: each widget of ours that has a cursor
    if callable(own):
        return cast("Offset | None", own())
    caret: Offset | None = getattr(widget, "cursor_screen_offset", None)  # Input's and TextArea's own
    if caret is not None:
        return caret
    region = widget.content_region
    if not region:
        return None
    if isinstance(widget, OptionList) and widget.highlighted is not None:
        lines = option_lines(widget, widget.highlighted)
        if lines is not None:
            return Offset(region.x, region.y + lines[0] - widget.scroll_offset.y)
    elif isinstance(widget, DataTable) and widget.row_count:
        header = widget.header_height if widget.show_header else 0
        return Offset(region.x, region.y + header + widget.cursor_row - widget.scroll_offset.y)
    elif isinstance(widget, Button):
        label = len(str(widget.label))
        return Offset(region.x + max(0, (region.width - label) // 2), region.y + region.height // 2)
    return region.offset


class FocusCursor(_AppBase):
    """Mixed into the app: ``cursor_position`` (Textual's) worked out from the focus while ``cursor_follows_focus``."""

    #: Whether the real cursor is shown, on what has the focus (the driver reads it as it writes each frame).
    cursor_follows_focus = False
    _set_cursor_position = Offset(0, 0)

    @property
    def cursor_position(self) -> Offset:
        """Where the terminal's cursor is put after each frame: on the focus while it follows it, else where
        Textual's widgets set it."""
        if self.cursor_follows_focus:
            try:
                focused = self.focused
            except ScreenStackError:  # no screen yet: where it was set
                focused = None
            cell = focus_cell(focused) if focused is not None else None
            if cell is not None:
                return cell
        return self._set_cursor_position

    @cursor_position.setter
    def cursor_position(self, position: Offset) -> None:
        self._set_cursor_position = position

    def follow_focus(self, follows: bool) -> None:
        """Show the cursor on the focus, or hide it again (with the next frame, drawn now)."""
        if follows != self.cursor_follows_focus:
            self.cursor_follows_focus = follows
            self.refresh()
