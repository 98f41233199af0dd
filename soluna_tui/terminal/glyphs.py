"""The characters the app draws with: one Unicode set, one 7-bit ASCII set."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Symbol


@dataclass(frozen=True)
class Frame:
    """The box around a tower: corners, caps and sides."""

    top_left: str
    top: str
    top_right: str
    side: str
    bottom_left: str
    bottom: str
    bottom_right: str


@dataclass(frozen=True)
class Glyphs:
    """Everything drawn that is not plain text: symbols, tower frames, stars, markers."""

    ascii: bool
    symbols: dict[Symbol, str]
    plain: Frame
    focused: Frame
    picked: Frame
    disc: str
    #: A disc seen from the side, for the larger towers, drawn on 1, 2 or 3 lines: each line is
    #: a left end, a middle (repeated to the width) and a right end.
    plates: tuple[tuple[tuple[str, str, str], ...], ...]
    elided: str
    star_won: str
    star_missing: str
    turn: str
    target_marks: tuple[str, str]
    ellipsis: str
    #: The footprint of an empty place (its tower was moved onto another).
    vacant: str

    def symbol(self, symbol: Symbol) -> str:
        return self.symbols[symbol]

    def plate(self, width: int, lines: int) -> list[str]:
        """A disc ``width`` columns wide drawn on ``lines`` lines (1 to 3), top first."""
        return [left + middle * (width - 2) + right for left, middle, right in self.plates[lines - 1]]

    def stars(self, won: int, needed: int) -> str:
        return self.star_won * min(won, needed) + self.star_missing * max(0, needed - won)


UNICODE = Glyphs(
    ascii=False,
    symbols={symbol: symbol.glyph for symbol in Symbol},
    plain=Frame("╭", "─", "╮", "│", "╰", "─", "╯"),
    # The board's cursor: heavy caps, light sides, so moving it redraws a tower's top and bottom lines only.
    focused=Frame("┍", "━", "┑", "│", "┕", "━", "┙"),
    picked=Frame("╔", "═", "╗", "║", "╚", "═", "╝"),
    disc="═",
    plates=(
        (("▝", "▀", "▘"),),
        (("▐", "█", "▌"), ("▝", "▀", "▘")),
        (("▗", "▄", "▖"), ("▐", "█", "▌"), ("▝", "▀", "▘")),
    ),
    elided="┊",
    star_won="★",
    star_missing="☆",
    turn="▶",
    target_marks=("▸", "◂"),
    ellipsis="…",
    vacant="┈",
)

ASCII = Glyphs(
    ascii=True,
    symbols={symbol: symbol.letter for symbol in Symbol},
    plain=Frame("+", "-", "+", "|", "+", "-", "+"),
    focused=Frame("#", "=", "#", "|", "#", "=", "#"),
    picked=Frame("^", "^", "^", "!", "^", "^", "^"),
    disc="=",
    plates=(
        (("(", "=", ")"),),
        ((".", "-", "."), ("'", "-", "'")),
        ((".", "-", "."), ("|", " ", "|"), ("'", "-", "'")),
    ),
    elided=":",
    star_won="*",
    star_missing=".",
    turn=">",
    target_marks=(">", "<"),
    ellipsis="...",
    vacant=".",
)


def glyphs_for(ascii_mode: bool) -> Glyphs:
    return ASCII if ascii_mode else UNICODE
