"""English for the dialogs that speak to the player at this terminal as "you".

Whether a player is "you" is the caller's knowledge (who sits at this terminal), never
guessed from a name: a player who typed "You" as a name is still spoken of by name.
"""

from __future__ import annotations


def verb(subject: str, third_person: str, second_person: str, *, you: bool = False, first: bool = True) -> str:
    """``Ann wins``, but ``You win`` when the subject is the player addressed here (``you win``
    when not ``first`` in its sentence)."""
    if you:
        return f"{'You' if first else 'you'} {second_person}"
    return f"{subject} {third_person}"


def possessive(name: str, *, you: bool = False) -> str:
    """``Ann's``, but ``your`` for the player addressed here."""
    return "your" if you else f"{name}'s"


#: Under this many seconds a duration is said to the second, as the panels' clocks show it (``1:42``).
TO_THE_SECOND = 600


def minutes(seconds: float) -> str:
    """A duration as players read it: ``45 seconds``, ``2 minutes``, ``1 min 42 s`` (to the second under ten
    minutes, as the panels count: never ``2 minutes`` for 90 seconds), ``15 minutes``."""
    whole = round(seconds)
    if whole >= TO_THE_SECOND:
        return _count(round(seconds / 60), "minute")
    count, left = divmod(whole, 60)
    if count == 0:
        return _count(left, "second")
    return _count(count, "minute") if left == 0 else f"{count} min {left} s"


def _count(count: int, unit: str) -> str:
    return f"{count} {unit}{'' if count == 1 else 's'}"
