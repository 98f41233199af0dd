"""Finished matches, kept for good: filed (and rated) as they end, and read back.

A match is filed in the transaction that takes it out of play (``matches.MatchesInPlay.finish``), or
alone for a rated match against the computer. Its seats are filed without the addresses the players
sat down from.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from ...rules import Match, SolunaError
from ...rules.end_reason import EndReason
from ...rules.strengths import Strength
from ..rating_model import decided_on_board, is_rated
from .database import Database, Transaction
from .ratings import Ratings
from .records import (
    FinishedMatch,
    RatingChange,
    SeatRecord,
    StorageError,
    computer_code,
    json_or_none,
    player_changed,
    seats_from_text,
    seats_text,
)

#: Results a finished match may have (``abandoned``: both players left; nobody won).
RESULTS = tuple(EndReason)

_FINISHED_COLUMNS = ("id, code, result, winner, options, seats, document, started_at, finished_at, "
                     "rating_changes, clock")


class FinishedMatches:
    """The ``finished_matches`` table: every match that ended, with every move and what it did to ratings."""

    def __init__(self, database: Database, ratings: Ratings) -> None:
        self._db = database
        self._ratings = ratings

    # ---- filing --------------------------------------------------------------------------

    async def file(self, tx: Transaction, code: str, result: str, seats: tuple[SeatRecord, ...],
                   document: dict[str, Any], started_at: float, finished_at: float,
                   clock: dict[str, Any] | None = None) -> FinishedMatch:
        """Inside ``tx``: write a finished match (and its rating changes): rated only between two keys that never
        sat down from one address, once a round was decided on the board (``ratings.is_rated``), and no more than
        the pair's daily number; filed without those addresses."""
        if result not in RESULTS:
            raise StorageError(f"a finished match's result is one of {', '.join(RESULTS)}, not {result!r}")
        reason = EndReason(result)
        result = reason.value  # the plain text the database has always held
        match = _match_of(document)
        winner = match.winner if reason.has_winner else None
        if reason.has_winner and winner is None:
            raise StorageError(f"match {code} has no winner yet: it cannot be filed as {result}")
        fingerprints = tuple(seat.fingerprint for seat in seats)
        shared = bool(len(seats) == 2 and set(seats[0].addresses) & set(seats[1].addresses))
        changes: tuple[RatingChange, ...] = ()
        if winner is not None and is_rated(fingerprints, winner, shared_address=shared,
                                           decided=decided_on_board(match)):
            changes = await self._ratings.rate_pair(tx, seats, winner, finished_at)
        return await self._insert(tx, code, result, winner, match, seats, document, started_at, finished_at, changes,
                                  clock)

    async def file_computer_match(self, seat: SeatRecord, strength: Strength, document: dict[str, Any], result: str,
                                  started_at: float) -> tuple[FinishedMatch, str | None]:
        """File a finished rated match against the computer at ``strength`` (the keyed player at seat 0) and rate
        the player against the level's fixed rating, unless ``ratings.level_refusal`` gives a reason not to (one
        line, returned with the match as filed; ``None``: rated). The level's rating never moves, and such a
        match counts toward no leaderboard threshold (``played``, won and lost, the established opponents)."""
        if seat.fingerprint is None:
            raise StorageError("only a player with a key is rated against the computer")
        if result not in RESULTS or not EndReason(result).has_winner:
            raise StorageError(f"a rated match against the computer is won or forfeited, not {result!r}")
        match = _match_of(document)
        if match.winner is None:
            raise StorageError("a match against the computer with no winner yet cannot be filed")
        code, now = computer_code(strength.number), self._db.clock()
        computer = SeatRecord(f"Computer (level {strength.number})", "computer", None, False)
        async with self._db.transaction() as tx:
            changes, refusal = await self._ratings.rate_against_computer(tx, seat.fingerprint, seat.identity, strength,
                                                                         match, now)
            finished = await self._insert(tx, code, EndReason(result).value, match.winner, match, (seat, computer),
                                          document, started_at, now, changes, None)
            await announce_rated(tx, finished)
        return finished, refusal

    async def _insert(self, tx: Transaction, code: str, result: str, winner: int | None, match: Match,
                      seats: tuple[SeatRecord, ...], document: dict[str, Any], started_at: float, finished_at: float,
                      changes: tuple[RatingChange, ...], clock: dict[str, Any] | None) -> FinishedMatch:
        """The row of a finished match, its seats filed without their addresses."""
        fingerprints = tuple(seat.fingerprint for seat in seats)
        seats = tuple(replace(seat, addresses=()) for seat in seats)
        options = match.options.to_dict()
        rows = await tx.fetch(
            f"INSERT INTO finished_matches ({_FINISHED_COLUMNS.removeprefix('id, ')}, fingerprint0, fingerprint1) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (code, result, winner, json.dumps(options), seats_text(seats), json.dumps(document, ensure_ascii=False),
             started_at, finished_at, json.dumps([change.to_dict() for change in changes]), json_or_none(clock),
             *(fingerprints + (None, None))[:2]))
        return FinishedMatch(rows[0][0], code, result, winner, options, seats, document, started_at, finished_at,
                             changes, clock)

    # ---- reading -------------------------------------------------------------------------

    async def get(self, match_id: int) -> FinishedMatch | None:
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_FINISHED_COLUMNS} FROM finished_matches WHERE id = ?", (match_id,))
            found = await _named_now(tx, [_finished_match(row) for row in rows])
        return found[0] if found else None

    async def latest_under(self, code: str) -> FinishedMatch | None:
        """The last match filed under ``code`` (codes are reused once a match is over)."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_FINISHED_COLUMNS} FROM finished_matches WHERE code = ? "
                                  "ORDER BY finished_at DESC, id DESC LIMIT 1", (code,))
            found = await _named_now(tx, [_finished_match(row) for row in rows])
        return found[0] if found else None

    async def newest(self, limit: int = 20, before_id: int | None = None) -> list[FinishedMatch]:
        """The most recently filed matches, newest first (``before_id`` pages further back)."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_FINISHED_COLUMNS} FROM finished_matches WHERE id < ? "
                                  "ORDER BY id DESC LIMIT ?", (before_id if before_id is not None else 2**62, limit))
            return await _named_now(tx, [_finished_match(row) for row in rows])

    async def of_player(self, fingerprint: str, limit: int = 10) -> list[FinishedMatch]:
        """The player's finished matches, newest first."""
        async with self._db.transaction(write=False) as tx:
            return await self.read_of_player(tx, fingerprint, limit)

    async def read_of_player(self, tx: Transaction, fingerprint: str, limit: int) -> list[FinishedMatch]:
        """``of_player`` inside ``tx``."""
        rows = await tx.fetch(
            f"SELECT {_FINISHED_COLUMNS} FROM finished_matches WHERE fingerprint0 = ? OR fingerprint1 = ? "
            "ORDER BY finished_at DESC, id DESC LIMIT ?", (fingerprint, fingerprint, limit))
        return await _named_now(tx, [_finished_match(row) for row in rows])

    async def read_computer_tally(self, tx: Transaction, fingerprint: str) -> tuple[int, int]:
        """Inside ``tx``: the player's rated matches against the computer, won and lost."""
        against = await tx.fetch(
            "SELECT winner, COUNT(*) FROM finished_matches WHERE fingerprint0 = ? AND fingerprint1 IS NULL AND "
            "code LIKE ? AND rating_changes <> '[]' GROUP BY winner", (fingerprint, computer_code("%")))
        won = {int(winner): int(count) for winner, count in against}
        return won.get(0, 0), won.get(1, 0)


