"""Shared by the server process and the child: why a match between two players ended.

As the store files it and the server tells it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from . import Match

#: Moves each player must have made before a forfeit, a loss on time or a resignation is a result, rated or not
#: (before, the match is aborted: nobody wins, nothing is rated).
REAL_PLAY_MOVES = 1


def real_play(match: Match) -> bool:
    """Both players have made ``REAL_PLAY_MOVES`` moves: a forfeit, a clock run out or a resignation from here on
    is a result; before, the match is aborted. The server decides by it; a player's terminal says so as they
    resign."""
    made = [0, 0]
    for played in match.rounds:
        for ply in range(played.ply):
            made[played.mover_at(ply)] += 1
    return min(made) >= REAL_PLAY_MOVES


class EndReason(StrEnum):
    """The stored values (``won``...) are the database's own: existing databases read the same."""

    #: The match was played out: someone reached the stars to win.
    WON = "won"
    #: A player left and did not come back in time: the opponent wins.
    FORFEIT = "forfeit"
    #: Both players left and neither came back: nobody wins.
    ABANDONED = "abandoned"
    #: A player's clock ran out: the opponent wins on time.
    TIME = "time"
    #: The match ended (a forfeit, a clock run out, a resignation) before both players had made a move: nobody
    #: wins, and it is not rated.
    ABORTED = "aborted"
    #: A player gave the match up (``R``): the opponent wins, rated as a forfeit is.
    RESIGNED = "resigned"

    @property
    def has_winner(self) -> bool:
        """Someone won the match (a win, a forfeit, on time); abandoned and aborted matches have no winner."""
        return self not in (EndReason.ABANDONED, EndReason.ABORTED)

    @property
    def words(self) -> str:
        """How a finished match's result reads: ``won, on time``."""
        return RESULT_WORDS[self]

    def side_words(self, won: bool) -> str:
        """How it ended for one player: ``lost on time``, ``won by resignation``, ``aborted``."""
        if not self.has_winner:
            return self.value
        return f"{'won' if won else 'lost'} {HOW[self]}"


RESULT_WORDS = {EndReason.WON: "won", EndReason.FORFEIT: "won, by forfeit", EndReason.ABANDONED: "abandoned",
                EndReason.TIME: "won, on time", EndReason.ABORTED: "aborted before both players had moved (unrated)",
                EndReason.RESIGNED: "won, by resignation"}
#: How a match with a winner was won (or lost).
HOW = {EndReason.WON: "on the board", EndReason.FORFEIT: "by forfeit", EndReason.TIME: "on time",
       EndReason.RESIGNED: "by resignation"}


def read_end_reason(text: object) -> EndReason | None:
    """The end a file or a store names (``"resigned"``, ``"time"``...); ``None`` for anything that names none."""
    return EndReason(text) if isinstance(text, str) and text in set(EndReason) else None


def gave_up_words(ended: EndReason | None) -> str:
    """What the player who did not play a match out did, as every screen and text says it: ``resigned`` (``R``),
    ``ran out of time``, ``forfeited`` (left over SSH and did not come back, or ``None``: no reason kept, as in a
    bare match file)."""
    if ended is EndReason.TIME:
        return "ran out of time"
    return "resigned" if ended is EndReason.RESIGNED else "forfeited"


def rematch_allowed(ended: EndReason | None) -> bool:
    """Whether both players were still at a match that ended as ``ended`` (``None``: on one terminal), so it may be
    played again: not after a forfeit, where one of them had gone."""
    return ended is not EndReason.FORFEIT
