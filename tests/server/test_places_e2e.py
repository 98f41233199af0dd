"""A move between alike towers lands in the same place on every screen: the mover's, the opponent's
and a spectator's, after a reconnect, after a server restart, and in the replay of the finished match.

Real asyncssh clients with pseudo-terminals read by pyte, a real server on 127.0.0.1, on SQLite (the places are
kept in the match's document: tests/storage/test_matches.py reads them back from both stores). The mover puts the
second of two alike towers on the first: the notation alone (``1S>1S``) would have every other screen take the
first onto the second.
"""

from __future__ import annotations

import asyncssh
import pytest

from soluna_tui.play.looks import JUMP_KEYS
from soluna_tui.rules import Arrangement, Match

from .helpers import (
    SshTerminal,
    keep_the_name,
    on_sqlite_only,
    places_on_board,
    running_server,
    server_places,
    wait_until,
)
from .test_endings_e2e import watch_the_first_listed
from .test_lobby_e2e import JOIN_KEYS, RECORD_KEYS, create, play_out

#: The lobby's settings from the menu: one star wins, six discs (alike towers in every layout), back to the menu.
SETTINGS = ("tab", "tab", "tab", *["left"] * 3, "tab", *["left"] * 6, "escape")


def alike_places(table: Arrangement) -> tuple[int, int]:
    """Two places holding alike towers (there are some among six discs: four symbols, six tops)."""
    return next((first, second) for first in range(len(table)) for second in range(first + 1, len(table))
                if table[first] is not None and table[first] == table[second])


async def shows_places(terminal: SshTerminal, places: list[str | None]) -> None:
    """Wait until the terminal's board shows exactly ``places``, place by place."""
    try:
        await terminal.wait_for(lambda _text: places_on_board(terminal.display) == places)
    except AssertionError as error:
        raise AssertionError(f"expected the places {places}, "
                             f"the board shows {places_on_board(terminal.display)}\n{error}") from None


#: Each player from an address of their own: keys that sit down from one address are not rated against each other.
ADDRESSES = {"ann": "127.0.0.2", "bob": "127.0.0.3"}


async def open_player(port: int, name: str, key: asyncssh.SSHKey) -> SshTerminal:
    return await SshTerminal.open(port, username=name, client_keys=[key], local_addr=(ADDRESSES[name], 0),
                                  columns=90, lines=28)


async def three_at_the_table(port: int, keys: dict[str, asyncssh.SSHKey],
                             opened: list[SshTerminal]) -> tuple[SshTerminal, SshTerminal, SshTerminal]:
    """ann and bob with their keys, eve (a guest, to watch); each kept in ``opened`` to be closed."""
    ann, bob = [await open_player(port, name, keys[name]) for name in ("ann", "bob")]
    eve = await SshTerminal.open(port, username="eve", columns=90, lines=28)
    opened += [ann, bob, eve]
    return ann, bob, eve


async def come_back(terminal: SshTerminal) -> None:
    """A keyed player connecting again while their match runs: straight back at their seat, not in the lobby (its
    notices may have moved on to the opponent's coming back meanwhile)."""
    await terminal.wait_for(lambda screen: "Your move" in screen or "Waiting for " in screen)


@pytest.mark.slow
@on_sqlite_only
async def test_a_move_between_alike_towers_lands_in_the_same_place_on_every_screen(tmp_path, database) -> None:
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("ann", "bob")}
    opened: list[SshTerminal] = []
    try:
        async with running_server(tmp_path, hold_time=120, ranked_after=1, database=database) as server:
            ann, bob, eve = await three_at_the_table(server.port, keys, opened)
            for player in (ann, bob):
                await keep_the_name(player)
            await ann.press(*SETTINGS, pause=0.05)
            code = await create(ann)
            await bob.press(*JOIN_KEYS, pause=0.05)
            await bob.wait_for_text("Type the four-letter code")
            await bob.press(code.lower(), "enter")
            await eve.wait_for_text("ann vs bob: round 1")
            await watch_the_first_listed(eve)
            await wait_until(lambda: server.lobby.tables[code].match is not None, what="the match beginning")

            match: Match = server.lobby.tables[code].match
            first, second = alike_places(match.round.table)
            mover = [ann, bob][match.to_move]
            version = server.lobby.tables[code].version
            await mover.wait_for_text("Your move")
            await mover.press(JUMP_KEYS[second], "enter", JUMP_KEYS[first], "enter", pause=0.05)
            await wait_until(lambda: server.lobby.tables[code].version == version + 1, what="the server taking it")
            table = server.lobby.tables[code].match.round.table
            assert table[second] is None and table[first] is not None  # the second onto the first, as chosen
            after_move = server_places(table)
            for terminal in (ann, bob, eve):
                await shows_places(terminal, after_move)

            # bob loses his connection and comes back (by his key): the same places.
            await bob.close()
            bob = await open_player(server.port, "bob", keys["bob"])
            opened.append(bob)
            await come_back(bob)
            await shows_places(bob, after_move)
            for terminal in opened:
                await terminal.close()
            opened.clear()

        # The server stops and starts again on its store: the players and a spectator see the same places.
        async with running_server(tmp_path, hold_time=120, ranked_after=1, database=database) as server:
            ann, bob, eve = await three_at_the_table(server.port, keys, opened)
            for player in (ann, bob):
                await come_back(player)
                await shows_places(player, after_move)
            await eve.wait_for_text("ann vs bob: round 1")
            await watch_the_first_listed(eve)
            await shows_places(eve, after_move)
            assert server_places(server.lobby.tables[code].match.round.table) == after_move

            # Played out; ann's record replays it with the places as played.
            await play_out(server, code, [ann, bob])
            await ann.wait_for_text("the match 1-0")
            await ann.press("escape", "n")  # the board, then back to the lobby
            await ann.wait_for_text("Welcome,", "Matches in play")
            await ann.press(*RECORD_KEYS, pause=0.05)
            await ann.wait_for_text("Recent matches", "vs bob: ")
            await ann.press("enter")
            await ann.wait_for_text("Replay", "Round 1:")
            await ann.press("down")
            await ann.wait_for_text("Move 1:")
            await shows_places(ann, after_move)
    finally:
        for terminal in opened:
            await terminal.close()
