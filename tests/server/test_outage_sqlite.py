"""Issue 39, a server alone on SQLite whose disk fills under a match with a clock (a real 1 MiB tmpfs):

- it finds its database gone away within a heartbeat, though nobody moves: the clocks stop as of then (before, it
  was found at the next write: the mark it wrote every 5 s while a match was in play, or a move);
- a day without it adjourns the match (the server's time leaps over the day): kept, the clocks where they stood,
  the player who left meanwhile held for nobody's time, and it goes on once he is back.
"""

from __future__ import annotations

import time

from soluna_tui.rules import Match
from soluna_tui.rules.clock import ClockSetting, MatchClock
from soluna_tui.server.config import ADJOURN_AFTER
from soluna_tui.server.lobby.presence import HEARTBEAT
from soluna_tui.server.lobby.upkeep import CLOCKS_STOPPED

from .helpers import play_a_move, wait_until
from .test_clocks_e2e import clocked_match, open_keyed
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


async def test_a_day_without_its_disk_adjourns_the_match_until_both_players_are_back(tiny_disk) -> None:
    async with clocked_match(tiny_disk, ClockSetting(120.0, 0.0)) as (server, code, ann, bob):
        store = server.store
        for _ in range(2):
            await play_a_move(server, code, [ann, bob])
        await ann.wait_for_text("Your move")
        await store.checkpoint()
        filler = fill(tiny_disk)
        try:
            for terminal in (ann, bob):
                await terminal.wait_for_notice(CLOCKS_STOPPED)
            stopped_at = server.lobby.presence.away_since
            before = server.lobby.tables[code].clock
            await bob.close()  # gone meanwhile
            store.clock = lambda: time.time() + ADJOURN_AFTER + 3600
        finally:
            filler.unlink()
        await ann.wait_for(lambda _: "adjourned" in ann.sidebar)

        async def adjourned_and_bob_away() -> bool:
            stored = await store.matches.get(code)
            return stored.adjourned_at is not None and stored.seats[1].server is None
        await wait_until(adjourned_and_bob_away, what="the match adjourned, bob's departure written")
        await ann.pump(HEARTBEAT * 3)  # a few sweeps: nothing comes due (no clock runs, no seat is held)
        stored = await store.matches.get(code)
        stood = MatchClock.from_document(stored.clock)
        assert stood.running is None and stood.left == before.run(None, stopped_at).left
        assert stored.seats[1].held_until is None and not Match.from_dict(stored.document).is_over
        back = await open_keyed(server.port, "bob", 1, first_visit=False)
        try:
            await back.wait_for_text("Return to your match")
            await back.press("enter")
            for terminal in (ann, back):
                await terminal.wait_for(lambda _, terminal=terminal: "the adjourned match goes on" in terminal.sidebar)
            going = MatchClock.from_document((await store.matches.get(code)).clock)
            print(f"\na day and an hour without the disk: adjourned, the clocks at {stood.left[0]:.1f} s and "
                  f"{stood.left[1]:.1f} s; bob back, ann's runs again from there")
            assert going.running == 0 and going.left == stood.left
        finally:
            await back.close()
