"""Issue 39: challenges, quick matches and held seats that cannot be used to block someone, over real SSH (asyncssh
clients at 80x24 read by pyte, other players on other loopback addresses), on SQLite and PostgreSQL.

- five guests from two addresses filled a player's challenge inbox, and their friend could not challenge them;
- a rated seeker and a guest with the same settings waited side by side forever, neither told why, and every
  other screen listed them "in the lobby";
- someone who knew a guest's name was offered "Return to your match" and spent the seat's three tries: the real
  player, back from a new address with the right secret, was refused for about 20 s.
"""

from __future__ import annotations

import time

import asyncssh

from .helpers import SshTerminal, keep_the_name, on_sqlite_only, running_server, terminals
from .test_online_e2e import open_online
from .test_pairing_e2e import HOME, people_listed, quick_match
from .test_two_players import create_match, join_match, secret_shown

SENT = "Challenge sent:"


async def try_challenge(terminal: SshTerminal, name: str, online: int) -> str:
    """From the lobby: who is online (all ``online`` of them), Enter on ``name``, yes to the question; what the
    server said (one line)."""
    await open_online(terminal)
    screen = await terminal.wait_for(lambda screen: name in people_listed(screen) and "(you)" in screen
                                     and f"Who is online ({online})" in screen)
    await terminal.press(HOME, *("down",) * people_listed(screen).index(name), "enter")
    await terminal.wait_for_text(f"Challenge {name} to a match")
    await terminal.press("y")
    screen = await terminal.wait_for(lambda screen: SENT in screen or "oo many challenges" in screen)
    return " ".join(screen.replace("│", " ").split())


@on_sqlite_only
async def test_five_guests_from_two_addresses_leave_room_for_a_friend_s_challenge(tmp_path, database) -> None:
    async with running_server(tmp_path, database=database) as server, terminals(server.port) as opened:
        bob = await opened.open("bob")
        await bob.wait_for_text("Welcome,")
        answers = []
        for number in range(5):
            guest = await opened.open(f"g{number}", local_addr=(f"127.0.0.{2 + number % 2}", 0))
            answers.append(await try_challenge(guest, "bob", number + 2))
        fay = await opened.open("fay", local_addr=("127.0.0.4", 0))
        said = await try_challenge(fay, "bob", 7)
        sent = [SENT in answer for answer in answers]
        print(f"\nfive guests from two addresses challenge bob: {sent}; then his friend: {SENT in said}")
        assert sent == [True] * 4 + [False]
        assert "waiting for bob's answer" in answers[-1]
        assert SENT in said
        await bob.wait_for_text("5 challenges (c)")
        assert len(await server.lobby.store.pairing.challenges()) == 5


@on_sqlite_only
async def test_a_stranger_with_a_guest_s_name_is_offered_nothing_and_cannot_lock_the_real_player_out(
        tmp_path, database) -> None:
    async with (running_server(tmp_path, database=database, hold_time=120) as server,
                terminals(server.port) as opened):
        ann = await opened.open("ann")
        bob = await opened.open("bob", local_addr=("127.0.0.2", 0))
        code = await create_match(ann)
        await join_match(bob, code)
        await bob.wait_for_text("Waiting for ann.", f"code {code}, secret")
        secret = secret_shown(bob)
        await bob.close()
        await ann.wait_for_text("bob has left")
        stranger = await opened.open("bob", local_addr=("127.0.0.3", 0))  # knows the name, and the code
        await stranger.wait_for_text("Welcome,", "ann vs bob")  # the match is listed, as to anyone
        await stranger.pump(0.5)
        assert "Return to your match" not in stranger.text and "Your seat" not in stranger.text
        wrong = "zzzzzz" if secret != "ZZZZZZ" else "yyyyyy"
        said = []
        for number in range(4):
            if number:
                await stranger.close()
                stranger = await opened.open("bob", local_addr=("127.0.0.3", 0))
            await join_match(stranger, code)
            await stranger.wait_for_text("type the secret")
            await stranger.press(wrong, "enter")
            text = await stranger.wait_for(lambda text: "not the secret" in text or "Too many" in text)
            said.append("too many" if "Too many" in text else "wrong")
        assert said == ["wrong"] * 3 + ["too many"]  # the stranger locked themselves out, and nobody else
        back = await opened.open("bob", local_addr=("127.0.0.4", 0))  # bob, from a new address
        started = time.monotonic()
        await join_match(back, code)
        await back.wait_for_text("type the secret")
        await back.press(secret.lower(), "enter")
        await back.wait_for_text("Welcome back.", "Waiting for ann.")
        print(f"\na stranger's four tries at bob's seat: {said}; bob back from a new address in "
              f"{time.monotonic() - started:.1f} s")
        await ann.wait_for_text("bob is back.")


