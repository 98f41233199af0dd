"""Runs in the server process.

Who may come in: connections per address, new connections a minute, sessions in all; and floods.

A connection that has not started a game yet (logging in, or logged in and idle) holds an
*unstarted* place, never a game's: there are few of those, per address and in all, and they are
never the reason a player is turned away. When every unstarted place is taken, the newcomer
gets one anyway and another is closed to make room: first one that logged in a while ago and
still has not asked for a game (a player's client asks at once), else the longest waiting at
the address holding most places. Whoever keeps connections open without playing only ever
pushes out their own kind, while a player logs in and starts a game in well under a second.

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
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .config import Limits

WINDOW_SECONDS = 60.0
#: Refused connections kept open at once long enough to be told why (in all, and from one address); past
#: these, or from an address hammering past twice its limit, a refused connection is dropped at once.
EXPLAINING_AT_ONCE, EXPLAINING_PER_ADDRESS = 16, 2
#: Logged in for this share of the login timeout without asking for a game: first to make room for a newcomer.
LOGGED_IN_IDLE = 0.1


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

    def hammering(self, key: str) -> bool:
        """Whether ``key`` has tried twice its limit within the window (a person retrying never does)."""
        return len(self._events.get(key, ())) >= 2 * self.limit

    def _sweep(self, now: float) -> None:
        """Drop every key whose events are all older than the window (bounded memory under a flood)."""
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.window
        stale = [key for key, events in self._events.items() if not events or events[-1] <= now - self.window]
        for key in stale:
            del self._events[key]


@runtime_checkable
class Unstarted(Protocol):
    """A connection (an SSH one, or a browser tab) holding an unstarted place: asked to give it up, it goes."""

    def make_room(self) -> None: ...


@dataclass(frozen=True)
class Admission:
    """The gate's answer to a new connection: in (perhaps in the place of another), or a line saying why not."""

    #: Why it may not come in, in one line for the person connecting; ``None``: it may.
    refusal: str | None = None
    #: Whether the refusal is worth keeping the connection open a moment to deliver (not for a flood).
    explain: bool = True
    #: A connection that had not started a game, to be closed to make room for this one.
    evicted: Hashable | None = None


class Gate:
    """Connections at once per address; unstarted ones per address and in all; new ones a minute per address;
    game sessions in all."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._open: Counter[str] = Counter()
        #: Per address, its connections that have not started a game, and when each came.
        self._unstarted: dict[str, dict[Hashable, float]] = {}
        #: When each unstarted connection that has logged in did so.
        self._logged_in: dict[Hashable, float] = {}
        self._explaining: Counter[str] = Counter()
        self._new = RateWindow(limits.new_per_minute, clock=clock)
        self.sessions = 0

    @property
    def connections(self) -> int:
        return sum(self._open.values())

    @property
    def unstarted(self) -> int:
        return sum(len(waiting) for waiting in self._unstarted.values())

    def admit_connection(self, address: str, connection: Hashable) -> Admission:
        """Take a place for a new connection from ``address`` (an unstarted one), or say in one line why not."""
        limits = self.limits
        key = client_key(address)
        if not self._new.allow(key):
            return self._refuse(key, f"Slow down: at most {limits.new_per_minute} new connections a minute "
                                     "from one address.")
        if self._open[key] >= limits.per_ip:
            return self._refuse(key, f"Slow down: at most {limits.per_ip} connections at once from one address.")
        if len(self._unstarted.get(key, ())) >= limits.unstarted_per_ip:
            return self._refuse(key, f"Slow down: at most {limits.unstarted_per_ip} connections from one address "
                                     "may be logging in at once.")
        evicted = self._make_room() if self.unstarted >= limits.unstarted else None
        self._unstarted.setdefault(key, {})[connection] = self.clock()
        self._open[key] += 1
        return Admission(evicted=evicted)

    def _refuse(self, key: str, line: str) -> Admission:
        return Admission(line, explain=not self._new.hammering(key))

    def _make_room(self) -> Hashable:
        """Give up an unstarted place: the one idle longest since logging in (past a moment no player's client
        takes to ask for its game), else the one waiting longest at the address holding most places."""
        now = self.clock()
        idle = {connection: since for connection, since in self._logged_in.items()
                if now - since >= self.limits.login_timeout * LOGGED_IN_IDLE}
        if idle:
            oldest = min(idle, key=idle.__getitem__)
            key = next(key for key, waiting in self._unstarted.items() if oldest in waiting)
        else:
            def holding(key: str) -> tuple[int, float]:
                return len(self._unstarted[key]), -min(self._unstarted[key].values())

            key = max(self._unstarted, key=holding)
            waiting = self._unstarted[key]
            oldest = min(waiting, key=waiting.__getitem__)
        self._forget_unstarted(key, oldest)
        return oldest

    def logged_in(self, address: str, connection: Hashable) -> None:
        """``connection`` has logged in: its client should ask for a game at once."""
        if connection in self._unstarted.get(client_key(address), ()):
            self._logged_in[connection] = self.clock()

    def started(self, address: str, connection: Hashable) -> None:
        """``connection`` has started a game: it no longer holds an unstarted place."""
        self._forget_unstarted(client_key(address), connection)

    def release_connection(self, address: str, connection: Hashable) -> None:
        key = client_key(address)
        self._forget_unstarted(key, connection)
        if self._open[key] <= 1:
            del self._open[key]
        else:
            self._open[key] -= 1

    def _forget_unstarted(self, key: str, connection: Hashable) -> None:
        self._logged_in.pop(connection, None)
        waiting = self._unstarted.get(key)
        if waiting is not None:
            waiting.pop(connection, None)
            if not waiting:
                del self._unstarted[key]

    def hold_to_explain(self, address: str) -> bool:
        """Whether a refused connection may stay open a moment to be told why (a few at once, per address too)."""
        key = client_key(address)
        if self._explaining[key] >= EXPLAINING_PER_ADDRESS or self._explaining.total() >= EXPLAINING_AT_ONCE:
            return False
        self._explaining[key] += 1
        return True

    def explained(self, address: str) -> None:
        """A refused connection held to be told why has gone."""
        key = client_key(address)
        self._explaining[key] -= 1
        if self._explaining[key] <= 0:
            del self._explaining[key]

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

    def available(self) -> float:
        """What may be spent now (nothing spent)."""
        return min(self.burst, self.tokens + (self.clock() - self._refilled) * self.rate)


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
