"""Every storage test runs against both backends: SQLite in a temporary folder, and a real PostgreSQL.

PostgreSQL comes from the ``pgserver`` wheel (its own binaries, a Unix socket only, no TCP port),
started once per test session; each test gets a database of its own. Run as root, pgserver runs
the server as a system user ``pgserver`` that it creates (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import random
import tempfile
import time
import uuid
import warnings
from pathlib import Path

import pytest

from soluna_tui.rules import Match, MatchOptions
from soluna_tui.server.storage import SeatRecord, Storage, open_storage

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server for the whole session (about a second to start).

    Its folder is not under pytest's temporary root: pytest keeps that root private to the user
    running the tests, and the server (as ``pgserver`` when the tests run as root) must reach it.
    """
    pgserver = pytest.importorskip("pgserver")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: no XDG_RUNTIME_DIR in a container
        started = time.monotonic()
        server = pgserver.get_server(tempfile.mkdtemp(prefix="soluna-postgres-"), cleanup_mode="delete")
    server.start_seconds = time.monotonic() - started
    # Throwaway data: no waiting for the disk, so creating a database per test is quick.
    server.psql("ALTER SYSTEM SET fsync = off; ALTER SYSTEM SET synchronous_commit = off; "
                "ALTER SYSTEM SET full_page_writes = off; SELECT pg_reload_conf();")
    yield server
    server.cleanup()


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path):
    """Where a fresh, empty store lives: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "store.sqlite3")
        return
    import psycopg

    server = request.getfixturevalue("postgres_server")
    name = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server.get_uri(), autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    yield server.get_uri(database=name)
    with psycopg.connect(server.get_uri(), autocommit=True) as connection:
        connection.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture
def backend(database: str) -> str:
    return "postgresql" if database.startswith("postgresql://") else "sqlite"


@pytest.fixture
async def open_store(database: str):
    """Open a store on the test's database; several calls are several servers sharing it."""
    opened: list[Storage] = []

    async def opener() -> Storage:
        store = await open_storage(database)
        opened.append(store)
        return store

    yield opener
    for store in opened:
        await store.close()


@pytest.fixture
async def store(open_store) -> Storage:
    return await open_store()


def seats(first: str | None = "SHA256:ann", second: str | None = "SHA256:bob",
          names: tuple[str, str] = ("ann", "bob")) -> tuple[SeatRecord, SeatRecord]:
    """Two seats, keyed by ``first`` and ``second`` (``None``: a guest without a key)."""
    return (SeatRecord(names[0], names[0], first, True, "hash-0"),
            SeatRecord(names[1], names[1], second, False, None))


def finished_match(winner: int = 0, seed: int = 1, discs: int = 6, stars: int = 1) -> Match:
    """A match played to its end with random legal moves, until ``winner`` has the stars."""
    options = MatchOptions.preset("online", stars_to_win=stars, discs=discs)
    rng = random.Random(seed)
    while True:
        match = Match(options, ("ann", "bob"), seed=rng.randrange(10**6))
        while not match.is_over:
            if match.between_rounds:
                match.start_next_round(match.next_opener())
            moves = match.position.legal_moves
            match.play(rng.choice(moves))
        if match.winner == winner:
            return match


def match_in_play(seed: int = 1) -> Match:
    match = Match(MatchOptions.preset("online", stars_to_win=2, discs=6), ("ann", "bob"), seed=seed)
    match.play(match.position.legal_moves[0])
    return match
