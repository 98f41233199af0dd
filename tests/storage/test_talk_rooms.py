"""A room of table talk's budget of lines, kept in the database: every server takes from the same one."""

from __future__ import annotations

import asyncio

from soluna_tui.server.storage.talk_rooms import QUIET, SWEEP_EVERY

from ..server.helpers import Clock

BURST, EVERY = 20, 0.5


async def test_a_room_gives_a_burst_then_a_line_every_so_often_and_a_greedy_speaker_needs_more_left(
        open_store) -> None:
    first, second = await open_store(), await open_store()  # two servers on one database
    clock = Clock()
    first.clock = second.clock = clock
    taken = [await (first, second)[number % 2].talk_rooms.take("lobby", 1, BURST, EVERY) for number in range(BURST + 3)]
    assert taken == [True] * BURST + [False] * 3  # the refused lines cost nothing
    assert await first.talk_rooms.take("players:ABCD", 1, BURST, EVERY)  # another room, its own budget
    clock.now += EVERY * 3
    assert not await second.talk_rooms.take("lobby", 4, BURST, EVERY)  # three lines back: four needed, none taken
    assert [await first.talk_rooms.take("lobby", 1, BURST, EVERY) for _ in range(4)] == [True] * 3 + [False]
    clock.now += BURST * EVERY  # full again
    again = [await second.talk_rooms.take("lobby", 1, BURST, EVERY) for _ in range(BURST + 1)]
    assert again == [True] * BURST + [False]


async def test_lines_taken_at_once_on_two_servers_spend_the_room_s_budget_once(open_store) -> None:
    first, second = await open_store(), await open_store()
    clock = Clock()
    first.clock = second.clock = clock
    taken = await asyncio.gather(*(store.talk_rooms.take("lobby", 1, BURST, EVERY) for store in (first, second) * 15))
    assert sum(taken) == BURST


async def test_servers_whose_clocks_disagree_never_refill_a_room_by_the_difference(open_store) -> None:
    first, second = await open_store(), await open_store()
    ahead, behind = Clock(), Clock()
    ahead.now += 5  # the first server's clock five seconds ahead of the second's
    first.clock, second.clock = ahead, behind
    taken = 0
    for number in range(200):  # lines by turns, each server's clock moving 10 ms a line
        ahead.now += 0.01
        behind.now += 0.01
        taken += await (first, second)[number % 2].talk_rooms.take("lobby", 1, BURST, EVERY)
    assert taken <= BURST + 2 / EVERY + 1  # two seconds passed: four lines back, not 5 s a turn


async def test_a_quiet_room_is_swept_and_a_sweep_never_waits_on_a_room_being_counted(open_store) -> None:
    first, second = await open_store(), await open_store()
    clock = Clock()
    first.clock = second.clock = clock
    assert await first.talk_rooms.take("players:ABCD", 1, BURST, EVERY)
    clock.now += QUIET + SWEEP_EVERY + 1
    # Lines in two other rooms at once, on both servers, each sweeping: nothing waits on another (no deadlock).
    taken = await asyncio.gather(*(store.talk_rooms.take(room, 1, BURST, EVERY)
                                   for store in (first, second) for room in ("lobby", "players:EFGH") * 3))
    assert all(taken)
    async with first.transaction(write=False) as tx:
        assert await tx.fetch("SELECT room FROM talk_rooms ORDER BY room") == [("lobby",), ("players:EFGH",)]
