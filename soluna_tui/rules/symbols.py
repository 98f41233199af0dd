"""The four symbols on the discs, with their letters, words and glyphs."""

from __future__ import annotations

from enum import IntEnum


class Symbol(IntEnum):
    """A disc face. The integer value is the canonical order S, M, *, C."""

    SUN = 0
    MOON = 1
    STARS = 2
    COMET = 3

    @property
    def letter(self) -> str:
        """The notation letter: ``S``, ``M``, ``*`` or ``C``."""
        return _LETTERS[self]

    @property
    def word(self) -> str:
        """The lower-case English name: ``sun``, ``moon``, ``stars``, ``comet``."""
        return self.name.lower()

    @property
    def glyph(self) -> str:
        """The one-cell Unicode glyph the app draws for this symbol."""
        return _GLYPHS[self]

    def __repr__(self) -> str:
        return f"Symbol.{self.name}"


_LETTERS = {Symbol.SUN: "S", Symbol.MOON: "M", Symbol.STARS: "*", Symbol.COMET: "C"}
_GLYPHS = {Symbol.SUN: "☀", Symbol.MOON: "☾", Symbol.STARS: "✶", Symbol.COMET: "☄"}

#: Every spelling accepted on input (compared after ``casefold``), mapped to its symbol.
SYMBOL_ALIASES: dict[str, Symbol] = {
    **{letter.casefold(): symbol for symbol, letter in _LETTERS.items()},
    **{symbol.word: symbol for symbol in Symbol},
    **{glyph: symbol for symbol, glyph in _GLYPHS.items()},
    "star": Symbol.STARS,
    "comets": Symbol.COMET,
    "suns": Symbol.SUN,
    "moons": Symbol.MOON,
    "☼": Symbol.SUN,
    "🌞": Symbol.SUN,
    "☽": Symbol.MOON,
    "🌙": Symbol.MOON,
    "✦": Symbol.STARS,
    "✧": Symbol.STARS,
    "★": Symbol.STARS,
    "⁂": Symbol.STARS,
    "☄️": Symbol.COMET,
    "☀️": Symbol.SUN,
}
