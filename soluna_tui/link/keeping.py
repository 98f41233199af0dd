"""Shared by the server process and the child: how long a match against the computer is kept for a player gone.

A keyed player comes back on another day with the same key: their match waits for them for weeks.
A guest comes back with the secret the game showed them: their match waits the rest of the day.
"""

from __future__ import annotations

from ..rules.wording import minutes

#: How long a match against the computer is kept for a player who came with a key, and for a guest.
KEYED_KEEP = 30 * 24 * 3600.0
GUEST_KEEP = 12 * 3600.0


def computer_keep(keyed: bool) -> float:
    """Seconds a match against the computer is kept once its player has gone."""
    return KEYED_KEEP if keyed else GUEST_KEEP


def duration(seconds: float) -> str:
    """A duration as players read it: ``30 days``, ``12 hours``, else as ``minutes`` says it (``5 minutes``)."""
    for size, unit in ((86400.0, "day"), (3600.0, "hour")):
        if seconds >= 1.5 * size:
            return f"{round(seconds / size)} {unit}s"
    return minutes(seconds)
