"""The store's every operation, written once over a small transaction interface both databases provide.

A backend (``sqlite.py``, ``postgres.py``) supplies transactions, a lock for work two servers must
not do at once, how its database spells an auto-numbered key and a row lock, and how changes
reach subscribers. SQL here uses ``?`` placeholders and the subset both databases share.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from typing import Any, TypeVar

from ...link.end_reason import EndReason
from ...rules import Match, SolunaError
from ...rules.strengths import Strength
from ..ratings import (
    PAIR_RATED_PER_DAY,
    PAIR_WINDOW,
    Rating,
    decided_on_board,
    is_rated,
    level_rating,
    level_refusal,
    rate,
    rate_against_level,
)
from .records import (
    RESYNC,
    Change,
    CodeTaken,
    ComputerGameRecord,
    FinishedMatch,
    MatchNotFound,
    NameTaken,
    PlayerRecord,
    PlayerSummary,
    RatingChange,
    SchemaTooNew,
    SeatRecord,
    ServerRecord,
    Standing,
    StorageError,
    StoredMatch,
    VersionConflict,
    computer_code,
    name_key,
    seats_from_text,
    seats_text,
)
from .schema import CREATE_VERSION_TABLE, LATEST, MIGRATIONS, REKEY_PLAYERS
from .secrets import LONGEST_FORGET, GuessLimit, SecretTry

log = logging.getLogger("soluna.storage")

T = TypeVar("T")

#: Results a finished match may have (``abandoned``: both players left; nobody won).
RESULTS = tuple(EndReason)
#: Changes a subscriber may fall behind by before it is told to re-read everything instead.
SUBSCRIBER_BACKLOG = 1000
#: The row of ``servers`` that keeps when a server last served the database (no server's id: those are hex).
SERVED_MARK = "(served)"

_MATCH_COLUMNS = "code, version, options, seats, document, created_at, updated_at, news, clock"
_FINISHED_COLUMNS = ("id, code, result, winner, options, seats, document, started_at, finished_at, "
                     "rating_changes, clock")
_PLAYER_COLUMNS = "fingerprint, name, first_seen, last_seen"


class Transaction(ABC):
    """One database transaction: statements in order, committed together or not at all."""

    @abstractmethod
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run ``sql`` and return its rows (none for a statement without a result)."""

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run ``sql`` and return how many rows it changed."""

    @abstractmethod
    async def announce(self, change: Change) -> None:
        """Tell subscribers (of every server) about ``change`` once, and only if this transaction commits."""


class Subscription:
    """Changes as they happen, for ``async for``; ``close()`` (or ``with``) ends it.

    A subscriber that falls far behind gets one ``RESYNC`` instead of the backlog.
    """

    def __init__(self, subscribers: set[Subscription]) -> None:
        self._subscribers = subscribers
        self._queue: asyncio.Queue[Change | None] = asyncio.Queue()
        subscribers.add(self)

    def put(self, change: Change) -> None:
        if self._queue.qsize() >= SUBSCRIBER_BACKLOG:
            while not self._queue.empty():
                self._queue.get_nowait()
            change = RESYNC
        self._queue.put_nowait(change)

    def close(self) -> None:
        if self in self._subscribers:
            self._subscribers.discard(self)
            self._queue.put_nowait(None)

    def __aiter__(self) -> AsyncIterator[Change]:
        return self

    async def __anext__(self) -> Change:
        change = await self._queue.get()
        if change is None:
            raise StopAsyncIteration
        return change

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class Storage(ABC):
    """Players, matches in play, finished matches and ratings, shared by every server using one database.

    Open with ``await open_storage(...)`` (migrated and ready), close with ``await store.close()``.
    Every method is a coroutine that never blocks the event loop; failures are ``StorageError``s.
    """

    #: How this database spells an auto-numbered integer primary key.
    SERIAL_ID: str
    #: What makes a SELECT lock the rows it reads until the transaction ends ("" where writers queue anyway).
    FOR_UPDATE: str
    #: A query with a row when the table named by its one parameter exists.
    TABLE_EXISTS: str
    #: Whether several servers may share this database (PostgreSQL); SQLite serves one server alone.
    SHARED: bool

    def __init__(self, read_only: bool = False) -> None:
        #: Opened only to read (``soluna export``): the database refuses every write, nothing is created or migrated.
        self.read_only = read_only
        self._subscribers: set[Subscription] = set()
        #: Seconds since the epoch; tests may replace it.
        self.clock: Callable[[], float] = time.time

    # ---- what a backend provides ---------------------------------------------------------

    @abstractmethod
    def _transaction(self, write: bool = True) -> AbstractAsyncContextManager[Transaction]:
        """A transaction, committed when the block ends normally, rolled back when it raises.

        ``write=False`` promises only reads, which then need not wait for another server's writes.
        """

    @abstractmethod
    async def _lock(self, tx: Transaction, name: str) -> None:
        """Hold the lock ``name`` until ``tx`` ends (between servers sharing the database)."""

    @abstractmethod
    def _is_unique_violation(self, error: BaseException) -> bool:
        """Whether ``error`` is a uniqueness constraint refusing a row (another server was first)."""

    @abstractmethod
    async def _open(self) -> None:
        """Connect (migration follows)."""

    @abstractmethod
    async def _close(self) -> None:
        """Release connections and threads."""

    # ---- life ----------------------------------------------------------------------------

    async def open(self) -> None:
        """Connect and bring the schema up to date (read-only: check that it is up to date)."""
        await self._open()
        try:
            await (self._check_schema() if self.read_only else self.migrate())
        except BaseException:
            await self._close()
            raise

    async def _check_schema(self) -> None:
        """``StorageError`` unless this is a Soluna database at the schema this program reads."""
        async with self._transaction(write=False) as tx:
            if not await tx.fetch(self.TABLE_EXISTS, ("schema_version",)):
                raise StorageError(f"{self.location} is not a Soluna server's database")
            current = (await tx.fetch("SELECT MAX(version) FROM schema_version"))[0][0] or 0
        if current > LATEST:
            raise SchemaTooNew(f"the database has schema version {current}; this program knows up to {LATEST}: "
                               "upgrade soluna")
        if current < LATEST:
            raise StorageError(f"the database has schema version {current}, older than this program's {LATEST}: "
                               "start soluna serve on it once to bring it up to date")

    @property
    @abstractmethod
    def location(self) -> str:
        """Where the database is, as it may be printed (no password)."""

    async def close(self) -> None:
        """End every subscription and release the database."""
        for subscription in list(self._subscribers):
            subscription.close()
        await self._close()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def subscribe(self) -> Subscription:
        """Every change to matches from now on (of every server on this database), as ``Change`` values."""
        return Subscription(self._subscribers)

    def _publish(self, change: Change) -> None:
        for subscription in list(self._subscribers):
            subscription.put(change)

    async def migrate(self) -> int:
        """Apply the migrations this database lacks, all in one transaction; return the schema version."""
        async with self._transaction() as tx:
            await self._lock(tx, "soluna-schema")
            await tx.execute(CREATE_VERSION_TABLE)
            current = (await tx.fetch("SELECT MAX(version) FROM schema_version"))[0][0] or 0
            if current > LATEST:
                raise SchemaTooNew(f"the database has schema version {current}; this program knows up to {LATEST}: "
                                   "upgrade soluna")
            for number in range(current + 1, LATEST + 1):
                for statement in MIGRATIONS[number - 1]:
                    await tx.execute(statement.replace("{id}", self.SERIAL_ID))
                if number in REKEY_PLAYERS:
                    await self._rekey_players(tx)
                await tx.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                                 (number, self.clock()))
                log.info("database schema migrated to version %d", number)
        return LATEST

    async def _rekey_players(self, tx: Transaction) -> None:
        """Every player's ``name_key`` as ``name_key`` now computes it. Of two names that now look alike, the
        first seen keeps the key; the other keeps its name, under a key no name can have."""
        rows = await tx.fetch("SELECT fingerprint, name FROM players ORDER BY first_seen, fingerprint")
        await tx.execute("UPDATE players SET name_key = fingerprint")  # unique, and no name's key: room to move
        taken: set[str] = set()
        for fingerprint, name in rows:
            key = name_key(name)
            if key in taken:
                key = f"{key} {fingerprint}"
                log.warning("the name %r looks like an older player's: only its first holder keeps it", name)
            taken.add(key)
            await tx.execute("UPDATE players SET name_key = ? WHERE fingerprint = ?", (key, fingerprint))

    async def schema_version(self) -> int:
        async with self._transaction(write=False) as tx:
            return (await tx.fetch("SELECT MAX(version) FROM schema_version"))[0][0] or 0

    async def _first_wins(self, work: Callable[[Transaction], Awaitable[T]], refusal: StorageError) -> T:
        """Run ``work`` in a transaction; if another server inserted the same row meanwhile, run it once more
        (it then sees that row), and raise ``refusal`` if it still collides."""
        for attempt in (1, 2):
            try:
                async with self._transaction() as tx:
                    return await work(tx)
            except StorageError:
                raise
            except Exception as error:
                if not self._is_unique_violation(error):
                    raise
                if attempt == 2:
                    raise refusal from None
        raise AssertionError("unreachable")

    # ---- players -------------------------------------------------------------------------

    async def see_player(self, fingerprint: str, name: str) -> PlayerRecord:
        """Record a visit by the key ``fingerprint``: the first claims ``name`` (``NameTaken`` if another
        key holds it), later ones keep the name held and update when the player was last seen."""
        now = self.clock()

        async def work(tx: Transaction) -> PlayerRecord:
            known = await self._player(tx, fingerprint, lock=True)
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
                known = await self._player(tx, fingerprint, lock=True)
                assert known is not None
            await tx.execute("UPDATE players SET last_seen = ? WHERE fingerprint = ?", (now, fingerprint))
            return PlayerRecord(known.fingerprint, known.name, known.first_seen, now)

        return await self._first_wins(work, NameTaken(name))

    async def rename_player(self, fingerprint: str, name: str) -> PlayerRecord:
        """Give a known player another name (``NameTaken`` if another key holds it, or one that looks like it)."""

        async def work(tx: Transaction) -> PlayerRecord:
            known = await self._player(tx, fingerprint, lock=True)
            if known is None:
                raise StorageError("no player has that key")
            holder = await tx.fetch("SELECT fingerprint, name FROM players WHERE name_key = ?", (name_key(name),))
            if holder and holder[0][0] != fingerprint:
                raise NameTaken(name, holder[0][1])
            await tx.execute("UPDATE players SET name = ?, name_key = ? WHERE fingerprint = ?",
                             (name, name_key(name), fingerprint))
            return PlayerRecord(fingerprint, name, known.first_seen, known.last_seen)

        return await self._first_wins(work, NameTaken(name))

    async def player(self, fingerprint: str) -> PlayerRecord | None:
        async with self._transaction(write=False) as tx:
            return await self._player(tx, fingerprint)

    async def lobby_choices(self, fingerprint: str) -> str | None:
        """The lobby's settings the key ``fingerprint`` last left, as ``keep_lobby_choices`` kept them."""
        async with self._transaction(write=False) as tx:
            rows = await tx.fetch("SELECT choices FROM lobby_choices WHERE fingerprint = ?", (fingerprint,))
        return str(rows[0][0]) if rows else None

    async def keep_lobby_choices(self, fingerprint: str, choices: str) -> None:
        """Keep the lobby's settings (a JSON text, read by the lobby) with the key ``fingerprint``."""
        async with self._transaction() as tx:
            await tx.execute("INSERT INTO lobby_choices (fingerprint, choices, updated_at) VALUES (?, ?, ?) "
                             "ON CONFLICT (fingerprint) DO UPDATE SET choices = excluded.choices, "
                             "updated_at = excluded.updated_at", (fingerprint, choices, self.clock()))

    async def name_holder(self, name: str) -> PlayerRecord | None:
        """The player whose key holds ``name`` or one that looks like it (``name_key``), if any: a guest may
        not take it."""
        async with self._transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_PLAYER_COLUMNS} FROM players WHERE name_key = ?", (name_key(name),))
        return PlayerRecord(*rows[0]) if rows else None

    async def _player(self, tx: Transaction, fingerprint: str, lock: bool = False) -> PlayerRecord | None:
        rows = await tx.fetch(f"SELECT {_PLAYER_COLUMNS} FROM players WHERE fingerprint = ?"
                              + (self.FOR_UPDATE if lock else ""), (fingerprint,))
        return PlayerRecord(*rows[0]) if rows else None

    # ---- matches in play -----------------------------------------------------------------

    async def create_match(self, code: str, options: dict[str, Any], seats: Sequence[SeatRecord],
                           document: dict[str, Any] | None = None, news: dict[str, Any] | None = None,
                           clock: dict[str, Any] | None = None) -> StoredMatch:
        """A new match at version 1 (``CodeTaken`` if a match in play has ``code``), with its clock if it has one."""
        now = self.clock()
        stored = StoredMatch(code, 1, dict(options), tuple(seats), document, now, now, news, clock)

        async def work(tx: Transaction) -> StoredMatch:
            if await tx.fetch("SELECT 1 FROM matches WHERE code = ?", (code,)):
                raise CodeTaken(code)
            await tx.execute(f"INSERT INTO matches ({_MATCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             (code, 1, json.dumps(stored.options), seats_text(stored.seats),
                              _json_or_none(document), now, now, _json_or_none(news), _json_or_none(clock)))
            await tx.announce(Change(code, 1))
            return stored

        return await self._first_wins(work, CodeTaken(code))

    async def get_match(self, code: str) -> StoredMatch | None:
        async with self._transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE code = ?", (code,))
        return _stored_match(rows[0]) if rows else None

    async def active_matches(self) -> list[StoredMatch]:
        """Every match in play or waiting, oldest first."""
        async with self._transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_MATCH_COLUMNS} FROM matches ORDER BY created_at, code")
        return [_stored_match(row) for row in rows]

    async def update_match(self, code: str, expected_version: int, document: dict[str, Any] | None,
                           seats: Sequence[SeatRecord] | None = None, news: dict[str, Any] | None = None,
                           clock: dict[str, Any] | None = None) -> int:
        """Store the match's new state if it is still at ``expected_version``; return the new version.

        ``news`` is what the change tells the players (kept until the next change, for other servers);
        ``clock`` the match's clock now (``None``: it has none).
        ``VersionConflict`` when another change came first, ``MatchNotFound`` when it is gone.
        """
        now = self.clock()
        async with self._transaction() as tx:
            if seats is None:
                changed = await tx.execute(
                    "UPDATE matches SET version = version + 1, document = ?, news = ?, clock = ?, updated_at = ? "
                    "WHERE code = ? AND version = ?",
                    (_json_or_none(document), _json_or_none(news), _json_or_none(clock), now, code,
                     expected_version))
            else:
                changed = await tx.execute(
                    "UPDATE matches SET version = version + 1, document = ?, seats = ?, news = ?, clock = ?, "
                    "updated_at = ? WHERE code = ? AND version = ?",
                    (_json_or_none(document), seats_text(tuple(seats)), _json_or_none(news), _json_or_none(clock),
                     now, code, expected_version))
            if not changed:
                await self._refuse(tx, code, expected_version)
            await tx.announce(Change(code, expected_version + 1))
        return expected_version + 1

    async def drop_match(self, code: str, expected_version: int) -> None:
        """Forget a match that never got going (a waiting match cancelled): nothing is filed."""
        async with self._transaction() as tx:
            if not await tx.execute("DELETE FROM matches WHERE code = ? AND version = ?", (code, expected_version)):
                await self._refuse(tx, code, expected_version)
            await tx.announce(Change(code, expected_version + 1))

    async def finish_match(self, code: str, expected_version: int, document: dict[str, Any], result: str,
                           seats: Sequence[SeatRecord] | None = None, keep: bool = False,
                           news: dict[str, Any] | None = None, clock: dict[str, Any] | None = None) -> FinishedMatch:
        """File the match as finished and rate it, in one transaction with removing it from play.

        ``result`` is an ``EndReason`` value; the winner is read from ``document`` (none when abandoned or
        aborted). ``keep`` leaves the ended match in place at the next version instead (its players still look
        at it and may ask for a rematch), with ``news``; ``clock`` is its clock as it ended. Same refusals as
        ``update_match``.
        """
        async with self._transaction() as tx:
            rows = await tx.fetch(f"SELECT version, seats, created_at FROM matches WHERE code = ?{self.FOR_UPDATE}",
                                  (code,))
            if not rows:
                raise MatchNotFound(code)
            version, stored_seats, created_at = rows[0]
            if version != expected_version:
                raise VersionConflict(code, expected_version, version)
            chosen = tuple(seats) if seats is not None else seats_from_text(stored_seats)
            finished = await self._file_finished(tx, code, result, chosen, document, created_at, self.clock(), clock)
            if keep:
                await tx.execute("UPDATE matches SET version = version + 1, document = ?, seats = ?, news = ?, "
                                 "clock = ?, updated_at = ? WHERE code = ?",
                                 (_json_or_none(document), seats_text(chosen), _json_or_none(news),
                                  _json_or_none(clock), self.clock(), code))
            else:
                await tx.execute("DELETE FROM matches WHERE code = ?", (code,))
            await tx.announce(Change(code, expected_version + 1))
        return finished

    async def _refuse(self, tx: Transaction, code: str, expected_version: int) -> None:
        """Raise why a change guarded by ``expected_version`` touched nothing."""
        rows = await tx.fetch("SELECT version FROM matches WHERE code = ?", (code,))
        if not rows:
            raise MatchNotFound(code)
        raise VersionConflict(code, expected_version, rows[0][0])

    async def _file_finished(self, tx: Transaction, code: str, result: str, seats: tuple[SeatRecord, ...],
                             document: dict[str, Any], started_at: float, finished_at: float,
                             clock: dict[str, Any] | None = None) -> FinishedMatch:
        """Write a finished match (and its rating changes) inside ``tx``: rated only between two keys that never
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
            changes = await self._rate(tx, seats, winner, finished_at)
        return await self._insert_finished(tx, code, result, winner, match, seats, document, started_at, finished_at,
                                           changes, clock)

    async def _insert_finished(self, tx: Transaction, code: str, result: str, winner: int | None, match: Match,
                               seats: tuple[SeatRecord, ...], document: dict[str, Any], started_at: float,
                               finished_at: float, changes: tuple[RatingChange, ...],
                               clock: dict[str, Any] | None) -> FinishedMatch:
        """The row of a finished match, its seats filed without their addresses."""
        fingerprints = tuple(seat.fingerprint for seat in seats)
        seats = tuple(replace(seat, addresses=()) for seat in seats)
        options = match.options.to_dict()
        rows = await tx.fetch(
            f"INSERT INTO finished_matches ({_FINISHED_COLUMNS.removeprefix('id, ')}, fingerprint0, fingerprint1) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (code, result, winner, json.dumps(options), seats_text(seats), json.dumps(document, ensure_ascii=False),
             started_at, finished_at, json.dumps([change.to_dict() for change in changes]), _json_or_none(clock),
             *(fingerprints + (None, None))[:2]))
        return FinishedMatch(rows[0][0], code, result, winner, options, seats, document, started_at, finished_at,
                             changes, clock)

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
        fingerprint, code, now = seat.fingerprint, computer_code(strength.number), self.clock()
        computer = SeatRecord(f"Computer (level {strength.number})", "computer", None, False)
        async with self._transaction() as tx:
            await self._lock(tx, f"soluna-rating:{fingerprint}")
            rows = await tx.fetch("SELECT mu, sigma FROM ratings WHERE fingerprint = ?", (fingerprint,))
            before = Rating(*rows[0]) if rows else Rating()
            today = await tx.fetch(
                "SELECT COUNT(*) FROM finished_matches WHERE fingerprint0 = ? AND code = ? AND finished_at > ? "
                "AND rating_changes <> '[]'", (fingerprint, code, now - PAIR_WINDOW))
            refusal = level_refusal(before, strength, decided_on_board(match), int(today[0][0]))
            changes: tuple[RatingChange, ...] = ()
            if refusal is None:
                after = rate_against_level(before, strength, won=match.winner == 0)
                await tx.execute(
                    "INSERT INTO ratings (fingerprint, name, mu, sigma, conservative, played, won, lost, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, 0, 0, 0, ?) ON CONFLICT (fingerprint) DO UPDATE SET name = excluded.name, "
                    "mu = excluded.mu, sigma = excluded.sigma, conservative = excluded.conservative, "
                    "updated_at = excluded.updated_at",
                    (fingerprint, seat.identity, after.mu, after.sigma, after.conservative, now))
                level = level_rating(strength)
                changes = (RatingChange(fingerprint, before, after), RatingChange(code, level, level))
            finished = await self._insert_finished(tx, code, EndReason(result).value, match.winner, match,
                                                   (seat, computer), document, started_at, now, changes, None)
        return finished, refusal

    async def _rate(self, tx: Transaction, seats: tuple[SeatRecord, ...], winner: int,
                    now: float) -> tuple[RatingChange, ...]:
        """Both players' ratings after the match, and each one's rated matches against the other; none when the
        pair has had its rated matches of the day (``ratings.PAIR_RATED_PER_DAY``)."""
        fingerprints = [seat.fingerprint or "" for seat in seats]  # keyed: ``is_rated`` said so
        for fingerprint in sorted(fingerprints):  # always in the same order: two servers cannot deadlock
            await self._lock(tx, f"soluna-rating:{fingerprint}")
        first, second = fingerprints
        today = await tx.fetch(
            "SELECT COUNT(*) FROM finished_matches WHERE ((fingerprint0 = ? AND fingerprint1 = ?) OR "
            "(fingerprint0 = ? AND fingerprint1 = ?)) AND finished_at > ? AND rating_changes <> '[]'",
            (first, second, second, first, now - PAIR_WINDOW))
        if today[0][0] >= PAIR_RATED_PER_DAY:
            return ()
        for player, opponent in ((first, second), (second, first)):
            await tx.execute("INSERT INTO rated_opponents (fingerprint, opponent, matches) VALUES (?, ?, 1) "
                             "ON CONFLICT (fingerprint, opponent) DO UPDATE SET matches = rated_opponents.matches + 1",
                             (player, opponent))
        before = []
        for fingerprint in fingerprints:
            rows = await tx.fetch("SELECT mu, sigma FROM ratings WHERE fingerprint = ?", (fingerprint,))
            before.append(Rating(*rows[0]) if rows else Rating())
        loser = 1 - winner
        after = [Rating(), Rating()]
        after[winner], after[loser] = rate(before[winner], before[loser])
        for seat_index, seat in enumerate(seats):
            won = int(seat_index == winner)
            rating = after[seat_index]
            await tx.execute(
                "INSERT INTO ratings (fingerprint, name, mu, sigma, conservative, played, won, lost, updated_at) "
                "VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?) ON CONFLICT (fingerprint) DO UPDATE SET "
                "name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, "
                "conservative = excluded.conservative, played = ratings.played + 1, "
                "won = ratings.won + excluded.won, lost = ratings.lost + excluded.lost, "
                "updated_at = excluded.updated_at",
                (seat.fingerprint, seat.identity, rating.mu, rating.sigma, rating.conservative, won, 1 - won, now))
        return tuple(RatingChange(fingerprint, before[index], after[index])
                     for index, fingerprint in enumerate(fingerprints))

    # ---- secrets tried ---------------------------------------------------------------------

    async def try_secret(self, limits: Mapping[str, GuessLimit]) -> SecretTry:
        """Count one try of a secret for every scope of ``limits`` (a seat, a match, an address...) if each one's
        limit allows a try now; else count nothing and say which scope waits, and how long. Every server counts
        in the same rows, each scope locked in turn, so tries made at once on several servers count one by one."""
        now = self.clock()
        scopes = sorted(limits)
        async with self._transaction() as tx:
            for scope in scopes:  # always in the same order: two servers cannot deadlock
                await self._lock(tx, f"soluna-secret:{scope}")
            marks = ", ".join("?" for _ in scopes)
            rows = await tx.fetch(f"SELECT scope, tries, last_at FROM secret_tries WHERE scope IN ({marks})"
                                  f"{self.FOR_UPDATE}", scopes)
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

    async def untry_secret(self, scopes: Collection[str]) -> None:
        """A try that proved the secret right counts for nothing (a player back at their own seat)."""
        if not scopes:
            return
        marks = ", ".join("?" for _ in scopes)
        async with self._transaction() as tx:
            await tx.execute(f"UPDATE secret_tries SET tries = tries - 1 WHERE scope IN ({marks}) AND tries > 0",
                             tuple(scopes))

    # ---- servers sharing the database ----------------------------------------------------

    async def heartbeat(self, server: str, watching: dict[str, int]) -> list[ServerRecord]:
        """Say ``server`` is alive (with how many watch each match there); every server's last word."""
        now = self.clock()
        async with self._transaction() as tx:
            await tx.execute("INSERT INTO servers (id, seen_at, watching) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE "
                             "SET seen_at = excluded.seen_at, watching = excluded.watching",
                             (server, now, json.dumps(watching)))
            rows = await tx.fetch("SELECT id, seen_at, watching FROM servers WHERE id <> ?", (SERVED_MARK,))
        return [ServerRecord(server_id, seen_at, json.loads(text)) for server_id, seen_at, text in rows]

    async def servers(self) -> list[ServerRecord]:
        async with self._transaction(write=False) as tx:
            rows = await tx.fetch("SELECT id, seen_at, watching FROM servers WHERE id <> ?", (SERVED_MARK,))
        return [ServerRecord(server_id, seen_at, json.loads(text)) for server_id, seen_at, text in rows]

    async def forget_servers(self, *, server: str | None = None, seen_before: float | None = None) -> None:
        """Drop the row of a server that stops, or of every server silent since ``seen_before``."""
        async with self._transaction() as tx:
            if server is not None:
                await tx.execute("DELETE FROM servers WHERE id = ?", (server,))
            if seen_before is not None:
                await tx.execute("DELETE FROM servers WHERE seen_at < ? AND id <> ?", (seen_before, SERVED_MARK))

    async def mark_served(self) -> None:
        """Note that a server serves this database now (one that stops, or plays on alone without heartbeats)."""
        async with self._transaction() as tx:
            await tx.execute("INSERT INTO servers (id, seen_at, watching) VALUES (?, ?, '{}') ON CONFLICT (id) DO "
                             "UPDATE SET seen_at = excluded.seen_at", (SERVED_MARK, self.clock()))

    async def last_served(self) -> float | None:
        """The last moment a server is known to have served this database: a heartbeat, a change to a match in
        play, or ``mark_served``; ``None`` for a database never served."""
        async with self._transaction(write=False) as tx:
            heard = (await tx.fetch("SELECT MAX(seen_at) FROM servers"))[0][0]
            changed = (await tx.fetch("SELECT MAX(updated_at) FROM matches"))[0][0]
        known = [float(each) for each in (heard, changed) if each is not None]
        return max(known) if known else None

    # ---- matches against the computer kept for their players -----------------------------

    async def keep_computer_game(self, game: ComputerGameRecord) -> None:
        """Write (or replace) a match against the computer, played on ``game.server`` or held."""
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO computer_games (id, server, identity, fingerprint, secret_hash, document, held_until, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET server = excluded.server, "
                "identity = excluded.identity, fingerprint = excluded.fingerprint, "
                "secret_hash = excluded.secret_hash, document = excluded.document, "
                "held_until = excluded.held_until, updated_at = excluded.updated_at",
                (game.id, game.server, game.identity, game.fingerprint, game.secret_hash,
                 json.dumps(game.document, ensure_ascii=False), game.held_until, self.clock()))

    async def drop_computer_game(self, game_id: str) -> None:
        async with self._transaction() as tx:
            await tx.execute("DELETE FROM computer_games WHERE id = ?", (game_id,))

    async def hold_computer_game(self, game_id: str, until: float) -> None:
        """Its player has gone: nobody plays it now; it is kept until ``until``."""
        async with self._transaction() as tx:
            await tx.execute("UPDATE computer_games SET server = NULL, held_until = ? WHERE id = ?", (until, game_id))

    async def claim_computer_game(self, game_id: str, server: str) -> bool:
        """Take a held game for a player back on ``server``; ``False`` if another server took it first."""
        async with self._transaction() as tx:
            return bool(await tx.execute("UPDATE computer_games SET server = ?, held_until = NULL "
                                         "WHERE id = ? AND server IS NULL", (server, game_id)))

    async def held_computer_games(self) -> list[ComputerGameRecord]:
        """Every held game (nobody plays it), oldest first."""
        async with self._transaction(write=False) as tx:
            rows = await tx.fetch("SELECT id, server, identity, fingerprint, secret_hash, document, held_until, "
                                  "updated_at FROM computer_games WHERE server IS NULL ORDER BY updated_at, id")
        return [ComputerGameRecord(game_id, server, identity, fingerprint, secret_hash, json.loads(document),
                                   held_until, updated_at)
                for game_id, server, identity, fingerprint, secret_hash, document, held_until, updated_at in rows]

    async def tidy_computer_games(self, live_servers: Sequence[str], hold_until: float, keep_at_most: int) -> None:
        """Hold the games of servers no longer alive, let go of those held past their time, and of the
        oldest held beyond ``keep_at_most``."""
        now = self.clock()
        async with self._transaction() as tx:
            marks = ", ".join("?" for _ in live_servers) or "NULL"
            await tx.execute(f"UPDATE computer_games SET server = NULL, held_until = ? "
                             f"WHERE server IS NOT NULL AND server NOT IN ({marks})", (hold_until, *live_servers))
            await tx.execute("DELETE FROM computer_games WHERE held_until IS NOT NULL AND held_until < ?", (now,))
            await tx.execute("DELETE FROM computer_games WHERE id IN (SELECT id FROM computer_games "
                             "WHERE server IS NULL ORDER BY updated_at DESC, id DESC LIMIT -1 OFFSET ?)"
                             if self.SERIAL_ID.startswith("INTEGER") else
                             "DELETE FROM computer_games WHERE id IN (SELECT id FROM computer_games "
                             "WHERE server IS NULL ORDER BY updated_at DESC, id DESC OFFSET ?)", (keep_at_most,))

    # ---- finished matches ----------------------------------------------------------------

    async def finished_match(self, match_id: int) -> FinishedMatch | None:
        async with self._transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_FINISHED_COLUMNS} FROM finished_matches WHERE id = ?", (match_id,))
        return _finished_match(rows[0]) if rows else None

    async def latest_finished(self, code: str) -> FinishedMatch | None:
        """The last match filed under ``code`` (codes are reused once a match is over)."""
        async with self._transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_FINISHED_COLUMNS} FROM finished_matches WHERE code = ? "
                                  "ORDER BY finished_at DESC, id DESC LIMIT 1", (code,))
        return _finished_match(rows[0]) if rows else None

    async def finished_matches(self, limit: int = 20, before_id: int | None = None) -> list[FinishedMatch]:
        """The most recently filed matches, newest first (``before_id`` pages further back)."""
        async with self._transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_FINISHED_COLUMNS} FROM finished_matches WHERE id < ? "
                                  "ORDER BY id DESC LIMIT ?", (before_id if before_id is not None else 2**62, limit))
        return [_finished_match(row) for row in rows]

    async def recent_matches(self, fingerprint: str, limit: int = 10) -> list[FinishedMatch]:
        """The player's finished matches, newest first."""
        async with self._transaction(write=False) as tx:
            return await self._recent(tx, fingerprint, limit)

    async def _recent(self, tx: Transaction, fingerprint: str, limit: int) -> list[FinishedMatch]:
        rows = await tx.fetch(
            f"SELECT {_FINISHED_COLUMNS} FROM finished_matches WHERE fingerprint0 = ? OR fingerprint1 = ? "
            "ORDER BY finished_at DESC, id DESC LIMIT ?", (fingerprint, fingerprint, limit))
        return [_finished_match(row) for row in rows]

    # ---- ratings -------------------------------------------------------------------------

    async def leaderboard(self, limit: int = 20, offset: int = 0, minimum: int = 0,
                          opponents: int = 0) -> list[Standing]:
        """Rated players listed (``_listed``: ``minimum`` rated matches, ``opponents`` established opponents),
        best first (by the conservative estimate); equal ratings share a rank."""
        listed, params = _listed(minimum, opponents)
        async with self._transaction(write=False) as tx:
            rows = await tx.fetch(
                "SELECT r.fingerprint, COALESCE(p.name, r.name), r.mu, r.sigma, r.played, r.won, r.lost, "
                "r.conservative FROM ratings r LEFT JOIN players p ON p.fingerprint = r.fingerprint "
                f"WHERE {listed} ORDER BY r.conservative DESC, r.played DESC, r.fingerprint LIMIT ? OFFSET ?",
                (*params, limit, offset))
            first_rank = await self._rank(tx, rows[0][7], minimum, opponents) if rows else 0
        standings, rank, previous = [], first_rank, None
        for position, (fingerprint, name, mu, sigma, played, won, lost, conservative) in enumerate(rows):
            if previous is not None and conservative != previous:
                rank = offset + position + 1
            previous = conservative
            standings.append(Standing(rank, fingerprint, name, Rating(mu, sigma), played, won, lost))
        return standings

    async def rated_players(self, minimum: int = 0, opponents: int = 0) -> int:
        """How many players are on the leaderboard (as ``leaderboard`` lists them)."""
        listed, params = _listed(minimum, opponents)
        async with self._transaction(write=False) as tx:
            return int((await tx.fetch(f"SELECT COUNT(*) FROM ratings r WHERE {listed}", params))[0][0])

    async def _rank(self, tx: Transaction, conservative: float, minimum: int, opponents: int) -> int:
        listed, params = _listed(minimum, opponents)
        rows = await tx.fetch(f"SELECT COUNT(*) FROM ratings r WHERE r.conservative > ? AND {listed}",
                              (conservative, *params))
        return int(rows[0][0]) + 1

    async def player_summary(self, fingerprint: str, recent: int = 10, minimum: int = 0,
                             opponents: int = 0) -> PlayerSummary:
        """A player's own record: name, rank (once listed, as ``leaderboard`` lists) and rating (if rated),
        and their latest finished matches."""
        listed, params = _listed(minimum, opponents)
        async with self._transaction(write=False) as tx:
            player = await self._player(tx, fingerprint)
            rows = await tx.fetch("SELECT name, mu, sigma, played, won, lost, conservative FROM ratings "
                                  "WHERE fingerprint = ?", (fingerprint,))
            standing = None
            if rows:
                name, mu, sigma, played, won, lost, conservative = rows[0]
                ranked = await tx.fetch(f"SELECT 1 FROM ratings r WHERE r.fingerprint = ? AND {listed}",
                                        (fingerprint, *params))
                rank = await self._rank(tx, conservative, minimum, opponents) if ranked else None
                standing = Standing(rank, fingerprint,
                                    player.name if player is not None else name, Rating(mu, sigma), played, won, lost)
            matches = await self._recent(tx, fingerprint, recent)
            against = await tx.fetch(
                "SELECT winner, COUNT(*) FROM finished_matches WHERE fingerprint0 = ? AND fingerprint1 IS NULL AND "
                "code LIKE ? AND rating_changes <> '[]' GROUP BY winner", (fingerprint, computer_code("%")))
        won = {int(winner): int(count) for winner, count in against}
        return PlayerSummary(player, standing, tuple(matches), (won.get(0, 0), won.get(1, 0)))


