"""Shared test configuration, and the databases the server's tests run against.

PostgreSQL comes from the ``pgserver`` wheel (its own binaries, a Unix socket only, no TCP port),
started once per test session; each test gets a database of its own. Run as root, pgserver runs
the server as a system user ``pgserver`` that it creates (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
import uuid
import warnings
from pathlib import Path

import pytest

# The app must not pick ASCII mode or colours from whatever terminal runs the tests.
os.environ.setdefault("TERM", "xterm-256color")
os.environ.pop("NO_COLOR", None)

#: Test folders that start servers, child processes or installed commands: ``pytest -m "not slow"`` skips them.
SLOW_FOLDERS = {"server", "e2e", "storage", "fleet"}
#: The databases the store (and the server on it) is tested on.
BACKENDS = ("sqlite", "postgresql")


def pytest_xdist_auto_num_workers(config) -> int:
    """``-n auto``: three workers a core. Most tests spend most of their time waiting (on a server,
    a child process, a timer, a pseudo-terminal), so one worker a core leaves the cores half idle:
    on a 2-core machine the suite took 7 min with 2 workers, 5 min with 4 and 4 min with 6."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return 3 * cores


def pytest_collection_modifyitems(config, items):
    """Mark every test in a slow folder, so the rules and app tests run on their own in seconds."""
    for item in items:
        if SLOW_FOLDERS.intersection(item.path.relative_to(config.rootpath).parts[1:2]):
            item.add_marker(pytest.mark.slow)


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
    with fresh_database(request.getfixturevalue("postgres_server")) as url:
        yield url


@pytest.fixture
def postgres_database(postgres_server):
    """A new, empty PostgreSQL database's URL (for servers that share it)."""
    with fresh_database(postgres_server) as url:
        yield url


@contextlib.contextmanager
def fresh_database(server):
    import psycopg

    name = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server.get_uri(), autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    try:
        yield server.get_uri(database=name)
    finally:
        with psycopg.connect(server.get_uri(), autocommit=True) as connection:
            connection.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture
def backend(database: str) -> str:
    return "postgresql" if database.startswith("postgresql://") else "sqlite"
