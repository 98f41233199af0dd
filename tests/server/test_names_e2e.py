"""Issue 39: identity by key, names as labels, over real SSH (asyncssh clients with pseudo-terminals read by pyte,
the server in this process), on SQLite and PostgreSQL. A player renamed bob to robert: a new key could take "bob"
at once, ann's record still said she had played "bob"; a player on two terminals kept, in every list, the rating
it had when it arrived. Now a name given up stays its key's for 30 days (the owner may release it: ``soluna serve
names release``), records show the name a key holds now, and a rating changed reaches every terminal of its key.
"""

from __future__ import annotations

import asyncio
import re

import asyncssh

from soluna_tui.cli import main
from soluna_tui.server.storage.players import NAME_RESERVED_FOR

from .helpers import SshTerminal, keep_the_name, on_sqlite_only, running_server, terminals
from .test_lobby_e2e import JOIN_KEYS, LEADERBOARD_KEYS, RECORD_KEYS, TOP, create, play_out, short_match_settings
from .test_online_e2e import open_online

#: From anywhere in the lobby's menu: "Choose your name".
NAME_KEYS = (*TOP, *("down",) * 6, "enter")


def online_line(screen: str, name: str, rating: str) -> bool:
    """Whether the lobby's list of who is online shows ``name`` (this player's marked "(you)") with ``rating``."""
    return re.search(rf"│  {re.escape(name)}(?: \(you\))? +{re.escape(rating)}  \S", screen) is not None


async def choose_name(terminal: SshTerminal, name: str) -> None:
    """The name dialog, from the lobby's menu or as a key's first visit opens it: ``name`` typed and chosen."""
    await terminal.wait_for_text("Enter chooses")
    await terminal.press(*name, "enter")


async def rated_match(server, first: SshTerminal, second: SshTerminal) -> tuple[int, int]:
    """``first`` creates a one-star match, ``second`` joins it by code, they play it out (both stay at the board);
    each one's rating as shown after it."""
    await short_match_settings(first)
    code = await create(first)
    await second.press(*JOIN_KEYS, pause=0.05)
    await second.wait_for_text("Type the four-letter code")
    await second.press(code.lower(), "enter")
    await play_out(server, code, [first, second])
    finished = (await server.store.finished.newest(1))[0]
    assert finished.rated
    for terminal in (first, second):
        await terminal.wait_for_text("the match 1-0")
    return finished.rating_changes[0].after.shown, finished.rating_changes[1].after.shown


@on_sqlite_only
async def test_a_name_given_up_stays_its_key_s_until_released_and_records_show_the_name_held_now(
        tmp_path, database) -> None:
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(3)]
    async with running_server(tmp_path, database=database, hold_time=120, ranked_after=1,
                              ranked_opponents=0) as server, terminals(server.port) as opened:
        ann = await opened.open("ann", keys[0], local_addr=("127.0.0.2", 0))
        bob = await opened.open("bob", keys[1], local_addr=("127.0.0.3", 0))
        await keep_the_name(ann)
        await keep_the_name(bob)
        await rated_match(server, ann, bob)
        for terminal in (ann, bob):
            await terminal.press("escape", "n")  # the board, then back to the lobby
            await terminal.wait_for_text("Welcome,", "Matches in play")
        await bob.press(*NAME_KEYS, pause=0.05)
        await choose_name(bob, "robert")
        await bob.wait_for_text("You are robert on every visit with this key.")
        await bob.press(*NAME_KEYS, pause=0.05)  # a name chosen: the dialog now renames, and says what is kept
        await bob.wait_for_text("Once you change it, robert stays yours", "30 days")
        await bob.press("escape")
        await bob.wait_for_text("Welcome, robert.")

        mallory = await opened.open("bob", keys[2], local_addr=("127.0.0.4", 0))  # a new key, bob's old name
        await choose_name(mallory, "bob")
        await mallory.wait_for_text("The name bob belongs to another player: choose another.")
        await mallory.press(*"\x7f" * 20, *"B o B", "enter")  # a look-alike: spaces and case aside, bob
        await mallory.wait_for_text("That name looks like bob, another player's name")
        async with server.store.transaction() as tx:  # 29 days on: still robert's
            await tx.execute("UPDATE released_names SET released_at = released_at - ?", (NAME_RESERVED_FOR - 86400,))
        await mallory.press(*"\x7f" * 20, *"bob", "enter")
        await mallory.wait_for_text("The name bob belongs to another player: choose another.")

        assert await asyncio.to_thread(main, ["serve", "names", "release", "BOB", "--database", database,
                                              "--data-dir", str(tmp_path)]) == 0
        await mallory.press("enter")  # the owner released it: anyone may take it now
        await mallory.wait_for_text("You are bob on every visit with this key.")

        await ann.press(*RECORD_KEYS, pause=0.05)
        text = await ann.wait_for_text("1 rated match played", "vs robert: ")
        assert "vs bob" not in text
        await ann.press("escape")
        await ann.wait_for_text("Welcome, ann.")
        await ann.press(*LEADERBOARD_KEYS, pause=0.05)
        text = await ann.wait_for(lambda screen: "Players 1-2 of 2" in screen and re.search(r"\srobert\s+\d+", screen)
                                  is not None)
        assert not re.search(r"\sbob\s+\d+", text)


@on_sqlite_only
async def test_a_player_on_two_terminals_sees_its_new_rating_in_both_after_a_rated_match(tmp_path, database) -> None:
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
    async with running_server(tmp_path, database=database, hold_time=120) as server, \
            terminals(server.port) as opened:
        ann = await opened.open("ann", keys[0], local_addr=("127.0.0.2", 0))
        bob = await opened.open("bob", keys[1], local_addr=("127.0.0.3", 0))
        await keep_the_name(ann)
        await keep_the_name(bob)
        also_ann = await opened.open("ann", keys[0], local_addr=("127.0.0.2", 0))  # the same key, a second terminal
        await open_online(also_ann)
        await also_ann.wait_for(lambda screen: online_line(screen, "ann", "new") and online_line(screen, "bob", "new"))
        ann_rating, bob_rating = await rated_match(server, ann, bob)
        # Both players still at the board: every list shows each one's rating as the match left it.
        await also_ann.wait_for(lambda screen: online_line(screen, "ann", str(ann_rating))
                                and online_line(screen, "bob", str(bob_rating)))
        await ann.press("escape", "n")
        await open_online(ann)
        await ann.wait_for(lambda screen: online_line(screen, "ann", str(ann_rating))
                           and online_line(screen, "bob", str(bob_rating)))
