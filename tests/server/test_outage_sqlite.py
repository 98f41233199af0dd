"""Issue 39: a server alone on SQLite finds its database gone away (a full disk) within a heartbeat while a clock
runs, though nobody moves: the clocks stop as of then. Before, it was found at the next write: the mark it wrote
every 5 s while a match was in play, or a move."""

from __future__ import annotations

from soluna_tui.rules.clock import ClockSetting
from soluna_tui.server.lobby.presence import HEARTBEAT
from soluna_tui.server.lobby.upkeep import CLOCKS_STOPPED

from .helpers import wait_until
from .test_clocks_e2e import clocked_match
from .test_hostile_clients import fill


async def test_a_full_disk_under_a_running_clock_is_found_within_a_heartbeat_though_nobody_moves(tiny_disk) -> None:
    async with clocked_match(tiny_disk, ClockSetting(120.0, 0.0)) as (server, _, ann, bob):
        store, wal = server.store, tiny_disk / "soluna.sqlite3-wal"
        await store.checkpoint()
        # A write just made (the mark that the server serves its database): the next is due a while after it.
        await wait_until(lambda: wal.stat().st_size > 0, what="the server marking that it serves the database")
        await store.checkpoint()  # the log emptied: the next write needs room of its own
        filler = fill(tiny_disk)
        filled_at = store.clock()
        try:
            for terminal in (ann, bob):
                await terminal.wait_for_notice(CLOCKS_STOPPED)
            found = server.lobby.presence.away_since
        finally:
            filler.unlink()
        assert found is not None
        print(f"\nthe disk filled under a running clock, nobody moving: found {found - filled_at:.2f} s later, the "
              "clocks stopped then")
        assert found - filled_at < HEARTBEAT + 1.0
