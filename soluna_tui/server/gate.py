"""Runs in the server process.

Who may come in: connections per address, new connections a minute, sessions in all; and floods.

Refusals are one line meant for the person connecting ("Server full: ...",
"Slow down: ..."); the caller shows it and disconnects cleanly. A token bucket
paces what one session may send, and a throttled log keeps a flood of refused
connections from flooding the server's log in turn.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections import Counter, deque
from collections.abc import Callable

from .config import Limits

WINDOW_SECONDS = 60.0


def client_key(address: str) -> str:
    """Whom an address belongs to, for the limits: an IPv4 address, or an IPv6 /64 (one site's worth)."""
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


class RateWindow:
    """At most ``limit`` events per key in any ``window`` seconds; forgets keys that went quiet."""

    def __init__(self, limit: int, window: float = WINDOW_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._events: dict[str, deque[float]] = {}
        self._next_sweep = 0.0

    def allow(self, key: str) -> bool:
        """Record an event for ``key`` and say whether it is within the limit (refused events count too)."""
        now = self.clock()
        self._sweep(now)
        events = self._events.setdefault(key, deque())
        while events and events[0] <= now - self.window:
            events.popleft()
        allowed = len(events) < self.limit
        if allowed or len(events) < 2 * self.limit:
            # Refused attempts count, up to a point, so hammering keeps the door shut for a while.
            events.append(now)
        return allowed

    def _sweep(self, now: float) -> None:
        """Drop every key whose events are all older than the window (bounded memory under a flood)."""
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.window
        stale = [key for key, events in self._events.items() if not events or events[-1] <= now - self.window]
        for key in stale:
            del self._events[key]


class Gate:
    """Connections and sessions at once, per address and in all; new connections a minute per address."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._open: Counter[str] = Counter()
        self._new = RateWindow(limits.new_per_minute, clock=clock)
        self.sessions = 0

    @property
    def connections(self) -> int:
        return sum(self._open.values())

    def admit_connection(self, address: str) -> str | None:
        """Take a place for a new connection from ``address``, or say in one line why not."""
        limits = self.limits
        address = client_key(address)
        if not self._new.allow(address):
            return f"Slow down: at most {limits.new_per_minute} new connections a minute from one address."
        if self._open[address] >= limits.per_ip:
            return f"Slow down: at most {limits.per_ip} connections at once from one address."
        if self.connections >= limits.connections:
            return "Server full: too many players right now; try again in a few minutes."
        self._open[address] += 1
        return None

    def release_connection(self, address: str) -> None:
        address = client_key(address)
        if self._open[address] <= 1:
            del self._open[address]
        else:
            self._open[address] -= 1

    def admit_session(self) -> str | None:
        """Take a place for a new game session, or say in one line why not."""
        if self.sessions >= self.limits.sessions:
            return (f"Server full: {self.limits.sessions} players are on already; "
                    "try again in a few minutes.")
        self.sessions += 1
        return None

    def release_session(self) -> None:
        self.sessions = max(0, self.sessions - 1)


class TokenBucket:
    """``rate`` a second on average, ``burst`` at once; the balance may go below zero, and then it says no."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self._refilled = clock()

    def take(self, amount: float = 1) -> bool:
        """Spend ``amount``; ``False`` once more has been spent than the rate and the burst allow."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self._refilled) * self.rate) - amount
        self._refilled = now
        return self.tokens >= 0


class ThrottledLog:
    """At most ``per_second`` lines a second; the rest are counted and summed up in one line a second later."""

    def __init__(self, logger: logging.Logger, per_second: int = 5,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.per_second = per_second
        self.clock = clock
        self.suppressed = 0
        self._second = -1
        self._written = 0
        self._summary: asyncio.TimerHandle | None = None

    def info(self, message: str, *args: object) -> None:
        second = int(self.clock())
        if second != self._second:
            self._second, self._written = second, 0
        if self._written < self.per_second:
            self._written += 1
            self.logger.info(message, *args)
            return
        self.suppressed += 1
        if self._summary is None:
            self._summary = asyncio.get_running_loop().call_later(1.0, self.summarise)

    def summarise(self) -> None:
        """The line that stands for those left out (the flood may be over by now)."""
        self._summary = None
        if self.suppressed:
            self.logger.info("suppressed %d similar line%s (more than %d a second)", self.suppressed,
                             "" if self.suppressed == 1 else "s", self.per_second)
            self.suppressed = 0

    def close(self) -> None:
        if self._summary is not None:
            self._summary.cancel()
        self.summarise()
