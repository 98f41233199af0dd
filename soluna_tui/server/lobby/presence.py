"""Runs in the server process.

Presence: which servers are alive, and how many watch each match on each.

Each seat records which server's session sits there; servers say they are alive every second
(``HEARTBEAT``), with how many watch each match there. A seat whose server falls silent for
``DEAD_AFTER`` is free (``Moment.seat_free``): the heartbeat's sweep (``upkeep.py``) holds it
like a seat whose player left. A server alone on its database (SQLite) has nobody to tell: it
writes no heartbeat, and every other server named in a seat is gone.

A server cut off from the database cannot beat either, so silence is counted only while this
server hears the database: back after an outage, it takes nobody for dead before every server has
had ``back_grace`` to be heard again (``back_at``), and nothing comes due meanwhile (``settling``).

A player who leaves while the store cannot be written is remembered here (``departures``), with
the moment they left, until the sweep has told the store.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from ..storage import ServerRecord, Storage, StorageError
from .decisions import Moment

#: Seconds between two "I am alive" of a server; silent for DEAD_AFTER, its seats are held.
HEARTBEAT = 1.0
DEAD_AFTER = 6.0


class Presence:
    """The servers alive (by their last heartbeat in the store) and how many watch each match."""

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
        #: How long, back after an outage, every server is taken for alive (each needs a moment to be heard).
        self.back_grace = max(self.dead_after, DEAD_AFTER)
        #: How many watch each match on this server, and on every living server.
        self.watching: dict[str, int] = {}
        self.watchers: dict[str, int] = {}
        #: Seats this server's players left while the store could not be told: (code, seat) -> when they left.
        self.departures: dict[tuple[str, int], float] = {}
        #: Called when the counts of every living server have changed (the lobby's listing shows them).
        self.on_watchers_changed: Callable[[], None] | None = None

    def moment(self) -> Moment:
        """Now, for a decision: the store's time and the servers alive."""
        return Moment(self.store.clock(), self.server_id, frozenset(self.live))

    @property
    def settling(self) -> bool:
        """Whether what comes due (a clock run out, a held seat's time up) may be applied now: not while the store
        is down, nor just after, while other servers may still write what they kept meanwhile."""
        return not self.store_down and self.store.clock() >= self.back_at + self.back_grace

    async def beat(self) -> None:
        """Say this server is alive (with its spectators), and hear who else is (alone on the database: nothing
        to say, nothing written)."""
        watching = {code: count for code, count in self.watching.items() if count > 0}
        if self.store.SHARED:
            servers = await self.store.servers.heartbeat(self.server_id, watching)
        else:
            servers = [ServerRecord(self.server_id, self.store.clock(), watching)]
        if self.store_down:
            self.back_at = self.store.clock()  # the others' silence meanwhile says nothing about them
        self._note_live(servers)

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
        self.live = {server.id for server in servers
                     if trusting or server.seen_at >= now - self.dead_after} | {self.server_id}
        watchers: dict[str, int] = {}
        for server in servers:
            if server.id in self.live:
                for code, count in server.watching.items():
                    watchers[code] = watchers.get(code, 0) + count
        changed, self.watchers = watchers != self.watchers, watchers
        if changed and self.on_watchers_changed is not None:
            self.on_watchers_changed()

    def watch(self, code: str, step: int) -> None:
        """One more (``step`` 1) or one fewer (-1) watching ``code`` here."""
        self.watching[code] = max(0, self.watching.get(code, 0) + step)

    def forget(self, code: str) -> None:
        self.watching.pop(code, None)
