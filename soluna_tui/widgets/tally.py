"""The star tally panel: both players, their stars, the round, whose turn it is, the rules,
and over SSH who is away (with the time their seat is still held) and how to come back."""

from __future__ import annotations

import time
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from ..glyphs import UNICODE, Glyphs
from ..play.looks import TallyInfo
from .cached_lines import CachedLines


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
        self._strips: list[Strip] | None = None
        #: The lines the panel was laid out for: a new layout only when that changes.
        self._line_count = 0

    @property
    def info(self) -> TallyInfo:
        return self._info

    @info.setter
    def info(self, info: TallyInfo) -> None:
        if info != self._info:
            self._info = info
            self._repaint()

    def on_mount(self) -> None:
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        """The countdown of a held seat moves on by itself."""
        if any(deadline is not None for deadline in self._info.away):
            self._repaint()

    def _repaint(self) -> None:
        old = self._strips
        if old is None or not self.size.width:
            self._strips = None
            self.refresh(layout=len(self.lines()) != self._line_count)
            return
        new = self._draw()
        self._strips = new
        if len(new) != len(old):
            self.refresh(layout=True)
            return
        for y, (before, after) in enumerate(zip(old, new, strict=True)):
            if before != after:
                self.refresh(Region(0, y, self.content_size.width, 1))

    def on_resize(self) -> None:
        self._strips = None

    def notify_style_update(self) -> None:
        self._strips = None
        super().notify_style_update()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        self._line_count = len(self.lines())
        return self._line_count

    def _draw(self) -> list[Strip]:
        width = self.content_size.width
        base = self.rich_style
        console = self.app.console
        strips = []
        for line in self.lines():
            segments = [segment for segment in line.render(console) if segment.text != "\n"]
            strips.append(Strip(segments).adjust_cell_length(width, base).apply_style(base))
        return strips

    def render_line(self, y: int) -> Strip:
        if self._strips is None or (self._strips and self._strips[0].cell_length != self.content_size.width):
            self._strips = self._draw()
        if y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.content_size.width, self.rich_style)

    def lines(self) -> list[Text]:
        """The panel's lines as they read now."""
        info = self._info
        width = max(10, self.size.width)
        turn_style = self.get_component_rich_style("tally--turn")
        name_style = self.get_component_rich_style("tally--name")
        stars_style = self.get_component_rich_style("tally--stars")
        detail_style = self.get_component_rich_style("tally--detail")
        away_style = self.get_component_rich_style("tally--away")
        now = time.monotonic()
        lines: list[Text] = []
        score_width = info.stars_to_win + len(f" {info.stars_to_win}/{info.stars_to_win}")
        name_width = max(4, width - 2 - score_width - 1)
        for player, name in enumerate(info.names):
            line = Text()
            marker = self.glyphs.turn if info.to_move == player else " "
            line.append(f"{marker} ", turn_style)
            if cell_len(name) > name_width:
                name = set_cell_size(name, name_width - 1) + self.glyphs.ellipsis[:1]
            line.append(set_cell_size(name, name_width) + " ", name_style if info.to_move == player else "")
            line.append(self.glyphs.stars(info.stars[player], info.stars_to_win), stars_style)
            line.append(f" {info.stars[player]}/{info.stars_to_win}")
            lines.append(line)
            deadline = info.away[player]
            if deadline is not None:
                lines.append(Text(f"  {away_text(deadline, now)}", away_style))
        lines.append(Text(f"Round {info.round_number} {self._dot()} {info.rules}", detail_style))
        lines.append(Text(info.mode, detail_style))
        if info.seed is not None:
            lines.append(Text(f"seed {info.seed}" + ("" if info.hints else ", hints off"), detail_style))
        if info.comeback:
            lines.append(Text(info.comeback, detail_style))
        if info.status or info.status_line:
            lines.append(Text(info.status, turn_style))
        return lines

    def _dot(self) -> str:
        return "-" if self.glyphs.ascii else "·"
