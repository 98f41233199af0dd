"""When the lobby draws what changed: at once if it shows, else when it shows again; others' news at its moments.

Textual passes what changes on the screen under the one in front to that one, which then repaints whole: news of
the lobby (who is online, the matches in play) drawn under a match repainted each player's match screen. And every
lobby hears a change in the same instant: fifty of them drawing it then (or within a short spread after it, which
the next changes kept them to) held the moves of the matches in play behind them, so each lobby draws others' news
at moments of its own (``NEWS_EVERY`` apart, at a phase it chooses at random), what came since the last together.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Protocol

from textual.timer import Timer

#: Seconds between the moments at which a lobby draws its news (changes of who is online, others' lines of talk).
NEWS_EVERY = 1.0


class Paced(Protocol):
    """The screen whose drawing is paced."""

    @property
    def composed(self) -> bool: ...

    @property
    def in_view(self) -> bool: ...

    def set_timer(self, delay: float, callback: Callable[[], None]) -> Timer: ...


class LobbyPace:
    """The parts of the lobby to draw: now, when it shows again, or at its next moment."""

    def __init__(self, screen: Paced, every: float = NEWS_EVERY) -> None:
        self._screen = screen
        self._every = every
        #: What changed while the lobby was out of view (under a match), drawn when it shows again.
        self._undrawn: dict[str, Callable[[], None]] = {}
        #: The news to draw at this lobby's next moment, its timer, and the moments' phase.
        self._news: dict[str, Callable[[], None]] = {}
        self._timer: Timer | None = None
        self._phase = random.uniform(0, every)

    def draw(self, part: Callable[[], None]) -> None:
        """Draw ``part`` of the lobby now if it shows, else when it shows again."""
        screen = self._screen
        if not screen.composed:
            return
        if screen.in_view:
            part()
        else:
            self._undrawn[part.__name__] = part

    def draw_news(self, part: Callable[[], None]) -> None:
        """Draw ``part`` of the lobby, news from others, at this lobby's next moment."""
        if not self._screen.composed:
            return
        self._news[part.__name__] = part
        if self._timer is None:
            wait = (self._phase - time.monotonic()) % self._every
            self._timer = self._screen.set_timer(wait, self._draw_the_news)

    def _draw_the_news(self) -> None:
        self._timer = None
        news, self._news = self._news, {}
        for part in news.values():
            self.draw(part)

    def shown_again(self) -> None:
        """The lobby shows again: what changed meanwhile, drawn."""
        undrawn, self._undrawn = self._undrawn, {}
        for part in undrawn.values():
            part()
