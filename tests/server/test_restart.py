"""One server on its database, stopped and started again: matches in play and computer matches are kept, and
the time it was down counts against no clock and nobody's time away."""

from __future__ import annotations

import asyncio
import re
import time

from soluna_tui.rules.clock import ClockSetting, MatchClock
from soluna_tui.server.lobby.decision_values import away_used
from soluna_tui.server.storage import open_storage

from .helpers import SshTerminal, play_a_move, running_server
from .test_clocks_e2e import clocked_match, clocks_on, open_keyed, server_clock
from .test_two_players import create_match, join_match, secret_shown


async def test_a_restarted_server_keeps_matches_in_play_and_held_computer_matches(tmp_path) -> None:
    async with running_server(tmp_path, hold_time=120) as server:
        ann = await SshTerminal.open(server.port, username="ann")
        bob = await SshTerminal.open(server.port, username="bob")
        cyd = await SshTerminal.open(server.port, username="cyd")
        try:
            await join_match(bob, await create_match(ann))
            await ann.wait_for_text("Your move", "bob has joined")
            await ann.press("enter", "right", "space")
            await bob.wait_for_text(" 1. ann", "secret ")
            bob_secret = secret_shown(bob)
            await cyd.wait_for_text("Welcome, cyd.")
            await cyd.press("enter")  # play the computer
            await cyd.wait_for_text("Your move", "secret ")
            cyd_secret = secret_shown(cyd)
            await cyd.press("enter", "right", "space")
            history = re.findall(r" [12]\. (?:cyd|Computer)\s+\S+>\S+", await cyd.wait_for_text(" 2. Computer"))
        finally:
            for terminal in (ann, bob, cyd):
                await terminal.close()
    assert (tmp_path / "soluna.sqlite3").is_file()
    async with running_server(tmp_path, hold_time=120) as server:
        bob = await SshTerminal.open(server.port, username="bob")
        cyd = await SshTerminal.open(server.port, username="cyd")
        try:
            await bob.wait_for_text("Your seat: ann vs bob", "Return to your match")
            await bob.press("enter")
            await bob.wait_for_text("type the secret")
            await bob.press(bob_secret.lower(), "enter")
            await bob.wait_for_text("Welcome back.", " 1. ann", f"secret {bob_secret}")
            await cyd.wait_for_text("Resume computer match")
            await cyd.press("enter")
            await cyd.wait_for_text("type the secret")
            await cyd.press(cyd_secret.lower(), "enter")
            text = await cyd.wait_for_text("Your move", " 2. Computer")
            assert re.findall(r" [12]\. (?:cyd|Computer)\s+\S+>\S+", text) == history
        finally:
            await bob.close()
            await cyd.close()


# ---- issue 29: the time a server is down counts against nobody ----------------------------------


async def test_a_server_stopped_longer_than_the_hold_time_gives_every_match_back_as_it_was(tmp_path, database) -> None:
    """Ann leaves, then the server stops for longer than the hold time with bob's clock running: started again, the
    match is there, both clocks and both players' time away as they were when it stopped, each seat held from the
    restart for what was left of its time away; bob comes back to the clock he left."""
    # Held long enough for bob to connect again on a loaded machine (each seat is held from the restart for what
    # was left of it: with 4 s, and 8 at a load of 26 on 2 cores, his new session came after ann's seat had run out).
    clock, hold = ClockSetting(60.0, 0.0), 10.0
    async with clocked_match(tmp_path, clock, hold_time=hold, database=database) as (server, code, ann, bob):
        await play_a_move(server, code, [ann, bob])  # bob's clock runs
        await ann.close()
        await bob.wait_for_text("ann has left")  # her time away counts from here until the stop
    stopped_at = time.time()  # it stopped between the last change it wrote and now
    store = await open_storage(database)
    try:
        at_stop = await store.matches.get(code)
        assert at_stop is not None
        # Down on purpose for longer than the hold time: today's servers abandoned every match here.
        await asyncio.sleep(hold + 1.5)
    finally:
        await store.close()
    async with running_server(tmp_path, clocks=(clock,), ranked_after=1, hold_time=hold, database=database) as server:
        back = await server.store.matches.get(code)
        assert back is not None and back.version == at_stop.version + 1, "the match was not given back"
        last_change = at_stop.updated_at
        before, after = MatchClock.from_document(at_stop.clock), MatchClock.from_document(back.clock)
        assert before is not None and after is not None and after.running == before.running == 1
        # The moment the match was given back is the one its clock runs from: the write is stamped a moment after
        # (16 ms at 16 workers on 2 cores, which charged bob for it here when the stamp was taken for it).
        assert after.since is not None and after.since <= back.updated_at
        restarted_at = after.since
        assert before.left_at(1, stopped_at) <= after.left_at(1, restarted_at) <= before.left_at(1, last_change)
        assert after.left[0] == before.left[0]
        for then, now in zip(at_stop.seats, back.seats, strict=True):
            assert now.server is None and then.held_until is not None and now.held_until is not None
            assert away_used(then, last_change) <= away_used(now, restarted_at) <= away_used(then, stopped_at)
            assert then.held_until - stopped_at <= now.held_until - restarted_at <= then.held_until - last_change
        kept = [round(away_used(seat, restarted_at), 1) for seat in back.seats]
        print(f"\ndown {restarted_at - stopped_at:.1f} s with a {hold:g} s hold: bob's clock kept "
              f"{after.left_at(1, restarted_at):.1f} s, time away kept {kept}")
        bob = await open_keyed(server.port, "bob", 1, first_visit=False)
        try:
            # Seated straight back by his key (an Enter on "Return to your match", shown a moment before, could
            # land on the board and say something else over "Welcome back.").
            await bob.wait_for_text("Welcome back.", "Your move")
            print(f"bob was back at his match {time.time() - restarted_at:.1f} s after the restart")
            shown = (await clocks_on(bob))[1]
            # No less than the server has left for bob now and no more than it had at the restart (the screen was
            # drawn a moment ago, longer ago on a loaded machine), give or take the second the screen rounds to.
            left_now = server_clock(server, code).left_at(1, server.store.clock())
            assert left_now - 1.0 <= shown <= after.left_at(1, restarted_at) + 1.0, (shown, left_now)
            assert shown > before.left_at(1, stopped_at) - (time.time() - restarted_at) - 1.5
        finally:
            await bob.close()
