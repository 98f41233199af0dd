"""Runs in the child.

The open seeks board: every quick match waiting for an opponent (who, their rating, the terms, rated or not, how
long they have waited), live as seeks come and go. Enter accepts the one highlighted, on its terms (the server
pairs the two as a quick match pairs them, or says in one line why not). The lobby's ``s`` and its menu open it;
the app hands it each new list the server tells (``OpenSeeks``).
"""

from __future__ import annotations

import time
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static

from ...link.messages import OpenSeeks, SeekLine
from ...screens.help import HELP_BINDING
from ...screens.quiet_focus import QuietFocus
from ...screens.styled_as_mounted import StyledAsMounted
from ...widgets.key_footer import KeyFooter
from ...widgets.menu import Menu
from ..panes.lobby_menu import QUICK
from .lobby_wish import LobbyWish
from .seeking import terms_words, waited_words

#: What the board says while it has no seek to show (the menu's entry in the menu's words).
NO_SEEKS = f"Nobody is looking for an opponent right now. \"{QUICK[1]}\" (in the menu) puts you on this board."


def seek_words(line: SeekLine, now: float) -> str:
    """One seek as the board lists it: who (and a keyed player's rating, ``new`` before their first rated match), the
    terms, how long they have waited."""
    standing = f" ({line.rating})" if line.rating is not None else " (new)" if line.keyed else ""
    who = "You" if line.yours else f"{line.name}{standing}"
    return f"{who}: {terms_words(line.terms)}, waiting {waited_words(now - line.since)}"


class SeeksBoardScreen(QuietFocus, StyledAsMounted, ModalScreen[None]):
    """Enter or ``a`` accepts the seek highlighted; Escape goes back to the lobby."""

    AUTO_FOCUS = "#seeks-list"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "accept", "Accept"),
        Binding("escape", "close", "Back"),
        HELP_BINDING,
    ]

    class Accept(LobbyWish):
        """Accept the seek ``key`` from the board."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, board: OpenSeeks | None = None, clock_offset: float = 0.0) -> None:
        """``board``: the seeks as last told (``None``: not told yet); ``clock_offset``: the store's time less this
        terminal's (``time.time()``), for how long each has waited."""
        super().__init__()
        self.board = board
        self.clock_offset = clock_offset
        #: What the line under the list is about: a seek's key (an answer about it: it goes with that seek), ``""``
        #: (the board's count: said again with each list), ``None`` (nothing said).
        self._status_about: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="seeks-board", classes="dialog"):
            yield Menu(id="seeks-list", markup=False)
            yield Static("", id="seeks-none", markup=False)
            yield Static("", id="seeks-status", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#seeks-board").border_title = "Open seeks"
        self.show(self.board)

    def show(self, board: OpenSeeks | None) -> None:
        """The seeks as the server last said (the highlight stays on the one it was on)."""
        was = self._highlighted()
        self.board = board
        lines = board.seeks if board is not None else ()
        menu = self.query_one("#seeks-list", Menu)
        now = time.time() + self.clock_offset
        menu.set_options([seek_words(line, now) for line in lines])
        keys = [line.key for line in lines]
        if lines:
            menu.highlighted = keys.index(was.key) if was is not None and was.key in keys else 0
        menu.display = bool(lines)
        none = self.query_one("#seeks-none", Static)
        none.update("Asking the server for the open seeks..." if board is None else NO_SEEKS)
        none.display = not lines
        about = self._status_about
        if about is not None and about not in keys:  # its seek is gone (a refusal of it no longer holds)
            self._status_about = None
            self.say("")
        if board is not None and board.total > len(lines) and self._status_about is None:
            self._status_about = ""
            self.say(f"The {len(lines)} longest waiting of {board.total}.")

    def say(self, text: str) -> None:
        """One line under the list: why a seek could not be accepted, or what came of it."""
        self.query_one("#seeks-status", Static).update(text)

    def _highlighted(self) -> SeekLine | None:
        if not self.is_mounted or self.board is None:
            return None
        index = self.query_one("#seeks-list", Menu).highlighted
        return self.board.seeks[index] if index is not None and index < len(self.board.seeks) else None

    @on(OptionList.OptionSelected, "#seeks-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_accept()

    def action_accept(self) -> None:
        """Enter or ``a``: accept the seek highlighted (not one's own)."""
        line = self._highlighted()
        if line is None:
            return
        self._status_about = line.key  # the answer about it stays while it is on the board
        if line.yours:
            self.say("That is your own seek: the others see it on their board.")
            return
        self.say(f"Accepting {line.name}'s seek...")
        self.post_message(self.Accept(line.key))

    def action_close(self) -> None:
        self.dismiss(None)
