"""Shared by the server process and the child: names shown safely, and compared by what they look like.

A user name (from SSH, or typed on the name screen) reaches other players' screens: what draws
nothing goes, fullwidth and styled letters become plain, at most ``MARKS_PER_LETTER`` accents stay on a letter
(``visible_text``). A name's ``skeleton`` is
what it looks like (Unicode's confusables, UTS #39, as the ``confusable_homoglyphs`` package ships
them): the lobby and the store compare names by it, so nobody passes for a reserved name or for a
player whose key holds one; a name mixing scripts passes for one (``passes_for``). The confusables
table is read on first use: the child, which only cleans names, never reads it.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from typing import Final

#: Characters that draw nothing yet are letters or marks to Unicode (so ``isprintable`` keeps them).
INVISIBLE: Final = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0")
#: Scripts that may share a name (UTS #39 "highly restrictive"): Japanese, Chinese and Korean names mix these.
SCRIPT_MIXES_ALLOWED = (frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}), frozenset({"LATIN", "HAN", "BOPOMOFO"}),
                        frozenset({"LATIN", "HAN", "HANGUL"}))
#: What belongs to every script (digits, signs) or to the letter before it (marks): no script of their own.
SHARED_SCRIPTS = frozenset({"COMMON", "INHERITED"})
#: Accents and other marks kept on one letter, in a name or a chat line (more stack into a smear over the lines
#: around). Those a precomposed letter holds count: "ệ" is e with two.
MARKS_PER_LETTER: Final = 2
#: Days a name a keyed player gave up stays reserved to their key (the server keeps it; the name dialog says so).
NAME_KEPT_DAYS = 30
#: Marks the confusables data writes around right-to-left characters so that they print in order.
DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


def variation_selector(char: str) -> bool:
    """A variation selector: it only changes how the character before it is drawn."""
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def visible_text(text: str) -> str:
    """``text`` in its compatibility form (fullwidth and styled letters made plain), without what draws nothing,
    with at most ``MARKS_PER_LETTER`` marks on a letter."""
    drawn = "".join(char for char in unicodedata.normalize("NFKC", text)
                    if unicodedata.category(char) != "Cf" and char not in INVISIBLE and not variation_selector(char))
    return unicodedata.normalize("NFKC", limit_marks(drawn))


def limit_marks(text: str) -> str:
    """``text`` with at most ``MARKS_PER_LETTER`` combining marks on each letter (the first ones; those a
    precomposed letter holds count: "é" holds one); a mark on no letter (at the start, after a space) goes."""
    kept: list[str] = []
    marks = 0
    for char in text:
        held = _marks_in(char)
        if unicodedata.category(char) in ("Mn", "Me"):
            marks += held
            if marks <= MARKS_PER_LETTER and kept and not kept[-1].isspace():
                kept.append(char)
        else:
            kept.append(char)
            marks = held
    return "".join(kept)


def _marks_in(char: str) -> int:
    """How many combining marks ``char`` is made of (its canonical decomposition): "é" one, "e" none."""
    if char.isascii():
        return 0
    return sum(1 for part in unicodedata.normalize("NFD", char) if unicodedata.category(part) in ("Mn", "Me"))


def skeleton(text: str) -> str:
    """What ``text`` looks like (UTS #39's skeleton, without case, accents or spaces): two names with one
    skeleton pass for each other. Look-alikes become the letters they mimic ("ɑnn", "аnn", "ánn", "ＡＮＮ"
    and "a n n" read "ann"), runs of letters too ("computer" reads "cornputer", as "cornputer" does)."""
    prototypes = _prototypes()
    shown = _bare(visible_text(text)).translate(prototypes)
    # Capitals first (Greek capital upsilon looks like Y, its small letter like u), then the small letters.
    return "".join(_bare(shown.casefold()).translate(prototypes).split())


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
