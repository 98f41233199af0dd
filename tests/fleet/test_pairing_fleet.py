"""Quick matches and challenges across two ``soluna serve`` processes on one PostgreSQL: the store keeps the seeks
and the challenges, so players on either server meet as on one."""

from __future__ import annotations

import asyncssh

from ..server.helpers import SshTerminal, keep_the_name
from ..server.test_online_e2e import open_online, see_online
from ..server.test_pairing_e2e import MORE_STARS_KEYS, answer, challenge, in_match, quick_match, waited_on
from .test_fleet import fleet, known


async def test_seekers_on_two_servers_are_paired_a_third_waits_and_nobody_meets_themselves(
        tmp_path, postgres_database) -> None:
    dan_key = asyncssh.generate_private_key("ssh-ed25519")
    async with fleet(tmp_path, postgres_database) as (first, second, key):
        ann = await SshTerminal.open(first.port, username="ann", **known(key))
        bob = await SshTerminal.open(second.port, username="bob", **known(key))
        cyd = await SshTerminal.open(second.port, username="cyd", **known(key))
        dan = await SshTerminal.open(first.port, username="dan", client_keys=[dan_key], **known(key))
        dan_again = None
        try:
            await cyd.wait_for_text("Welcome,")
            await cyd.press(*MORE_STARS_KEYS, "escape")
            await cyd.wait_for_text("◂ 5 ▸")
            await quick_match(cyd)
            await cyd.wait_for_text("box rules, 5 stars", "Escape stops waiting.")
            await quick_match(ann)
            await ann.wait_for_text("box rules, 4 stars", "Escape stops waiting.")
            await quick_match(bob)  # on the other server
            await in_match(ann, "bob")
            await in_match(bob, "ann")
            await keep_the_name(dan)
            await quick_match(dan)
            await dan.wait_for_text("box rules, 4 stars, 12 discs, no clock, rated.")
            dan_again = await SshTerminal.open(second.port, username="dan", client_keys=[dan_key], **known(key))
            await quick_match(dan_again)
            await dan_again.wait_for_text("You are looking for an opponent on another terminal already.")
            waited = waited_on(cyd.text)
            await cyd.wait_for(lambda screen: waited_on(screen) > waited)  # still waiting: nobody on its terms
            await cyd.press("escape")
            await cyd.wait_for_text("You stopped looking for an opponent.")
            assert waited_on(dan.text) >= 0  # dan still waits: never paired with himself
        finally:
            for terminal in (ann, bob, cyd, dan, dan_again):
                if terminal is not None:
                    await terminal.close()


async def test_challenges_between_two_servers_declined_accepted_and_told_once_back_from_a_match(
        tmp_path, postgres_database) -> None:
    async with fleet(tmp_path, postgres_database) as (first, second, key):
        ann = await SshTerminal.open(first.port, username="ann", **known(key))
        bob = await SshTerminal.open(second.port, username="bob", **known(key))
        cyd = await SshTerminal.open(second.port, username="cyd", **known(key))
        try:
            for terminal in (ann, bob, cyd):
                await open_online(terminal)
                await see_online(terminal, ("ann", "bob", "cyd"))
                await terminal.press("o")
            await challenge(ann, "cyd")
            await cyd.wait_for_text("ann challenges you", "1 challenge (c)")
            await answer(cyd, "d")
            await cyd.wait_for_text("Declined: ann is told.")
            await cyd.press("escape")
            await ann.wait_for_text("cyd declined your challenge.")
            await challenge(ann, "bob")
            await answer(bob, "a")
            await in_match(ann, "bob")
            await in_match(bob, "ann")
            await challenge(cyd, "bob")
            await cyd.press("c")
            await cyd.wait_for_text("You challenged bob:", "(bob is at a match: told once back)")
            await cyd.press("escape")
            await bob.press("n")
            await bob.wait_for_text("Leave the match?")
            await bob.press("y")
            await bob.wait_for_text("Welcome, bob.", "cyd challenges you", "1 challenge (c)")
            await answer(bob, "a")
            await in_match(bob, "cyd")
            await in_match(cyd, "bob")
        finally:
            for terminal in (ann, bob, cyd):
                await terminal.close()


async def test_a_challenge_to_a_player_who_leaves_on_the_other_server_lapses_and_the_challenger_is_told(
        tmp_path, postgres_database) -> None:
    """Issue 39: the target's server let the challenge lapse first, and the challenger, on the other server, was
    never told (on one server they were)."""
    async with fleet(tmp_path, postgres_database) as (first, second, key):
        ann = await SshTerminal.open(first.port, username="ann", **known(key))
        bob = await SshTerminal.open(second.port, username="bob", **known(key))
        try:
            for terminal in (ann, bob):
                await open_online(terminal)
                await see_online(terminal, ("ann", "bob"))
                await terminal.press("o")
            await challenge(ann, "bob")
            await bob.wait_for_text("ann challenges you", "1 challenge (c)")
            await bob.close()
            await ann.wait_for(lambda screen: "bob has left: your challenge lapsed." in " ".join(screen.split()),
                               timeout=20)
            await ann.wait_for(lambda screen: "challenge (c)" not in screen, timeout=5)  # gone from her list too
        finally:
            for terminal in (ann, bob):
                await terminal.close()


async def test_a_challenge_answered_on_one_server_leaves_every_terminal_of_its_player_on_both(
        tmp_path, postgres_database) -> None:
    """Issue 39: a challenge accepted in one terminal stayed listed in the other ("That challenge is not open any
    more"); bob, keyed, is on both servers, and the challenger hears what became of each challenge."""
    bob_key = asyncssh.generate_private_key("ssh-ed25519")
    async with fleet(tmp_path, postgres_database) as (first, second, key):
        bob = await SshTerminal.open(second.port, username="bob", client_keys=[bob_key], **known(key))
        await keep_the_name(bob)
        bob_too = await SshTerminal.open(first.port, username="bob", client_keys=[bob_key], **known(key))
        ann = await SshTerminal.open(first.port, username="ann", **known(key))
        cyd = await SshTerminal.open(second.port, username="cyd", **known(key))
        try:
            await bob_too.wait_for_text("Welcome, bob.")
            for terminal in (ann, cyd):
                await open_online(terminal)
                await see_online(terminal, ("ann", "bob", "cyd"))
                await terminal.press("o")
            await challenge(cyd, "bob")  # declined on one terminal: gone from the other, cyd told
            for terminal in (bob, bob_too):
                await terminal.wait_for_text("1 challenge (c)")
            await bob_too.press("c")
            await bob_too.wait_for_text("challenges you:")
            await answer(bob, "d")
            await cyd.wait_for_text("bob declined your challenge.")
            await bob_too.wait_for_text("No challenges right now.", timeout=5)
            await bob_too.press("escape")
            await challenge(ann, "bob")  # accepted on one terminal: gone from the other, ann in the match
            for terminal in (bob, bob_too):
                await terminal.wait_for_text("1 challenge (c)")
            await bob_too.press("c")
            await bob_too.wait_for_text("challenges you:")
            await answer(bob, "a")
            await in_match(ann, "bob")
            await bob_too.wait_for_text("No challenges right now.", timeout=5)
            await bob_too.press("escape")
            await bob_too.pump(0.5)
            assert "challenge (c)" not in bob_too.text
        finally:
            for terminal in (ann, bob, bob_too, cyd):
                await terminal.close()
