"""The store in one SQLite file (the default: nothing to install, nothing to run beside the server).

One connection lives on one thread of its own; every statement goes there, so the event loop never
waits on the disk. Transactions begin IMMEDIATE (the write lock at once, so two writers queue
instead of failing half-way), the journal is WAL (readers never wait for the writer) and a busy
database is waited for. Changes are told to this process's subscribers after each commit: SQLite
serves one server; several servers share PostgreSQL.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from .base import Storage, Transaction
from .records import Change, StorageUnavailable

T = TypeVar("T")

#: Seconds a writer waits for another (another process on the same file) before giving up.
BUSY_TIMEOUT = 10.0


class SQLiteStorage(Storage):
    SERIAL_ID = "INTEGER PRIMARY KEY AUTOINCREMENT"
    FOR_UPDATE = ""
    TABLE_EXISTS = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"

    def __init__(self, path: Path, busy_timeout: float = BUSY_TIMEOUT, read_only: bool = False) -> None:
        super().__init__(read_only)
        self.path = Path(path)
        self.busy_timeout = busy_timeout
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="soluna-sqlite")
        self._connection: sqlite3.Connection | None = None
        self._turn = asyncio.Lock()

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

    async def _open(self) -> None:
        await self._call(self._connect)

    def _connect(self) -> None:
        if self.read_only:  # SQLite itself refuses every write, and creates no file that is not there
            where: str | Path = f"{self.path.absolute().as_uri()}?mode=ro"
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

    async def _close(self) -> None:
        if self._connection is not None:
            connection, self._connection = self._connection, None
            await asyncio.get_running_loop().run_in_executor(self._thread, connection.close)
        self._thread.shutdown(wait=False)

    @asynccontextmanager
    async def _transaction(self, write: bool = True) -> AsyncIterator[Transaction]:
        if self._connection is None:
            raise StorageUnavailable(f"the database {self.path} is closed")
        async with self._turn:
            connection = self._connection
            tx = _SQLiteTransaction(self, connection)
            try:
                # Inside the try: a caller cancelled while BEGIN runs on the thread still rolls it back.
                await self._call(connection.execute, "BEGIN IMMEDIATE" if write else "BEGIN")
                yield tx
                await self._call(connection.commit)
            except BaseException:
                await asyncio.shield(self._call(_roll_back, connection))
                raise
        for change in tx.changes:
            self._publish(change)

    async def _lock(self, tx: Transaction, name: str) -> None:
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