async def announce_rated(tx: Transaction, finished: FinishedMatch) -> None:
    """Inside ``tx``: every server told that the rated players of ``finished`` have a new rating (nothing for a
    match that was not rated)."""
    if finished.rated:
        for seat in finished.seats:
            if seat.fingerprint is not None:
                await tx.announce(player_changed(seat.fingerprint))


async def _named_now(tx: Transaction, matches: list[FinishedMatch]) -> list[FinishedMatch]:
    """Inside ``tx``: each keyed seat of ``matches`` shown by the name its key holds now (a player renamed since is
    shown as they are known now); a guest's seat, or a key that never chose a name, by the name it played under
    (which ``identity`` keeps for every seat)."""
    keys = sorted({seat.fingerprint for match in matches for seat in match.seats if seat.fingerprint is not None})
    if not keys:
        return matches
    rows = await tx.fetch(f"SELECT fingerprint, name FROM players WHERE fingerprint IN ({', '.join('?' * len(keys))})",
                          keys)
    names = {str(fingerprint): str(name) for fingerprint, name in rows}

    def named(seat: SeatRecord) -> SeatRecord:
        name = names.get(seat.fingerprint) if seat.fingerprint is not None else None
        return seat if name is None or name == seat.name else replace(seat, name=name)

    return [replace(match, seats=tuple(named(seat) for seat in match.seats)) for match in matches]


def _match_of(document: dict[str, Any]) -> Match:
    try:
        return Match.from_dict(document)
    except SolunaError as error:
        raise StorageError(f"not a match that can be filed: {error}") from None


def _finished_match(row: tuple[Any, ...]) -> FinishedMatch:
    match_id, code, result, winner, options, seats, document, started_at, finished_at, changes, clock = row
    return FinishedMatch(match_id, code, result, winner, json.loads(options), seats_from_text(seats),
                         json.loads(document), started_at, finished_at,
                         tuple(RatingChange.from_dict(item) for item in json.loads(changes)),
                         None if clock is None else json.loads(clock))
