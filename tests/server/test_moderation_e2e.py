"""Moderation that follows people, over real SSH (asyncssh clients with pseudo-terminals read by pyte, the server in
this process): a mute holds when the muted come back (a key from a new address, a guest as a new session from
theirs) and when the one who muted comes back (a key's mutes kept by the store: SQLite here, both
stores in tests/storage/test_chat.py); six flooders within their own limits leave an honest talker its lines."""

from __future__ import annotations

import asyncio
import contextlib
import time

import asyncssh

from soluna_tui.link.safe_talk import Room

from .helpers import SshTerminal, keep_the_name, on_sqlite_only, running_server, terminals, wait_until
from .test_talk_e2e import TALK, sees

#: The flooders, each from an address of its own, and how often each types a line (faster than its limits).
FLOODERS, FLOOD_EVERY = 6, 0.5
#: The honest talker's lines, one every few seconds, once the flood has spent the room's burst (20 lines: the
#: flooders' own bursts of 5 spend it in the first 2.5 s) and holds the room at its limit (six at one line every 3 s:
#: the room's 2 lines a second). Five lines are enough to tell: before the room's budget was shared, 0 of 12 (and
#: 0 of 5 with these numbers).
HONEST_LINES, HONEST_EVERY, FLOOD_FIRST = 5, 4.0, 5.0


async def in_the_lobby_talk(terminal: SshTerminal, keyed: bool = False) -> None:
    """A terminal just opened: in the lobby (a key's first visit keeps its name), its chat line open."""
    if keyed:
        await keep_the_name(terminal)
    await terminal.wait_for_text("Welcome,")
    await terminal.press(TALK)
    await terminal.wait_for_text("Enter says it")


@on_sqlite_only
async def test_a_mute_holds_when_the_muted_come_back_and_when_the_one_who_muted_comes_back(
        tmp_path, database) -> None:
    ann_key, bob_key = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    async with running_server(tmp_path, database=database) as server, terminals(server.port) as opened:
        ann = await opened.open("ann", ann_key, local_addr=("127.0.0.2", 0))
        bob = await opened.open("bob", bob_key, local_addr=("127.0.0.3", 0))
        zed = await opened.open("zed", local_addr=("127.0.0.4", 0))
        cyd = await opened.open("cyd", local_addr=("127.0.0.5", 0))
        for terminal, keyed in ((ann, True), (bob, True), (zed, False), (cyd, False)):
            await in_the_lobby_talk(terminal, keyed)
        bob.send("hello from bob\r")
        await sees(ann, "bob: hello from bob")
        zed.send("hello from zed\r")
        for listener in (ann, cyd):  # a key mutes, and a guest
            await sees(listener, "zed: hello from zed")  # a guest: named as they chose, known by address
            listener.send("/mute bob\r")
            await sees(listener, "Muted bob")
            listener.send("/mute zed\r")
            await sees(listener, "Muted zed")
        # They come back: bob with his key from a new address, zed as a new guest (and a new name) from his.
        await bob.close()
        await zed.close()
        bob = await opened.open("bob", bob_key, local_addr=("127.0.0.6", 0))
        zed = await opened.open("zorro", local_addr=("127.0.0.4", 0))
        await in_the_lobby_talk(bob)
        await in_the_lobby_talk(zed)
        bob.send("bob is back\r")
        zed.send("zed is back\r")
        await sees(bob, "zorro: zed is back")  # said, and heard by those who did not mute them
        await sees(bob, "bob: bob is back")
        cyd.send("cyd is here\r")
        ann.send("ann is here\r")
        await sees(ann, "cyd: cyd is here")
        await sees(cyd, "ann: ann is here")
        assert b"is back" not in ann.received + cyd.received  # never sent to those who muted them
        # ann comes back from a new address: her mutes came with her key, even in the lobby's lines so far.
        await ann.close()
        ann = await opened.open("ann", ann_key, local_addr=("127.0.0.7", 0))
        await in_the_lobby_talk(ann)
        await sees(ann, "cyd: cyd is here")
        bob.send("still muted?\r")
        cyd.send("cyd again\r")
        await sees(ann, "cyd: cyd again")
        assert b"is back" not in ann.received and b"still muted" not in ann.received
        ann.send("/unmute bob\r")  # by name, though none of his lines reached this terminal
        await sees(ann, "You hear bob again.")
        bob.send("welcome back ann\r")
        await sees(ann, "bob: welcome back ann")


async def drain(terminal: SshTerminal, until: asyncio.Event) -> None:
    """Read what ``terminal`` is sent until ``until`` is set (a terminal nobody reads would stall its session)."""
    while not until.is_set() and not terminal.closed:
        await terminal.pump(0.2)


async def test_six_flooders_within_their_own_limits_leave_an_honest_talker_its_lines(tmp_path) -> None:
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        flooders = [await opened.open(f"flood{number}", local_addr=(f"127.0.1.{number + 2}", 0))
                    for number in range(FLOODERS)]
        honest = await opened.open("ann", local_addr=("127.0.2.2", 0))
        for terminal in (*flooders, honest):
            await in_the_lobby_talk(terminal)
        done = asyncio.Event()
        readers = [asyncio.create_task(drain(terminal, done)) for terminal in (*flooders, honest)]
        said: set[str] = set()

        def note_the_honest_lines() -> None:
            said.update(heard.said.text for heard in server.lobby.talk.rooms.get((Room.LOBBY, None), ())
                        if heard.said.text.startswith("honest"))

        async def flood() -> int:
            typed = 0
            while not done.is_set() and typed < 1000:
                for number, terminal in enumerate(flooders):
                    terminal.send(f"flood {number} {typed}\r")
                typed += 1
                note_the_honest_lines()
                await asyncio.sleep(FLOOD_EVERY)
            return typed

        flooding = asyncio.create_task(flood())
        try:
            await asyncio.sleep(FLOOD_FIRST)  # the room's burst spent, the flooders at their own limits
            started = time.monotonic()
            for number in range(HONEST_LINES):
                honest.send(f"honest line {number}\r")
                await asyncio.sleep(HONEST_EVERY)
            await wait_until(lambda: (note_the_honest_lines(), all(
                visitor.queue.empty() for visitor in server.lobby.visitors.values()))[1], what="the lines taken")
            seconds = time.monotonic() - started
        finally:
            done.set()
            typed = await flooding
            for reader in readers:
                with contextlib.suppress(Exception):
                    await reader
        note_the_honest_lines()
        flooded = sum(1 for heard in server.lobby.talk.rooms[(Room.LOBBY, None)] if heard.said.text.startswith("flood"))
        print(f"\nthe honest talker: {len(said)} of {HONEST_LINES} lines said in {seconds:.0f} s, while "
              f"{FLOODERS} flooders typed {typed} lines each ({flooded} of theirs among the lobby's last lines)")
        assert len(said) >= 0.8 * HONEST_LINES  # before the room's budget was shared: 0 of 12
