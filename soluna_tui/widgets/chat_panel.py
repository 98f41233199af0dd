"""Table talk's panel: the last lines said where the player is, and the chat line, opened by its key and closed by
Escape. The numbers 1 to 4 in the empty chat line say the canned lines (on the board they pick towers, so they
are canned only here). Lines are drawn as plain text, never markup: what a player typed is never obeyed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, RichLog

from ..link.messages import ChatLine
from ..link.talk import CANNED
from ..play.talk import PLACEHOLDER, spoken_by

#: The most lines the panel draws (older ones scroll out of the book's reach anyway).
LINES_DRAWN = 100


class ChatInput(Input):
    """The chat line: Enter says it, Escape closes it, 1 to 4 while it is empty say a canned line."""

    BINDINGS = [Binding("escape", "close_chat", "Close talk", show=False)]

    def on_key(self, event: events.Key) -> None:
        """A number while the line is empty: its canned line (and the input's own handling of the key is skipped:
        this handler comes first, ``prevent_default`` stops the ones after it)."""
        number = event.character
        if not self.value and number is not None and number in "1234" and len(number) == 1:
            event.stop()
            event.prevent_default()
            self.post_message(ChatPanel.Said(CANNED[int(number) - 1]))

    async def action_submit(self) -> None:
        """Enter: the line said, and the chat line emptied at once (the next key typed is the next line's)."""
        text, self.value = self.value, ""
        if text.strip():
            self.post_message(ChatPanel.Said(text))

    def action_close_chat(self) -> None:
        self.post_message(ChatPanel.Closed())


class ChatPanel(Vertical):
    """The lines said here, and the chat line under them while it is open."""

    class Said(Message):
        """The player said ``text`` (typed, or a canned line)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Closed(Message):
        """The player closed the chat line (Escape)."""

    def __init__(self, *, shown_with_lines: bool, id: str | None = None) -> None:
        """``shown_with_lines``: the panel stays in view, closed, while there are lines to read (beside the board);
        else only while open (in the lobby, in the lists' place)."""
        super().__init__(id=id)
        self.shown_with_lines = shown_with_lines
        self.is_open = False
        self._drawn: tuple[tuple[str, str, bool], ...] = ()
        self._note: str | None = None
        self._lines: tuple[tuple[str, str, bool], ...] = ()

    def compose(self) -> ComposeResult:
        yield RichLog(min_width=1, wrap=True, markup=False, highlight=False, id="chat-lines")
        yield ChatInput(placeholder=PLACEHOLDER, compact=True, id="chat-input")

    def on_mount(self) -> None:
        self.border_title = "Talk"
        self._show()

    @property
    def chat_line(self) -> ChatInput:
        return self.query_one(ChatInput)

    def show(self, lines: Sequence[ChatLine], note: str | None = None, players_see_spectators: bool = False) -> None:
        """The lines to show (the last ``LINES_DRAWN``), and a note under them (why not said, a command's answer)."""
        self._lines = tuple((spoken_by(line, players_see_spectators), line.text, line.yours)
                            for line in lines[-LINES_DRAWN:])
        self._note = note
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

    def _show(self) -> None:
        self.display = self.is_open or (self.shown_with_lines and bool(self._lines or self._note))
        self.chat_line.display = self.is_open
        drawn = (*self._lines, *((("", self._note, False),) if self._note else ()))
        if drawn == self._drawn:
            return
        log = self.query_one(RichLog)
        if self._drawn != drawn[:len(self._drawn)] or not self._drawn:
            log.clear()
            self._drawn = ()
        for name, text, yours in drawn[len(self._drawn):]:
            log.write(Text.assemble((name, "bold underline" if yours else "bold"), ": ", text) if name
                      else Text(text, style="italic"))
        self._drawn = drawn
