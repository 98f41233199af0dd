"""Runs in the server process.

Who may come in: connections per address, new connections a minute, sessions in all; and floods.

A connection that has not started a game yet (logging in, or logged in and idle) holds an
*unstarted* place, never a game's: there are few of those, per address and in all, and they are
never the reason a player is turned away. When every unstarted place is taken, the newcomer
gets one anyway and another is closed to make room: first one that logged in a while ago and
still has not asked for a game (a player's client asks at once), else the longest waiting at
the address holding most places. Whoever keeps connections open without playing only ever
pushes out their own kind, while a player logs in and starts a game in well under a second.

Every TCP connection to the web door holds a *socket* place from its first byte, before any header is
read: a few per address (a browser loads a page over up to six at once, besides a tab's websocket), and
while it has not sent a whole request it is *waiting*, a few per address and in all; when every waiting
place is taken, a newcomer gets one and the longest waiting at the address holding most is closed, as
with unstarted places, unless the newcomer's address holds as many as any (then it is refused: a flood
would only churn its own connections). A slow-header flood from one address holds a handful of
descriptors; from many, a share of the waiting places, which any newcomer can still get.

Refusals are one line meant for the person connecting ("Server full: ...",
"Slow down: ..."); the caller shows it and disconnects cleanly. A token bucket
paces what one session may send, and a throttled log keeps a flood of refused
connections from flooding the server's log in turn.
"""

from __future__ import annotations

import asyncio
import functools
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
#: The connections a browser opens to one site at once to load a page (Chromium's and Firefox's six).
BROWSER_CONNECTIONS = 6
#: Web connections waiting to send a request, in all, as a multiple of ``--max-unstarted``.
WAITING_SHARE = 2


@functools.lru_cache(maxsize=1024)
def client_key(address: str) -> str:
    """Whom an address belongs to, for the limits: an IPv4 address, or an IPv6 /64 (one site's worth). Kept for
    the last addresses asked (the lobby asks it of every guest there on every change of the matches in play)."""
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


