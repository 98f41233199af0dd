"""Runs in the server process.

A two-player match's clock, kept by the server with the match in the store, as a small value.

The store keeps each player's time left and, for the clock that is running, the store's time it
started (``since``): so the clock is right on every server sharing the store. Time nobody could
play (every server down, a move waiting for the database) is ``credited``: no clock is charged for
it. Whose clock runs follows the match (``clock_turn``): the player to move; between rounds, the
loser of the round (who opens or chooses who opens the next); nobody's once the match is over. A
move stops the mover's clock and adds the increment to their time. A decision (``decisions.py``)
works out the next clock from this one, pure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from ...link.clock import ClockReading, ClockSetting
from ...rules import Match


def clock_turn(match: Match) -> int | None:
    """Whose clock runs in ``match`` now (``None``: nobody's, the match is over)."""
    if match.is_over:
        return None
    outcome = match.round.outcome
    if outcome is not None:
        return outcome.loser
    return match.to_move


@dataclass(frozen=True)
class MatchClock:
    """Each player's time left (the running one's as of ``since``, the store's time) and whose clock runs."""

    setting: ClockSetting
    left: tuple[float, float]
    running: int | None = None
    since: float | None = None

    @classmethod
    def fresh(cls, setting: ClockSetting) -> MatchClock:
        """A clock not yet started: each player has the whole time."""
        return cls(setting, (setting.seconds, setting.seconds))

    def left_at(self, seat: int, now: float) -> float:
        """The time ``seat`` has left at ``now`` (never below zero)."""
        left = self.left[seat]
        if seat == self.running and self.since is not None:
            left -= max(0.0, now - self.since)
        return max(0.0, left)

    def run(self, seat: int | None, now: float) -> MatchClock:
        """The clock of ``seat`` runs from ``now`` (``None``: every clock stops); the one running until now is
        charged its time."""
        left = (self.left_at(0, now), self.left_at(1, now))
        return replace(self, left=left, running=seat, since=now if seat is not None else None)

    def after_move(self, mover: int, now: float, next_turn: int | None) -> MatchClock:
        """``mover`` has moved at ``now``: their clock stops, gains the increment, and ``next_turn``'s runs."""
        charged = self.run(None, now)
        left = list(charged.left)
        left[mover] += self.setting.increment
        return replace(charged, left=(left[0], left[1])).run(next_turn, now)

    def credited(self, start: float, end: float) -> MatchClock:
        """The running clock charged nothing from ``start`` to ``end`` (nobody could play: the server was down, a
        move waited for the database): it stops at ``start`` and runs again from ``end``."""
        if self.running is None or self.since is None or end <= start:
            return self
        stop = max(start, self.since)
        return self.run(None, stop).run(self.running, max(end, stop))

    def runs_out_at(self) -> float | None:
        """The store's time the running clock reaches zero (``None``: no clock runs)."""
        if self.running is None or self.since is None:
            return None
        return self.since + self.left[self.running]

    def flagged(self, now: float) -> int | None:
        """The player whose running clock has reached zero at ``now``, if any."""
        deadline = self.runs_out_at()
        return self.running if deadline is not None and now >= deadline else None

    def ran_out(self, seat: int, now: float) -> MatchClock:
        """Every clock stopped at ``now``, ``seat``'s at zero."""
        stopped = self.run(None, now)
        left = list(stopped.left)
        left[seat] = 0.0
        return replace(stopped, left=(left[0], left[1]))

    def reading(self, now: float) -> ClockReading:
        """What the terminals are told: each player's time left at ``now``, and whose clock runs."""
        return ClockReading(self.setting, (self.left_at(0, now), self.left_at(1, now)), self.running)

    def to_document(self) -> dict[str, Any]:
        """As the store keeps it (the ``clock`` column, JSON)."""
        return {"seconds": self.setting.seconds, "increment": self.setting.increment, "left": list(self.left),
                "running": self.running, "since": self.since}

    @classmethod
    def from_document(cls, document: Any) -> MatchClock | None:
        """A clock as the store kept it; ``None`` for no clock (or anything that is not one)."""
        if not isinstance(document, dict):
            return None
        try:
            setting = ClockSetting(float(document["seconds"]), float(document["increment"]))
            first, second = (float(each) for each in document["left"])
            running, since = document.get("running"), document.get("since")
        except (KeyError, TypeError, ValueError):
            return None
        started = float(since) if isinstance(since, (int, float)) and not isinstance(since, bool) else math.nan
        if type(running) is not int or running not in (0, 1) or not math.isfinite(started):
            return cls(setting, (first, second))
        return cls(setting, (first, second), running, started)
