"""English for the dialogs that speak to the player at this terminal as "you".

Whether a player is "you" is the caller's knowledge (who sits at this terminal), never
guessed from a name: a player who typed "You" as a name is still spoken of by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules.end_reason import EndReason

if TYPE_CHECKING:
    from ..rules import Match


def verb(subject: str, third_person: str, second_person: str, *, you: bool = False, first: bool = True) -> str:
    """``Ann wins``, but ``You win`` when the subject is the player addressed here (``you win``
    when not ``first`` in its sentence)."""
    if you:
        return f"{'You' if first else 'you'} {second_person}"
    return f"{subject} {third_person}"


def possessive(name: str, *, you: bool = False) -> str:
    """``Ann's``, but ``your`` for the player addressed here."""
    return "your" if you else f"{name}'s"


def match_result_words(match: Match, ended: EndReason | None, you: int | None = None) -> str:
    """How a finished match ended, in one line, as the match-over summary says it: ``You win the match 4-2``,
    ``Ann resigned: Bob wins the match``, ``You ran out of time: Computer wins on time``."""
    winner = match.winner
    if winner is None:
        raise ValueError("only a finished match has a result")
    names, stars = match.players, match.stars
    quitter = match.forfeited_by
    wins = "you win" if winner == you else f"{names[winner]} wins"
    if quitter is None:
        return f"{verb(names[winner], 'wins', 'win', you=winner == you)} the match {stars[winner]}-{stars[1 - winner]}"
    if ended in (None, EndReason.RESIGNED):  # on this terminal, a forfeit is a resignation too
        return f"{'You resigned' if quitter == you else f'{names[quitter]} resigned'}: {wins} the match"
    if ended is EndReason.TIME:  # not won on the board: say what happened
        return f"{'You ran' if quitter == you else f'{names[quitter]} ran'} out of time: {wins} on time"
    return f"{'You left' if quitter == you else f'{names[quitter]} left'}: {wins} by forfeit"
