"""Shared by the server process and the child: names shown safely.

A user name (from SSH, or typed on the name screen) reaches other players' screens: what draws
nothing goes, fullwidth and styled letters become plain (``visible_text``), and a name's
``skeleton`` is what it looks like, for telling whether it imitates a reserved one.
"""

from __future__ import annotations

import unicodedata
from typing import Final

#: Characters that draw nothing yet are letters or marks to Unicode (so ``isprintable`` keeps them).
INVISIBLE: Final = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0")
#: Letters drawn like Latin ones (Unicode's confusables, TR39, for the letters of the Latin alphabet):
#: Cyrillic, Greek, Armenian, Cherokee, small capitals and IPA; digits that pass for letters.
LOOK_ALIKES: Final = str.maketrans({
    **dict.fromkeys("аɑαⲁАΑ", "a"), **dict.fromkeys("ЬᏏВΒʙ", "b"), **dict.fromkeys("сϲᴄⅽꮯСϹⅭ", "c"),
    **dict.fromkeys("ԁⅾꮷⅮ", "d"), **dict.fromkeys("еєҽᴇꬲЕΕ", "e"), **dict.fromkeys("ғϝϜ", "f"),
    **dict.fromkeys("ցɡᶃԌ", "g"), **dict.fromkeys("һհʜᏂНΗ", "h"), **dict.fromkeys("іɩιⅰІΙ", "i"),
    **dict.fromkeys("јϳЈ", "j"), **dict.fromkeys("κᴋкКΚ", "k"), **dict.fromkeys("ⅼ|1ǀӏⅬ", "l"),
    **dict.fromkeys("мᴍⅿМΜϺ", "m"), **dict.fromkeys("ոɴΝ", "n"), **dict.fromkeys("оοօᴏ0ⲟჿОΟՕ", "o"),
    **dict.fromkeys("рρᴘⲣРΡ", "p"), **dict.fromkeys("ԛգԚ", "q"), **dict.fromkeys("гʀᴦꭇ", "r"),
    **dict.fromkeys("ѕꜱЅ", "s"), **dict.fromkeys("тτᴛТΤ", "t"), **dict.fromkeys("սυᴜʋ", "u"),
    **dict.fromkeys("νѵᴠѴ", "v"), **dict.fromkeys("ԝѡᴡɯԜ", "w"), **dict.fromkeys("хχХΧ", "x"),
    **dict.fromkeys("уүγʏỿУҮΥ", "y"), **dict.fromkeys("ᴢΖ", "z"),
})


def visible_text(text: str) -> str:
    """``text`` in its compatibility form (fullwidth and styled letters made plain), without what draws nothing."""
    normal = unicodedata.normalize("NFKC", text)
    return "".join(char for char in normal
                   if unicodedata.category(char) != "Cf" and char not in INVISIBLE
                   and not 0xFE00 <= ord(char) <= 0xFE0F and not 0xE0100 <= ord(char) <= 0xE01EF)


def skeleton(text: str) -> str:
    """What ``text`` looks like: visible characters, no accents, look-alikes as the Latin letters they mimic."""
    bare = "".join(char for char in unicodedata.normalize("NFD", visible_text(text)) if not unicodedata.combining(char))
    # Capitals first (Greek capital upsilon looks like Y, its small letter like u), then the small letters.
    return " ".join(bare.translate(LOOK_ALIKES).casefold().translate(LOOK_ALIKES).split())
