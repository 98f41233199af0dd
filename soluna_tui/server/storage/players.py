"""Players known by key: the name each holds, the names they gave up (reserved to them a while), when they came,
the lobby's settings they left, their record.

A name is held by one key, compared by what it looks like (``records.name_key``); two servers that
record one key's first visit at once both succeed, and two keys claiming one name at once do not. A name a key
gives up (renamed) stays its own for ``NAME_RESERVED_FOR``: nobody else may take it, or one that looks like it,
unless the owner releases it (``soluna serve names release``); the key itself may take it back.
"""

from __future__ import annotations

from ...link.safe_names import NAME_KEPT_DAYS
from .database import Database, Transaction
from .finished import FinishedMatches
from .ratings import Ratings
from .records import NameTaken, PlayerRecord, PlayerSummary, ReservedName, StorageError, name_key, player_changed

_PLAYER_COLUMNS = "fingerprint, name, first_seen, last_seen"
#: Seconds a name given up stays reserved to its key: its players' old records and friends still know it by it.
NAME_RESERVED_FOR = NAME_KEPT_DAYS * 24 * 3600.0


class Players:
    """The ``players``, ``released_names`` and ``lobby_choices`` tables, and each player's record read with the
    ratings."""

    def __init__(self, database: Database, ratings: Ratings, finished: FinishedMatches) -> None:
        self._db = database
        self._ratings = ratings
        self._finished = finished

    async def see(self, fingerprint: str, name: str) -> PlayerRecord:
        """Record a visit by the key ``fingerprint``: the first claims ``name`` (``NameTaken`` if another
        key holds it or has it reserved), later ones keep the name held and update when the player was last seen."""
        now = self._db.clock()

        async def work(tx: Transaction) -> PlayerRecord:
            known = await self.read(tx, fingerprint, lock=True)
            if known is None:
                holder = await tx.fetch("SELECT fingerprint, name FROM players WHERE name_key = ?",
                                        (name_key(name),))
                if not holder:
                    await self._claim(tx, fingerprint, name, now)
                    await tx.execute(f"INSERT INTO players ({_PLAYER_COLUMNS}, name_key) VALUES (?, ?, ?, ?, ?)",
                                     (fingerprint, name, now, now, name_key(name)))
                    await tx.announce(player_changed(fingerprint))  # its other terminals take the name
                    return PlayerRecord(fingerprint, name, now, now)
                if holder[0][0] != fingerprint:
                    raise NameTaken(name, holder[0][1])
                # Another server recorded this key's first visit since it was looked up: a visit like later ones.
                known = await self.read(tx, fingerprint, lock=True)
                assert known is not None
            await tx.execute("UPDATE players SET last_seen = ? WHERE fingerprint = ?", (now, fingerprint))
            return PlayerRecord(known.fingerprint, known.name, known.first_seen, now)

        return await self._db.first_wins(work, NameTaken(name))

    async def rename(self, fingerprint: str, name: str) -> PlayerRecord:
        """Give a known player another name (``NameTaken`` if another key holds it, or one that looks like it, or
        has it reserved); the name given up is reserved to this key for ``NAME_RESERVED_FOR``."""
        now = self._db.clock()

        async def work(tx: Transaction) -> PlayerRecord:
            known = await self.read(tx, fingerprint, lock=True)
            if known is None:
                raise StorageError("no player has that key")
            holder = await tx.fetch("SELECT fingerprint, name FROM players WHERE name_key = ?", (name_key(name),))
            if holder and holder[0][0] != fingerprint:
                raise NameTaken(name, holder[0][1])
            if name_key(name) != name_key(known.name):
                await self._claim(tx, fingerprint, name, now)
                await tx.execute("INSERT INTO released_names (name_key, name, fingerprint, released_at) "
                                 "VALUES (?, ?, ?, ?) ON CONFLICT (name_key) DO UPDATE SET name = excluded.name, "
                                 "fingerprint = excluded.fingerprint, released_at = excluded.released_at",
                                 (name_key(known.name), known.name, fingerprint, now))
            await tx.execute("UPDATE players SET name = ?, name_key = ? WHERE fingerprint = ?",
                             (name, name_key(name), fingerprint))
            await tx.announce(player_changed(fingerprint))
            return PlayerRecord(fingerprint, name, known.first_seen, known.last_seen)

        return await self._db.first_wins(work, NameTaken(name))

    @staticmethod
    async def _claim(tx: Transaction, fingerprint: str, name: str, now: float) -> None:
        """Inside ``tx``: ``name`` taken by ``fingerprint`` (``NameTaken`` while another key has it reserved); its
        reservation, the key's own or one run out, is over."""
        reserved = await tx.fetch("SELECT fingerprint, name FROM released_names WHERE name_key = ? AND "
                                  "released_at > ?", (name_key(name), now - NAME_RESERVED_FOR))
        if reserved and reserved[0][0] != fingerprint:
            raise NameTaken(name, reserved[0][1])
        await tx.execute("DELETE FROM released_names WHERE name_key = ?", (name_key(name),))

    async def get(self, fingerprint: str) -> PlayerRecord | None:
        async with self._db.transaction(write=False) as tx:
            return await self.read(tx, fingerprint)

    async def read(self, tx: Transaction, fingerprint: str, lock: bool = False) -> PlayerRecord | None:
        """``get`` inside ``tx``; ``lock``: the row stays locked until ``tx`` ends."""
        rows = await tx.fetch(f"SELECT {_PLAYER_COLUMNS} FROM players WHERE fingerprint = ?"
                              + (self._db.FOR_UPDATE if lock else ""), (fingerprint,))
        return PlayerRecord(*rows[0]) if rows else None

    async def name_holder(self, name: str) -> PlayerRecord | None:
        """The player whose key holds ``name`` or one that looks like it (``name_key``), or has it reserved, if any
        (a guest may not take it): their record, its ``name`` the name held or reserved."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_PLAYER_COLUMNS} FROM players WHERE name_key = ?", (name_key(name),))
            if not rows:
                rows = await tx.fetch(
                    "SELECT p.fingerprint, r.name, p.first_seen, p.last_seen FROM released_names r "
                    "JOIN players p ON p.fingerprint = r.fingerprint WHERE r.name_key = ? AND r.released_at > ?",
                    (name_key(name), self._db.clock() - NAME_RESERVED_FOR))
        return PlayerRecord(*rows[0]) if rows else None

    async def reserved(self) -> list[ReservedName]:
        """Every name given up and still reserved to its key, the newest first."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(
                "SELECT r.name, r.fingerprint, COALESCE(p.name, r.name), r.released_at FROM released_names r "
                "LEFT JOIN players p ON p.fingerprint = r.fingerprint WHERE r.released_at > ? "
                "ORDER BY r.released_at DESC, r.name_key", (self._db.clock() - NAME_RESERVED_FOR,))
        return [ReservedName(name, fingerprint, holder, released_at + NAME_RESERVED_FOR)
                for name, fingerprint, holder, released_at in rows]

    async def release(self, name: str) -> ReservedName | None:
        """The owner frees ``name`` (or the name that looks like it) from its key's reservation: anyone may take it
        now. The reservation released, ``None`` if there was none."""
        now = self._db.clock()
        async with self._db.transaction() as tx:
            rows = await tx.fetch(
                "SELECT r.name, r.fingerprint, COALESCE(p.name, r.name), r.released_at FROM released_names r "
                "LEFT JOIN players p ON p.fingerprint = r.fingerprint WHERE r.name_key = ? AND r.released_at > ?",
                (name_key(name), now - NAME_RESERVED_FOR))
            await tx.execute("DELETE FROM released_names WHERE name_key = ?", (name_key(name),))
        if not rows:
            return None
        reserved, fingerprint, holder, released_at = rows[0]
        return ReservedName(reserved, fingerprint, holder, released_at + NAME_RESERVED_FOR)

    async def lobby_choices(self, fingerprint: str) -> str | None:
        """The lobby's settings the key ``fingerprint`` last left, as ``keep_lobby_choices`` kept them."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch("SELECT choices FROM lobby_choices WHERE fingerprint = ?", (fingerprint,))
        return str(rows[0][0]) if rows else None

    async def keep_lobby_choices(self, fingerprint: str, choices: str) -> None:
        """Keep the lobby's settings (a JSON text, read by the lobby) with the key ``fingerprint``."""
        async with self._db.transaction() as tx:
            await tx.execute("INSERT INTO lobby_choices (fingerprint, choices, updated_at) VALUES (?, ?, ?) "
                             "ON CONFLICT (fingerprint) DO UPDATE SET choices = excluded.choices, "
                             "updated_at = excluded.updated_at", (fingerprint, choices, self._db.clock()))

    async def summary(self, fingerprint: str, recent: int = 10, minimum: int = 0,
                      opponents: int = 0) -> PlayerSummary:
        """A player's own record: name, rank (once listed, as ``Ratings.leaderboard`` lists them) and rating (if
        rated), and their latest finished matches (each opponent with a key by the name it holds now)."""
        async with self._db.transaction(write=False) as tx:
            player = await self.read(tx, fingerprint)
            standing = await self._ratings.standing(tx, fingerprint, player.name if player is not None else None,
                                                    minimum, opponents)
            matches = await self._finished.read_of_player(tx, fingerprint, recent)
            computer = await self._finished.read_computer_tally(tx, fingerprint)
        return PlayerSummary(player, standing, tuple(matches), computer)
