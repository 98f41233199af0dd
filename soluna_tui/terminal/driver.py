"""Fewer bytes for the same frames: what the app writes, with the colour changes it need not repeat.

Textual writes every piece of a line as its whole style, the text, then a reset
(``ESC[1;38;2;r;g;b;48;2;r;g;bm text ESC[0m``), and a newline before each line's cursor move. Most
pieces share their background and many their colour with the one before: a terminal needs only
what changes. ``compact`` gives the same screen in about a sixth fewer bytes, which every player
over SSH receives and their terminal reads. The app's driver (``compact_driver``) passes all it
writes through it.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.driver import Driver

#: A control sequence after its ``ESC[``: parameters, intermediates, the final byte.
CONTROL = re.compile(r"[0-?]*[ -/]*[@-~]")
#: Attributes Textual writes (bold, dim, italic, underline, blink, rapid blink, reverse, conceal,
#: strike, double underline, frame, encircle, overline), always after a reset.
ATTRIBUTES = frozenset({"1", "2", "3", "4", "5", "6", "7", "8", "9", "21", "51", "52", "53"})
#: What turns each attribute off (some turn off two: 22 both bold and dim).
TURNED_OFF_BY = {"1": "22", "2": "22", "3": "23", "4": "24", "21": "24", "5": "25", "6": "25", "7": "27", "8": "28",
                 "9": "29", "51": "54", "52": "54", "53": "55"}
#: The most pairs of styles whose change is kept worked out (the app's themes use a few hundred).
TRANSITIONS_KEPT = 4096

#: Attributes that show on a blank cell: lines through or under it, colours swapped, a frame.
SHOWN_ON_BLANKS = frozenset({"4", "7", "9", "21", "51", "52", "53"})
#: The style of a terminal after a reset: no attributes, default colours.
NO_STYLE: tuple[frozenset[str], str, str] = (frozenset(), "", "")


def _parts(sgr: str) -> tuple[frozenset[str], str, str] | None:
    """An SGR's parameters (as written after a reset; ``""`` for the reset itself) as its attributes,
    colour and background; ``None`` for anything but attributes switched on and colours set."""
    if not sgr:
        return NO_STYLE
    codes = sgr.split(";")
    attributes: set[str] = set()
    colour = background = ""
    index = 0
    while index < len(codes):
        code = codes[index]
        if code in ("38", "48"):
            length = {"2": 5, "5": 3}.get(codes[index + 1] if index + 1 < len(codes) else "", 0)
            if not length or index + length > len(codes):
                return None
            value = ";".join(codes[index:index + length])
            if code == "38":
                colour = value
            else:
                background = value
            index += length
            continue
        if code in ATTRIBUTES:
            attributes.add(code)
        elif code.isdigit() and (30 <= int(code) <= 39 or 90 <= int(code) <= 97):
            colour = code
        elif code.isdigit() and (40 <= int(code) <= 49 or 100 <= int(code) <= 107):
            background = code
        else:
            return None
        index += 1
    return frozenset(attributes), colour, background


@lru_cache(maxsize=TRANSITIONS_KEPT)
def transition(before: str, after: str) -> str:
    """The shortest SGR that takes a terminal from the style ``before`` to ``after`` (both as the
    parameters written after a reset; ``""`` is the reset itself)."""
    whole = f"\x1b[0;{after}m" if after else "\x1b[0m"
    old, new = _parts(before), _parts(after)
    if old is not None and new is not None:
        offs = sorted({TURNED_OFF_BY[attribute] for attribute in old[0] - new[0]})
        still_on = {attribute for attribute in old[0] if TURNED_OFF_BY[attribute] not in offs}
        changes = offs + sorted(new[0] - still_on)
        if new[1] != old[1]:
            changes.append(new[1] or "39")
        if new[2] != old[2]:
            changes.append(new[2] or "49")
        change = f"\x1b[{';'.join(changes)}m"
        if len(change) < len(whole):
            return change
    return whole


@lru_cache(maxsize=TRANSITIONS_KEPT)
def blank_alike(before: str, after: str) -> bool:
    """Whether spaces look the same in both styles: the same background, and nothing drawn over a
    blank cell (a line, a reversal) in either; their colour and weight do not show."""
    old, new = _parts(before), _parts(after)
    return old is not None and new is not None and old[2] == new[2] and not (old[0] | new[0]) & SHOWN_ON_BLANKS


def compact(data: str) -> str:
    """``data`` with the same effect on a terminal, in fewer bytes.

    Styles are written when text needs them and as changes from the style in effect (spaces keep
    the colour they find when only their background shows); a newline just before a move further
    down the screen is left out. Writes with any escape but control sequences (a title, a link, a
    clipboard) pass as they are, and so does all before the first reset of a write (the style in
    effect before it is not known).
    """
    if data.count("\x1b") != data.count("\x1b[") or "\x1b[0m" not in data:
        return data
    head, *pieces = data.split("\x1b[")
    out = [head]
    append = out.append
    match_control = CONTROL.match
    known = False  # whether the terminal's style is known: after the write's first reset
    shown = wanted = ""  # the style the terminal has, the one the next text needs (SGR after a reset)
    row = -1  # the row of the last absolute move, while it is known
    newline = False  # a newline held back: left out if a move further down comes next
    for piece in pieces:  # each what follows an ESC[: a control sequence, then text
        if piece == "0m" and known:  # the commonest: a reset, nothing after it
            wanted = ""
            continue
        match = match_control(piece)
        if match is None:  # not a control sequence after all: the rest goes as it is
            sequence, text, final = "", "\x1b[" + piece, ""
        else:
            end = match.end()
            sequence, text, final = piece[:end], piece[end:], piece[end - 1]
        if final == "m":
            parameters = sequence[:-1]
            if not known:
                append("\x1b[" + sequence)
                if parameters in ("", "0"):
                    known, shown, wanted = True, "", ""
            elif parameters in ("", "0"):
                wanted = ""
            elif not wanted:
                wanted = parameters
            else:  # one style on another (Textual resets between them): as it came, known again at a reset
                if wanted != shown:
                    append(transition(shown, wanted))
                append("\x1b[" + sequence)
                known = False
        elif final == "H":
            parameters = sequence[:-1]
            next_row = int(parameters.partition(";")[0] or 1) if parameters.replace(";", "").isdigit() else -1
            if newline and not 0 <= row < next_row:
                append("\n")
            newline = False
            row = next_row
            append("\x1b[" + sequence)
        elif sequence:  # any other sequence may show something: as if it were text
            text = "\x1b[" + sequence + text
            row = -1
        if not text:
            continue
        if newline:
            append("\n")
            newline = False
        if text == "\n":
            newline = True
            continue
        if known and wanted != shown and not (text.strip(" ") == "" and blank_alike(shown, wanted)):
            append(transition(shown, wanted))
            shown = wanted
        append(text)
        if match is None:
            known, row = False, -1
        elif "\n" in text or "\r" in text:
            row = -1
    if newline:
        append("\n")
    if known and wanted != shown:
        append(transition(shown, wanted))
    return "".join(out)


#: What shows and hides the terminal's cursor (Textual's drivers hide it as they start, and show it as they stop).
SHOW_CURSOR, HIDE_CURSOR = "\x1b[?25h", "\x1b[?25l"


@cache
def compact_driver(base: type[Driver]) -> type[Driver]:
    """``base`` (the driver Textual chose) writing through ``compact``; and showing the terminal's cursor while the
    app's ``cursor_follows_focus`` is true (``app/focus_cursor.py``: Textual moves the cursor after each frame to
    where the app says, but hides it as its driver starts)."""

    class CompactDriver(base):  # type: ignore[valid-type,misc]
        def __init__(self, app: object, *args: object, **kwargs: object) -> None:
            super().__init__(app, *args, **kwargs)
            self.cursor_app = app
            self.cursor_shown = False

        def write(self, data: str) -> None:
            shown = self.cursor_shown
            if shown and HIDE_CURSOR in data:  # the driver starting again (after a suspend): hidden once more
                shown = False
            wanted = getattr(self.cursor_app, "cursor_follows_focus", False)
            if wanted != shown:
                data += SHOW_CURSOR if wanted else HIDE_CURSOR
            self.cursor_shown = wanted
            super().write(compact(data))

    CompactDriver.__name__ = CompactDriver.__qualname__ = f"Compact{base.__name__}"
    return CompactDriver
