"""pyte's screen for the tests' terminals, drawing text for a fraction of pyte's CPU.

Every terminal a test opens (over SSH, a pseudo-terminal, a browser's page) feeds all the game sends into a pyte
screen, and pyte makes a new character (a named tuple, through ``_replace``) for every character it draws: a tenth
of the test workers' CPU went there. ``QuickScreen`` draws the same characters into the same cells, each look's
characters made once and shared, as pyte's own characters are immutable. ``tests/test_quick_screen.py`` feeds both
screens the same bytes and compares every cell and the cursor.
"""

from __future__ import annotations

import re
import unicodedata

import pyte
from pyte import modes
from pyte.screens import Char, wcwidth

#: How many characters a screen keeps made (each look's, the letters drawn in it) before it starts afresh.
MOST_KEPT = 20_000


class QuickScreen(pyte.Screen):
    """``pyte.Screen``, its ``draw`` sharing one character for each letter and look."""

    def __init__(self, columns: int, lines: int) -> None:
        super().__init__(columns, lines)
        self._made: dict[Char, dict[str, Char]] = {}
        self._kept = 0

    def draw(self, data: str) -> None:
        """As ``pyte.Screen.draw``: the characters at the cursor, wrapping (DECAWM) or inserting (IRM) as the modes
        say, two cells for a wide one, a combining one joined to the one before."""
        data = data.translate(self.g1_charset if self.charset else self.g0_charset)
        cursor, columns, mode, buffer = self.cursor, self.columns, self.mode, self.buffer
        attrs = cursor.attrs
        made = self._made.get(attrs)
        if made is None:
            if self._kept > MOST_KEPT:
                self._made.clear()
                self._kept = 0
            made = self._made[attrs] = {}
        for char in data:
            width = wcwidth(char)
            if cursor.x == columns:
                if modes.DECAWM in mode:
                    self.dirty.add(cursor.y)
                    self.carriage_return()
                    self.linefeed()
                elif width > 0:
                    cursor.x -= width
            if width > 0 and modes.IRM in mode:
                self.insert_characters(width)
            line = buffer[cursor.y]
            if width == 1 or width == 2:
                drawn = made.get(char)
                if drawn is None:
                    drawn = made[char] = attrs._replace(data=char)
                    self._kept += 1
                line[cursor.x] = drawn
                if width == 2 and cursor.x + 1 < columns:
                    stub = made.get("")
                    if stub is None:
                        stub = made[""] = attrs._replace(data="")
                    line[cursor.x + 1] = stub
            elif width == 0 and unicodedata.combining(char):
                if cursor.x:
                    last = line[cursor.x - 1]
                    line[cursor.x - 1] = last._replace(data=unicodedata.normalize("NFC", last.data + char))
                elif cursor.y:
                    last = buffer[cursor.y - 1][columns - 1]
                    buffer[cursor.y - 1][columns - 1] = last._replace(
                        data=unicodedata.normalize("NFC", last.data + char))
            else:
                break  # not printable, or it does not move the cursor
            if width > 0:
                cursor.x = min(cursor.x + width, columns)
        self.dirty.add(cursor.y)


#: A control sequence whose parameters are plain numbers (``ESC [ ? 1 ; 2 h``): the most of what a game's frame holds
#: beside its text. pyte's parser takes these a character at a time; ``QuickStream`` reads them whole.
PLAIN_CSI = re.compile(r"\x1b\[(\??)([0-9;]*)([@-~])")


class QuickStream(pyte.Stream):
    """``pyte.Stream``, reading a whole plain control sequence at once where pyte's parser would read it a character
    at a time; anything else (a sequence split between two reads, other escapes) goes to pyte's parser as before."""

    def feed(self, data: str) -> None:
        listener = self.listener
        if listener is None:
            raise RuntimeError("Listener is not set")
        draw, send = listener.draw, self._send_to_parser
        match_text, match_csi = self._text_pattern.match, PLAIN_CSI.match
        calls = self.__dict__.get("_csi_calls")
        if calls is None or calls[0] is not listener:
            calls = self._csi_calls = (listener, {final: getattr(listener, name) for final, name in self.csi.items()})
        handlers = calls[1]
        plain = self._taking_plain_text
        length, offset = len(data), 0
        try:
            while offset < length:
                if not plain:
                    plain = send(data[offset])
                    offset += 1
                    continue
                match = match_text(data, offset)
                if match is not None:
                    start, offset = match.span()
                    draw(data[start:offset])
                    continue
                match = match_csi(data, offset)
                if match is None:
                    plain = send(data[offset])
                    offset += 1
                    continue
                offset = match.end()
                private, numbers, final = match.groups()
                params = [min(int(number or 0), 9999) for number in numbers.split(";")]
                handler = handlers.get(final, listener.debug)
                if private:
                    handler(*params, private=True)
                else:
                    handler(*params)
        except Exception:
            self._taking_plain_text = True  # as pyte leaves it: its parser made afresh
            raise
        self._taking_plain_text = plain


class QuickByteStream(pyte.ByteStream, QuickStream):
    """``pyte.ByteStream`` (bytes read as UTF-8) feeding ``QuickStream``."""
