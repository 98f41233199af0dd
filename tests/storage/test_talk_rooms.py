"""A room of table talk's budget of lines, kept in the database: every server takes from the same one."""

from __future__ import annotations

import asyncio

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
    clock.now += BURST * EVERY + 1  # full again: the rows go, and a room that talks again starts full
    assert await second.talk_rooms.take("players:EFGH", 1, BURST, EVERY)
    async with first.transaction(write=False) as tx:
        assert await tx.fetch("SELECT room FROM talk_rooms ORDER BY room") == [("players:EFGH",)]


async def test_lines_taken_at_once_on_two_servers_spend_the_room_s_budget_once(open_store) -> None:
    first, second = await open_store(), await open_store()
    clock = Clock()
    first.clock = second.clock = clock
    taken = await asyncio.gather(*(store.talk_rooms.take("lobby", 1, BURST, EVERY) for store in (first, second) * 15))
    assert sum(taken) == BURST
