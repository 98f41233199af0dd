"""Shared by the server process and the child: table talk's words, and a line of it made safe to show.

A chat line reaches other players' terminals, so what it may hold is decided once, here: no control
characters or escape sequences (a terminal would obey them), no format characters (zero-width joiners,
direction overrides: they hide or reorder text), nothing that draws nothing, at most ``names.MARKS_PER_LETTER``
accents stacked on one letter, whitespace as single spaces, at most ``CHAT_LONGEST`` characters. The server
cleans every line it is told (the child is not trusted); the child checks the length first, so a player is
told at once that a pasted page is too long.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from typing import Final

from .safe_names import INVISIBLE, limit_marks, variation_selector

#: The longest chat line, in characters once cleaned.
CHAT_LONGEST: Final = 300
#: The lines of the lobby's talk kept (a newcomer sees them); a match's talk is kept for the match's life, up to
#: ``MATCH_LINES_KEPT`` a room.
LOBBY_LINES_KEPT: Final = 50
MATCH_LINES_KEPT: Final = 500
#: The canned lines, on the number keys of the opened chat line (1 to 4) for players who would rather not type.
CANNED: Final = ("good luck", "good game", "thanks", "one moment")

#: An escape sequence as terminals read them: CSI (``ESC [`` ... final), OSC/DCS/APC/PM/SOS strings (to BEL or
#: ST), and two-character escapes; their 8-bit forms (``\x9b``...) too.
_ESCAPES = re.compile(r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
                      r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
                      r"|\x1b[ -/]*[0-~]?")
_SPACES = re.compile(r"\s+")


class Room(enum.StrEnum):
    """Where a chat line is said, and so who hears it."""

    LOBBY = "lobby"
    #: The two players of a match (nobody else).
    PLAYERS = "players"
    #: The spectators of a match; its players hear them once the match is over.
    SPECTATORS = "spectators"


class ChatRefused(ValueError):
    """A chat line that is not said, and why (one line for the player)."""


class ChatTooLong(ChatRefused):
    """A chat line longer than ``CHAT_LONGEST``; ``kept`` is its beginning that fits (the player's terminal puts
    it back in the chat line to trim, rather than throw the line away)."""

    def __init__(self, message: str, kept: str) -> None:
        super().__init__(message)
        self.kept = kept


def clean_chat(text: str) -> str:
    """``text`` as it may be shown: no escape sequences, control, format or invisible characters, at most
    ``MARKS_PER_LETTER`` marks on a letter, runs of whitespace one space, none at either end."""
    shown = "".join(" " if char.isspace() else char for char in _ESCAPES.sub("", text)
                    if char.isspace() or not (unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn")
                                              or char in INVISIBLE or variation_selector(char)))
    return _SPACES.sub(" ", limit_marks(shown)).strip()


def chat_line(text: str) -> str:
    """``text`` cleaned, ready to say; ``ChatRefused`` (its one line) when nothing is left or it is too long."""
    cleaned = clean_chat(text)
    if not cleaned:
        raise ChatRefused("Not sent: nothing in it can be shown.")
    if len(cleaned) > CHAT_LONGEST:
        raise ChatTooLong(f"Not sent: {len(cleaned)} characters; a line has at most {CHAT_LONGEST}.",
                          cleaned[:CHAT_LONGEST].rstrip())
    return cleaned
