"""Shared by the server process and the child: why a match between two players ended.

As the store files it and the server tells it.
"""

from __future__ import annotations

from enum import StrEnum


class EndReason(StrEnum):
    """The stored values (``won``...) are the database's own: existing databases read the same."""

    #: The match was played out: someone reached the stars to win.
    WON = "won"
    #: A player left and did not come back in time: the opponent wins.
    FORFEIT = "forfeit"
    #: Both players left and neither came back: nobody wins.
    ABANDONED = "abandoned"
