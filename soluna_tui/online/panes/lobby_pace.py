"""When the lobby draws what changed: at once if it shows, else when it shows again; others' news at its moments.

Textual passes what changes on the screen under the one in front to that one, which then repaints whole: news of
the lobby (who is online, the matches in play) drawn under a match repainted each player's match screen. And every
lobby hears a change in the same instant: fifty of them drawing it then (or within a short spread after it, which
the next changes kept them to) held the moves of the matches in play behind them, so each lobby draws others' news
at moments of its own (at a phase it chooses at random), what came since the last together.

Each kind of news has its cadence: a change of who is online is drawn at the next of the lobby's moments
``ONLINE_EVERY`` apart, the talk at the next of those ``NEWS_EVERY`` apart (every other one of the same
moments), and while the talk is not open, the count of its lines unread at the next of those ``UNREAD_EVERY``
apart (every sixth). Whatever news waits is drawn whenever the lobby draws, in the same frame: who comes and goes
is drawn soon (it is what a player acts on: whom to challenge), and the talk, which comes far more often, is not
drawn more often for it. A count of lines unread says only that people are talking: in a busy lobby it changed
every second in every lobby not reading the talk, which was most of the lobby's drawing.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Protocol

from textual.timer import Timer

#: Seconds between the moments at which a lobby draws the lines of talk others said, while its talk is open.
NEWS_EVERY = 1.0
#: Seconds between the moments at which a lobby draws a change of who is online (every other one also the talk's).
ONLINE_EVERY = NEWS_EVERY / 2
#: Seconds between the moments at which a lobby not reading the talk draws how many of its lines are unread.
UNREAD_EVERY = NEWS_EVERY * 3


class Paced(Protocol):
    """The screen whose drawing is paced."""

    @property
    def composed(self) -> bool: ...

    @property
    def in_view(self) -> bool: ...

    def set_timer(self, delay: float, callback: Callable[[], None]) -> Timer: ...


class LobbyPace:
    """The parts of the lobby to draw: now, when it shows again, or at its next moment."""

    def __init__(self, screen: Paced) -> None:
        self._screen = screen
        #: What changed while the lobby was out of view (under a match), drawn when it shows again.
        self._undrawn: dict[str, Callable[[], None]] = {}
        #: The news to draw at this lobby's next moment, that moment (a monotonic time) and its timer.
        self._news: dict[str, Callable[[], None]] = {}
        self._due = 0.0
        self._timer: Timer | None = None
        #: The moments' phase: every cadence's moments fall at this phase, so the slower's are among the faster's.
        self._phase = random.uniform(0, NEWS_EVERY)

    def draw(self, part: Callable[[], None]) -> None:
        """Draw ``part`` of the lobby now if it shows, else when it shows again."""
        screen = self._screen
        if not screen.composed:
            return
        if screen.in_view:
            part()
        else:
            self._undrawn[part.__name__] = part

    def draw_news(self, part: Callable[[], None], every: float = NEWS_EVERY) -> None:
        """Draw ``part`` of the lobby, news from others, at the next of this lobby's moments ``every`` seconds
        apart (``NEWS_EVERY``, ``ONLINE_EVERY`` or ``UNREAD_EVERY``), or sooner if other news is drawn sooner."""
        if not self._screen.composed:
            return
        self._news[part.__name__] = part
        now = time.monotonic()
        due = now + (self._phase - now) % every
        if self._timer is not None:
            if self._due <= due + 1e-3:  # drawn at a moment no later than this part's own
                return
            self._timer.stop()
        self._due = due
        self._timer = self._screen.set_timer(due - now, self._draw_the_news)

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
