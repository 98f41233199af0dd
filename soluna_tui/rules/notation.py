"""Reading the notation (docs/rules.md): symbols, towers, positions and moves.

Printing lives on the value types themselves (``str(tower)``), and so does building them
(``Tower.parse``); this module reads text into their parts, a (height, symbol) pair a tower,
accepting the aliases a person might type: lower case, the words sun/moon/stars/comet and the
glyphs the app draws. It knows nothing of the value types, which import it.
"""

from __future__ import annotations

import re

from .errors import NotationError
from .symbols import SYMBOL_ALIASES, Symbol

#: A tower as written: its height and its top symbol.
TowerParts = tuple[int, Symbol]

#: A tower inside longer text: a height, optional spaces, then a symbol spelling.
_TOWER_TOKEN = re.compile(r"\s*(\d+)\s*([^\d\s,>]+)\s*,?")
_SYMBOL_HINT = "use S, M, * or C (or sun, moon, stars, comet)"
#: No tower is anywhere near this tall; longer heights are refused before int() sees them.
_HEIGHT_DIGITS = 6


#: Characters of input a message quotes: longer input is cut in the middle, so a message with its
#: example reads whole in the two lines of a typed move's refusal at 80x24.
QUOTE_ROOM = 14


def short_quote(text: str) -> str:
    """Input quoted in a message, cut short in the middle if it is long."""
    text = text.strip()
    if len(text) <= QUOTE_ROOM:
        return text
    keep = (QUOTE_ROOM - 3) // 2
    return f"{text[:keep]}...{text[-keep:]}"


def _quoted(text: str) -> str:
    return repr(short_quote(text))


def parse_symbol(text: str, *, within: str = "") -> Symbol:
    """Read one symbol: ``S``/``m``/``*``/``comet``/``☾``..."""
    symbol = SYMBOL_ALIASES.get(text.strip().casefold())
    if symbol is None:
        # The tower it was read from, where both quotes together fit the room of one.
        where = f" in {_quoted(within)}" if within and len(within.strip()) + len(text.strip()) <= QUOTE_ROOM else ""
        raise NotationError(f"unknown symbol {_quoted(text)}{where}: {_SYMBOL_HINT}")
    return symbol


def _towers_in(text: str, what: str) -> list[TowerParts]:
    """Every (height, symbol) written in ``text``, or a ``NotationError`` saying where it went wrong."""
    found: list[TowerParts] = []
    at = 0
    stripped = text.rstrip()
    while at < len(stripped):
        match = _TOWER_TOKEN.match(stripped, at)
        if match is None:
            rest = stripped[at:].split()[0]
            raise NotationError(f"cannot read {_quoted(rest)} in the {what}: a tower is a height then a symbol, "
                                "like 3M")
        height_text, symbol_text = match.groups()
        written = f"{height_text}{symbol_text}"
        symbol = parse_symbol(symbol_text, within=written)
        if len(height_text.lstrip("0")) > _HEIGHT_DIGITS:
            raise NotationError(f"tower {_quoted(written)} is far too tall: heights are a few discs")
        height = int(height_text)
        if height < 1:
            raise NotationError(f"tower {_quoted(written)} has height {height}: heights start at 1")
        found.append((height, symbol))
        at = match.end()
    return found


def read_tower(text: str) -> TowerParts:
    """Read one tower such as ``3M``, ``3 moon`` or ``3☾``."""
    found = _towers_in(text, "tower")
    if len(found) != 1:
        raise NotationError(f"expected one tower like 3M, got {_quoted(text)}")
    return found[0]


def read_position(text: str) -> list[TowerParts]:
    """Read a position: towers separated by spaces, in any order (``1S 1S 2M``)."""
    found = _towers_in(text, "position")
    if not found:
        raise NotationError("a position needs at least one tower, like 1S 1M")
    return found


def read_move(text: str) -> tuple[TowerParts, TowerParts]:
    """Read a move ``A>B``: tower A is put on tower B (``2*>2M``)."""
    sides = text.split(">")
    if len(sides) != 2 or not sides[0].strip() or not sides[1].strip():
        raise NotationError(f"a move is written A>B, like 2*>2M; got {_quoted(text)}")
    return read_tower(sides[0]), read_tower(sides[1])
