"""A clock kept at this table (a match with a clock on one terminal), as the game screen runs it: stopped
while a dialog is over the match, the screen woken when it reaches zero, the time used saved now and then.

``ClockWatch`` is a part the game screen owns. Over SSH the server keeps the clocks: the flow then has no
time to wait for (``MatchFlow.time_left``), and this watches nothing.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..widgets.clock_panel import ClockPanel

if TYPE_CHECKING:
    from textual.timer import Timer

    from .game_host import GameHost

#: While a clock kept at this table runs, the time used is saved this often (seconds): a terminal closed without
#: quitting (its window shut, the SSH connection gone) loses no more than that.
TIME_KEPT_EVERY = 5.0


class ClockWatch:
    """Wakes the screen when the running clock reaches zero, and saves the time it used, now and then."""

    def __init__(self, game: GameHost) -> None:
        self._game = game
        self._time_timer: Timer | None = None
        self._time_keeper: Timer | None = None

    def resumed(self) -> None:
        """The match is in front again (a dialog closed, or it has just been shown): its clock runs."""
        game = self._game
        game.table.pause_clock(False)
        if game.table.clock is not None:
            game.redraw()
            self.watch()

    def suspended(self) -> None:
        """A dialog (or another screen) is over the match: its clock stops until the match is in front again."""
        game = self._game
        table = game.table
        table.pause_clock(True)
        if table.clock is not None:  # drawn stopped: behind the dialog it shows the time kept, not counting
            game.widget_of(ClockPanel).show(table.clock, table.clock_read_at, game.match.players)
        self.watch()

    def watch(self) -> None:
        """Wake when the running clock reaches zero, where this table keeps it; save its time now and then."""
        if self._time_timer is not None:
            self._time_timer.stop()
            self._time_timer = None
        game = self._game
        wait = game.flow.time_left(time.monotonic())
        if wait is None:
            self.stop()
            return
        self._time_timer = game.set_timer(wait, self._ran_out)
        if self._time_keeper is None:
            self._time_keeper = game.set_interval(TIME_KEPT_EVERY, lambda: game.table.keep_time())

    def stop(self) -> None:
        """Watch no more (another match on the screen: the last one's clock is done with)."""
        for timer in (self._time_timer, self._time_keeper):
            if timer is not None:
                timer.stop()
        self._time_timer = self._time_keeper = None

    def _ran_out(self) -> None:
        self._time_timer = None
        game = self._game
        if game.table.time_is_up():
            game.end_match_now()
        else:
            self.watch()  # a move landed on time meanwhile
