"""Runs in the server process.

One session's clock: input paid for from a budget, the idle timeout (warned first), the longest session.

A key press is what the player types (however it arrives): it counts as activity and is
paid for from a token bucket, so a flood is told apart from a paste. Everything reads one
injected clock (``time.monotonic`` by default), so tests move time by hand instead of sleeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..play.wording import minutes
from .config import Limits
from .gate import TokenBucket

#: The shortest wait between two looks at the clock.
LEAST_WAIT = 0.05


@dataclass(frozen=True)
class TimeUp:
    """The session is over: the reason its log line gives, and the line the player reads."""

    reason: str
    farewell: str


@dataclass(frozen=True)
class IdleWarning:
    """No key pressed for ``idle`` seconds: the session closes in ``left`` seconds unless one comes."""

    idle: float
    left: float


class SessionClock:
    """When the session started, when a key was last pressed, and what that makes due."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.started = clock()
        self.last_input = self.started
        self.warned = False
        self.input_budget = TokenBucket(limits.input_rate, limits.input_burst, clock)

    def typed(self, size: int) -> bool:
        """Pay for ``size`` bytes of input: ``False`` past the budget, else a key press (the warning is forgotten)."""
        if not self.input_budget.take(size):
            return False
        self.last_input = self.clock()
        self.warned = False
        return True

    def lasted(self) -> float:
        """Seconds since the session started."""
        return self.clock() - self.started

    def due(self) -> TimeUp | IdleWarning | None:
        """What the time makes due now: the end of the session, the idle warning (once per idle spell), or nothing."""
        limits = self.limits
        now = self.clock()
        idle = now - self.last_input
        if now - self.started >= limits.session_time:
            return TimeUp("session time limit",
                          f"This session reached its limit of {minutes(limits.session_time)}. Thanks for playing!")
        if idle >= limits.idle_timeout:
            return TimeUp("idle timeout", f"Closed after {minutes(limits.idle_timeout)} without a key press.")
        if idle >= self._warn_after and not self.warned:
            self.warned = True
            return IdleWarning(idle, limits.idle_timeout - idle)
        return None

    def wait(self) -> float:
        """Seconds until something may next be due (at least ``LEAST_WAIT``)."""
        limits = self.limits
        moments = [self.started + limits.session_time, self.last_input + limits.idle_timeout]
        if not self.warned:
            moments.append(self.last_input + self._warn_after)
        return max(min(moments) - self.clock(), LEAST_WAIT)

    @property
    def _warn_after(self) -> float:
        return self.limits.idle_timeout - self.limits.idle_warning
