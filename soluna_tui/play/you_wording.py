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
