"""Escape and the key after it, arriving together, are read as Escape then that key."""

from __future__ import annotations

import time

import pytest
from textual._xterm_parser import XTermParser

from soluna_tui.terminal.key_order import read_escape_then_key


def keys_read(data: str) -> list[str]:
    """The keys Textual's terminal parser makes of ``data`` arriving at once (past its escape delay)."""
    read_escape_then_key()
    parser = XTermParser()
    tokens = list(parser.feed(data))
    deadline = time.monotonic() + 2
    while parser._timeout_time is not None and time.monotonic() < deadline:  # the escape delay
        time.sleep(0.02)
        tokens += parser.tick()
    return [token.key for token in tokens]


@pytest.mark.parametrize(("data", "keys"), [
    ("\x1b3", ["escape", "3"]),  # in Textual's table: a Mac's Option+3, "£"
    ("\x1bb", ["escape", "b"]),  # in the table: Ctrl+Left
    ("\x1b\t", ["escape", "tab"]),  # in the table: Shift+Tab
    ("\x1bl", ["escape", "l"]),  # Alt+L
    ("\x1b ", ["escape", "space"]),  # the Escape was lost
    ("\x1b:", ["escape", "colon"]),
    ("\x1b\r", ["escape", "enter"]),
    ("\x1b3\r4\r", ["escape", "3", "enter", "4", "enter"]),
])
def test_escape_then_a_key(data: str, keys: list[str]) -> None:
    assert keys_read(data) == keys


@pytest.mark.parametrize(("data", "keys"), [
    ("\x1b", ["escape"]),
    ("\x1b\x1b", ["escape", "escape"]),
    ("\x1b[C", ["right"]),
    ("\x1bOA", ["up"]),
    ("\x1b[1;5C", ["ctrl+right"]),
    ("\x1b\x1b[D", ["escape", "left"]),
    ("\x1b\x7f", ["ctrl+w"]),  # Alt+Backspace: a word deleted in a text field
    ("l3", ["l", "3"]),
])
def test_sequences_and_lone_keys_are_read_as_before(data: str, keys: list[str]) -> None:
    assert keys_read(data) == keys
