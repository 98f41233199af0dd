"""How often each secret was tried (``secrets.GuessLimit``), counted in one place by every server."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from .database import Database
from .secrets import LONGEST_FORGET, GuessLimit, SecretTry


class SecretTries:
    """The ``secret_tries`` table: each scope's (a seat, a match, an address...) tries and the last one's time."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def take(self, limits: Mapping[str, GuessLimit]) -> SecretTry:
        """Count one try of a secret for every scope of ``limits`` (a seat, a match, an address...) if each one's
        limit allows a try now; else count nothing and say which scope waits, and how long. Every server counts
        in the same rows, each scope locked in turn, so tries made at once on several servers count one by one."""
        now = self._db.clock()
        scopes = sorted(limits)
        async with self._db.transaction() as tx:
            for scope in scopes:  # always in the same order: two servers cannot deadlock
                await self._db.lock(tx, f"soluna-secret:{scope}")
            marks = ", ".join("?" for _ in scopes)
            rows = await tx.fetch(f"SELECT scope, tries, last_at FROM secret_tries WHERE scope IN ({marks})"
                                  f"{self._db.FOR_UPDATE}", scopes)
            kept = {scope: (int(tries), float(last)) for scope, tries, last in rows}
            waits = {scope: limits[scope].wait(*kept.get(scope, (0, now)), now) for scope in scopes}
            longest = max(scopes, key=lambda scope: waits[scope], default=None)
            if longest is not None and waits[longest] > 0:
                return SecretTry(waits[longest], longest)
            tries = {scope: limits[scope].tries_now(*kept.get(scope, (0, now)), now) + 1 for scope in scopes}
            for scope in scopes:
                await tx.execute("INSERT INTO secret_tries (scope, tries, last_at) VALUES (?, ?, ?) "
                                 "ON CONFLICT (scope) DO UPDATE SET tries = excluded.tries, last_at = excluded.last_at",
                                 (scope, tries[scope], now))
            await tx.execute("DELETE FROM secret_tries WHERE last_at < ?", (now - LONGEST_FORGET,))
        return SecretTry(0.0, None, tries)

    async def give_back(self, scopes: Collection[str]) -> None:
        """A try that proved the secret right counts for nothing (a player back at their own seat)."""
        if not scopes:
            return
        marks = ", ".join("?" for _ in scopes)
        async with self._db.transaction() as tx:
            await tx.execute(f"UPDATE secret_tries SET tries = tries - 1 WHERE scope IN ({marks}) AND tries > 0",
                             tuple(scopes))
