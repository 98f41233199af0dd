"""Table talk's panel: the last lines said where the player is, and the chat line under them while it is open
(opened by its key, closed by Escape).

Its lines and chat line are made the first time the panel shows: most matches have no talk, and a game on one
terminal never has any, so its first frame does without them (and without importing them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.containers import Vertical

if TYPE_CHECKING:  # the messages' module is only the SSH child's: the local game never imports it
    from ..link.messages import ChatLine
    from .chat_input import ChatInput
    from .chat_lines import ChatLines, Spoken

#: The most lines the panel keeps to draw (the newest: the panel shows the last few that fit).
LINES_DRAWN = 100


class ChatPanel(Vertical):
    """The lines said here, and the chat line under them while it is open."""

    DEFAULT_CSS = """
    ChatPanel {
        display: none;
        &.-open, &.-has-lines { display: block; }
    }
    """

    def __init__(self, *, shown_with_lines: bool, id: str | None = None) -> None:
        """``shown_with_lines``: the panel stays in view, closed, while there are lines to read (beside the board);
        else only while open (in the lobby, in the lists' place)."""
        super().__init__(id=id)
        self.shown_with_lines = shown_with_lines
        self.is_open = False
        self._spoken: tuple[Spoken, ...] = ()
        self._parts: tuple[ChatLines, ChatInput] | None = None

    def _mounted_parts(self) -> tuple[ChatLines, ChatInput]:
        """The lines and the chat line: made and mounted the first time they are needed."""
        if self._parts is None:
            from .chat_input import ChatInput
            from .chat_lines import ChatLines

            self._parts = ChatLines(id="chat-lines"), ChatInput(id="chat-input")
            self.mount_all(self._parts)
        return self._parts

    def on_mount(self) -> None:
        self.border_title = "Talk"
        self._show()

    @property
    def chat_line(self) -> ChatInput:
        return self._mounted_parts()[1]

    def show(self, lines: Sequence[ChatLine], note: str | None = None, players_see_spectators: bool = False) -> None:
        """The lines to show (the last ``LINES_DRAWN``), and a note under them (why not said, a command's answer)."""
        from ..play.chat_book import spoken_by

        self._spoken = (*((spoken_by(line, players_see_spectators), line.text, line.yours)
                          for line in lines[-LINES_DRAWN:]), *(((None, note, False),) if note else ()))
        if self.is_mounted:
            self._show()

    def open(self) -> None:
        """The chat line, open and focused."""
        self.is_open = True
        self._show()
        self.chat_line.focus()

    def close(self) -> None:
        self.is_open = False
        self.chat_line.value = ""
        self._show()

    def on_show(self) -> None:
        """Come into view (opened, or a narrow screen's moves and talk opened with Tab): draw the lines heard."""
        self._show()

    def _show(self) -> None:
        # The stylesheet shows the panel by these classes (styles/talk.tcss): beside the board while there are
        # lines to read; on a narrow terminal only while it is open or the moves and talk are.
        self.set_class(self.is_open, "-open")
        self.set_class(self.shown_with_lines and bool(self._spoken), "-has-lines")
        if self._parts is None and not self.display:
            return  # never shown yet: nothing to make
        lines, chat_line = self._mounted_parts()
        chat_line.display = self.is_open
        if self.display:  # a hidden panel's lines wait until it shows: refreshing a widget out of view costs the
            lines.show(self._spoken)  # screen its whole map again, on every line heard
