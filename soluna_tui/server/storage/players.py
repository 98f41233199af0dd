"""Players known by key: the name each holds, when they came, the lobby's settings they left, their record.

A name is held by one key, compared by what it looks like (``records.name_key``); two servers that
record one key's first visit at once both succeed, and two keys claiming one name at once do not.
"""

from __future__ import annotations

from .database import Database, Transaction
from .finished import FinishedMatches
from .ratings import Ratings
from .records import NameTaken, PlayerRecord, PlayerSummary, StorageError, name_key

_PLAYER_COLUMNS = "fingerprint, name, first_seen, last_seen"


class Players:
    """The ``players`` and ``lobby_choices`` tables, and each player's record read with the ratings."""

    def __init__(self, database: Database, ratings: Ratings, finished: FinishedMatches) -> None:
        self._db = database
        self._ratings = ratings
        self._finished = finished

    async def see(self, fingerprint: str, name: str) -> PlayerRecord:
        """Record a visit by the key ``fingerprint``: the first claims ``name`` (``NameTaken`` if another
        key holds it), later ones keep the name held and update when the player was last seen."""
        now = self._db.clock()

        async def work(tx: Transaction) -> PlayerRecord:
            known = await self.read(tx, fingerprint, lock=True)
            if known is None:
                holder = await tx.fetch("SELECT fingerprint, name FROM players WHERE name_key = ?",
                                        (name_key(name),))
                if not holder:
                    await tx.execute(f"INSERT INTO players ({_PLAYER_COLUMNS}, name_key) VALUES (?, ?, ?, ?, ?)",
                                     (fingerprint, name, now, now, name_key(name)))
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
        """Give a known player another name (``NameTaken`` if another key holds it, or one that looks like it)."""

        async def work(tx: Transaction) -> PlayerRecord:
            known = await self.read(tx, fingerprint, lock=True)
            if known is None:
                raise StorageError("no player has that key")
            holder = await tx.fetch("SELECT fingerprint, name FROM players WHERE name_key = ?", (name_key(name),))
            if holder and holder[0][0] != fingerprint:
                raise NameTaken(name, holder[0][1])
            await tx.execute("UPDATE players SET name = ?, name_key = ? WHERE fingerprint = ?",
                             (name, name_key(name), fingerprint))
            return PlayerRecord(fingerprint, name, known.first_seen, known.last_seen)

        return await self._db.first_wins(work, NameTaken(name))

    async def get(self, fingerprint: str) -> PlayerRecord | None:
        async with self._db.transaction(write=False) as tx:
            return await self.read(tx, fingerprint)

    async def read(self, tx: Transaction, fingerprint: str, lock: bool = False) -> PlayerRecord | None:
        """``get`` inside ``tx``; ``lock``: the row stays locked until ``tx`` ends."""
        rows = await tx.fetch(f"SELECT {_PLAYER_COLUMNS} FROM players WHERE fingerprint = ?"
                              + (self._db.FOR_UPDATE if lock else ""), (fingerprint,))
        return PlayerRecord(*rows[0]) if rows else None

    async def name_holder(self, name: str) -> PlayerRecord | None:
        """The player whose key holds ``name`` or one that looks like it (``name_key``), if any: a guest may
        not take it."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_PLAYER_COLUMNS} FROM players WHERE name_key = ?", (name_key(name),))
        return PlayerRecord(*rows[0]) if rows else None

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
        """A player's own record: name, rank (once listed, as ``Ratings.leaderboard`` lists) and rating (if rated),
        and their latest finished matches."""
        async with self._db.transaction(write=False) as tx:
            player = await self.read(tx, fingerprint)
            standing = await self._ratings.standing(tx, fingerprint, player.name if player is not None else None,
                                                    minimum, opponents)
            matches = await self._finished.read_of_player(tx, fingerprint, recent)
            computer = await self._finished.read_computer_tally(tx, fingerprint)
        return PlayerSummary(player, standing, tuple(matches), computer)
