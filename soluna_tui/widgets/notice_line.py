"""News at a match (a player left or came back, a rematch asked): in lines of their own at the foot of
the sidebar, never over the board, its status line or the moves; the newest notice replaces the last."""

from __future__ import annotations

from typing import ClassVar

from textual.geometry import Size

from .text_lines import TextLines, wrap

#: Lines kept for a notice, shown or not; a longer one takes up to ``NOTICE_MOST_LINES`` (the moves above make
#: way while it shows), and one longer still ends with an ellipsis.
NOTICE_LINES = 3
NOTICE_MOST_LINES = 8
#: Seconds a notice stays, unless a newer one replaces it first.
NOTICE_SECONDS = 20.0


class NoticeLine(TextLines):
    """Attributes down: ``show(text)``; cleared after ``NOTICE_SECONDS``. ``NOTICE_LINES`` high, so a usual notice
    moves nothing on the screen; a longer one is read whole, the moves above making way while it shows."""

    DEFAULT_CSS = """
    NoticeLine {
        height: auto;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"notice-line--text"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(lines=NOTICE_MOST_LINES, id=id)
        #: How many notices have been shown: a notice's timer clears it only if none came since.
        self._shown = 0

    def show(self, text: str) -> None:
        self._shown += 1
        shown = self._shown
        self.set_text(text, "notice-line--text")
        self.refresh(layout=True)  # its height: as many lines as it takes
        self.set_class(bool(text), "-shown")  # a narrow terminal shows the line only then (styles/game.tcss)
        self.set_timer(NOTICE_SECONDS, lambda: self._clear(shown), name="notice")

    def withdraw(self, text: str) -> None:
        """The notice ``text`` no longer holds (a request answered or lapsed): it goes, unless a newer one took its
        place already."""
        if text and self.text == text:
            self._shown += 1
            self._clear(self._shown)

    def _clear(self, shown: int) -> None:
        if shown == self._shown:
            self.set_text("", "notice-line--text")
            self.refresh(layout=True)
            self.remove_class("-shown")

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """``NOTICE_LINES``, or as many as the notice takes in ``width`` (up to ``NOTICE_MOST_LINES``)."""
        return max(NOTICE_LINES, len(wrap(self.text, width - 2 * self.margin, NOTICE_MOST_LINES, "...")))