def flat(screen: str) -> str:
    """The screen's words in one line (a dialog's lines wrapped, its borders left out)."""
    return " ".join(screen.replace("│", " ").split())


@on_sqlite_only
async def test_a_rated_seeker_and_a_guest_on_the_same_settings_are_told_why_and_listed_as_waiting(
        tmp_path, database) -> None:
    dan_key = asyncssh.generate_private_key("ssh-ed25519")
    async with running_server(tmp_path, database=database) as server, terminals(server.port) as opened:
        dan = await opened.open("dan", dan_key, local_addr=("127.0.0.2", 0))
        await keep_the_name(dan)
        gus = await opened.open("gus", local_addr=("127.0.0.3", 0))
        cyd = await opened.open("cyd", local_addr=("127.0.0.4", 0))
        await quick_match(dan)
        await dan.wait_for_text("Looking for an opponent", "no clock, rated.")
        await quick_match(gus)
        await gus.wait_for_text("Looking for an opponent", "no clock, unrated.")
        to_dan = await dan.wait_for(lambda screen: "gus, a guest, waits on the same settings" in flat(screen))
        to_gus = await gus.wait_for(lambda screen: "dan waits on the same settings, rated" in flat(screen))
        assert "set Rated to no" in flat(to_dan) and "a guest's matches are unrated" in flat(to_gus)
        await open_online(cyd)
        listed = await cyd.wait_for(lambda screen: flat(screen).count("waiting for an opponent") == 2)
        print(f"\ndan's dialog: {flat(to_dan)[flat(to_dan).index('gus, a guest'):][:120]}...")
        assert not server.lobby.tables and "in the lobby" in listed  # cyd is; dan and gus wait


@on_sqlite_only
async def test_a_challenge_accepted_on_one_terminal_leaves_the_other_s_list_at_once(tmp_path, database) -> None:
    bob_key = asyncssh.generate_private_key("ssh-ed25519")
    async with running_server(tmp_path, database=database) as server, terminals(server.port) as opened:
        bob = await opened.open("bob", bob_key, local_addr=("127.0.0.2", 0))
        await keep_the_name(bob)
        bob_too = await opened.open("bob", bob_key, local_addr=("127.0.0.2", 0))  # his other terminal
        ann = await opened.open("ann", local_addr=("127.0.0.3", 0))
        await bob_too.wait_for_text("Welcome,")
        assert SENT in await try_challenge(ann, "bob", 2)
        for terminal in (bob, bob_too):
            await terminal.wait_for_text("1 challenge (c)")
            await terminal.press("c")
            await terminal.wait_for_text("challenges you:")
        await bob.press("a")
        await bob.wait_for(lambda screen: "Your move" in screen or "Waiting for ann." in screen)
        screen = await bob_too.wait_for(lambda screen: "challenges you:" not in screen
                                        or "No challenge" in screen, timeout=5)
        print(f"\nbob's other terminal after the accept: {flat(screen)[:300]}")
        await bob_too.press("escape")
        await bob_too.pump(0.5)
        assert "1 challenge (c)" not in bob_too.text
