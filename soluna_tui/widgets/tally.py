"""The star tally panel: both players, their stars, the round, whose turn it is, the rules,
and over SSH who is away (with the time their seat is still held), how to come back, and which
player is this terminal's ("(you)": two names that look alike are still told apart)."""

from __future__ import annotations

import time

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..glyphs import UNICODE, Glyphs
from ..play.looks import TallyInfo

#: How this terminal's player is marked, where the other plays elsewhere.
YOU = " (you)"


def away_text(deadline: float, now: float) -> str:
    """``away: 4:05 to return``, counting down; ``has left`` once the seat is no longer held."""
    left = int(deadline - now + 0.999)
    if left <= 0:
        return "has left"
    return f"away: {left // 60}:{left % 60:02} to return"


class Tally(Widget):
    """Attributes down: the screen sets ``info``; the panel only draws it."""

    COMPONENT_CLASSES = {"tally--turn", "tally--name", "tally--stars", "tally--detail", "tally--away"}
    DEFAULT_CSS = """
    Tally {
        height: auto;
    }
    """

    info: reactive[TallyInfo] = reactive(TallyInfo, layout=True)

    def __init__(self, glyphs: Glyphs = UNICODE, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.glyphs = glyphs

    def on_mount(self) -> None:
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        """The countdown of a held seat moves on by itself."""
        if any(deadline is not None for deadline in self.info.away):
            self.refresh()

    def render(self) -> Text:
        info = self.info
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
            yours = YOU if info.you == player else ""  # never cut off: the name is, if it must be
            if cell_len(name) + len(yours) > name_width:
                name = set_cell_size(name, name_width - len(yours) - 1) + self.glyphs.ellipsis[:1]
            line.append(set_cell_size(name + yours, name_width) + " ", name_style if info.to_move == player else "")
            line.append(self.glyphs.stars(info.stars[player], info.stars_to_win), stars_style)
            line.append(f" {info.stars[player]}/{info.stars_to_win}")
            lines.append(line)
            if info.away[player] is not None:
                lines.append(Text(f"  {away_text(info.away[player], now)}", away_style))
        lines.append(Text(f"Round {info.round_number} {self._dot()} {info.rules}", detail_style))
        lines.append(Text(info.mode, detail_style))
        if info.seed is not None:
            lines.append(Text(f"seed {info.seed}" + ("" if info.hints else ", hints off"), detail_style))
        if info.comeback:
            lines.append(Text(info.comeback, detail_style))
        if info.status:
            lines.append(Text(info.status, turn_style))
        return Text("\n").join(lines)

    def _dot(self) -> str:
        return "-" if self.glyphs.ascii else "·"
