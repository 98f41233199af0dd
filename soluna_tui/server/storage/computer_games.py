"""Matches against the computer kept for their keyed players: played on one server, or held for a while.

A held game (its player gone) may be claimed back on any server sharing the database, by one only.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .database import Database
from .records import ComputerGameRecord


class ComputerGames:
    """The ``computer_games`` table."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def keep(self, game: ComputerGameRecord) -> None:
        """Write (or replace) a match against the computer, played on ``game.server`` or held."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO computer_games (id, server, identity, fingerprint, secret_hash, document, held_until, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET server = excluded.server, "
                "identity = excluded.identity, fingerprint = excluded.fingerprint, "
                "secret_hash = excluded.secret_hash, document = excluded.document, "
                "held_until = excluded.held_until, updated_at = excluded.updated_at",
                (game.id, game.server, game.identity, game.fingerprint, game.secret_hash,
                 json.dumps(game.document, ensure_ascii=False), game.held_until, self._db.clock()))

    async def drop(self, game_id: str) -> None:
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM computer_games WHERE id = ?", (game_id,))

    async def hold(self, game_id: str, until: float) -> None:
        """Its player has gone: nobody plays it now; it is kept until ``until``."""
        async with self._db.transaction() as tx:
            await tx.execute("UPDATE computer_games SET server = NULL, held_until = ? WHERE id = ?", (until, game_id))

    async def claim(self, game_id: str, server: str) -> bool:
        """Take a held game for a player back on ``server``; ``False`` if another server took it first."""
        async with self._db.transaction() as tx:
            return bool(await tx.execute("UPDATE computer_games SET server = ?, held_until = NULL "
                                         "WHERE id = ? AND server IS NULL", (server, game_id)))

    async def held(self) -> list[ComputerGameRecord]:
        """Every held game (nobody plays it), oldest first."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch("SELECT id, server, identity, fingerprint, secret_hash, document, held_until, "
                                  "updated_at FROM computer_games WHERE server IS NULL ORDER BY updated_at, id")
        return [ComputerGameRecord(game_id, server, identity, fingerprint, secret_hash, json.loads(document),
                                   held_until, updated_at)
                for game_id, server, identity, fingerprint, secret_hash, document, held_until, updated_at in rows]

    async def tidy(self, live_servers: Sequence[str], hold_until: float, keep_at_most: int) -> None:
        """Hold the games of servers no longer alive, let go of those held past their time, and of the
        oldest held beyond ``keep_at_most``."""
        now = self._db.clock()
        async with self._db.transaction() as tx:
            marks = ", ".join("?" for _ in live_servers) or "NULL"
            await tx.execute(f"UPDATE computer_games SET server = NULL, held_until = ? "
                             f"WHERE server IS NOT NULL AND server NOT IN ({marks})", (hold_until, *live_servers))
            await tx.execute("DELETE FROM computer_games WHERE held_until IS NOT NULL AND held_until < ?", (now,))
            await tx.execute("DELETE FROM computer_games WHERE id IN (SELECT id FROM computer_games "
                             f"WHERE server IS NULL ORDER BY updated_at DESC, id DESC {self._db.ALL_PAST})",
                             (keep_at_most,))
