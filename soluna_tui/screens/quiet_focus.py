"""Screens whose change of focus repaints the widgets it concerns, not the whole screen."""

from __future__ import annotations

from textual.reactive import Reactive
from textual.widget import Widget

from ..compat.textual_internals import focus_without_repaint


class QuietFocus:
    """Mixed in before a screen class: moving the focus (Tab, the arrows between fields) repaints the
    widget it leaves and the one it enters, which restyle themselves by their ``:focus`` rules (or
    draw their own cursor), instead of the whole screen: a dialog's next field wrote 4.7 KB in two
    frames at 80x24, where two lines changed."""

    #: ``Screen.focused``, without repainting the screen when it changes.
    focused: Reactive[Widget | None] = focus_without_repaint()
