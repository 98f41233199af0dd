"""The servers sharing the database: each one's heartbeat (with its list of who is online there), and when any
last served it.

A restart reads how long the database went unserved (``last_served``) to give that time back to the
matches held meanwhile.
"""

from __future__ import annotations

from collections.abc import Collection

from .database import Database, Transaction
from .records import ServerRecord

#: The row of ``servers`` that keeps when a server last served the database (no server's id: those are hex).
SERVED_MARK = "(served)"


class Servers:
    """The ``servers`` table: one row a live server (with its list of who is online there), and the mark of the
    last moment one served."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def heartbeat(self, server: str, online: tuple[int, str] | None = None) -> list[ServerRecord]:
        """Say ``server`` is alive, with its list of who is online (its version and the list, as JSON text) when it
        changed since last said (``None``: as it was); every server's last word."""
        now = self._db.clock()
        async with self._db.transaction() as tx:
            if online is None:
                await tx.execute("INSERT INTO servers (id, seen_at, watching) VALUES (?, ?, '{}') "
                                 "ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at", (server, now))
            else:
                await tx.execute("INSERT INTO servers (id, seen_at, watching, online, online_version) "
                                 "VALUES (?, ?, '{}', ?, ?) ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at, "
                                 "online = excluded.online, online_version = excluded.online_version",
                                 (server, now, online[1], online[0]))
            return await self._read(tx)

    async def known(self) -> list[ServerRecord]:
        """Every server's last word (as ``heartbeat`` returns them)."""
        async with self._db.transaction(write=False) as tx:
            return await self._read(tx)

    @staticmethod
    async def _read(tx: Transaction) -> list[ServerRecord]:
        rows = await tx.fetch("SELECT id, seen_at, online_version FROM servers WHERE id <> ?", (SERVED_MARK,))
        return [ServerRecord(server_id, seen_at, version) for server_id, seen_at, version in rows]

    async def rosters(self, servers: Collection[str]) -> dict[str, tuple[int, str]]:
        """The lists of who is online on ``servers`` (each with its version), as their heartbeats last wrote them."""
        if not servers:
            return {}
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT id, online_version, online FROM servers WHERE id IN "
                                  f"({', '.join('?' * len(servers))})", tuple(servers))
        return {server_id: (version, str(text)) for server_id, version, text in rows}

    async def forget(self, *, server: str | None = None, seen_before: float | None = None) -> None:
        """Drop the row of a server that stops, or of every server silent since ``seen_before``."""
        async with self._db.transaction() as tx:
            if server is not None:
                await tx.execute("DELETE FROM servers WHERE id = ?", (server,))
            if seen_before is not None:
                await tx.execute("DELETE FROM servers WHERE seen_at < ? AND id <> ?", (seen_before, SERVED_MARK))

    async def mark_served(self) -> None:
        """Note that a server serves this database now (one that stops, or plays on alone without heartbeats)."""
        async with self._db.transaction() as tx:
            await tx.execute("INSERT INTO servers (id, seen_at, watching) VALUES (?, ?, '{}') ON CONFLICT (id) DO "
                             "UPDATE SET seen_at = excluded.seen_at", (SERVED_MARK, self._db.clock()))

    async def last_served(self) -> float | None:
        """The last moment a server is known to have served this database: a heartbeat, a change to a match in
        play, or ``mark_served``; ``None`` for a database never served."""
        async with self._db.transaction(write=False) as tx:
            heard = (await tx.fetch("SELECT MAX(seen_at) FROM servers"))[0][0]
            changed = (await tx.fetch("SELECT MAX(updated_at) FROM matches"))[0][0]
        known = [float(each) for each in (heard, changed) if each is not None]
        return max(known) if known else None
