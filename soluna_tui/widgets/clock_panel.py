"""The clocks of a match between players over SSH: each player's time left, the running one counting down.

One line a player, under the star tally: ``▸ ann        2:53``. The server's reading is the truth
(``ClockReading``: each player's time when it sent it, and whose clock runs); the panel counts the
running clock down from the moment it got that reading, redrawing only the running player's line
and only when what it shows changes. Hidden when the match has no clock.
"""

from __future__ import annotations

import time
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from textual.geometry import Region
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from ..rules.clock import ClockReading, clock_face
from ..terminal.glyphs import UNICODE, Glyphs

#: How often the running clock is looked at (tenths show under ten seconds).
TICK = 0.1
#: Under this many seconds a clock is shown as running low.
LOW = 10.0


class ClockPanel(Widget):
    """Attributes down: the screen calls ``show`` with the table's reading; the panel only draws it."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"clock-panel--running", "clock-panel--low", "clock-panel--stopped"}
    DEFAULT_CSS = """
    ClockPanel {
        height: 2;
        display: none;
    }
    """

    def __init__(self, glyphs: Glyphs = UNICODE, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.glyphs = glyphs
        self._reading: ClockReading | None = None
        self._read_at = 0.0
        self._names: tuple[str, str] = ("", "")
        #: What each line shows now (redrawn only when it changes).
        self._lines: list[tuple[str, str]] = [("", ""), ("", "")]
        self._ticker: Timer | None = None

    def on_mount(self) -> None:
        # Paused while no clock runs: a match without a clock wakes nothing ten times a second.
        self._ticker = self.set_interval(TICK, self._tick, pause=True)
        self._run_ticker()

    def show(self, reading: ClockReading | None, read_at: float, names: tuple[str, str]) -> None:
        """The clock as the server read it at ``read_at`` (``time.monotonic()``); ``None``: no clock here."""
        if (reading, read_at, names) == (self._reading, self._read_at, self._names):
            return
        self._reading, self._read_at, self._names = reading, read_at, names
        if self.display != (reading is not None):
            self.display = reading is not None
        self._tick(force=True)
        self._run_ticker()

    def _run_ticker(self) -> None:
        if self._ticker is not None:
            reading = self._reading
            if reading is not None and reading.running is not None:
                self._ticker.resume()
            else:
                self._ticker.pause()

    def left(self, player: int, now: float | None = None) -> float:
        """The time ``player`` has left, counted down here for the running clock."""
        reading = self._reading
        if reading is None:
            return 0.0
        left = reading.left[player]
        if reading.running == player:
            left -= (time.monotonic() if now is None else now) - self._read_at
        return max(0.0, left)

    def _tick(self, force: bool = False) -> None:
        if self._reading is None or (self._reading.running is None and not force):
            return
        width = self.size.width
        for player in (0, 1):
            line = self._line(player)
            if force or line != self._lines[player]:
                self._lines[player] = line
                self.refresh(Region(0, player, width, 1))

    def _line(self, player: int) -> tuple[str, str]:
        """One player's line, and the style it is drawn in."""
        reading = self._reading
        if reading is None:
            return ("", "")
        left = self.left(player)
        face = clock_face(left)
        running = reading.running == player
        marker = self.glyphs.turn if running else " "
        part = "stopped" if not running else "low" if left < LOW else "running"
        width = self.content_size.width or 26
        if width < 12:  # beside the tally's line on a narrow terminal: the time alone, on its player's line
            return (f"{marker} {face}", part)
        name_width = max(4, width - 2 - len(face) - 1)
        name = self._names[player]
        if cell_len(name) > name_width:
            name = set_cell_size(name, name_width - 1) + self.glyphs.ellipsis[:1]
        return (f"{marker} {set_cell_size(name, name_width)} {face}", part)

    def render_line(self, y: int) -> Strip:
        width = self.content_size.width
        base = self.rich_style
        if y > 1 or self._reading is None:
            return Strip.blank(width, base)
        text, part = self._line(y)
        self._lines[y] = (text, part)
        style = base + self.get_component_rich_style(f"clock-panel--{part}") if part else base
        return Strip([Segment(text, style)]).adjust_cell_length(width, base)
