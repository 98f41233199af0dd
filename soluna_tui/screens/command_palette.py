"""Textual's command palette, made to take keys that arrive together in order (Textual 8.2).

In the stock palette Enter is read by the search input, which posts ``Input.Submitted``; a
highlighted command is then chosen through ``OptionList.OptionSelected``; each message reaches
the palette a few hops later, and it closes only then. Keys that arrive together (a paste,
one SSH packet) are all handled before that, so:

- Enter Enter ran the chosen command twice and dismissed the palette twice; the second
  ``dismiss`` popped the screen under it (``ScreenStackError: Can't pop screen`` with the game
  alone under it);
- Enter Escape closed the palette by Escape, and then the late selection dismissed again;
- Enter right after typing chose from the list of the previous search, still on screen.

Here Enter is the palette's own (a priority key): it waits for the search of what was typed,
chooses and closes the palette before the next key is read. A palette once closed answers
nothing more: a message still on its way to it is dropped, and it never dismisses twice.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, ClassVar

from textual import on
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.command import Command, CommandInput, CommandList, CommandPalette, ProviderSource
from textual.message import Message
from textual.widgets import Button, Input, OptionList
from textual.worker import Worker, WorkerError

from ..compat.textual_internals import PaletteSteps
from ..widgets.ascii_palette import AsciiCommandPalette

#: The longest Enter waits for the search of what was typed (the game's commands take milliseconds).
SEARCH_WAIT_SECONDS = 2.0


async def _nothing() -> None:
    """What a second ``dismiss`` does."""


class OrderlyCommandPalette(PaletteSteps, CommandPalette):
    """The command palette, answering each key before the next and closing once."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose", "Run the command", show=False, priority=True),
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Set by the first ``dismiss``: from then on the palette acts on nothing.
        self.closed = False
        self._search: Worker[None] | None = None
        self._searched_for: str | None = None

    # ---- closing once --------------------------------------------------------------------

    def dismiss(self, result: Any = None) -> AwaitComplete:
        """Close the palette, unless it is closed already or no longer the screen on top (a
        ``dismiss`` then would pop the screen under it)."""
        if self.closed or not self.is_active:
            return AwaitComplete(_nothing())
        self.closed = True
        self.cancel_search()
        return super().dismiss(result)

    def answering(self) -> bool:
        return not self.closed

    @on(Input.Submitted)
    @on(Button.Pressed)
    @on(OptionList.OptionSelected)
    def _drop_once_closed(self, message: Message) -> None:
        """A message on its way when the palette closed: nothing more to do (the stock handlers
        would search, choose or dismiss again)."""
        if self.closed:
            message.stop()
            message.prevent_default()

    @on(Input.Changed)
    def _search_what_is_typed(self, event: Input.Changed) -> None:
        """In place of the stock handler, which searches for the text of the change: with keys
        arriving together, a change reaches the palette after later ones were typed (and after
        Enter started the search for all of it); searching for it then lists stale commands."""
        event.stop()
        event.prevent_default()
        if not self.closed:
            self._search_typed()

    def _search_typed(self) -> None:
        typed = self.query_one(CommandInput).value.strip()
        if typed != self._searched_for:
            self.cancel_search()
            self.stop_no_matches_countdown()
            self.search(typed)

    # ---- Enter, in order -----------------------------------------------------------------

    def search_started(self, search_value: str, search: Worker[None]) -> None:
        """Remember each search, so Enter can wait for it."""
        self._searched_for = search_value
        self._search = search

    async def action_choose(self) -> None:
        """Enter: run the highlighted command (as the stock palette does) once the list shows what
        was typed; the palette is closed when this returns, so the next key goes to the game."""
        if self.closed:
            return
        self._search_typed()  # the last key's Input.Changed may still be on its way
        await self._search_finished()
        if self.closed or not self.is_active:
            return
        command_list = self.query_one(CommandList)
        if self.list_visible and command_list.highlighted is None:
            self.cursor_down()  # the first command, as the stock palette's Enter
            if command_list.option_count != 1:
                return
        option = command_list.highlighted_option if self.list_visible else None
        if isinstance(option, Command) and not option.disabled:
            assert command_list.highlighted is not None
            # What the list's own selection would do, here and now instead of a message later.
            self.select_command(OptionList.OptionSelected(command_list, option, command_list.highlighted))
        elif not self.list_visible:
            self.select_or_command()

    async def _search_finished(self) -> None:
        """Wait (a little at most) until the latest search has listed its commands."""
        deadline = time.monotonic() + SEARCH_WAIT_SECONDS
        while (search := self._search) is not None and not search.is_finished:
            try:
                await asyncio.wait_for(search.wait(), max(0.0, deadline - time.monotonic()))
            except WorkerError:
                continue  # cancelled by a newer search (or failed): the newer one is now in _search
            except TimeoutError:
                return  # slow: choose from what is shown, as the stock palette would


class OrderlyAsciiCommandPalette(OrderlyCommandPalette, AsciiCommandPalette):
    """The same, with ASCII mode's search mark."""


def orderly_palette(ascii_mode: bool, providers: ProviderSource | None = None,
                    searching: str = "commands") -> OrderlyCommandPalette:
    """The palette searching ``providers`` (the app's commands when None), with a plain search mark in
    ASCII mode; ``id`` marks the one the footer's ``^p`` opens."""
    palette = OrderlyAsciiCommandPalette if ascii_mode else OrderlyCommandPalette
    ellipsis = "..." if ascii_mode else "\u2026"
    return palette(providers, placeholder=f"Search for {searching}{ellipsis}",
                   id="--command-palette" if providers is None else None)
