"""Runs in the server process, like every module of ``storage/``.

Where ``soluna serve`` keeps players, matches in play, finished matches and ratings.

``await open_storage(location, data_dir)`` gives a migrated ``Storage``: SQLite in the data
directory by default, or PostgreSQL for a ``postgresql://`` URL (several servers sharing one
lobby). What it keeps is in parts, one a kind (``store.matches``, ``store.players``... see
``base.py``). Every method is a coroutine that never blocks the event loop; every error is a
``StorageError`` (a ``ValueError``). Moves are stored with optimistic concurrency: each match has a
version, and ``store.matches.update`` succeeds only from the version the caller read.
"""

from __future__ import annotations

from pathlib import Path

from .archive_import import import_json_archive
from .base import Storage
from .chat import ChatMute, ChatRecord, ChatReport
from .database import Subscription
from .finished import RESULTS
from .records import (
    RESYNC,
    Change,
    CodeTaken,
    ComputerGameRecord,
    FinishedMatch,
    ImportReport,
    MatchNotFound,
    NameTaken,
    PlayerRecord,
    PlayerSummary,
    RatingChange,
    ReservedName,
    SchemaTooNew,
    SeatRecord,
    ServerRecord,
    Standing,
    StorageError,
    StorageUnavailable,
    StoredMatch,
    VersionConflict,
    name_key,
)

#: The SQLite file's name in the data directory.
DEFAULT_FILE = "soluna.sqlite3"
URL_SCHEMES = ("postgresql://", "postgres://")
#: How to install what a PostgreSQL database needs (an extra: a player who plays only here does without it).
POSTGRES_INSTALL = "pip install 'soluna-tui[postgres]'"

__all__ = [
    "DEFAULT_FILE", "RESULTS", "RESYNC", "Change", "ChatMute", "ChatRecord", "ChatReport", "CodeTaken",
    "ComputerGameRecord", "FinishedMatch",
    "ImportReport", "MatchNotFound", "NameTaken", "PlayerRecord", "PlayerSummary", "RatingChange", "ReservedName",
    "SchemaTooNew",
    "SeatRecord", "ServerRecord", "Standing", "Storage", "StorageError", "StorageUnavailable", "StoredMatch",
    "Subscription", "VersionConflict", "describe_location", "existing_location", "import_json_archive", "name_key",
    "open_storage",
    "storage_for",
]


def storage_for(location: str | Path | None, data_dir: Path | None = None, read_only: bool = False,
                sole_server: bool = False) -> Storage:
    """The (unopened) store at ``location``: a ``postgresql://`` URL, a SQLite file, or ``None`` for
    ``DATA_DIR/soluna.sqlite3``; ``read_only``, a store that can only read what is there; ``sole_server``,
    a server's own SQLite file, refused while another server has it open (PostgreSQL is shared)."""
    text = str(location) if location is not None else None
    if text is not None and text.startswith(URL_SCHEMES):
        try:
            from .postgres import PostgresStorage  # psycopg: only for servers that use it, and an extra
        except ImportError:
            raise StorageError(f"a PostgreSQL database needs the PostgreSQL driver: {POSTGRES_INSTALL}") from None
        return PostgresStorage(text, read_only=read_only)
    from .sqlite import SQLiteStorage

    if text is None:
        if data_dir is None:
            raise StorageError("no database given and no data directory to keep one in")
        return SQLiteStorage(Path(data_dir) / DEFAULT_FILE, read_only=read_only, sole_server=sole_server)
    if "://" in text:
        raise StorageError(f"unknown database {describe_location(text)!r}: give postgresql://... or a file path")
    return SQLiteStorage(Path(text).expanduser(), read_only=read_only, sole_server=sole_server)


async def open_storage(location: str | Path | None, data_dir: Path | None = None, read_only: bool = False,
                       sole_server: bool = False) -> Storage:
    """The store at ``location`` (see ``storage_for``), connected and migrated; ``read_only``: connected
    to read only, never created or migrated (``StorageError`` unless the schema is this program's)."""
    store = storage_for(location, data_dir, read_only, sole_server)
    await store.open()
    return store


def existing_location(location: str | None, data_dir: Path) -> str:
    """Where an owner's command finds the server's database: ``location`` (a URL, or a SQLite file that must be
    there: a command that reads never creates one), or ``DATA_DIR/soluna.sqlite3``; ``StorageError`` when the
    file is not there."""
    if location is not None and "://" in location:
        return location
    path = Path(location).expanduser() if location is not None else data_dir / DEFAULT_FILE
    if not path.is_file():
        raise StorageError(f"no server database at {path}")
    return str(path)


def describe_location(location: str) -> str:
    """A database location as it may be printed (no password)."""
    if location.startswith(URL_SCHEMES):
        try:
            from .postgres import _without_password
        except ImportError:  # no driver to read the URL with: nothing of it is shown
            return location.split("://", 1)[0] + "://..."
        return _without_password(location)
    return location.split("://", 1)[0] + "://..." if "://" in location else location
