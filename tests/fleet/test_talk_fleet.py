"""Table talk across two ``soluna serve`` processes on one PostgreSQL: a line said on one server reaches the players,
the spectators and the lobby on the other (a notification, which PostgreSQL does not store), and none of it is
written to the database."""

from __future__ import annotations

import time

import psycopg

from ..server.helpers import SshTerminal
from ..server.test_online_e2e import WATCH_FIRST_KEYS
from ..server.test_talk_e2e import TALK, USUAL_TIME, say, sees
from ..server.test_two_players import create_match, join_match
from .test_fleet import fleet, known

LINES = ("hello from one", "hi from two", "eve watches here", "dan in the lobby")


def stored_anywhere(url: str, words: tuple[str, ...]) -> list[str]:
    """The words found in any row of any table of the database (as text)."""
    found = []
    with psycopg.connect(url) as connection:
        tables = [row[0] for row in connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")]
        for table in tables:
            rows = repr(connection.execute(f'SELECT * FROM "{table}"').fetchall())  # noqa: S608 - names from the catalogue
            found += [f"{word} in {table}" for word in words if word in rows]
    return found


async def test_talk_reaches_players_spectators_and_the_lobby_on_the_other_server_and_is_never_stored(
        tmp_path, postgres_database) -> None:
    async with fleet(tmp_path, postgres_database) as (first, second, key):
        opened = []
        try:
            for port, name in ((first.port, "ann"), (second.port, "bob"), (first.port, "eve"),
                               (second.port, "dan"), (first.port, "cyd")):
                opened.append(await SshTerminal.open(port, username=name, **known(key)))
            ann, bob, eve, dan, cyd = opened
            code = await create_match(ann)
            await join_match(bob, code)
            await ann.wait_for_text("Your move", "bob has joined")
            await eve.wait_for_text("ann vs bob: round 1")
            await eve.press(*WATCH_FIRST_KEYS)
            await eve.wait_for_text("You are watching")
            await ann.press(TALK)
            await ann.wait_for_text("Enter says it")
            started = time.monotonic()
            ann.send(LINES[0] + "\r")
            await sees(bob, f"ann: {LINES[0]}", USUAL_TIME)
            print(f"\na line reached the opponent on the other server {time.monotonic() - started:.2f} s after Enter")
            await ann.press("escape")
            await say(bob, LINES[1])
            await sees(ann, f"bob: {LINES[1]}", USUAL_TIME)
            await say(eve, LINES[2])
            await sees(eve, f"eve: {LINES[2]}", USUAL_TIME)
            await dan.wait_for_text("Welcome,")
            await cyd.wait_for_text("Welcome,")
            await dan.press(TALK)
            await say(cyd, LINES[3])
            await sees(dan, f"cyd: {LINES[3]}", USUAL_TIME)
            await sees(ann, f"bob: {LINES[1]}")  # what was said first is still there, nothing more
            assert all(LINES[2].encode() not in player.received for player in (ann, bob))
            assert all(LINES[3].encode() not in player.received for player in (ann, bob, eve))
            assert LINES[0].encode() not in eve.received + dan.received + cyd.received
        finally:
            for terminal in opened:
                await terminal.close()
        assert stored_anywhere(postgres_database, ("bob",))  # the match is kept, its players named
        assert stored_anywhere(postgres_database, LINES) == []
