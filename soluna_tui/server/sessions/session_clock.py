"""Runs in the server process.

One session's clock: input paid for from a budget, the idle timeout (warned first), the longest session.

Every byte of input is paid for from a token bucket, so a flood is told apart from a paste; but
bytes are not activity: a client can send bytes that are no keys at all (a NUL, a focus report,
a mouse moving, a lone Shift). Only what the child's app says the player did (a key that acted,
a field typed into, a click on something: ``Activity``) puts off the idle timeout. Everything reads
one injected clock (``time.monotonic`` by default), so tests move time by hand instead of sleeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ...rules.wording import minutes
from ..config import Limits
from ..gate import TokenBucket

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
    """When the session started, when the player last did something, and what that makes due."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self.started = clock()
        self.last_active = self.started
        self.warned = False
        self.input_budget = TokenBucket(limits.input_rate, limits.input_burst, clock)

    def typed(self, size: int) -> bool:
        """Pay for ``size`` bytes of input: ``False`` past the budget."""
        return self.input_budget.take(size)

    def active(self) -> None:
        """The player did something (the child said so): the idle spell is over, its warning forgotten."""
        self.last_active = self.clock()
        self.warned = False

    def lasted(self) -> float:
        """Seconds since the session started."""
        return self.clock() - self.started

    def due(self) -> TimeUp | IdleWarning | None:
        """What the time makes due now: the end of the session, the idle warning (once per idle spell), or nothing."""
        limits = self.limits
        now = self.clock()
        idle = now - self.last_active
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
        moments = [self.started + limits.session_time, self.last_active + limits.idle_timeout]
        if not self.warned:
            moments.append(self.last_active + self._warn_after)
        return max(min(moments) - self.clock(), LEAST_WAIT)

    @property
    def _warn_after(self) -> float:
        return self.limits.idle_timeout - self.limits.idle_warning
