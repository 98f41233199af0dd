"""The connection and transaction helper every part of the store shares, written once for both databases.

A backend (``sqlite.py``, ``postgres.py``) supplies transactions, a lock for work two servers must
not do at once, how its database spells what the two spell differently (an auto-numbered key, a row
lock, "every row past the first N"), and how changes reach subscribers. SQL in the store's parts
uses ``?`` placeholders and the subset both databases share. Here too: the database's life (open,
migrate, close) and the subscriptions to changes of matches.
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Self, TypeVar

from .records import RESYNC, Change, SchemaTooNew, StorageError, name_key
from .schema import CREATE_VERSION_TABLE, LATEST, MIGRATIONS, REKEY_PLAYERS

log = logging.getLogger("soluna.storage")

T = TypeVar("T")

#: Changes a subscriber may fall behind by before it is told to re-read everything instead.
SUBSCRIBER_BACKLOG = 1000


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


class Database(ABC):
    """One database, shared by every server using it: transactions, locks, the schema, news of changes.

    Every method is a coroutine that never blocks the event loop; failures are ``StorageError``s.
    """

    #: How this database spells an auto-numbered integer primary key.
    SERIAL_ID: str
    #: What makes a SELECT lock the rows it reads until the transaction ends ("" where writers queue anyway).
    FOR_UPDATE: str
    #: What ends a SELECT to keep every row past the first ``?`` (its one parameter).
    ALL_PAST: str
    #: A query with a row when the table named by its one parameter exists.
    TABLE_EXISTS: str
    #: Whether several servers may share this database (PostgreSQL); SQLite serves one server alone.
    SHARED: bool

    def __init__(self, read_only: bool = False) -> None:
        #: Opened only to read (``soluna export``): the database refuses every write, nothing is created or migrated.
        self.read_only = read_only
        self._subscribers: set[Subscription] = set()
        #: Who hears table talk said on any server (the lobby), once it listens.
        self.on_talk: Callable[[str], None] | None = None
        #: Seconds since the epoch; tests may replace it.
        self.clock: Callable[[], float] = time.time
        #: When (by ``clock``) a write last went through: the database was there until then at least.
        self.reached_at = float("-inf")

    # ---- what a backend provides ---------------------------------------------------------

    @abstractmethod
    def transaction(self, write: bool = True) -> AbstractAsyncContextManager[Transaction]:
        """A transaction, committed when the block ends normally, rolled back when it raises.

        ``write=False`` promises only reads, which then need not wait for another server's writes.
        """

    @abstractmethod
    async def lock(self, tx: Transaction, name: str) -> None:
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

    @property
    @abstractmethod
    def location(self) -> str:
        """Where the database is, as it may be printed (no password)."""

    # ---- life ----------------------------------------------------------------------------

    async def open(self) -> None:
        """Connect and bring the schema up to date (read-only: check that it is up to date)."""
        await self._open()
        try:
            await (self._check_schema() if self.read_only else self.migrate())
        except BaseException:
            await self._close()
            raise

    async def close(self) -> None:
        """End every subscription and release the database."""
        for subscription in list(self._subscribers):
            subscription.close()
        await self._close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # ---- work --------------------------------------------------------------------------

    async def first_wins(self, work: Callable[[Transaction], Awaitable[T]], refusal: StorageError) -> T:
        """Run ``work`` in a transaction; if another server inserted the same row meanwhile, run it once more
        (it then sees that row), and raise ``refusal`` if it still collides."""
        for attempt in (1, 2):
            try:
                async with self.transaction() as tx:
                    return await work(tx)
            except StorageError:
                raise
            except Exception as error:
                if not self._is_unique_violation(error):
                    raise
                if attempt == 2:
                    raise refusal from None
        raise AssertionError("unreachable")

    # ---- news of changes ---------------------------------------------------------------

    def subscribe(self) -> Subscription:
        """Every change to matches from now on (of every server on this database), as ``Change`` values."""
        return Subscription(self._subscribers)

    def _publish(self, change: Change) -> None:
        for subscription in list(self._subscribers):
            subscription.put(change)

    # ---- table talk: passed on to every server, never written ----------------------------

    async def talk(self, payload: str) -> None:
        """Pass ``payload`` (a chat line) to every server's ``on_talk``, this one's too, writing nothing: alone on
        the database, at once; PostgreSQL passes it through a notification, which is not stored."""
        self._heard_talk(payload)

    def _heard_talk(self, payload: str) -> None:
        if self.on_talk is not None:
            try:
                self.on_talk(payload)
            except Exception:  # noqa: BLE001 - one bad line must not stop the listening
                log.exception("a chat line could not be passed on")

    # ---- the schema ----------------------------------------------------------------------

    async def migrate(self) -> int:
        """Apply the migrations this database lacks, all in one transaction; return the schema version."""
        async with self.transaction() as tx:
            await self.lock(tx, "soluna-schema")
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

    async def _check_schema(self) -> None:
        """``StorageError`` unless this is a Soluna database at the schema this program reads."""
        async with self.transaction(write=False) as tx:
            if not await tx.fetch(self.TABLE_EXISTS, ("schema_version",)):
                raise StorageError(f"{self.location} is not a Soluna server's database")
            current = (await tx.fetch("SELECT MAX(version) FROM schema_version"))[0][0] or 0
        if current > LATEST:
            raise SchemaTooNew(f"the database has schema version {current}; this program knows up to {LATEST}: "
                               "upgrade soluna")
        if current < LATEST:
            raise StorageError(f"the database has schema version {current}, older than this program's {LATEST}: "
                               "start soluna serve on it once to bring it up to date")

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
        async with self.transaction(write=False) as tx:
            return (await tx.fetch("SELECT MAX(version) FROM schema_version"))[0][0] or 0

