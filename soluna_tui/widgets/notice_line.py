"""News at a match (a player left or came back, a rematch asked): in lines of their own at the foot of
the sidebar, never over the board, its status line or the moves; the newest notice replaces the last."""

from __future__ import annotations

from typing import ClassVar

from .text_lines import TextLines

#: Lines a notice may take (a longer one ends with an ellipsis).
NOTICE_LINES = 3
#: Seconds a notice stays, unless a newer one replaces it first.
NOTICE_SECONDS = 20.0


class NoticeLine(TextLines):
    """Attributes down: ``show(text)``; cleared after ``NOTICE_SECONDS``. Of a fixed height, so a notice
    moves nothing on the screen."""

    DEFAULT_CSS = f"""
    NoticeLine {{
        height: {NOTICE_LINES};
    }}
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"notice-line--text"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(lines=NOTICE_LINES, id=id)
        #: How many notices have been shown: a notice's timer clears it only if none came since.
        self._shown = 0

    def show(self, text: str) -> None:
        self._shown += 1
        shown = self._shown
        self.set_text(text, "notice-line--text")
        self.set_class(bool(text), "-shown")  # a narrow terminal shows the line only then (styles/game.tcss)
        self.set_timer(NOTICE_SECONDS, lambda: self._clear(shown), name="notice")

    def _clear(self, shown: int) -> None:
        if shown == self._shown:
            self.set_text("", "notice-line--text")
            self.remove_class("-shown")
