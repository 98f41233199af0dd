"""Migrations: from an empty database, again on a migrated one, and by two servers at once."""

from __future__ import annotations

import asyncio

import pytest

from soluna_tui.server.storage import SchemaTooNew, open_storage, storage_for
from soluna_tui.server.storage.schema import LATEST

TABLES = {"schema_version", "players", "matches", "finished_matches", "ratings", "imports"}


async def _tables(store, backend: str) -> set[str]:
    query = ("SELECT name FROM sqlite_master WHERE type = 'table'" if backend == "sqlite"
             else "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    async with store.transaction() as tx:
        return {row[0] for row in await tx.fetch(query)}


@pytest.mark.empty_database
async def test_an_empty_database_is_migrated_to_the_latest_schema(store, backend):
    assert await store.schema_version() == LATEST
    assert TABLES <= await _tables(store, backend)


async def test_migrating_again_changes_nothing(store):
    await store.players.see("SHA256:ann", "ann")
    assert await store.migrate() == LATEST
    async with store.transaction() as tx:
        assert await tx.fetch("SELECT COUNT(*) FROM schema_version") == [(LATEST,)]
    assert (await store.players.get("SHA256:ann")).name == "ann"


@pytest.mark.empty_database
async def test_two_servers_starting_at_once_migrate_once(database, open_store):
    first, second = await asyncio.gather(open_store(), open_store())
    assert await first.schema_version() == await second.schema_version() == LATEST
    async with first.transaction() as tx:
        assert await tx.fetch("SELECT version FROM schema_version ORDER BY version") == [
            (number,) for number in range(1, LATEST + 1)]


async def test_a_database_from_a_newer_program_is_refused_with_a_clear_error(store, database):
    async with store.transaction() as tx:
        await tx.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, 0)", (LATEST + 1,))
    with pytest.raises(SchemaTooNew, match="upgrade soluna"):
        await open_storage(database)


async def test_an_unreachable_database_is_one_storage_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(ValueError, match="cannot be used"):
        await open_storage(blocker / "store.sqlite3")
    with pytest.raises(ValueError, match="unknown database"):
        storage_for("mysql://somewhere/db")


async def test_a_file_that_is_not_a_database_is_one_storage_error(tmp_path):
    impostor = tmp_path / "store.sqlite3"
    impostor.write_bytes(b"this is a text file, not SQLite" * 100)
    with pytest.raises(ValueError, match="cannot be used: file is not a database"):
        await open_storage(impostor)
    assert impostor.read_bytes().startswith(b"this is a text file")


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_sqlite_writes_ahead_and_waits_for_a_busy_database(store):
    async with store.transaction(write=False) as tx:
        assert await tx.fetch("PRAGMA journal_mode") == [("wal",)]
        assert await tx.fetch("PRAGMA busy_timeout") == [(int(store.busy_timeout * 1000),)]


async def test_a_store_closes_at_the_end_of_an_async_with(database):
    async with await open_storage(database) as store:
        await store.players.see("SHA256:ann", "ann")
    with pytest.raises(ValueError):
        await store.players.get("SHA256:ann")
