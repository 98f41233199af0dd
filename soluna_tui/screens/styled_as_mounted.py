"""Screens whose first show keeps the styles their widgets were given as they mounted."""

from __future__ import annotations

from textual import events

from ..compat.textual_internals import LaidOutOnceAsShown


class StyledAsMounted(LaidOutOnceAsShown):
    """Mixed in before a screen class: Textual styles every widget of a screen as it mounts them, then styles the
    whole screen again as it first shows (``ScreenResume``), though nothing it styles by has changed in between.
    That second pass is skipped on the first show (a fifth of a lobby's start, a tenth of the game's first
    frame); a later show is styled again whenever Textual asks for it, as before. Nor is the screen laid out
    again, with those under it, for a terminal whose size has not changed (``LaidOutOnceAsShown``)."""

    _shown_before = False

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self._shown_before:
            event.refresh_styles = False
            self._shown_before = True
