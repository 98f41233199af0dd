"""The notice that covers the layout while the terminal is below the minimum size, kept on top of
whatever opens or closes under it."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast, overload

from textual import events
from textual.await_complete import AwaitComplete
from textual.geometry import Size
from textual.screen import Screen, ScreenResultCallbackType
from textual.widget import AwaitMount

from ..terminal.sizes import MIN_HEIGHT, MIN_WIDTH

if TYPE_CHECKING:
    from textual.app import App

    _AppBase = App[Any]
else:
    _AppBase = object  # a second App subclass would cost start-up a millisecond (Textual's __init_subclass__)

ResultT = TypeVar("ResultT")
#: Marks the notice that covers the layout while the terminal is below the minimum size.
TOO_SMALL_CLASS = "too-small-notice"


class TooSmallNotice(_AppBase):
    """Mixed into an ``App`` (before it): the too-small notice shows while the terminal is too small
    (``check_size``), and stays on top of the stack: a screen opened or closed while it shows goes
    under it (a dialog the app opens, one that closes itself), so it never buries a notice."""

    def on_resize(self, event: events.Resize) -> None:
        # This runs before Textual records the new size, so go by the event's.
        self.check_size(event.size)

    def check_size(self, size: Size | None = None) -> None:
        """Cover whatever is on top with a notice while the terminal is below the minimum size; take
        the notice away once it is large enough."""
        width, height = size or self.size
        too_small = width < MIN_WIDTH or height < MIN_HEIGHT
        showing = self.screen.has_class(TOO_SMALL_CLASS)
        if too_small and not showing:
            from ..screens.too_small import TooSmallScreen

            self.push_screen(TooSmallScreen(classes=TOO_SMALL_CLASS))
        elif showing and not too_small:
            super().pop_screen()

    @overload
    def push_screen(self, screen: Screen[ResultT] | str, callback: ScreenResultCallbackType[ResultT] | None = None,
                    wait_for_dismiss: Literal[False] = False, *, mode: str | None = None) -> AwaitMount: ...

    @overload
    def push_screen(self, screen: Screen[ResultT] | str, callback: ScreenResultCallbackType[ResultT] | None = None,
                    wait_for_dismiss: Literal[True] = True, *,
                    mode: str | None = None) -> asyncio.Future[ResultT]: ...

    def push_screen(self, screen: Screen[ResultT] | str, callback: ScreenResultCallbackType[ResultT] | None = None,
                    wait_for_dismiss: bool = False, *,
                    mode: str | None = None) -> AwaitMount | asyncio.Future[ResultT]:
        """Push ``screen``; under the too-small notice when it shows."""
        covered = self.screen.has_class(TOO_SMALL_CLASS) and not (
            isinstance(screen, Screen) and screen.has_class(TOO_SMALL_CLASS))
        if covered:
            super().pop_screen()
        pushed = super().push_screen(screen, callback, wait_for_dismiss, mode=mode)  # type: ignore[call-overload]
        if covered:
            self.check_size()
        return cast("AwaitMount | asyncio.Future[ResultT]", pushed)

    def pop_screen(self) -> AwaitComplete:
        """Pop the top screen; under the too-small notice when it shows (the notice stays)."""
        if self.screen.has_class(TOO_SMALL_CLASS) and len(self.screen_stack) > 2:
            super().pop_screen()  # the notice
            done = super().pop_screen()
            self.check_size()  # covered again
            return done
        return super().pop_screen()
