"""Who is online and who watches, across two ``soluna serve`` processes on one PostgreSQL: each server's list rides
on its heartbeat, so a player on one sees the people, the hidden and the spectators of the other within seconds.
"""

from __future__ import annotations

import time

import asyncssh

from ..server.helpers import SshTerminal, keep_the_name
from ..server.test_online_e2e import (
    FEW_SECONDS,
    HIDE_KEYS,
    ONLINE,
    WATCH_FIRST_KEYS,
    listed,
    open_online,
    see_online,
)
from ..server.test_two_players import create_match, join_match
from .test_fleet import fleet, known

#: A server killed is taken for dead after six seconds of silence: its people leave the lists then.
DEAD_SERVER_SECONDS = 6.0


async def test_players_on_two_servers_see_each_other_and_leave_the_lists_when_they_or_their_server_go(
        tmp_path, postgres_database) -> None:
    async with fleet(tmp_path, postgres_database) as (first, second, key):
        ann = await SshTerminal.open(first.port, username="ann", **known(key))
        bob = await SshTerminal.open(second.port, username="bob", **known(key))
        cyd = await SshTerminal.open(first.port, username="cyd", **known(key))
        try:
            for terminal in (ann, bob, cyd):
                await open_online(terminal)
            for terminal in (ann, bob, cyd):
                await see_online(terminal, ("ann", "bob", "cyd"))
            started = time.monotonic()
            await cyd.close()
            await see_online(bob, ("ann", "bob"), absent=("cyd",), timeout=FEW_SECONDS)  # on the other server
            there = time.monotonic() - started
            await see_online(ann, ("ann", "bob"), absent=("cyd",), timeout=FEW_SECONDS)
            print(f"\ncyd's disconnect left the list on the other server in {there:.2f} s")
            first.process.kill()  # SIGKILL: ann's server says nothing more
            await first.process.wait()
            started = time.monotonic()
            await see_online(bob, ("bob",), absent=("ann",), timeout=DEAD_SERVER_SECONDS + FEW_SECONDS)
            print(f"the killed server's players left the list in {time.monotonic() - started:.2f} s")
        finally:
            for terminal in (ann, bob, cyd):
                await terminal.close()


async def test_a_player_hidden_on_one_server_is_listed_on_neither_and_stays_hidden_on_the_other(
        tmp_path, postgres_database) -> None:
    dan_key = asyncssh.generate_private_key("ssh-ed25519")
    async with fleet(tmp_path, postgres_database) as (first, second, key):
        ann = await SshTerminal.open(first.port, username="ann", **known(key))
        dan = await SshTerminal.open(second.port, username="dan", client_keys=[dan_key], **known(key))
        try:
            await keep_the_name(dan)
            await open_online(ann)
            await see_online(ann, ("ann", "dan"))
            await dan.press(*HIDE_KEYS)
            await dan.wait_for_text("◂ hide me ▸")
            await see_online(ann, ("ann",), absent=("dan",))
            await dan.close()
            dan = await SshTerminal.open(first.port, username="dan", client_keys=[dan_key], **known(key))
            await dan.wait_for_text("Welcome, dan.", "◂ hide me ▸")  # the setting kept with the key, on any server
            await open_online(dan)
            await dan.wait_for_text("you are hidden")
            await see_online(dan, ("ann",), absent=("dan",))
            bob = await SshTerminal.open(second.port, username="bob", **known(key))
            try:
                await open_online(bob)
                await see_online(bob, ("ann", "bob"), absent=("dan",))
                await bob.pump(2.5)  # past a heartbeat or two of both servers: still nobody named dan
                assert not listed(bob.text, "dan") and "Who is online (2)" in bob.text
            finally:
                await bob.close()
        finally:
            await ann.close()
            await dan.close()


async def test_a_spectator_on_the_other_server_changes_the_count_the_players_see(tmp_path, postgres_database) -> None:
    async with fleet(tmp_path, postgres_database) as (first, second, key):
        ann = await SshTerminal.open(first.port, username="ann", **known(key))
        bob = await SshTerminal.open(second.port, username="bob", **known(key))
        eve = await SshTerminal.open(second.port, username="eve", **known(key))
        cyd = await SshTerminal.open(first.port, username="cyd", **known(key))
        try:
            await join_match(bob, await create_match(ann))
            await ann.wait_for_text("Your move", "bob has joined")
            await eve.wait_for_text("ann vs bob: round 1, stars 0-0")
            await eve.press(*WATCH_FIRST_KEYS)
            await eve.wait_for_text("You are watching")
            started = time.monotonic()
            await ann.wait_for(lambda _: "1 watching: eve" in ann.sidebar, timeout=FEW_SECONDS)  # the other server
            print(f"\neve, watching from the other server, shown to ann in {time.monotonic() - started:.2f} s")
            await bob.wait_for(lambda _: "1 watching: eve" in bob.sidebar)
            await cyd.wait_for_text("ann vs bob: round 1, stars 0-0, 1 watching")  # the lobby's listing too
            await cyd.press(ONLINE)
            await cyd.wait_for_text("watching ann vs bob", "playing bob", "playing ann")
            await eve.press("n")
            await eve.wait_for_text("Welcome,")
            await ann.wait_for(lambda _: "watching" not in ann.sidebar, timeout=FEW_SECONDS)
            await cyd.wait_for(lambda screen: "watching ann vs bob" not in screen and listed(screen, "eve"))
            assert "Your move" in ann.text  # the board as it was: no notice over it
        finally:
            for terminal in (ann, bob, eve, cyd):
                await terminal.close()
