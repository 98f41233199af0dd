"""Table talk's chat line: Enter says it, Escape closes it, and the numbers 1 to 4 while it is empty say the canned
lines (on the board they pick towers, so they are canned only here)."""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Input

from ..link.safe_talk import CANNED
from ..play.chat_book import PLACEHOLDER


class ChatInput(Input):
    """The chat line (messages up: a line said, the line closed)."""

    BINDINGS = [Binding("enter", "submit", "Say"), Binding("escape", "close_chat", "Close talk")]
    #: A steady cursor: a blinking one repainted the line twice a second for as long as the talk was open, in
    #: every session of the server that had it open, however quiet the talk.
    cursor_blink = reactive(False, init=False)

    class Said(Message):
        """The player said ``text`` (typed, or a canned line)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Closed(Message):
        """The player closed the chat line (Escape)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder=PLACEHOLDER, compact=True, id=id)

    def on_focus(self) -> None:
        """Shown and focused at once (``C``): brought into view once it has a place, where the screen scrolls (a
        phone's lobby); focused before it is laid out, it would scroll nowhere."""
        self.call_after_refresh(self.scroll_visible, animate=False, immediate=True)

    def on_key(self, event: events.Key) -> None:
        """A number while the line is empty: its canned line (and the input's own handling of the key is skipped:
        this handler comes first, ``prevent_default`` stops the ones after it)."""
        number = event.character
        if not self.value and number is not None and number in "1234" and len(number) == 1:
            event.stop()
            event.prevent_default()
            self.post_message(self.Said(CANNED[int(number) - 1]))

    async def action_submit(self) -> None:
        """Enter: the line said, and the chat line emptied at once (the next key typed is the next line's)."""
        text, self.value = self.value, ""
        if text.strip():
            self.post_message(self.Said(text))

    def action_close_chat(self) -> None:
        self.post_message(self.Closed())
