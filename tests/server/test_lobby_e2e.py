"""The lobby's screens over real SSH after a whole rated match: the leaderboard and the record (the server's
answer arriving before the screen is ready, and after), and a second match joined by code in one visit.

Two keyed players on real asyncssh clients with pseudo-terminals read by pyte, the server in this process
(its store is where a test holds an answer back until the screen shows it is waiting).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import asyncssh
import pytest

from .helpers import SshTerminal, keep_the_name, on_sqlite_only, play_a_move, running_server, wait_until

#: The lobby's menu when nothing is held for the player: the keys that reach each entry from wherever the
#: menu's cursor was left (Up stops at the first entry).
TOP = ("escape",) + ("up",) * 7
LEADERBOARD_KEYS = (*TOP, *("down",) * 4, "enter")
RECORD_KEYS = (*TOP, *("down",) * 5, "enter")
JOIN_KEYS = (*TOP, "down", "down", "enter")
CREATE_KEYS = (*TOP, "down", "enter")


#: The lobby's settings at one star and four discs.
SHORT_MATCH = re.compile(r"Stars to win\s+\S\s1\s.*Discs\s+\S\s4\s", re.S)


async def short_match_settings(terminal: SshTerminal) -> None:
    """From the menu: one star wins, four discs (a match of one short round), back to the menu; until the settings
    read so. A loaded CI runner once played a match of more than one round after these keys: one taken before the
    lobby could take it, say. Pressed again they do no harm (more lefts at the least change nothing)."""
    await terminal.wait_for_text("Welcome,")
    for _ in range(3):
        await terminal.press("tab", "tab", "tab", *["left"] * 3, "tab", *["left"] * 8, "escape", pause=0.05)
        try:
            await terminal.wait_for(lambda text: SHORT_MATCH.search(text) is not None, 5.0)
            return
        except AssertionError:
            continue
    await terminal.wait_for(lambda text: SHORT_MATCH.search(text) is not None, 1.0)  # never: its screen, said


async def create(terminal: SshTerminal) -> str:
    await terminal.press(*CREATE_KEYS, pause=0.05)
    text = await terminal.wait_for_text("Your match code:")
    return re.search(r"Your match code:\s+((?:[A-Z] ){3}[A-Z])", text).group(1).replace(" ", "")


async def play_out(server, code: str, players: list[SshTerminal]) -> None:
    """The players play the first legal move in turn until the match is over (the server's copy says which)."""
    await wait_until(lambda: server.lobby.tables[code].match is not None, what="the match beginning")
    while not server.lobby.tables[code].match.is_over:
        await play_a_move(server, code, players)


@asynccontextmanager
async def two_keyed_players(tmp_path) -> AsyncIterator[tuple[Any, SshTerminal, SshTerminal]]:
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
    # Listed after one rated match, whoever the opponent (the server's rule asks for established opponents too).
    async with running_server(tmp_path, hold_time=120, ranked_after=1, ranked_opponents=0) as server:
        # From two addresses: keys that sit down from one address are not rated against each other.
        ann = await SshTerminal.open(server.port, username="ann", client_keys=[keys[0]], local_addr=("127.0.0.2", 0))
        bob = await SshTerminal.open(server.port, username="bob", client_keys=[keys[1]], local_addr=("127.0.0.3", 0))
        try:
            await keep_the_name(ann)
            await keep_the_name(bob)
            yield server, ann, bob
        finally:
            await ann.close()
            await bob.close()


async def a_rated_match(server, ann: SshTerminal, bob: SshTerminal) -> str:
    """ann creates a one-star match, bob joins it by code, they play it out and both go back to the lobby;
    the winner's name."""
    await short_match_settings(ann)
    code = await create(ann)
    await bob.press(*JOIN_KEYS, pause=0.05)
    await bob.wait_for_text("Type the four-letter code")
    await bob.press(code.lower(), "enter")
    await play_out(server, code, [ann, bob])
    (finished,) = await server.store.finished.newest()
    assert finished.rated
    winner = finished.seats[finished.winner].name
    for terminal in (ann, bob):
        await terminal.wait_for_text("the match 1-0")
    for terminal in (ann, bob):
        if terminal is bob:
            await bob.wait_for_text("has left")  # ann's leaving is news on bob's screen: it comes first
        await terminal.press("escape", "n")  # the board, then back to the lobby
        await terminal.wait_for_text("Welcome,", "Matches in play")
    return winner


def held_back(part, name: str) -> tuple[asyncio.Event, asyncio.Event]:
    """The ``name`` method of a part of the store answers only once the test sets the first event; the second
    is set when the server has asked it."""
    release, asked = asyncio.Event(), asyncio.Event()
    method: Callable[..., Awaitable[Any]] = getattr(part, name)

    async def waiting(*args: Any, **kwargs: Any) -> Any:
        asked.set()
        await release.wait()
        return await method(*args, **kwargs)

    setattr(part, name, waiting)
    return release, asked


@pytest.mark.parametrize("answer", ["at once", "once the screen waits"])
async def test_a_keyed_player_s_leaderboard_and_record_after_a_rated_match(tmp_path, answer) -> None:
    async with two_keyed_players(tmp_path) as (server, ann, bob):
        winner = await a_rated_match(server, ann, bob)
        ann_rank = 1 if winner == "ann" else 2

        async def opened(keys: tuple[str, ...], part: object, method: str) -> None:
            """The screen opened with ``keys``; held back, the server's answer waits until it shows it is waiting."""
            held = held_back(part, method) if answer == "once the screen waits" else None
            await ann.press(*keys, pause=0.05)
            if held is not None:
                release, asked = held
                await ann.wait_for_text("Asking the server...")
                await asyncio.wait_for(asked.wait(), 15)
                release.set()

        await opened(LEADERBOARD_KEYS, server.store.ratings, "leaderboard")
        row = rf"{ann_rank}\s+ann\s+\d+\s+1\s+{1 if winner == 'ann' else 0}"
        # The row itself waited for: a frame reaches the terminal in several packets, top first.
        text = await ann.wait_for(lambda text: "Players 1-2 of 2" in text and f"ann: rank {ann_rank}, rating " in text
                                  and re.search(row, text) is not None)
        assert "could not read" not in text
        await ann.press("escape")
        await ann.wait_for_text("Welcome, ann.")
        await opened(RECORD_KEYS, server.store.players, "summary")
        result = "won" if winner == "ann" else "lost"
        text = await ann.wait_for_text("ann: rating ", f"rank {ann_rank}.", "1 rated match played",
                                       f"vs bob: {result} on the board, stars ")
        assert "could not read" not in text
        await ann.press("enter")  # the recent match, replayed: the answer goes to the record that asked
        await ann.wait_for_text("Replay", "Round 1: ann opened", f"ann vs bob. {winner} won the match")


async def test_a_second_match_is_joined_by_its_own_code_in_one_visit(tmp_path) -> None:
    async with two_keyed_players(tmp_path) as (server, ann, bob):
        await a_rated_match(server, ann, bob)
        code = await create(ann)
        await bob.press(*JOIN_KEYS, pause=0.05)
        await bob.wait_for_text("Type the four-letter code")  # not the last match's code again
        await bob.press(*"zzzz", "enter")
        await bob.wait_for_text("No match has the code ZZZZ.")
        await bob.press(*code.lower(), "enter")  # typing replaces the code refused
        await bob.wait_for_text("Waiting for ann.")
        await ann.wait_for_text("bob has joined")


async def test_a_name_that_differs_from_a_keyed_player_s_only_by_spaces_is_refused_saying_whose(tmp_path) -> None:
    async with two_keyed_players(tmp_path) as (server, ann, bob):
        await bob.press(*TOP, *("down",) * 6, "enter", pause=0.05)  # Choose your name
        await bob.wait_for_text("Once you change it, bob stays yours", "30 days")  # bob chose his name before
        await bob.press(*"a n n", "enter")
        await bob.wait_for_text("That name looks like ann, another player's name")
        await bob.press("escape")
        await bob.wait_for_text("Welcome, bob.")


#: From the menu: the rules online, three stars, the first clock; then the menu again (its first item).
CHANGE_SETTINGS = ("tab", "tab", "right", "tab", "left", "tab", "tab", "tab", "tab", "right", *TOP)


async def test_the_lobby_s_settings_come_back_with_the_key_and_last_a_guest_s_visit(tmp_path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with running_server(tmp_path) as server:
        for visit in (1, 2):
            ann = await SshTerminal.open(server.port, username="ann", client_keys=[key])
            cyd = await SshTerminal.open(server.port, username="cyd")  # a guest
            try:
                if visit == 1:
                    await keep_the_name(ann)
                    for player in (ann, cyd):
                        await player.wait_for_text("Welcome,")
                        await player.press(*CHANGE_SETTINGS, pause=0.05)
                        await player.wait_for_text("online (loser opens)", "◂ 3 ▸", "3 min + 2 s a move")
                        await player.press("enter")  # the computer, with these settings (and they are kept)
                        await player.wait_for_text("Your move")
                        await player.press("n")  # back to the lobby: as they were left in this visit
                        await player.wait_for_text("Welcome,", "online (loser opens)", "◂ 3 ▸", "3 min + 2 s")
                else:
                    await ann.wait_for_text("Welcome, ann.", "online (loser opens)", "◂ 3 ▸", "3 min + 2 s a move")
                    text = await cyd.wait_for_text("Welcome, cyd.", "box (loser chooses)")
                    assert "◂ 4 ▸" in text and "3 min + 2 s" not in text  # a guest's visit has ended
            finally:
                await ann.close()
                await cyd.close()


@on_sqlite_only
async def test_a_guest_s_record_lists_the_match_it_just_finished(tmp_path, database) -> None:
    async with running_server(tmp_path, hold_time=120, database=database) as server:
        ann = await SshTerminal.open(server.port, username="ann", local_addr=("127.0.0.2", 0))
        bob = await SshTerminal.open(server.port, username="bob", local_addr=("127.0.0.3", 0))
        try:
            await short_match_settings(ann)
            code = await create(ann)
            await bob.press(*JOIN_KEYS, pause=0.05)
            await bob.wait_for_text("Type the four-letter code")
            await bob.press(code.lower(), "enter")
            await play_out(server, code, [ann, bob])
            (finished,) = await server.store.finished.newest()
            winner = finished.seats[finished.winner].name
            await ann.wait_for_text("the match 1-0")
            await ann.press("escape", "n")
            await ann.wait_for_text("Welcome,", "Matches in play")
            await ann.press(*RECORD_KEYS, pause=0.05)
            result = "won" if winner == "ann" else "lost"
            text = await ann.wait_for_text("ann: a guest, unrated", "1 match played",
                                           f"vs bob: {result} on the board, stars ")
            assert "No finished match yet" not in text
        finally:
            await ann.close()
            await bob.close()
