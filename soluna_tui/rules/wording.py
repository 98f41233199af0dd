"""Small helpers for English text shown to players."""

from __future__ import annotations


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``1 tower``, ``3 towers``, ``1 ply``, ``2 plies``."""
    word = singular if count == 1 else (plural_form or f"{singular}s")
    return f"{count} {word}"


def plies(count: int) -> str:
    return plural(count, "ply", "plies")

