"""Runs in the server process.

Presence: which servers are alive, and what rides on their heartbeats (who is online on each).

Each seat records which server's session sits there; servers say they are alive every second
(``HEARTBEAT``), with their list of who is online there when it changed (``Passengers``: the
roster, which reads another's list again only when it changed). A seat whose server falls
silent for ``DEAD_AFTER`` is free (``Moment.seat_free``): the heartbeat's sweep (``upkeep.py``)
holds it like a seat whose player left. A server alone on its database (SQLite) has nobody to tell: it
writes no heartbeat, and every other server named in a seat is gone.

A server cut off from the database cannot beat either, so silence is counted only while this
server hears the database: back after an outage, it takes nobody for dead before every server has
had ``back_grace`` to be heard again (``back_at``), and nothing comes due meanwhile (``settling``).
The clocks stop when this server finds the database away (``away_since``, when the try that found it began, or
when a write last went through if that came later: ``Database.reached_at``): the heartbeat gives the time
back to every match in play once it is back (``Referee.resume``), however long it was away, but for a match
changed after that try failed (``found_away_at``): another server gave it back first. A write that landed while
the try still waited came before the outage. The trade-off: an outage shorter than a try's wait (a connection
waited for up to ``connect_timeout``) that another server found, saw end and gave back before this server's try
failed is given back again, a few seconds more of it credited and told twice; taking such a write for a
give-back instead lost a day's outage on time.

A player who leaves while the store cannot be written is remembered here (``departures``), with
the moment they left, until the sweep has told the store; once the store is back, that moment is
the store's return (``store_back``): no time away counts while the store is away.
"""

from __future__ import annotations

import contextlib
from typing import Protocol

from ..storage import ServerRecord, Storage, StorageError
from .decision_values import Moment

#: Seconds between two "I am alive" of a server; silent for DEAD_AFTER, its seats are held.
HEARTBEAT = 1.0
DEAD_AFTER = 6.0


class Passengers(Protocol):
    """What rides on the heartbeat besides "alive": this server's list of who is online, and the others'."""

    def outgoing(self) -> tuple[int, str] | None:
        """This server's list (its version, and the list as text) when it changed since last written."""

    def written(self, version: int) -> None:
        """The heartbeat wrote the list of that version."""

    def stale(self, servers: list[ServerRecord]) -> list[str]:
        """The servers whose lists changed since read."""

    def heard(self, rosters: dict[str, tuple[int, str]]) -> None:
        """Their lists, read again."""

    def servers_changed(self) -> None:
        """The servers alive changed."""


class Presence:
    """The servers alive (by their last heartbeat in the store), and what their heartbeats carry."""

    def __init__(self, store: Storage, server_id: str, heartbeat: float = HEARTBEAT) -> None:
        self.store = store
        self.server_id = server_id
        self.heartbeat = heartbeat
        self.dead_after = heartbeat * DEAD_AFTER / HEARTBEAT
        self.live: set[str] = {server_id}
        #: Each server's last heartbeat, as last read.
        self.heard: dict[str, float] = {}
        #: The store cannot be written now (this server's last try failed), and when it came back last.
        self.store_down = False
        self.back_at = float("-inf")
        #: The store's time of the try that found the store away (``None`` while it is not): the clocks stop then.
        self.away_since: float | None = None
        #: The store's time that try failed, the first of the outage: a write stored before it came before the
        #: outage (a try may wait seconds, another's write landing meanwhile); after it, after the store came back.
        self.found_away_at: float | None = None
        #: How long, back after an outage, every server is taken for alive (each needs a moment to be heard).
        self.back_grace = max(self.dead_after, DEAD_AFTER)
        #: Seats this server's players left while the store could not be told: (code, seat) -> when they left.
        self.departures: dict[tuple[str, int], float] = {}
        #: What rides on the heartbeat (who is online), once the lobby has given it.
        self.passengers: Passengers | None = None

    def moment(self) -> Moment:
        """Now, for a decision: the store's time and the servers alive."""
        return Moment(self.store.clock(), self.server_id, frozenset(self.live))

    def store_away(self, tried_at: float) -> None:
        """The store could not be written by what was tried at ``tried_at``: known from now on, and the clocks stop
        as of then if they had not yet, or as of the last write that went through if that came later (a try
        may wait seconds on a busy machine, a move's write landing meanwhile: the store was there until then)."""
        began = max(tried_at, self.store.reached_at)
        self.away_since = began if self.away_since is None else min(self.away_since, began)
        if self.found_away_at is None:
            self.found_away_at = self.store.clock()
        self.store_down = True

    def store_back(self) -> None:
        """The store is written again (and the time it was away given back): a player who left meanwhile is away
        from now."""
        self.away_since, self.found_away_at, self.store_down = None, None, False
        now = self.store.clock()
        self.departures = {seat: max(left_at, now) for seat, left_at in self.departures.items()}

    @property
    def settling(self) -> bool:
        """Whether what comes due (a clock run out, a held seat's time up) may be applied now: not while the store
        is down, nor just after, while other servers may still write what they kept meanwhile."""
        return not self.store_down and self.store.clock() >= self.back_at + self.back_grace

    async def beat(self) -> None:
        """Say this server is alive (with its list of who is online, when it changed), and hear who else is and
        who is online there (alone on the database: nothing to say, nothing written)."""
        passengers = self.passengers
        if self.store.SHARED:
            outgoing = passengers.outgoing() if passengers is not None else None
            servers = await self.store.servers.heartbeat(self.server_id, outgoing)
            if outgoing is not None and passengers is not None:
                passengers.written(outgoing[0])
        else:
            servers = [ServerRecord(self.server_id, self.store.clock())]
        if self.store_down:
            self.back_at = self.store.clock()  # the others' silence meanwhile says nothing about them
        self._note_live(servers)
        if self.store.SHARED and passengers is not None:
            stale = passengers.stale(servers)
            if stale:
                passengers.heard(await self.store.servers.rosters(stale))

    async def refresh(self) -> None:
        """Hear again who is alive (a player coming back asks: their old server may have just died)."""
        if not self.store.SHARED:
            await self.beat()
            return
        with contextlib.suppress(StorageError):
            self._note_live(await self.store.servers.known())

    def _note_live(self, servers: list[ServerRecord]) -> None:
        now = self.store.clock()
        trusting = now < self.back_at + self.back_grace
        self.heard = {server.id: server.seen_at for server in servers}
        live = {server.id for server in servers if trusting or server.seen_at >= now - self.dead_after}
        live.add(self.server_id)
        changed, self.live = live != self.live, live
        if changed and self.passengers is not None:
            self.passengers.servers_changed()
