"""The star tally panel: both players, their stars, the round, whose turn it is, the rules,
and over SSH who is away (with the time their seat is still held), who watches, how to come back,
and which player is this terminal's ("(you)": two names that look alike are still told apart), with a keyed
player's rating beside their name."""

from __future__ import annotations

import time
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from ..play.looks import TallyInfo
from ..terminal.glyphs import UNICODE, Glyphs
from ..terminal.sizes import NARROW_CLASS
from .cached_lines import CachedLines, changed_cells

#: A line of the panel: (text, part) pieces, the part naming its style (``tally--PART``; "" plain).
Row = tuple[tuple[str, str], ...]

#: How this terminal's player is marked, where the other plays elsewhere.
YOU = " (you)"


def watching_text(count: int, names: tuple[str, ...], width: int) -> str:
    """``3 watching: eve, fay +1``: as many names as fit in ``width`` cells, the others counted."""
    words = f"{count} watching"
    for shown in range(min(len(names), count), 0, -1):
        more = f" +{count - shown}" if count > shown else ""
        text = f"{words}: {', '.join(names[:shown])}{more}"
        if cell_len(text) <= width:
            return text
    return words


def detail_lines(text: str, width: int) -> list[str]:
    """``12 discs, level 10 (perfect)`` on one line where it fits, else broken after its first comma."""
    head, comma, rest = text.partition(", ")
    return [text] if cell_len(text) <= width or not comma else [head, rest]


def away_text(deadline: float, now: float) -> str:
    """``away: 4:05 to return``, counting down; ``has left`` once the seat is no longer held."""
    left = int(deadline - now + 0.999)
    if left <= 0:
        return "has left"
    return f"away: {left // 60}:{left % 60:02} to return"


class Tally(CachedLines, Widget):
    """Attributes down: the screen sets ``info``; the panel only draws it, repainting the lines that
    changed (a new layout only when the number of lines does: someone away, a seat's secret)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"tally--turn", "tally--name", "tally--stars", "tally--detail",
                                             "tally--away"}
    DEFAULT_CSS = """
    Tally {
        height: auto;
    }
    """

    def __init__(self, glyphs: Glyphs = UNICODE, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.glyphs = glyphs
        self._info = TallyInfo()
        #: The lines as last drawn (see ``rows``), and their strips by what they say.
        self._rows: list[Row] = []
        self._rows_width = 0
        self._drawn: LRUCache[tuple[Row, int], Strip] = LRUCache(64)
        #: The lines the panel was laid out for: a new layout only when that changes.
        self._line_count = 0
        #: Once mounted: the countdown's clock, running only while someone is away (``_tick_while_away``).
        self._ticker: Timer | None = None

    @property
    def info(self) -> TallyInfo:
        return self._info

    @info.setter
    def info(self, info: TallyInfo) -> None:
        if info != self._info:
            self._info = info
            self._repaint()
            self._tick_while_away()

    def on_mount(self) -> None:
        self._ticker = self.set_interval(1.0, self._tick, pause=True)
        self._tick_while_away()

    def _tick_while_away(self) -> None:
        """The clock ticks only while someone is away: a session showing a match woke each second for nothing
        otherwise (400 sessions in houses, 400 wake-ups a second)."""
        if self._ticker is not None:
            if any(deadline is not None for deadline in self._info.away):
                self._ticker.resume()
            else:
                self._ticker.pause()

    def _tick(self) -> None:
        """The countdown of a held seat moves on by itself."""
        self._repaint()

    def _repaint(self) -> None:
        """Repaint the lines that changed (a new layout only when the number of lines did)."""
        old = self._rows
        new = self.rows(self.content_size.width)
        if len(new) != len(old) or len(new) != self._line_count:
            self.refresh(layout=True)
        elif old:
            width = self.content_size.width
            for y, (before, after) in enumerate(zip(old, new, strict=True)):
                if before != after and (span := changed_cells(self._strip(before, width),
                                                               self._strip(after, width))) is not None:
                    self.repaint(Region(span[0], y, span[1] - span[0], 1))  # the turn's marker and name
        self._rows = new

    def notify_style_update(self) -> None:
        self._drawn.clear()
        self._rows = []  # a narrow terminal's panel has fewer lines (``rows``)
        super().notify_style_update()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        self._line_count = len(self.rows(width))
        return self._line_count

    def render_line(self, y: int) -> Strip:
        width = self.content_size.width
        if not self._rows or width != self._rows_width:
            self._rows, self._rows_width = self.rows(width), width
        rows = self._rows
        if y >= len(rows):
            return Strip.blank(width, self.base_style())
        return self._strip(rows[y], width)

    def _strip(self, row: Row, width: int) -> Strip:
        """One line drawn (kept by what it says)."""
        key = (row, width)
        strip = self._drawn.get(key)
        if strip is None:
            base = self.base_style()
            segments = [Segment(text, self.part_style(f"tally--{part}") if part else base)
                        for text, part in row if text]
            strip = self._drawn[key] = Strip(segments).adjust_cell_length(width, base)
        return strip

    def rows(self, width: int) -> list[Row]:
        """The panel's lines as they read now at ``width`` columns, each as (text, part) pieces: on a narrow
        terminal (a line above the board) the players' lines alone, and what happens to the table.

        The width is given, not read from the widget: asked for its height while the screen is laid out, the
        widget's own size is not known yet (reading it laid the whole screen out again, inside the layout).
        """
        info = self._info
        compact = self.app.has_class(NARROW_CLASS)
        width = max(10, width)
        now = time.monotonic()
        rows: list[Row] = []
        score_width = info.stars_to_win + len(f" {info.stars_to_win}/{info.stars_to_win}")
        name_width = max(4, width - 2 - score_width - 1)
        for player, name in enumerate(info.names):
            marker = self.glyphs.turn if info.to_move == player else " "
            rating = info.ratings[player]
            # The rating and "(you)" are never cut off: the name is, if it must be.
            after = (f" {rating}" if rating is not None else "") + (YOU if info.you == player else "")
            if cell_len(name) + len(after) > name_width:
                name = set_cell_size(name, name_width - len(after) - 1) + self.glyphs.ellipsis[:1]
            rows.append(((f"{marker} ", "turn"),
                         (set_cell_size(name + after, name_width) + " ", "name" if info.to_move == player else ""),
                         (self.glyphs.stars(info.stars[player], info.stars_to_win), "stars"),
                         (f" {info.stars[player]}/{info.stars_to_win}", "")))
            deadline = info.away[player]
            if deadline is not None:
                rows.append(((f"  {away_text(deadline, now)}", "away"),))
        if compact:
            if info.status or info.status_line:
                rows.append(((info.status, "turn"),))
            return rows
        rows.append(((f"Round {info.round_number} {self._dot()} {info.rules}", "detail"),))
        rows.extend(((line, "detail"),) for line in detail_lines(info.mode, width))
        if info.spectators:
            rows.append(((watching_text(info.spectators, info.spectator_names, width), "detail"),))
        if info.seed is not None:
            rows.append(((f"seed {info.seed}" + ("" if info.hints else ", hints off"), "detail"),))
        if info.comeback:
            rows.append(((info.comeback, "detail"),))
        if info.status or info.status_line:
            rows.append(((info.status, "turn"),))
        return rows

    def _dot(self) -> str:
        return "-" if self.glyphs.ascii else "·"
