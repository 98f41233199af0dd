"""The store in one SQLite file (the default: nothing to install, nothing to run beside the server).

One connection lives on one thread of its own; every statement goes there, so the event loop never
waits on the disk. Transactions begin IMMEDIATE (the write lock at once, so two writers queue
instead of failing half-way), the journal is WAL (readers never wait for the writer) and a busy
database is waited for. Changes are told to this process's subscribers after each commit: SQLite
serves one server; several servers share PostgreSQL. A server opens its file ``sole_server``: it
holds an exclusive lock on ``FILE.lock`` beside it for as long as it runs, and a second server on
the same file is refused at start, with one line pointing to PostgreSQL.

The write-ahead log is emptied (``wal_checkpoint(TRUNCATE)``) a few seconds after writes, and at
once after a burst of them, so it never grows past what a few seconds of play write; an idle
server writes nothing at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from .base import Storage
from .database import Transaction
from .records import Change, StorageError, StorageUnavailable

log = logging.getLogger("soluna.storage")

T = TypeVar("T")

#: Seconds a writer waits for another (another process on the same file) before giving up.
BUSY_TIMEOUT = 10.0
#: Seconds after a write before the write-ahead log is emptied, and the writes that empty it at once.
CHECKPOINT_DELAY = 5.0
CHECKPOINT_BURST = 200


class DatabaseInUse(StorageError):
    """Another server has this SQLite file open: SQLite serves one server."""


class SQLiteStorage(Storage):
    SERIAL_ID = "INTEGER PRIMARY KEY AUTOINCREMENT"
    FOR_UPDATE = ""
    ALL_PAST = "LIMIT -1 OFFSET ?"
    TABLE_EXISTS = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
    SHARED = False

    def __init__(self, path: Path, busy_timeout: float = BUSY_TIMEOUT, read_only: bool = False,
                 sole_server: bool = False, checkpoint_delay: float = CHECKPOINT_DELAY) -> None:
        """``sole_server``: this process is the server of this file, and no other may be (see the module)."""
        super().__init__(read_only)
        self.path = Path(path)
        self.busy_timeout = busy_timeout
        self.sole_server = sole_server
        self.checkpoint_delay = checkpoint_delay
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="soluna-sqlite")
        self._connection: sqlite3.Connection | None = None
        self._turn = asyncio.Lock()
        self._lock_file: int | None = None
        #: Write transactions since the write-ahead log was last emptied, and the timer that will empty it.
        self._writes = 0
        self._checkpoint_timer: asyncio.TimerHandle | None = None
        self._checkpoint_task: asyncio.Task[None] | None = None
        #: How many times the write-ahead log has been emptied (for tests and figures).
        self.checkpoints = 0

    def __repr__(self) -> str:
        return f"SQLiteStorage({str(self.path)!r})"

    @property
    def location(self) -> str:
        return str(self.path)

    async def _call(self, function: Callable[..., T], *args: Any) -> T:
        """Run ``function`` on the database thread; a database that fails becomes ``StorageUnavailable``."""
        try:
            return await asyncio.get_running_loop().run_in_executor(self._thread, function, *args)
        except sqlite3.IntegrityError:
            raise  # a constraint: the store decides what it means
        except sqlite3.DatabaseError as error:  # locked too long, disk full, not a database, damaged
            raise StorageUnavailable(f"the database {self.path} cannot be used: {error}") from None

    @property
    def lock_path(self) -> Path:
        """The file a server holds locked for as long as it serves this database."""
        return self.path.with_name(self.path.name + ".lock")

    async def _open(self) -> None:
        if self.sole_server and not self.read_only:
            self._claim()
        try:
            await self._call(self._connect)
        except BaseException:
            self._release()
            raise

    def _claim(self) -> None:
        """Hold ``lock_path`` for this server's life; ``DatabaseInUse`` when another server holds it."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as error:
            raise StorageUnavailable(f"the database {self.path} cannot be used: "
                                     f"{error.strerror or error}") from None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(descriptor, 32, 0).decode(errors="replace").strip()
            os.close(descriptor)
            who = f" (process {holder})" if holder.isdigit() else ""
            raise DatabaseInUse(f"another soluna serve{who} is using the database {self.path}: SQLite serves one "
                                "server; to run several, share one PostgreSQL database "
                                "(--database postgresql://...)") from None
        with contextlib.suppress(OSError):  # only for the message a second server prints
            os.ftruncate(descriptor, 0)
            os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
        self._lock_file = descriptor

    def _release(self) -> None:
        if self._lock_file is not None:
            descriptor, self._lock_file = self._lock_file, None
            os.close(descriptor)  # the lock goes with it; the file stays (removing it would race a newcomer)

    def _connect(self) -> None:
        if self.read_only:  # SQLite itself refuses every write
            where: str | Path = f"{self.path.absolute().as_uri()}?mode={self._read_mode()}"
        else:
            where = self.path
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise sqlite3.OperationalError(error.strerror or str(error)) from None
        connection = sqlite3.connect(where, timeout=self.busy_timeout, isolation_level=None,
                                     check_same_thread=False, uri=self.read_only)
        try:
            connection.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
            if not self.read_only:  # a reader takes the journal as the server left it
                _use_write_ahead_log(connection, self.busy_timeout)
            connection.execute("PRAGMA foreign_keys = ON")
        except sqlite3.DatabaseError:
            connection.close()
            raise
        self._connection = connection

    def _read_mode(self) -> str:
        """How a reader opens the file: a database no server has open (no write-ahead log beside it) as it is
        (``immutable``), for SQLite creates its ``-wal`` and ``-shm`` files beside a database in WAL mode for
        any other reader, and leaves them there (in a read-only folder it cannot open the file at all); a
        server's database, whose latest writes may still be in its log, through the log (the server made
        both files already)."""
        return "ro" if self.path.with_name(self.path.name + "-wal").exists() else "ro&immutable=1"

    async def _close(self) -> None:
        if self._checkpoint_timer is not None:
            self._checkpoint_timer.cancel()
            self._checkpoint_timer = None
        if self._checkpoint_task is not None:
            await asyncio.gather(self._checkpoint_task, return_exceptions=True)
        async with self._turn:
            if self._connection is not None:
                connection, self._connection = self._connection, None
                # Closing the last connection empties the write-ahead log and removes it.
                await asyncio.get_running_loop().run_in_executor(self._thread, connection.close)
        self._thread.shutdown(wait=False)
        self._release()

    @asynccontextmanager
    async def transaction(self, write: bool = True) -> AsyncIterator[Transaction]:
        if self._connection is None:
            raise StorageUnavailable(f"the database {self.path} is closed")
        async with self._turn:
            connection = self._connection
            tx = _SQLiteTransaction(self, connection)
            try:
                # Inside the try: a caller cancelled while BEGIN runs on the thread still rolls it back.
                await self._call(connection.execute, "BEGIN IMMEDIATE" if write else "BEGIN")
                changes_before = connection.total_changes
                yield tx
                await self._call(connection.commit)
            except BaseException:
                await asyncio.shield(self._call(_roll_back, connection))
                raise
            wrote = connection.total_changes != changes_before
        if wrote:  # a read goes through where a write may not (a full disk): only a write says it was there
            self.reached_at = self.clock()
            self._written()
        for change in tx.changes:
            self._publish(change)

    # ---- keeping the write-ahead log small -----------------------------------------------

    def _written(self) -> None:
        """A transaction that changed rows committed: the log is emptied soon, or now after a burst."""
        self._writes += 1
        if self._writes >= CHECKPOINT_BURST:
            self._checkpoint_soon()
        elif self._checkpoint_timer is None:
            self._checkpoint_timer = asyncio.get_running_loop().call_later(self.checkpoint_delay,
                                                                           self._checkpoint_soon)

    @property
    def checkpoint_due(self) -> bool:
        """Whether rows written since the write-ahead log was last emptied wait for it to be emptied again."""
        return self._checkpoint_timer is not None or (self._checkpoint_task is not None
                                                      and not self._checkpoint_task.done())

    def _checkpoint_soon(self) -> None:
        if self._checkpoint_timer is not None:
            self._checkpoint_timer.cancel()
            self._checkpoint_timer = None
        if self._checkpoint_task is None or self._checkpoint_task.done():
            self._checkpoint_task = asyncio.get_running_loop().create_task(self._checkpoint_quietly(),
                                                                           name="soluna-sqlite-checkpoint")

    async def _checkpoint_quietly(self) -> None:
        await self.checkpoint()

    async def checkpoint(self) -> bool:
        """Copy the write-ahead log into the database and empty it; whether it could be emptied (a reader of
        another process, ``soluna export``, may hold it a while: it is tried again after the next write)."""
        async with self._turn:
            if self._connection is None:
                return False
            self._writes = 0
            try:
                busy, _, _ = await self._call(_fetch_one, self._connection, "PRAGMA wal_checkpoint(TRUNCATE)")
            except StorageError as error:
                log.warning("cannot empty the write-ahead log of %s: %s", self.path, error)
                return False
        self.checkpoints += 1
        return not busy

    async def lock(self, tx: Transaction, name: str) -> None:
        """Nothing to take: an IMMEDIATE transaction already holds the only write lock."""

    def _is_unique_violation(self, error: BaseException) -> bool:
        return isinstance(error, sqlite3.IntegrityError) and "UNIQUE" in str(error)