class Places:
    """Places held per address (a client key), and since when each: the one to give up is the longest held at the
    address holding most."""

    def __init__(self) -> None:
        self._held: dict[str, dict[Hashable, float]] = {}
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def at(self, key: str) -> int:
        return len(self._held.get(key, ()))

    def holds(self, key: str, connection: Hashable) -> bool:
        return connection in self._held.get(key, ())

    def most(self) -> int:
        """The most places one address holds."""
        return max(map(len, self._held.values()), default=0)

    def take(self, key: str, connection: Hashable, since: float) -> None:
        held = self._held.setdefault(key, {})
        self._count += connection not in held
        held[connection] = since

    def give_up(self, key: str, connection: Hashable) -> None:
        held = self._held.get(key)
        if held is not None and connection in held:
            del held[connection]
            self._count -= 1
            if not held:
                del self._held[key]

    def key_of(self, connection: Hashable) -> str:
        return next(key for key, held in self._held.items() if connection in held)

    def longest_at_fullest(self) -> tuple[str, Hashable]:
        """The place held longest at the address holding most (the earliest such address on a tie)."""
        def holding(key: str) -> tuple[int, float]:
            return len(self._held[key]), -min(self._held[key].values())

        key = max(self._held, key=holding)
        held = self._held[key]
        return key, min(held, key=held.__getitem__)


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
    game sessions in all; the web door's TCP connections per address, and those waiting to send a request per
    address and in all."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._open: Counter[str] = Counter()
        #: Per address, its connections that have not started a game, and when each came.
        self._unstarted = Places()
        #: The web door's TCP connections per address; those that have not sent a whole request yet, and since when.
        self._sockets: Counter[str] = Counter()
        self._waiting = Places()
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
        return len(self._unstarted)

    @property
    def sockets(self) -> int:
        return self._sockets.total()

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @property
    def sockets_per_ip(self) -> int:
        """The web door's TCP connections at once from one address: a browser's page loads and a tab's websocket
        each."""
        return BROWSER_CONNECTIONS + self.limits.per_ip

    @property
    def waiting_per_ip(self) -> int:
        return BROWSER_CONNECTIONS

    @property
    def waiting_places(self) -> int:
        return WAITING_SHARE * self.limits.unstarted

    def admit_connection(self, address: str, connection: Hashable) -> Admission:
        """Take a place for a new connection from ``address`` (an unstarted one), or say in one line why not."""
        limits = self.limits
        key = client_key(address)
        if not self._new.allow(key):
            return self._refuse(key, f"Slow down: at most {limits.new_per_minute} new connections a minute "
                                     "from one address.")
        if self._open[key] >= limits.per_ip:
            return self._refuse(key, f"Slow down: at most {limits.per_ip} connections at once from one address.")
        if self._unstarted.at(key) >= limits.unstarted_per_ip:
            return self._refuse(key, f"Slow down: at most {limits.unstarted_per_ip} connections from one address "
                                     "may be logging in at once.")
        evicted = self._make_room() if self.unstarted >= limits.unstarted else None
        self._unstarted.take(key, connection, self.clock())
        self._open[key] += 1
        return Admission(evicted=evicted)

    def admit_socket(self, address: str, connection: Hashable, per_address: bool = True) -> Admission:
        """Take a place for a TCP connection to the web door from ``address`` (waiting for its first request), or
        say why not; ``per_address`` false: a trusted reverse proxy's, carrying everyone's (only counted in all)."""
        key = client_key(address)
        if per_address and self._sockets[key] >= self.sockets_per_ip:
            return Admission(f"at most {self.sockets_per_ip} web connections at once from one address", explain=False)
        if per_address and self._waiting.at(key) >= self.waiting_per_ip:
            return Admission(f"at most {self.waiting_per_ip} web connections from one address may be waiting to "
                             "send a request at once", explain=False)
        evicted = None
        if self.waiting >= self.waiting_places:
            if self._waiting.at(key) >= self._waiting.most():  # it would only push out its own kind
                return Admission(f"all {self.waiting_places} places for web connections waiting to send a request "
                                 "are taken, and this address holds as many as any", explain=False)
            busiest, evicted = self._waiting.longest_at_fullest()
            self._waiting.give_up(busiest, evicted)
        self._waiting.take(key, connection, self.clock())
        self._sockets[key] += 1
        return Admission(evicted=evicted)

    def socket_heard(self, address: str, connection: Hashable) -> None:
        """A web connection has sent a whole request: it no longer holds a waiting place."""
        self._waiting.give_up(client_key(address), connection)

    def release_socket(self, address: str, connection: Hashable) -> None:
        key = client_key(address)
        self._waiting.give_up(key, connection)
        _lower(self._sockets, key)

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
            key = self._unstarted.key_of(oldest)
        else:
            key, oldest = self._unstarted.longest_at_fullest()
        self._forget_unstarted(key, oldest)
        return oldest

    def logged_in(self, address: str, connection: Hashable) -> None:
        """``connection`` has logged in: its client should ask for a game at once."""
        if self._unstarted.holds(client_key(address), connection):
            self._logged_in[connection] = self.clock()

    def started(self, address: str, connection: Hashable) -> None:
        """``connection`` has started a game: it no longer holds an unstarted place."""
        self._forget_unstarted(client_key(address), connection)

    def release_connection(self, address: str, connection: Hashable) -> None:
        key = client_key(address)
        self._forget_unstarted(key, connection)
        _lower(self._open, key)

    def _forget_unstarted(self, key: str, connection: Hashable) -> None:
        self._logged_in.pop(connection, None)
        self._unstarted.give_up(key, connection)

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


def _lower(counts: Counter[str], key: str) -> None:
    """One fewer for ``key`` (gone at none: the counters forget quiet addresses)."""
    if counts[key] <= 1:
        counts.pop(key, None)
    else:
        counts[key] -= 1


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
