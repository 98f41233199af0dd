"""Quick matches and challenges over real SSH: asyncssh clients with pseudo-terminals at 80x24 read by pyte, the
server in this process, on SQLite and on PostgreSQL (two servers sharing one: ``tests/fleet/test_pairing_fleet.py``).
"""

from __future__ import annotations

import re

import asyncssh

from .helpers import SshTerminal, keep_the_name, on_sqlite_only, running_server, terminals, wait_until
from .test_online_e2e import open_online, see_online

#: From the lobby's menu: "Find me an opponent" (the last entry but Quit).
QUICK_KEYS = ("\x1b[F", "up", "enter")
#: From the menu to the "Stars to win" setting, one more star.
MORE_STARS_KEYS = ("tab", "tab", "tab", "right")
#: Home: the first line of a list.
HOME = "\x1b[H"


def waited_on(screen: str) -> int:
    """The seconds the quick match's dialog says it has waited (-1: no such dialog)."""
    found = re.search(r"Waiting (\d+):(\d\d)", screen)
    return int(found.group(1)) * 60 + int(found.group(2)) if found is not None else -1


async def quick_match(terminal: SshTerminal) -> None:
    """Choose "Find me an opponent" in the lobby."""
    await terminal.wait_for_text("Welcome,", "Find me an opponent")
    await terminal.press(*QUICK_KEYS)


def people_listed(screen: str) -> list[str]:
    """The names in the lobby's list of who is online, top to bottom."""
    return re.findall(r"│  (\S+)(?: \(you\))? +(?:guest|new|\d+)  \S", screen)


async def challenge(terminal: SshTerminal, name: str) -> None:
    """From the lobby: who is online, Enter on ``name``, and yes to the question."""
    await open_online(terminal)
    screen = await terminal.wait_for(lambda screen: name in people_listed(screen))
    await terminal.press(HOME, *("down",) * people_listed(screen).index(name), "enter")
    await terminal.wait_for_text(f"Challenge {name} to a match")
    await terminal.press("y")
    await terminal.wait_for_text(f"Challenge sent: {name} sees it now")
    await terminal.press("o", "escape")  # the matches in play again, the menu focused


async def in_match(terminal: SshTerminal, opponent: str) -> None:
    """Until the board shows: this player's move, or waiting for the opponent's."""
    await terminal.wait_for(lambda screen: "Your move" in screen or f"Waiting for {opponent}." in screen)


async def answer(terminal: SshTerminal, key: str) -> None:
    """Open the challenges (``c``) and answer the first: ``a`` accepts, ``d`` declines."""
    await terminal.wait_for_text("challenge")
    await terminal.press("c")
    await terminal.wait_for_text("challenges you:")
    await terminal.press(key)


@on_sqlite_only
async def test_two_seekers_on_the_same_terms_are_paired_and_a_third_on_other_terms_waits_then_stops(
        tmp_path, database) -> None:
    async with running_server(tmp_path, database=database) as server, terminals(server.port) as opened:
        ann, bob, cyd = [await opened.open(name, local_addr=(f"127.0.0.{number + 2}", 0))
                         for number, name in enumerate(("ann", "bob", "cyd"))]
        await cyd.wait_for_text("Welcome,")
        await cyd.press(*MORE_STARS_KEYS, "escape")
        await cyd.wait_for_text("◂ 5 ▸")
        await quick_match(cyd)
        await cyd.wait_for_text("Looking for an opponent on these terms:",
                                "box rules, 5 stars, 12 discs, no clock, unrated.", "Waiting 0:0")
        await quick_match(ann)
        await ann.wait_for_text("box rules, 4 stars", "Escape stops waiting.")
        await quick_match(bob)
        await in_match(ann, "bob")
        await in_match(bob, "ann")
        [table] = [table for table in server.lobby.tables.values() if table.in_play]
        assert {seat.name for seat in table.seats} == {"ann", "bob"}
        waited = waited_on(await cyd.pump(0.2) or cyd.text)
        await cyd.wait_for(lambda screen: waited_on(screen) > waited)  # the time waited goes on: nobody for cyd
        assert "Looking for an opponent" in cyd.text
        await cyd.press("escape")
        await cyd.wait_for_text("You stopped looking for an opponent.")
        await wait_until(lambda: not server.lobby.pairing.seeks.waiting, what="cyd's seek gone")

        async def none_stored() -> bool:
            return await server.lobby.store.pairing.seeks() == []
        await wait_until(none_stored, what="cyd's seek gone from the store")  # written a moment after


