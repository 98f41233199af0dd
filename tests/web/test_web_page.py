"""The page's files as the web door serves them, without a browser: textual.js handing its terminal over, and the
symbol font holding every symbol the game draws that the terminal's font lacks."""

from __future__ import annotations

import dataclasses
import struct

from soluna_tui.server.web.page import TERMINAL_HANDED_OVER, load_static_files
from soluna_tui.terminal.glyphs import UNICODE

#: What xterm.js draws itself, whatever the font: box drawing and block elements.
DRAWN_BY_XTERM = range(0x2500, 0x25A0)


def characters(font: bytes) -> set[str]:
    """The characters of the Basic Multilingual Plane a TrueType font has glyphs for (its ``cmap``'s format 4)."""
    tables = {font[12 + 16 * number:16 + 16 * number]: struct.unpack(">II", font[20 + 16 * number:28 + 16 * number])
              for number in range(struct.unpack(">H", font[4:6])[0])}
    offset, _length = tables[b"cmap"]
    found: set[str] = set()
    for number in range(struct.unpack(">H", font[offset + 2:offset + 4])[0]):
        _platform, _encoding, at = struct.unpack(">HHI", font[offset + 4 + 8 * number:offset + 12 + 8 * number])
        table = offset + at
        if struct.unpack(">H", font[table:table + 2])[0] != 4:
            continue
        pairs = struct.unpack(">H", font[table + 6:table + 8])[0] // 2
        ends = struct.unpack(f">{pairs}H", font[table + 14:table + 14 + 2 * pairs])
        starts_at = table + 16 + 2 * pairs
        starts = struct.unpack(f">{pairs}H", font[starts_at:starts_at + 2 * pairs])
        deltas = struct.unpack(f">{pairs}h", font[starts_at + 2 * pairs:starts_at + 4 * pairs])
        ranges_at = starts_at + 4 * pairs
        for index, (start, end) in enumerate(zip(starts, ends, strict=True)):
            for code in range(start, min(end, 0xFFFE) + 1):
                glyph_at = struct.unpack(">H", font[ranges_at + 2 * index:ranges_at + 2 * index + 2])[0]
                if glyph_at:
                    where = ranges_at + 2 * index + glyph_at + 2 * (code - start)
                    glyph = struct.unpack(">H", font[where:where + 2])[0]
                    glyph = (glyph + deltas[index]) % 65536 if glyph else 0
                else:
                    glyph = (code + deltas[index]) % 65536
                if glyph:
                    found.add(chr(code))
    return found


def drawn_characters(value: object) -> set[str]:
    """Every character in the app's glyph set (symbols, frames, marks)."""
    if isinstance(value, str):
        return set(value)
    if isinstance(value, dict):
        return set().union(*map(drawn_characters, value.values()))
    if isinstance(value, tuple | list):
        return set().union(*map(drawn_characters, value))
    if dataclasses.is_dataclass(value):
        return set().union(*(drawn_characters(getattr(value, field.name)) for field in dataclasses.fields(value)))
    return set()


def test_the_served_textual_js_hands_its_terminal_to_the_page_script() -> None:
    served = load_static_files()["textual.js"].body
    fits_on_its_own, handed_over = TERMINAL_HANDED_OVER
    assert served.count(handed_over) == 1 and fits_on_its_own not in served


def test_the_symbol_font_has_every_character_the_game_draws_that_roboto_mono_lacks() -> None:
    files = load_static_files()
    terminal_font, symbols = characters(files["RobotoMono.ttf"].body), characters(files["SolunaSymbols.ttf"].body)
    lacking = {char for char in drawn_characters(UNICODE) if char not in terminal_font
               and ord(char) not in DRAWN_BY_XTERM}
    assert {"☀", "☾", "✶", "☄"} <= lacking  # the four symbols on the discs among them
    assert lacking <= symbols, sorted(lacking - symbols)
    assert symbols <= lacking, sorted(symbols - lacking)  # and nothing else: a subset
    assert len(files["SolunaSymbols.ttf"].body) < 8 * 1024
