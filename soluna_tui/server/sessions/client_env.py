"""Runs in the server process.

What a client may pass to its child: TERM, a colour hint or two, a clamped size.

The client's environment never reaches the child as such: only ``TERM`` (checked
against a safe pattern), ``NO_COLOR`` and ``COLORTERM`` (short values) are
copied, and the locale is only read to choose ASCII drawing. The server keeps at
most ``ENV_VARIABLES`` of them, each at most ``ENV_BYTES`` long. How a user name
is shown safely is ``link/safe_names.py``'s (the child's name screen shares it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ...terminal.sizes import wants_ascii

#: Environment variables a client may set before its session starts (OpenSSH sends LANG and a dozen LC_*),
#: and the most bytes of one request (name and value).
ENV_VARIABLES, ENV_BYTES = 32, 1024
MAX_COLUMNS, MAX_LINES = 500, 200
TERM_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,39}")
COLORTERM_PATTERN = re.compile(r"[A-Za-z0-9._+-]{1,20}")
LOCALE_PATTERN = re.compile(r"[A-Za-z0-9._@-]{1,40}")
LOCALE_VARIABLES = ("LC_ALL", "LC_CTYPE", "LANG")


def term_refusal(term: str | None) -> str | None:
    """One line saying why this terminal cannot play, or ``None`` when it can."""
    if term is None:
        return ("This server offers only the game, which needs a terminal: "
                "connect with plain 'ssh -p PORT HOST' (no command, no -T).")
    if term in ("", "dumb"):
        return (f"Your terminal (TERM={term or 'unset'}) cannot draw the game: "
                "connect from a terminal such as xterm.")
    if not TERM_PATTERN.fullmatch(term):
        return "Your terminal type is not one the game can trust: set TERM to e.g. xterm-256color."
    return None


def child_environment(term: str, requested: Mapping[str, str]) -> dict[str, str]:
    """The variables a child gets from its client: ``TERM`` plus the colour hints that pass."""
    environment = {"TERM": term}
    no_color = requested.get("NO_COLOR", "")
    if 0 < len(no_color) <= 16:
        environment["NO_COLOR"] = "1"
    colorterm = requested.get("COLORTERM", "")
    if COLORTERM_PATTERN.fullmatch(colorterm):
        environment["COLORTERM"] = colorterm
    return environment


def ascii_wanted(term: str, requested: Mapping[str, str]) -> bool:
    """ASCII drawing for the Linux console, or when the client's locale says it is not UTF-8."""
    locale = {name: requested[name] for name in LOCALE_VARIABLES
              if LOCALE_PATTERN.fullmatch(requested.get(name, ""))}
    if not locale:
        locale = {"LANG": "C.UTF-8"}  # most clients send no locale; their terminals are UTF-8 today
    return wants_ascii({"TERM": term, **locale})


def clamp_size(columns: int, lines: int) -> tuple[int, int]:
    """A window size the child may be given: at least 1x1, at most ``MAX_COLUMNS`` x ``MAX_LINES``."""
    return (min(max(columns, 1), MAX_COLUMNS), min(max(lines, 1), MAX_LINES))
