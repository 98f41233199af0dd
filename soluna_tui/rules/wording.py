"""Small helpers for English text shown to players."""

from __future__ import annotations


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``1 tower``, ``3 towers``, ``1 ply``, ``2 plies``."""
    word = singular if count == 1 else (plural_form or f"{singular}s")
    return f"{count} {word}"


def points(count: float) -> str:
    """``1 point``, ``2.5 points``, ``0 points``."""
    return f"{count:g} point{'' if count == 1 else 's'}"


def plies(count: int) -> str:
    return plural(count, "ply", "plies")


#: Under this many seconds a duration is said to the second, as the panels' clocks show it (``1:42``).
TO_THE_SECOND = 600


def minutes(seconds: float) -> str:
    """A duration as players read it: ``45 seconds``, ``2 minutes``, ``1 min 42 s`` (to the second under ten
    minutes, as the panels count: never ``2 minutes`` for 90 seconds), ``15 minutes``."""
    whole = round(seconds)
    if whole >= TO_THE_SECOND:
        return plural(round(seconds / 60), "minute")
    count, left = divmod(whole, 60)
    if count == 0:
        return plural(left, "second")
    return plural(count, "minute") if left == 0 else f"{count} min {left} s"
