"""Matches in play (or waiting for their second player), with optimistic concurrency.

Each match has a version, and every change succeeds only from the version the caller read
(``VersionConflict`` otherwise, ``MatchNotFound`` when it is gone); each committed change is told to
every server's subscribers (``Change``). A match that ends is filed (``finished.FinishedMatches``) in
the transaction that takes it out of play. A match adjourned (``adjourned_at``) stays in play, as it stood.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .database import Database, Transaction
from .finished import FinishedMatches, announce_rated
from .records import (
    Change,
    CodeTaken,
    FinishedMatch,
    MatchNotFound,
    SeatRecord,
    StoredMatch,
    VersionConflict,
    json_or_none,
    seats_from_text,
    seats_text,
)

_MATCH_COLUMNS = "code, version, options, seats, document, created_at, updated_at, news, clock, adjourned_at"


class MatchesInPlay:
    """The ``matches`` table: every match in play or waiting, by code."""

    def __init__(self, database: Database, finished: FinishedMatches) -> None:
        self._db = database
        self._finished = finished

    async def create(self, code: str, options: dict[str, Any], seats: Sequence[SeatRecord],
                     document: dict[str, Any] | None = None, news: dict[str, Any] | None = None,
                     clock: dict[str, Any] | None = None) -> StoredMatch:
        """A new match at version 1 (``CodeTaken`` if a match in play has ``code``), with its clock if it has one."""
        now = self._db.clock()
        stored = StoredMatch(code, 1, dict(options), tuple(seats), document, now, now, news, clock)

        async def work(tx: Transaction) -> StoredMatch:
            if await tx.fetch("SELECT 1 FROM matches WHERE code = ?", (code,)):
                raise CodeTaken(code)
            await tx.execute(f"INSERT INTO matches ({_MATCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             (code, 1, json.dumps(stored.options), seats_text(stored.seats),
                              json_or_none(document), now, now, json_or_none(news), json_or_none(clock), None))
            await tx.announce(Change(code, 1))
            return stored

        return await self._db.first_wins(work, CodeTaken(code))

    async def get(self, code: str) -> StoredMatch | None:
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE code = ?", (code,))
        return _stored_match(rows[0]) if rows else None

    async def active(self) -> list[StoredMatch]:
        """Every match in play or waiting, oldest first."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_MATCH_COLUMNS} FROM matches ORDER BY created_at, code")
        return [_stored_match(row) for row in rows]

    async def update(self, code: str, expected_version: int, document: dict[str, Any] | None,
                     seats: Sequence[SeatRecord] | None = None, news: dict[str, Any] | None = None,
                     clock: dict[str, Any] | None = None, adjourned_at: float | None = None) -> int:
        """Store the match's new state if it is still at ``expected_version``; return the new version.

        ``news`` is what the change tells the players (kept until the next change, for other servers);
        ``clock`` the match's clock now (``None``: it has none); ``adjourned_at`` when it was adjourned (``None``:
        it is not).
        ``VersionConflict`` when another change came first, ``MatchNotFound`` when it is gone.
        """
        now = self._db.clock()
        async with self._db.transaction() as tx:
            if seats is None:
                changed = await tx.execute(
                    "UPDATE matches SET version = version + 1, document = ?, news = ?, clock = ?, adjourned_at = ?, "
                    "updated_at = ? WHERE code = ? AND version = ?",
                    (json_or_none(document), json_or_none(news), json_or_none(clock), adjourned_at, now, code,
                     expected_version))
            else:
                changed = await tx.execute(
                    "UPDATE matches SET version = version + 1, document = ?, seats = ?, news = ?, clock = ?, "
                    "adjourned_at = ?, updated_at = ? WHERE code = ? AND version = ?",
                    (json_or_none(document), seats_text(tuple(seats)), json_or_none(news), json_or_none(clock),
                     adjourned_at, now, code, expected_version))
            if not changed:
                await _refuse(tx, code, expected_version)
            await tx.announce(Change(code, expected_version + 1))
        return expected_version + 1

    async def drop(self, code: str, expected_version: int) -> None:
        """Forget a match that never got going (a waiting match cancelled): nothing is filed."""
        async with self._db.transaction() as tx:
            if not await tx.execute("DELETE FROM matches WHERE code = ? AND version = ?", (code, expected_version)):
                await _refuse(tx, code, expected_version)
            await tx.announce(Change(code, expected_version + 1))

    async def finish(self, code: str, expected_version: int, document: dict[str, Any], result: str,
                     seats: Sequence[SeatRecord] | None = None, keep: bool = False,
                     news: dict[str, Any] | None = None, clock: dict[str, Any] | None = None) -> FinishedMatch:
        """File the match as finished and rate it, in one transaction with removing it from play.

        ``result`` is an ``EndReason`` value; the winner is read from ``document`` (none when abandoned or
        aborted). ``keep`` leaves the ended match in place at the next version instead (its players still look
        at it and may ask for a rematch), with ``news``; ``clock`` is its clock as it ended. Same refusals as
        ``update``.
        """
        async with self._db.transaction() as tx:
            rows = await tx.fetch(
                f"SELECT version, seats, created_at FROM matches WHERE code = ?{self._db.FOR_UPDATE}", (code,))
            if not rows:
                raise MatchNotFound(code)
            version, stored_seats, created_at = rows[0]
            if version != expected_version:
                raise VersionConflict(code, expected_version, version)
            chosen = tuple(seats) if seats is not None else seats_from_text(stored_seats)
            finished = await self._finished.file(tx, code, result, chosen, document, created_at, self._db.clock(),
                                                 clock)
            if keep:
                await tx.execute("UPDATE matches SET version = version + 1, document = ?, seats = ?, news = ?, "
                                 "clock = ?, adjourned_at = NULL, updated_at = ? WHERE code = ?",
                                 (json_or_none(document), seats_text(chosen), json_or_none(news),
                                  json_or_none(clock), self._db.clock(), code))
            else:
                await tx.execute("DELETE FROM matches WHERE code = ?", (code,))
            await tx.announce(Change(code, expected_version + 1))
            await announce_rated(tx, finished)  # after the match: its players' lists follow its news
        return finished


async def _refuse(tx: Transaction, code: str, expected_version: int) -> None:
    """Raise why a change guarded by ``expected_version`` touched nothing."""
    rows = await tx.fetch("SELECT version FROM matches WHERE code = ?", (code,))
    if not rows:
        raise MatchNotFound(code)
    raise VersionConflict(code, expected_version, rows[0][0])


def _stored_match(row: tuple[Any, ...]) -> StoredMatch:
    code, version, options, seats, document, created_at, updated_at, news, clock, adjourned_at = row
    return StoredMatch(code, version, json.loads(options), seats_from_text(seats),
                       None if document is None else json.loads(document), created_at, updated_at,
                       None if news is None else json.loads(news), None if clock is None else json.loads(clock),
                       adjourned_at)
