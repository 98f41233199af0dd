"""Over real SSH, where a whole packet of keys reaches the session's app at once."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from soluna_tui.rules import Position

from ..server.helpers import SshTerminal, running_server, towers_on_board
from ..server.test_two_players import create_match, join_match


def towers_shown(text: str) -> Position:
    """The towers on the board, read off the screen in their order."""
    return Position.parse(" ".join(towers_on_board(text.splitlines())))


@asynccontextmanager
async def ann_and_bob_in_a_match(data_dir) -> AsyncIterator[tuple[SshTerminal, SshTerminal]]:
    """A server, and ann and bob in a match over SSH (ann to move); all closed after."""
    async with running_server(data_dir) as server:
        ann = await SshTerminal.open(server.port, username="ann")
        bob = await SshTerminal.open(server.port, username="bob")
        try:
            await join_match(bob, await create_match(ann))
            yield ann, bob
        finally:
            await ann.close()
            await bob.close()


async def test_packets_of_keys_play_in_order_in_a_match_over_ssh(tmp_path) -> None:
    async with ann_and_bob_in_a_match(tmp_path) as (ann, bob):
        start = towers_shown(await ann.wait_for_text("Your move"))
        ann.send("llll\r6\r")  # steps to tower 5, picks it up, puts it on tower 6: one packet
        text = await ann.wait_for_text(" 1. ann")
        assert re.search(r" 1\. ann\s+(\S+)", text).group(1) == f"{start.towers[4]}>{start.towers[5]}"

        position = towers_shown(await bob.wait_for_text("Your move"))
        move = position.legal_moves[-1]
        bob.send(f"2\r:{move}\r")  # a tower picked up, then put back by ':' and a typed move: one packet
        text = await bob.wait_for_text(" 2. bob", "Waiting for ann.")
        assert re.search(r" 2\. bob\s+(\S+)", text).group(1) == str(move)
        await ann.wait_for_text(" 2. bob", "Your move")


async def test_escape_and_a_key_in_one_packet_put_the_tower_back_then_do_the_key(tmp_path) -> None:
    """Over SSH an Escape and the next key often share a packet: ESC 3 was read as Option+3 ("£")."""
    async with ann_and_bob_in_a_match(tmp_path) as (ann, bob):
        await ann.wait_for_text("Your move")
        ann.send("\r")
        await ann.wait_for_text("on a lit tower")
        ann.send("\x1b3")  # one packet: put back, then jump to tower 3
        await ann.wait_for(lambda text: "on a lit tower" not in text and "┍━3━┑" in text)
        ann.send("\r\x1bl")  # lift tower 3, put it back, a step right
        await ann.wait_for(lambda text: "on a lit tower" not in text and "┍━4━┑" in text)