def _use_write_ahead_log(connection: sqlite3.Connection, patience: float) -> None:
    """Switch to WAL; SQLite refuses at once (no busy wait) while another connection is opening the file,
    so try again for a while."""
    deadline = time.monotonic() + patience
    while True:
        try:
            mode = connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        except sqlite3.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.01)  # on the database thread, never the event loop
            continue
        if mode.lower() != "wal":
            raise sqlite3.OperationalError("it cannot use a write-ahead log")
        return


def _roll_back(connection: sqlite3.Connection) -> None:
    if connection.in_transaction:
        connection.rollback()


def _fetch(connection: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    return connection.execute(sql, params).fetchall()


def _fetch_one(connection: sqlite3.Connection, sql: str) -> tuple[Any, ...]:
    row: tuple[Any, ...] = connection.execute(sql).fetchone()
    return row


def _execute(connection: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int:
    return connection.execute(sql, params).rowcount


class _SQLiteTransaction(Transaction):
    def __init__(self, store: SQLiteStorage, connection: sqlite3.Connection) -> None:
        self._store = store
        self._connection = connection
        self.changes: list[Change] = []

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return await self._store._call(_fetch, self._connection, sql, tuple(params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self._store._call(_execute, self._connection, sql, tuple(params))

    async def announce(self, change: Change) -> None:
        self.changes.append(change)
