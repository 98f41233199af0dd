"""Who is online and who watches, over real SSH: asyncssh clients with pseudo-terminals read by pyte, the server
in this process, on SQLite and on PostgreSQL (two servers sharing one: ``tests/fleet/test_online_fleet.py``).
"""

from __future__ import annotations

import re
import time

import asyncssh

from .helpers import SshTerminal, keep_the_name, on_sqlite_only, running_server, terminals, wait_until
from .test_two_players import create_match, join_match

#: The lobby's key for who is online, in the place of the matches in play.
ONLINE = "o"
#: A disconnect leaves the other players' lists within this long (the server tells changes a moment after).
FEW_SECONDS = 5.0
#: From the lobby's menu to its "Online list" setting (past the seven settings above it), and "hide me".
HIDE_KEYS = (*("tab",) * 8, "right")
#: From the menu: "Watch a match", then the first match listed.
WATCH_FIRST_KEYS = ("down", "down", "down", "enter", "enter")


def listed(screen: str, name: str) -> bool:
    """Whether the lobby's list of who is online has a line for ``name`` (this player's marked "(you)")."""
    return re.search(rf"│  {re.escape(name)}(?: \(you\))? +(?:guest|new|\d+)  \S", screen) is not None


async def open_online(terminal: SshTerminal) -> None:
    """From the lobby: who is online, in the matches' place."""
    await terminal.wait_for_text("Welcome,")
    await terminal.press(ONLINE)
    await terminal.wait_for_text("Who is online (")


async def see_online(terminal: SshTerminal, present: tuple[str, ...], absent: tuple[str, ...] = (),
                     timeout: float = 15.0) -> str:
    """Read until the list shows everyone ``present`` (and their count in the title), nobody ``absent``."""
    return await terminal.wait_for(
        lambda screen: all(listed(screen, name) for name in present) and not any(listed(screen, name)
                                                                                 for name in absent)
        and f"Who is online ({len(present)})" in screen and f"· {len(present)} online" in screen, timeout)


@on_sqlite_only
async def test_three_players_see_each_other_online_and_a_disconnect_leaves_the_list_within_seconds(
        tmp_path, database) -> None:
    async with running_server(tmp_path, database=database) as server, terminals(server.port) as opened:
        ann, bob, cyd = [await opened.open(name, local_addr=(f"127.0.0.{number + 2}", 0))
                         for number, name in enumerate(("ann", "bob", "cyd"))]
        for terminal in (ann, bob, cyd):
            await open_online(terminal)
        for terminal in (ann, bob, cyd):
            screen = await see_online(terminal, ("ann", "bob", "cyd"))
            assert screen.count("guest  in the lobby") == 3
        assert listed(ann.text, "ann") and "ann (you)" in ann.text and "bob (you)" in bob.text
        started = time.monotonic()
        await cyd.close()
        for terminal in (ann, bob):
            await see_online(terminal, ("ann", "bob"), absent=("cyd",), timeout=FEW_SECONDS)
        print(f"\na disconnect left the lists in {time.monotonic() - started:.2f} s")
        assert time.monotonic() - started < FEW_SECONDS


@on_sqlite_only
async def test_a_hidden_player_is_not_listed_and_a_key_stays_hidden_on_its_next_visit(tmp_path, database) -> None:
    dan_key = asyncssh.generate_private_key("ssh-ed25519")
    async with running_server(tmp_path, database=database) as server, terminals(server.port) as opened:
        dan = await opened.open("dan", dan_key, local_addr=("127.0.0.2", 0))
        ann = await opened.open("ann", local_addr=("127.0.0.3", 0))
        await keep_the_name(dan)
        await open_online(ann)
        await see_online(ann, ("ann", "dan"))
        await dan.press(*HIDE_KEYS)  # the Online list setting: hide me
        await dan.wait_for_text("◂ hide me ▸")
        await see_online(ann, ("ann",), absent=("dan",))  # told once the setting has settled (a second)
        await dan.close()
        await wait_until(lambda: not server.lobby.visitors.get(dan), what="dan's session gone")

        dan = await opened.open("dan", dan_key, local_addr=("127.0.0.2", 0))
        await dan.wait_for_text("Welcome, dan.", "◂ hide me ▸")  # kept with the key
        await open_online(dan)
        await dan.wait_for_text("you are hidden", "Who is online (1)")
        assert listed(dan.text, "ann") and not listed(dan.text, "dan")
        await wait_until(lambda: len(server.lobby.roster.lines) == 2, what="dan back")
        await ann.pump(1.0)  # a change would be told well within this
        assert not listed(ann.text, "dan") and "Who is online (1)" in ann.text and "· 1 online" in ann.text
        bob = await opened.open("bob", local_addr=("127.0.0.4", 0))  # a newcomer's whole list: no dan either
        await open_online(bob)
        await see_online(bob, ("ann", "bob"), absent=("dan",))


@on_sqlite_only
async def test_a_spectator_arriving_and_leaving_changes_the_count_the_players_see(tmp_path, database) -> None:
    async with running_server(tmp_path, database=database, hold_time=120) as server, \
            terminals(server.port) as opened:
        ann, bob, eve = [await opened.open(name, local_addr=(f"127.0.0.{number + 2}", 0))
                         for number, name in enumerate(("ann", "bob", "eve"))]
        code = await create_match(ann)
        await join_match(bob, code)
        await ann.wait_for_text("Your move", "bob has joined")
        await bob.wait_for_text("Waiting for ann.")
        assert "watching" not in ann.sidebar + bob.sidebar
        await eve.wait_for_text("ann vs bob: round 1, stars 0-0")
        await eve.press(ONLINE)
        await see_online(eve, ("ann", "bob", "eve"))
        await eve.wait_for_text("playing bob", "playing ann")  # what each does: a change, drawn at its moment
        await eve.press(ONLINE, *WATCH_FIRST_KEYS)
        await eve.wait_for_text("You are watching", "Waiting for ann.")
        for player in (ann, bob):
            await player.wait_for(lambda _, player=player: "1 watching: eve" in player.sidebar)
        assert "eve" not in ann.sidebar.replace("1 watching: eve", "")  # a count in the tally, no notice
        await eve.wait_for(lambda _: "1 watching: eve" in eve.sidebar)  # the spectator sees it too
        await eve.press("n")
        await eve.wait_for_text("Welcome,")
        for player in (ann, bob):
            await player.wait_for(lambda _, player=player: "watching" not in player.sidebar)
        assert "Your move" in ann.text and "Waiting for ann." in bob.text  # the board as it was

