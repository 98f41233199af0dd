"""Shared by the server process and the child: a two-player match's clock, as both ends speak of it.

A clock is a ``ClockSetting`` (time per player for the whole match, plus seconds added after each
of their moves: ``3+2`` is three minutes and two seconds a move); the server offers a few presets
and keeps each match's clock itself. What it tells the terminals is a ``ClockReading``: each
player's time left when the message was sent, and whose clock is running.

A move taken back (undo, on one terminal) cannot wind a clock up: the increment the move gained is taken
back with it, and the time each player spent thinking stays spent. After an undo the player to move again
holds what they held when they made the undone move, less whatever their clock has run since (against the
computer, from its reply to the undo); the opponent holds what they held, less their clock's running until
the undo. So at every moment each player holds the clock's time, plus the increment of each of their moves
on the board, less the time their clock has run (``MatchClock.after_change``). A redone move is played
again, and gains its increment again. An undo that would need time already spent (a player left with no
more than the increments to take back) is refused (``MatchClock.short_of_time``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from . import Match

#: ``MINUTES+SECONDS``: minutes may have a fraction (``0.5+1`` is thirty seconds, one more a move).
SETTING_PATTERN = re.compile(r"(\d+(?:\.\d+)?)\+(\d+)")
#: The longest clock a server offers: a day a player.
LONGEST_CLOCK = 24 * 3600.0
LONGEST_INCREMENT = 600.0


class ClockSettingError(ValueError):
    """Not a clock setting (``3+2``: minutes per player, plus seconds a move)."""


@dataclass(frozen=True)
class ClockSetting:
    """Seconds each player has for the whole match, and seconds added to a player's time after each move."""

    seconds: float
    increment: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.seconds) and math.isfinite(self.increment)):
            raise ClockSettingError("a clock's times are finite")
        if not (1 <= self.seconds <= LONGEST_CLOCK and 0 <= self.increment <= LONGEST_INCREMENT):
            raise ClockSettingError(f"a clock gives 1 second to {LONGEST_CLOCK / 3600:g} hours a player, "
                                    f"and 0 to {LONGEST_INCREMENT:g} seconds a move")

    @classmethod
    def parse(cls, text: str) -> ClockSetting:
        """``3+2``: three minutes a player and two seconds a move (``ClockSettingError`` if it is not one)."""
        found = SETTING_PATTERN.fullmatch(text.strip())
        if found is None:
            raise ClockSettingError(f"{text.strip()[:20]!r} is not a clock: write MINUTES+SECONDS, such as 3+2")
        return cls(float(found.group(1)) * 60, float(found.group(2)))

    @property
    def label(self) -> str:
        """``3+2`` (``0:30+1`` for less than a whole minute)."""
        minutes, seconds = divmod(round(self.seconds), 60)
        head = str(minutes) if seconds == 0 else f"{minutes}:{seconds:02}"
        return f"{head}+{self.increment:g}"

    @property
    def brief(self) -> str:
        """``3 min + 2 s a move``, as the lobby's form offers it."""
        head = f"{self.seconds / 60:g} min" if self.seconds >= 60 else f"{self.seconds:g} s"
        return f"{head} + {self.increment:g} s a move"

    @property
    def words(self) -> str:
        """``3 minutes each, 2 seconds a move``, as the help and the lobby say it."""
        each = _duration(self.seconds)
        return f"{each} each" + (f", {self.increment:g} s added a move" if self.increment else ", nothing added")


#: The clocks a server offers unless told otherwise (``soluna serve --clocks``).
PRESETS = (ClockSetting(180.0, 2.0), ClockSetting(600.0, 5.0))


@dataclass(frozen=True)
class ClockReading:
    """A match's clock as the server read it when it sent this: each player's time left (the running one's
    as of that moment) and whose clock runs (``None``: stopped, as between matches)."""

    setting: ClockSetting
    left: tuple[float, float]
    running: int | None = None


def clock_face(seconds: float) -> str:
    """Time left as a clock shows it: ``2:05``, ``0:09.4`` under ten seconds, never below ``0:00``."""
    if seconds < 10:
        tenths = max(0, math.floor(seconds * 10))
        return f"0:{tenths // 10:02}.{tenths % 10}"
    whole = math.ceil(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:g} seconds"
    minutes = seconds / 60
    return f"{minutes:g} minutes"


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
    """Each player's time left (the running one's as of ``since``, the timeline's time) and whose clock runs."""

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
        return self.after_change(now, next_turn, moved=(mover,))

    def after_change(self, now: float, next_turn: int | None, moved: Sequence[int] = (),
                     taken_back: Sequence[int] = ()) -> MatchClock:
        """The match changed at ``now``: the running clock is charged its time (never given back); each player in
        ``moved`` (once a move played or redone) gains the increment, each in ``taken_back`` (once a move undone)
        loses the increment that move gained (never below zero: ``short_of_time`` says when it would be); then
        ``next_turn``'s clock runs."""
        charged = self.run(None, now)
        increment = self.setting.increment
        left = [max(0.0, held + increment * (moved.count(seat) - taken_back.count(seat)))
                for seat, held in enumerate(charged.left)]
        return replace(charged, left=(left[0], left[1])).run(next_turn, now)

    def short_of_time(self, taken_back: Sequence[int], now: float) -> int | None:
        """The player who, at ``now``, holds no more than the increments of their moves in ``taken_back``: those
        moves cannot be taken back, the time they gained is spent (``None``: they can)."""
        for seat in (0, 1):
            if seat in taken_back and self.left_at(seat, now) <= self.setting.increment * taken_back.count(seat):
                return seat
        return None

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
        """As the store keeps it (the server's ``clock`` column, a save file's ``clock``: JSON)."""
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