@on_sqlite_only
async def test_nobody_is_paired_with_themselves_nor_rated_with_a_key_from_the_same_address(tmp_path, database) -> None:
    dan_key, eve_key = asyncssh.generate_private_key("ssh-ed25519"), asyncssh.generate_private_key("ssh-ed25519")
    async with running_server(tmp_path, database=database) as server, terminals(server.port) as opened:
        dan = await opened.open("dan", dan_key, local_addr=("127.0.0.2", 0))
        await keep_the_name(dan)
        dan_again = await opened.open("dan", dan_key, local_addr=("127.0.0.3", 0))
        eve = await opened.open("eve", eve_key, local_addr=("127.0.0.2", 0))
        await keep_the_name(eve)
        await quick_match(dan)
        await dan.wait_for_text("Looking for an opponent", "box rules, 4 stars, 12 discs, no clock, rated.")
        await quick_match(dan_again)
        await dan_again.wait_for_text("You are looking for an opponent on another terminal already.")
        await quick_match(eve)  # rated, and from dan's address: both wait
        await eve.wait_for(lambda screen: "Looking for an opponent" in screen and waited_on(screen) >= 1)
        assert "Looking for an opponent" in dan.text and not server.lobby.tables
        assert sorted(each.seeker.name for each in await server.lobby.store.pairing.seeks()) == ["dan", "eve"]


@on_sqlite_only
async def test_a_challenge_declined_one_accepted_and_one_to_a_player_at_a_match_told_once_back(
        tmp_path, database) -> None:
    async with running_server(tmp_path, database=database, hold_time=120) as server, \
            terminals(server.port) as opened:
        ann, bob, cyd = [await opened.open(name, local_addr=(f"127.0.0.{number + 2}", 0))
                         for number, name in enumerate(("ann", "bob", "cyd"))]
        for terminal in (ann, bob, cyd):
            await open_online(terminal)
            await see_online(terminal, ("ann", "bob", "cyd"))
            await terminal.press("o")
        await challenge(ann, "cyd")
        await cyd.wait_for_text("ann challenges you", "1 challenge (c)")  # the notice, and the count
        await answer(cyd, "d")
        await cyd.wait_for_text("Declined: ann is told.")
        await cyd.press("escape")
        await ann.wait_for_text("cyd declined your challenge.")
        await challenge(ann, "bob")
        await answer(bob, "a")
        await in_match(ann, "bob")
        await in_match(bob, "ann")
        await challenge(cyd, "bob")  # bob is at a match: it waits for him
        await cyd.press("c")
        await cyd.wait_for_text("You challenged bob:", "(bob is at a match: told once back)")
        await cyd.press("escape")
        await bob.pump(1.0)
        assert "cyd challenges you" not in bob.text and "1 challenge" not in bob.text
        await bob.press("n")
        await bob.wait_for_text("Leave the match?")
        await bob.press("y")
        await bob.wait_for_text("Welcome, bob.", "cyd challenges you", "1 challenge (c)")
        await answer(bob, "a")
        await in_match(bob, "cyd")
        await in_match(cyd, "bob")
        assert await server.lobby.store.pairing.challenges() == []


async def test_a_server_may_turn_quick_matches_and_challenges_off(tmp_path) -> None:
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        # As --no-quick-match and --no-challenges leave them (test_command.py reads the flags).
        server.lobby.pairing.seeks.enabled = server.lobby.pairing.book.enabled = False
        ann = await opened.open("ann", local_addr=("127.0.0.2", 0))
        await opened.open("bob", local_addr=("127.0.0.3", 0))
        await open_online(ann)
        screen = await see_online(ann, ("ann", "bob"))
        assert "Find me an opponent" not in screen and "Challenges" not in screen and "Rated" not in screen
        await ann.press(HOME, *("down",) * people_listed(screen).index("bob"), "enter")
        await ann.wait_for_text("This server passes no challenges on")
