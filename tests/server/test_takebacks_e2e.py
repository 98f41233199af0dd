"""Takebacks, the bell, coming back to one's table and the open seeks board, over real SSH: two asyncssh clients
with pseudo-terminals read by pyte, a real server on 127.0.0.1."""

from __future__ import annotations

import re

import asyncssh

from .helpers import play_a_move, running_server, terminals, wait_until
from .test_coming_back_e2e import a_match
from .test_pairing_e2e import in_match, quick_match

#: An operating system command (a window title, a colour query...), which BEL may end: no bell.
OSC = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


def bells(received: bytes | bytearray) -> int:
    """The terminal bells (BEL bytes) in what a session sent, those ending an operating system command aside."""
    return OSC.sub(b"", bytes(received)).count(b"\x07")


async def test_a_takeback_accepted_then_one_declined_and_the_bell_at_the_opponents_move(tmp_path) -> None:
    async with running_server(tmp_path, hold_time=120) as server, terminals(server.port) as opened:
        ann, bob, code = await a_match(opened)
        assert (bells(ann.received), bells(bob.received)) == (0, 0)
        await play_a_move(server, code, [ann, bob])
        await bob.wait_for_text("Your move")
        await wait_until(lambda: bells(bob.received) == 1, what="the bell at the opponent's move")
        assert bells(ann.received) == 0  # one's own move rings no bell
        await ann.press("u")
        await bob.wait_for_text("Takeback?", "ann asks to take their last move")
        await ann.wait_for_notice("Takeback asked: waiting for bob's answer.")
        await bob.press("y")
        await wait_until(lambda: server.lobby.tables[code].match.round.ply == 0, what="the move taken back")
        await bob.wait_for_notice("You took ann's move")
        await ann.wait_for_notice("bob accepted: your move")
        await ann.wait_for_text("Your move")
        await play_a_move(server, code, [ann, bob])
        await ann.press("u")
        await bob.wait_for_text("Takeback?")
        await bob.press("n")
        await ann.wait_for_notice("bob declined your takeback.")
        table = server.lobby.tables[code]
        assert table.match.round.ply == 1 and not table.seats[0].takeback and table.seats[0].takebacks == 2


async def test_a_keyed_player_connecting_again_lands_at_their_running_table(tmp_path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with running_server(tmp_path, hold_time=120) as server, terminals(server.port) as opened:
        ann, bob, code = await a_match(opened, "ann", key)
        await ann.close()
        await bob.wait_for_notice("ann has left")
        back = await opened.open("ann", key)
        await back.wait_for_text("Your move", f"code {code}, secret")  # the game, not the lobby
        await back.wait_for_notice("Welcome back.")
        await bob.wait_for_notice("ann is back.")
        assert server.lobby.tables[code].seats[0].server is not None


async def test_a_seek_accepted_from_the_open_seeks_board(tmp_path) -> None:
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        ann, bob = await opened.open("ann"), await opened.open("bob")
        await quick_match(ann)
        await ann.wait_for_text("Waiting 0:")
        await bob.wait_for_text("Welcome,")
        await bob.press("s")
        await bob.wait_for_text("Open seeks", "ann: box rules")
        await bob.press("enter")
        await in_match(bob, "ann")
        await in_match(ann, "bob")
        await wait_until(lambda: bells(ann.received) >= 1, what="the bell of the pairing")
        assert not [table for table in server.lobby.tables.values() if table.waiting]