def _listed(minimum: int, opponents: int) -> tuple[str, tuple[int, ...]]:
    """The condition on a rating ``r`` for the leaderboard to list its player, and its parameters: ``minimum``
    rated matches, against at least ``opponents`` different established opponents (players with ``minimum``
    rated matches against others than this one)."""
    if opponents <= 0:
        return "r.played >= ?", (minimum,)
    return ("r.played >= ? AND (SELECT COUNT(*) FROM rated_opponents o JOIN ratings q ON q.fingerprint = o.opponent "
            "WHERE o.fingerprint = r.fingerprint AND q.played - o.matches >= ?) >= ?", (minimum, minimum, opponents))


def _json_or_none(document: dict[str, Any] | None) -> str | None:
    return None if document is None else json.dumps(document, ensure_ascii=False)


def _match_of(document: dict[str, Any]) -> Match:
    try:
        return Match.from_dict(document)
    except SolunaError as error:
        raise StorageError(f"not a match that can be filed: {error}") from None


def _stored_match(row: tuple[Any, ...]) -> StoredMatch:
    code, version, options, seats, document, created_at, updated_at, news, clock = row
    return StoredMatch(code, version, json.loads(options), seats_from_text(seats),
                       None if document is None else json.loads(document), created_at, updated_at,
                       None if news is None else json.loads(news), None if clock is None else json.loads(clock))


def _finished_match(row: tuple[Any, ...]) -> FinishedMatch:
    match_id, code, result, winner, options, seats, document, started_at, finished_at, changes, clock = row
    return FinishedMatch(match_id, code, result, winner, json.loads(options), seats_from_text(seats),
                         json.loads(document), started_at, finished_at,
                         tuple(RatingChange.from_dict(item) for item in json.loads(changes)),
                         None if clock is None else json.loads(clock))
