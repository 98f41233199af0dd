"""What the terminal can show: refuse hopeless terminals, pick ASCII mode when Unicode is unsafe."""

from __future__ import annotations

import codecs
import locale
import os
import sys
from collections.abc import Mapping
from typing import TextIO

#: Below this size the game shows a "terminal too small" notice instead of its layout.
MIN_WIDTH = 40
MIN_HEIGHT = 20
#: From this width the side panels (the tally, the moves, the talk) stand beside the board; below it the
#: app has the ``NARROW_CLASS`` and lays itself out for a phone or a narrow split: the tally in a line above
#: the board, the moves and the talk behind Tab.
WIDE_WIDTH = 80
NARROW_CLASS = "-narrow"


def refusal(environ: Mapping[str, str] = os.environ, stdout: TextIO = sys.stdout,
            stdin: TextIO = sys.stdin) -> str | None:
    """One line saying why the game cannot run in this terminal, or ``None`` when it can."""
    term = environ.get("TERM", "")
    if term in ("", "dumb"):
        shown = term or "unset"
        return (f"this terminal (TERM={shown}) cannot draw the game; run it in a terminal such as xterm, "
                "or use 'soluna analyze'")
    if not (stdout.isatty() and stdin.isatty()):
        return "the game needs an interactive terminal (standard input and output are not a terminal)"
    return None


def _is_utf8(name: str | None) -> bool:
    if not name:
        return False
    try:
        return codecs.lookup(name).name == "utf-8"
    except LookupError:
        return False


def _coerced(environ: Mapping[str, str]) -> bool:
    """Whether Python itself set ``LC_CTYPE=C.UTF-8`` as it started, the locale being C or POSIX (PEP 538): the
    terminal was asked for nothing but ASCII (``LANG=C``), whatever Python reads and writes."""
    return (not environ.get("LC_ALL") and environ.get("LC_CTYPE") == "C.UTF-8"
            and environ.get("LANG", "C") in ("C", "POSIX", ""))


def wants_ascii(environ: Mapping[str, str] = os.environ) -> bool:
    """True when Unicode glyphs are unsafe: the locale is not UTF-8, or TERM is the Linux console."""
    if environ.get("TERM") == "linux":
        return True
    if _coerced(environ):
        return True
    for variable in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = environ.get(variable)
        if value:
            codeset = value.split(".", 1)[1].split("@", 1)[0] if "." in value else ""
            return not _is_utf8(codeset) and value not in ("C.UTF-8",)
    return not _is_utf8(locale.getpreferredencoding(False))
