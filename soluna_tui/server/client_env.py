"""Shared by the server process and the child (whose name screen shows names as the lobby does).

What a client may pass to its child: TERM, a colour hint or two, a clamped size; and a name that is its own.

The client's environment never reaches the child as such: only ``TERM`` (checked
against a safe pattern), ``NO_COLOR`` and ``COLORTERM`` (short values) are
copied, and the locale is only read to choose ASCII drawing. The server keeps at
most ``ENV_VARIABLES`` of them, each at most ``ENV_BYTES`` long. A name's ``skeleton`` is
what it looks like (Unicode's confusables, UTS #39, as the ``confusable_homoglyphs`` package
ships them): the lobby and the store compare names by it, so nobody passes for a reserved
name or for a player whose key holds one; a name mixing scripts passes for one (``passes_for``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping

from ..terminal import wants_ascii

#: Environment variables a client may set before its session starts (OpenSSH sends LANG and a dozen LC_*),
#: and the most bytes of one request (name and value).
ENV_VARIABLES, ENV_BYTES = 32, 1024
#: Characters that draw nothing yet are letters or marks to Unicode (so ``isprintable`` keeps them).
INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0")
#: Scripts that may share a name (UTS #39 "highly restrictive"): Japanese, Chinese and Korean names mix these.
SCRIPT_MIXES_ALLOWED = (frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}), frozenset({"LATIN", "HAN", "BOPOMOFO"}),
                        frozenset({"LATIN", "HAN", "HANGUL"}))
#: What belongs to every script (digits, signs) or to the letter before it (marks): no script of their own.
SHARED_SCRIPTS = frozenset({"COMMON", "INHERITED"})
#: Marks the confusables data writes around right-to-left characters so that they print in order.
DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")

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


def visible_text(text: str) -> str:
    """``text`` in its compatibility form (fullwidth and styled letters made plain), without what draws nothing."""
    normal = unicodedata.normalize("NFKC", text)
    return "".join(char for char in normal
                   if unicodedata.category(char) != "Cf" and char not in INVISIBLE
                   and not 0xFE00 <= ord(char) <= 0xFE0F and not 0xE0100 <= ord(char) <= 0xE01EF)


def skeleton(text: str) -> str:
    """What ``text`` looks like (UTS #39's skeleton, without case or accents): two names with one skeleton
    pass for each other. Look-alikes become the letters they mimic ("ɑnn", "аnn" and "ánn" read "ann"),
    runs of letters too ("computer" reads "cornputer", as "cornputer" does)."""
    prototypes = _prototypes()
    shown = _bare(visible_text(text)).translate(prototypes)
    # Capitals first (Greek capital upsilon looks like Y, its small letter like u), then the small letters.
    return " ".join(_bare(shown.casefold()).translate(prototypes).split())


def mixed_scripts(text: str) -> bool:
    """Whether ``text`` mixes the letters of two scripts (Latin with Cyrillic, Cherokee with Latin...), as only
    an imitation does; Japanese, Chinese and Korean writing, which mix scripts of their own, do not count."""
    from confusable_homoglyphs import categories  # type: ignore[import-untyped]  # no type hints shipped

    scripts = frozenset(categories.alias(char) for char in _bare(visible_text(text))) - SHARED_SCRIPTS
    return len(scripts) > 1 and not any(scripts <= allowed for allowed in SCRIPT_MIXES_ALLOWED)


def passes_for(name: str, others: Iterable[str]) -> bool:
    """Whether ``name`` could be taken for one of ``others`` (the same skeleton), or mixes scripts to look like
    a name it is not."""
    return mixed_scripts(name) or skeleton(name) in {skeleton(other) for other in others}


def _bare(text: str) -> str:
    """``text`` decomposed, without its marks (accents, and what draws on the letter before it)."""
    return "".join(char for char in unicodedata.normalize("NFD", text) if not unicodedata.combining(char)
                   and unicodedata.category(char) not in ("Mn", "Me"))


@functools.cache
def _prototypes() -> dict[int, str]:
    """Each confusable character's prototype, from Unicode's confusables (``confusable_homoglyphs`` ships them).

    Its table lists each pair both ways: a character that maps to a prototype lists that one only, a prototype
    lists every character that maps to it. Of a pair that list only each other, the smaller stands for both.
    Read on first use: the table is large, and a session's process never needs it.
    """
    from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

    listed = {key.translate(DIRECTION_MARKS): [entry["c"].translate(DIRECTION_MARKS) for entry in entries]
              for key, entries in confusables_data.items()}
    prototypes: dict[int, str] = {}
    for source, targets in listed.items():
        if len(source) != 1 or len(targets) != 1 or targets[0] == source:
            continue
        target = targets[0]
        if listed.get(target) == [source]:
            target = min(source, target)
        if target != source:
            prototypes[ord(source)] = target
    return prototypes
