"""Two ``soluna serve`` processes on one PostgreSQL: one lobby, whichever server a player lands on.

Real servers in processes of their own on 127.0.0.1 (sharing a host key, as behind a balancer),
a real PostgreSQL from the ``pgserver`` wheel, real asyncssh clients read through pyte screens.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time

import asyncssh
import pytest

from soluna_tui.play.looks import JUMP_KEYS
from soluna_tui.rules import Match
from soluna_tui.rules.clock import MatchClock
from soluna_tui.server.ssh.host_key import load_or_create_host_key
from soluna_tui.server.storage import open_storage

from ..server.helpers import SshTerminal, keep_the_name, served
from ..server.test_clocks_e2e import CREATE, FIRST_CLOCK, clock_shown
from ..server.test_two_players import create_match, join_match

#: Seconds a seat is held in these tests (long enough never to run out by accident).
HOLD = "120"
#: A move shown on the other server's screens in this long after the mover's own, at most, on a loaded machine.
GENEROUS_LATENCY = 1.0


@contextlib.asynccontextmanager
async def fleet(tmp_path, database: str, *more: str):
    """Two servers on one database with one host key (and ``more`` flags); both ports, and the key clients must
    see."""
    key_path = tmp_path / "host_key"
    key = load_or_create_host_key(key_path)
    flags = ("--database", database, "--host-key", str(key_path), "--hold-time", HOLD, *more)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    async with served(tmp_path / "a", *flags) as first, served(tmp_path / "b", *flags) as second:
        yield first, second, key


def known(key: asyncssh.SSHKey) -> dict:
    """Client options that accept only this host key: both servers must show the same."""
    return {"known_hosts": ([key.convert_to_public()], [], [])}


async def shown_after(terminal: SshTerminal, text: str, started: float) -> float:
    await terminal.wait_for_text(text)
    return time.monotonic() - started


async def test_a_match_created_on_one_server_is_joined_watched_and_played_from_the_other(
        tmp_path, postgres_database) -> None:
    async with fleet(tmp_path, postgres_database) as (first, second, key):
        ann = await SshTerminal.open(first.port, username="ann", **known(key))
        bob = await SshTerminal.open(second.port, username="bob", **known(key))
        eve = await SshTerminal.open(second.port, username="eve", **known(key))
        try:
            code = await create_match(ann)
            await join_match(bob, code)
            await ann.wait_for_text("Your move", "bob has joined")
            await bob.wait_for_text("Waiting for ann.")
            await eve.wait_for_text("ann vs bob: round 1, stars 0-0")  # listed on the other server too
            await eve.press("down", "down", "down", "enter", "enter")  # Watch a match; the first listed
            await eve.wait_for_text("You are watching", "Waiting for ann.")
            await ann.press("enter", "right")
            started = time.monotonic()
            ann.send(" ")  # tower 1 onto tower 2
            here, there, watching = await asyncio.gather(
                shown_after(ann, " 1. ann", started), shown_after(bob, " 1. ann", started),
                shown_after(eve, " 1. ann", started))
            print(f"\nkey to screen: {here * 1000:.0f} ms on the mover's server, {there * 1000:.0f} ms for the "
                  f"opponent and {watching * 1000:.0f} ms for the spectator on the other server")
            # What the other server adds to the mover's own screen's time (on a loaded machine both take longer).
            assert max(there, watching) - here < GENEROUS_LATENCY, (here, there, watching)
            await bob.wait_for_text("Your move")
        finally:
            for terminal in (ann, bob, eve):
                await terminal.close()


async def test_a_server_killed_mid_match_loses_nothing_and_its_player_continues_on_the_other(
        tmp_path, postgres_database) -> None:
    ann_key = asyncssh.generate_private_key("ssh-ed25519")
    async with fleet(tmp_path, postgres_database) as (first, second, key):
        store = await open_storage(postgres_database)
        ann = await SshTerminal.open(first.port, username="ann", client_keys=[ann_key], **known(key))
        bob = await SshTerminal.open(second.port, username="bob", **known(key))
        await keep_the_name(ann)
        try:
            code = await create_match(ann)
            await join_match(bob, code)
            await ann.wait_for_text("Your move", "bob has joined")
            await ann.press("enter", "right", "space")
            await bob.wait_for_text(" 1. ann", "Your move")
            first.process.kill()  # SIGKILL: no goodbye, nothing flushed
            await first.process.wait()
            await bob.wait_for_text("away: 1:")  # the seat is held, counting down on the other server
            ann = await SshTerminal.open(second.port, username="ann", client_keys=[ann_key], **known(key))
            # The same key: back at her seat at once, on the other server (no lobby, no secret asked).
            await ann.wait_for_text("Welcome back.", " 1. ann", "Waiting for bob.")
            await bob.wait_for_text("ann is back.")
            stored = await store.matches.get(code)
            assert [seat.server is not None for seat in stored.seats] == [True, True]
            match = Match.from_dict(stored.document)
            move = match.position.legal_moves[0]
            placed = match.round.table.resolve(move)  # the places the towers kept
            await bob.press(JUMP_KEYS[placed.mover_slot], "enter", JUMP_KEYS[placed.target_slot], "enter", pause=0.05)
            await ann.wait_for_text("Your move")

            async def version() -> int:
                return (await store.matches.get(code)).version

            expected = stored.version + 1
            deadline = time.monotonic() + 10
            while await version() != expected and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert await version() == expected
        finally:
            await ann.close()
            await bob.close()
            await store.close()


async def test_a_spectator_on_the_surviving_server_hears_of_the_held_seat(tmp_path, postgres_database) -> None:
    async with fleet(tmp_path, postgres_database) as (first, second, key):
        ann = await SshTerminal.open(first.port, username="ann", **known(key))
        bob = await SshTerminal.open(first.port, username="bob", **known(key))
        eve = await SshTerminal.open(second.port, username="eve", **known(key))
        try:
            await join_match(bob, await create_match(ann))
            await ann.wait_for_text("Your move")
            await eve.wait_for_text("ann vs bob: round 1, stars 0-0")
            await eve.press("down", "down", "down", "enter", "enter")
            await eve.wait_for_text("You are watching")
            first.process.kill()
            await first.process.wait()
            await eve.wait_for(lambda text: text.count("away: 1:") == 2)  # both seats held, counting down
        finally:
            for terminal in (ann, bob, eve):
                await terminal.close()


async def test_a_server_that_dies_charges_its_player_nothing_until_another_notices(tmp_path, postgres_database) -> None:
    """Issue 29: ann's server is killed while her clock runs. The other server holds her seat once it notices, for
    her whole time away from then, and her clock is charged nothing from her server's last heartbeat until then (she
    could not move); she comes back through the other server to the time she had."""
    ann_key = asyncssh.generate_private_key("ssh-ed25519")
    async with fleet(tmp_path, postgres_database, "--clocks", "2+0") as (first, second, key):
        store = await open_storage(postgres_database)
        ann = await SshTerminal.open(first.port, username="ann", client_keys=[ann_key], **known(key))
        bob = await SshTerminal.open(second.port, username="bob", **known(key))
        try:
            await keep_the_name(ann)
            await ann.press(*FIRST_CLOCK, pause=0.05)
            await ann.press(*CREATE, pause=0.05)
            text = await ann.wait_for_text("Your match code:")
            code = re.search(r"Your match code:\s+((?:[A-Z] ){3}[A-Z])", text).group(1).replace(" ", "")
            await join_match(bob, code)
            await ann.wait_for_text("Your move", "bob has joined")  # ann opens: her clock runs
            before = await store.matches.get(code)
            first.process.kill()  # SIGKILL: no goodbye, nothing flushed
            await first.process.wait()
            await bob.wait_for_text("ann lost the connection")
            held = await store.matches.get(code)
            (last_heard,) = [server.seen_at for server in await store.servers.known()
                             if server.id == before.seats[0].server]
            clock, was = MatchClock.from_document(held.clock), MatchClock.from_document(before.clock)
            noticed = held.updated_at
            print(f"\nann's server silent {noticed - last_heard:.1f} s before the other noticed: her clock kept "
                  f"{clock.left_at(0, noticed):.1f} s of the {was.left_at(0, last_heard):.1f} s she had then")
            assert noticed - last_heard > 5  # a server is taken for dead after six seconds of silence
            assert clock.running == 0 and clock.since == pytest.approx(noticed, abs=0.5)
            assert clock.left[0] == pytest.approx(was.left_at(0, last_heard), abs=0.01)
            assert held.seats[0].server is None
            assert held.seats[0].held_until == pytest.approx(noticed + float(HOLD), abs=0.5)
            ann = await SshTerminal.open(second.port, username="ann", client_keys=[ann_key], **known(key))
            await ann.wait_for_text("Welcome back.", "Your move")  # the same key: back at her seat at once
            shown = clock_shown(ann.text, "ann")
            assert shown is not None and abs(shown - clock.left_at(0, time.time())) < 1.5
        finally:
            await ann.close()
            await bob.close()
            await store.close()
