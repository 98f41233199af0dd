"""The star tally panel: both players, their stars, the round, whose turn it is, the rules."""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..glyphs import UNICODE, Glyphs


@dataclass(frozen=True)
class TallyInfo:
    """What the panel shows; the game screen fills it in from the match."""

    names: tuple[str, str] = ("Player 1", "Player 2")
    stars: tuple[int, int] = (0, 0)
    stars_to_win: int = 4
    round_number: int = 1
    to_move: int | None = 0
    rules: str = "box rules"
    mode: str = "two players"
    seed: int | None = None
    hints: bool = True
    status: str = ""


class Tally(Widget):
    """Attributes down: the screen sets ``info``; the panel only draws it."""

    COMPONENT_CLASSES = {"tally--turn", "tally--name", "tally--stars", "tally--detail"}
    DEFAULT_CSS = """
    Tally {
        height: auto;
    }
    """

    info: reactive[TallyInfo] = reactive(TallyInfo, layout=True)

    def __init__(self, glyphs: Glyphs = UNICODE, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.glyphs = glyphs

    def render(self) -> Text:
        info = self.info
        width = max(10, self.size.width)
        turn_style = self.get_component_rich_style("tally--turn")
        name_style = self.get_component_rich_style("tally--name")
        stars_style = self.get_component_rich_style("tally--stars")
        detail_style = self.get_component_rich_style("tally--detail")
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
        lines.append(Text(f"Round {info.round_number} {self._dot()} {info.rules}", detail_style))
        lines.append(Text(info.mode, detail_style))
        if info.seed is not None:
            lines.append(Text(f"seed {info.seed}" + ("" if info.hints else ", hints off"), detail_style))
        if info.status:
            lines.append(Text(info.status, turn_style))
        return Text("\n").join(lines)

    def _dot(self) -> str:
        return "-" if self.glyphs.ascii else "·"
