"""Change notification: every server hears of every committed change, and recovers a lost connection."""

from __future__ import annotations

import asyncio
import time

import psycopg
import pytest

from soluna_tui.server.storage import RESYNC, Change, VersionConflict
from soluna_tui.server.storage.database import Subscription

from ..server.helpers import wait_until
from .conftest import finished_match, match_in_play, seats

#: Delivery across two servers on loopback must be quicker than this.
DELIVERY_SECONDS = 0.1


async def _next(changes, timeout: float = 5.0) -> Change:
    return await asyncio.wait_for(anext(changes), timeout)


async def _create(store, code: str = "ABCD"):
    match = match_in_play()
    return await store.matches.create(code, match.options.to_dict(), seats(), match.to_dict())


async def test_a_subscriber_hears_every_change_in_order(store):
    with store.subscribe() as changes:
        await _create(store)
        await store.matches.update("ABCD", 1, match_in_play().to_dict())
        await store.matches.finish("ABCD", 2, finished_match().to_dict(), "won")
        assert [await _next(changes) for _ in range(3)] == [Change("ABCD", 1), Change("ABCD", 2), Change("ABCD", 3)]


async def test_a_refused_change_is_not_announced(store):
    with store.subscribe() as changes:
        await _create(store)
        assert await _next(changes) == Change("ABCD", 1)
        with pytest.raises(VersionConflict):
            await store.matches.update("ABCD", 7, match_in_play().to_dict())
        await store.matches.update("ABCD", 1, match_in_play().to_dict())
        assert await _next(changes) == Change("ABCD", 2)


async def test_closing_ends_a_subscription(store):
    changes = store.subscribe()
    changes.close()
    assert [change async for change in changes] == []


async def test_a_subscriber_far_behind_is_told_to_re_read_everything(store, monkeypatch):
    monkeypatch.setattr("soluna_tui.server.storage.database.SUBSCRIBER_BACKLOG", 3)
    delivered: list[Change] = []
    put = Subscription.put
    monkeypatch.setattr(Subscription, "put", lambda self, change: (delivered.append(change), put(self, change))[1])
    with store.subscribe() as changes:
        await _create(store)
        for version in range(1, 6):
            await store.matches.update("ABCD", version, match_in_play().to_dict())
        # PostgreSQL: the listener delivers as the notices come; the subscriber reads only after all six.
        await wait_until(lambda: len(delivered) == 6, what="six changes delivered")
        received = [await _next(changes)]
        while received[-1] != Change("ABCD", 6):
            received.append(await _next(changes))
    assert RESYNC in received and len(received) < 5


#: SQLite serves one server, so only PostgreSQL has other servers to tell.
postgresql_only = pytest.mark.parametrize("database", ["postgresql"], indirect=True)


@postgresql_only
async def test_another_server_hears_a_change_within_100_ms(open_store):
    first, second = await open_store(), await open_store()
    delays = []
    with second.subscribe() as changes:
        await _create(first)
        assert await _next(changes) == Change("ABCD", 1)
        for version in range(1, 11):
            await first.matches.update("ABCD", version, match_in_play().to_dict())
            committed = time.monotonic()  # the write's own time, longer on a loaded machine, is not delivery's
            assert await _next(changes) == Change("ABCD", version + 1)
            delays.append(time.monotonic() - committed)
    print(f"delivery to another server: median {sorted(delays)[len(delays) // 2] * 1000:.1f} ms, "
          f"longest {max(delays) * 1000:.1f} ms")
    # Nine in ten within 100 ms and every one within a second: on a loaded machine (the suite's other workers),
    # one change in ten may wait a scheduler's slice more.
    assert sorted(delays)[-2] < DELIVERY_SECONDS and max(delays) < 10 * DELIVERY_SECONDS, delays


@postgresql_only
async def test_a_killed_listener_reconnects_and_asks_for_a_resync(open_store, database):
    first, second = await open_store(), await open_store()
    with second.subscribe() as changes:
        await _create(first)
        assert await _next(changes) == Change("ABCD", 1)
        killed = second.listener_pid
        with psycopg.connect(database, autocommit=True) as admin:
            assert admin.execute("SELECT pg_terminate_backend(%s)", (killed,)).fetchone() == (True,)
        # A change made about the time the listener is down is not lost: it arrives, or a resync covers it.
        await first.matches.update("ABCD", 1, match_in_play().to_dict())
        received = [await _next(changes)]
        while received[-1] != RESYNC:
            received.append(await _next(changes))
        assert set(received) <= {RESYNC, Change("ABCD", 2)}
        assert second.reconnections == 1 and second.listener_pid != killed
        await first.matches.update("ABCD", 2, match_in_play().to_dict())
        later = [await _next(changes)]
        while later[-1] != Change("ABCD", 3):
            later.append(await _next(changes))
        assert set(later) <= {Change("ABCD", 2), Change("ABCD", 3)}
    assert (await second.matches.get("ABCD")).version == 3


@postgresql_only
async def test_work_goes_on_after_the_pool_connections_are_killed(store, database):
    await _create(store)
    with psycopg.connect(database, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                      "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    assert await store.matches.update("ABCD", 1, match_in_play().to_dict()) == 2
