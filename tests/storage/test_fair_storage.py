"""Issue 16 in the store: clocks kept with matches, results on time and aborted, what is rated, the
leaderboard's minimum; and SQLite as one server's database (one server at a time, a log kept small)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from pathlib import Path

import pytest

from soluna_tui.rules.clock import ClockSetting, MatchClock
from soluna_tui.server.storage import SeatRecord, StorageError, open_storage
from soluna_tui.server.storage.sqlite import CHECKPOINT_BURST, DatabaseInUse, SQLiteStorage

from .conftest import finished_match, match_in_play, seats

ANN, BOB = "SHA256:ann", "SHA256:bob"
CLOCK = MatchClock(ClockSetting(180.0, 2.0), (170.5, 180.0), 0, 1000.0)


def from_addresses(first: str, second: str) -> tuple[SeatRecord, SeatRecord]:
    ann, bob = seats(ANN, BOB)
    return replace(ann, addresses=(first,)), replace(bob, addresses=(second,))


async def test_a_match_keeps_its_clock_and_files_it_as_it_ended(store) -> None:
    match = match_in_play()
    created = await store.matches.create("TIME", match.options.to_dict(), seats(), match.to_dict(),
                                       clock=CLOCK.to_document())
    assert created.clock == CLOCK.to_document()
    assert MatchClock.from_document((await store.matches.get("TIME")).clock) == CLOCK
    moved = CLOCK.after_move(0, 1010.0, 1)
    await store.matches.update("TIME", 1, match.to_dict(), clock=moved.to_document())
    assert MatchClock.from_document((await store.matches.get("TIME")).clock) == moved
    ended = finished_match(winner=1)
    ran_out = moved.ran_out(0, 1100.0)
    filed = await store.matches.finish("TIME", 2, ended.to_dict(), "time", clock=ran_out.to_document())
    assert (filed.result, filed.winner) == ("time", 1)
    again = await store.finished.get(filed.id)
    assert again is not None and MatchClock.from_document(again.clock) == ran_out


async def test_an_aborted_match_is_filed_with_no_winner_and_no_rating(store) -> None:
    match = match_in_play()
    await store.matches.create("ABRT", match.options.to_dict(), seats(ANN, BOB), match.to_dict())
    filed = await store.matches.finish("ABRT", 1, match.to_dict(), "aborted")
    assert (filed.result, filed.winner, filed.rated) == ("aborted", None, False)
    assert await store.ratings.leaderboard() == []


async def test_keys_that_sat_down_from_one_address_are_not_rated_and_addresses_are_never_filed(store) -> None:
    for code, addresses in (("SAME", ("10.0.0.1", "10.0.0.1")), ("APRT", ("10.0.0.1", "10.0.0.2"))):
        match = match_in_play()
        await store.matches.create(code, match.options.to_dict(), from_addresses(*addresses), match.to_dict())
        filed = await store.matches.finish(code, 1, finished_match(winner=0).to_dict(), "won")
        assert filed.rated is (code == "APRT")
        assert all(seat.addresses == () for seat in filed.seats)
        assert all(seat.addresses == () for seat in (await store.finished.get(filed.id)).seats)


async def test_the_leaderboard_lists_and_ranks_players_with_enough_rated_matches(store) -> None:
    for number in range(3):
        match = match_in_play()
        code = f"RAT{number}"
        first, second = seats(ANN, BOB) if number < 2 else seats(ANN, "SHA256:cyd", ("ann", "cyd"))
        await store.matches.create(code, match.options.to_dict(), (first, second), match.to_dict())
        await store.matches.finish(code, 1, finished_match(winner=1).to_dict(), "won")
    assert [row.name for row in await store.ratings.leaderboard(minimum=2)] == ["bob", "ann"]
    assert await store.ratings.rated_players(minimum=2) == 2 and await store.ratings.rated_players() == 3
    assert [row.name for row in await store.ratings.leaderboard(minimum=3)] == ["ann"]
    cyd = (await store.players.summary("SHA256:cyd", minimum=2)).standing
    assert cyd is not None and cyd.rank is None and cyd.played == 1  # rated, not ranked yet
    bob = (await store.players.summary(BOB, minimum=2)).standing
    assert bob is not None and bob.rank == 1


# ---- SQLite: one server, and a write-ahead log kept small ------------------------------------------


async def test_a_second_server_cannot_open_a_sqlite_file_a_server_has_open(tmp_path: Path) -> None:
    path = tmp_path / "one.sqlite3"
    first = await open_storage(path, sole_server=True)
    try:
        with pytest.raises(DatabaseInUse, match=r"another soluna serve \(process \d+\) is using the database"):
            await open_storage(path, sole_server=True)
        reader = await open_storage(path, read_only=True)  # soluna export reads beside a running server
        await reader.close()
        assert isinstance(DatabaseInUse("x"), StorageError)
    finally:
        await first.close()
    again = await open_storage(path, sole_server=True)  # the lock goes with the server
    await again.close()
    assert (tmp_path / "one.sqlite3.lock").exists()


def wal_size(store: SQLiteStorage) -> int:
    wal = Path(f"{store.path}-wal")
    return wal.stat().st_size if wal.exists() else 0


async def test_the_write_ahead_log_is_emptied_after_writes_and_at_once_after_a_burst(tmp_path: Path) -> None:
    store = SQLiteStorage(tmp_path / "log.sqlite3", sole_server=True, checkpoint_delay=0.2)
    await store.open()
    try:
        await asyncio.sleep(0.5)
        assert wal_size(store) == 0  # the migration's writes, emptied
        emptied = store.checkpoints
        await store.players.see(ANN, "ann")
        assert wal_size(store) > 0
        deadline = time.monotonic() + 5
        # The log is truncated in the store's thread before the count goes up on its loop: wait for both.
        while (wal_size(store) or store.checkpoints == emptied) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert wal_size(store) == 0 and store.checkpoints == emptied + 1
        await store.servers.known()  # reading changes nothing: nothing to empty
        await store.servers.forget(seen_before=0.0)  # a write that changes no row either
        await asyncio.sleep(0.4)
        assert store.checkpoints == emptied + 1
        store.checkpoint_delay = 60.0
        for number in range(CHECKPOINT_BURST):
            await store.players.see(f"SHA256:{number}", f"p{number}")
        deadline = time.monotonic() + 5  # well under the minute the delay would take
        while (wal_size(store) or store.checkpoints < emptied + 2) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert store.checkpoints == emptied + 2 and wal_size(store) == 0  # a burst is not left for a minute
    finally:
        await store.close()
