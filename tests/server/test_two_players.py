"""Two players (and a spectator) over real SSH: pairing by code, moves on every screen, leaving, keys."""

from __future__ import annotations

import re

import asyncssh

from .helpers import SshTerminal, child_gone, running_server, session_named, wait_until


async def create_match(terminal: SshTerminal) -> str:
    """Choose "Create a match" in the lobby; the code the waiting dialog shows."""
    await terminal.wait_for_text("Welcome,")
    await terminal.press("down", "enter")
    text = await terminal.wait_for_text("Your match code:")
    return re.search(r"Your match code:\s+((?:[A-Z] ){3}[A-Z])", text).group(1).replace(" ", "")


async def join_match(terminal: SshTerminal, code: str) -> None:
    """Choose "Join a match by code" (which asks for the code), type it, Enter."""
    await terminal.wait_for_text("Welcome,")
    await terminal.press("down", "down", "enter")
    await terminal.wait_for_text("Type the four-letter code")
    await terminal.press(code.lower(), "enter")


async def test_two_players_pair_by_code_and_a_move_shows_on_both(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        ann = await SshTerminal.open(server.port, username="ann")
        bob = await SshTerminal.open(server.port, username="bob")
        try:
            code = await create_match(ann)
            await join_match(bob, code)
            await ann.wait_for_text("Your move", "bob has joined")
            await bob.wait_for_text("Waiting for ann.")
            await ann.press("enter", "right", "space")  # tower 1 onto tower 2: both one disc high
            for terminal in (ann, bob):
                text = await terminal.wait_for_text(" 1. ann")
                assert "Round 1: ann opened" in text
            await bob.wait_for_text("Your move")
            await ann.wait_for_text("Waiting for bob.")
            move = re.search(r" 1\. ann\s+(\S+>\S+)", ann.text).group(1)
            assert move in bob.text
        finally:
            await ann.close()
            await bob.close()


async def test_a_spectator_sees_the_moves(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        ann = await SshTerminal.open(server.port, username="ann")
        bob = await SshTerminal.open(server.port, username="bob")
        eve = await SshTerminal.open(server.port, username="eve")
        try:
            await join_match(bob, await create_match(ann))
            await ann.wait_for_text("Your move")
            text = await eve.wait_for_text("ann vs bob: round 1, stars 0-0")
            assert not re.search(r"\b[A-Z]{4}\b", text.split("Matches in play")[1])  # codes are never shown
            await eve.press("down", "down", "down", "enter", "enter")  # Watch a match; the first listed
            await eve.wait_for_text("You are watching", "Waiting for ann.")
            await ann.press("enter", "right", "space")
            await eve.wait_for_text(" 1. ann")
        finally:
            for terminal in (ann, bob, eve):
                await terminal.close()


def secret_shown(terminal: SshTerminal) -> str:
    """The secret the tally shows this player (``code ABCD, secret KQXPMR``)."""
    return re.search(r"secret ([A-Z]{6})", terminal.text).group(1)


async def test_a_disconnect_tells_the_opponent_and_the_child_is_reaped(tmp_path) -> None:
    async with running_server(tmp_path, hold_time=120) as server:
        ann = await SshTerminal.open(server.port, username="ann")
        bob = await SshTerminal.open(server.port, username="bob")
        try:
            code = await create_match(ann)
            await join_match(bob, code)
            await bob.wait_for_text("Waiting for ann.", f"code {code}, secret")
            secret = secret_shown(bob)
            child = session_named(server, "bob").child.process
            await bob.close()
            await ann.wait_for_text("bob has left: the seat", "away: 1:5")  # the countdown in the tally
            await wait_until(lambda: child_gone(child), what="bob's child being reaped")
            back = await SshTerminal.open(server.port, username="bob")
            await back.wait_for_text("Your seat: ann vs bob", "Return to your match")
            await back.press("enter")
            await back.wait_for_text("type the secret")
            await back.press(secret.lower(), "enter")
            await back.wait_for_text("Welcome back.", "Waiting for ann.", f"secret {secret}")
            await ann.wait_for_text("bob is back.")
            await ann.wait_for(lambda text: "away:" not in text)
            await back.close()
        finally:
            await ann.close()


async def test_leaving_a_match_asks_first_and_the_same_connection_comes_back_without_the_secret(tmp_path) -> None:
    async with running_server(tmp_path, hold_time=120) as server:
        ann = await SshTerminal.open(server.port, username="ann")
        bob = await SshTerminal.open(server.port, username="bob")
        try:
            await join_match(bob, await create_match(ann))
            await bob.wait_for_text("Waiting for ann.")
            await bob.press("n")
            await bob.wait_for_text("Leave the match?", "Your seat is held for 2 minutes")
            await bob.press("n")  # no: still at the match
            await bob.wait_for(lambda text: "Leave the match?" not in text and "Waiting for ann." in text)
            assert "bob has left" not in ann.text
            await bob.press("n", "y")
            await bob.wait_for_text("Welcome, bob.", "Your seat: ann vs bob, round 1, stars 0-0",
                                    "Return to your match")
            await ann.wait_for_text("bob has left")
            await bob.press("enter")  # the same connection: its own secret is proof, nothing to type
            await bob.wait_for_text("Welcome back.", "Waiting for ann.")
            assert "type the secret" not in bob.text
            await ann.wait_for_text("bob is back.")
        finally:
            await ann.close()
            await bob.close()


async def test_a_public_key_is_recognised_by_its_fingerprint(tmp_path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with running_server(tmp_path) as server:
        terminal = await SshTerminal.open(server.port, username="kim", client_keys=[key])
        try:
            await terminal.wait_for_text("Welcome, kim.")
            assert session_named(server, "kim").fingerprint == key.get_fingerprint("sha256")
        finally:
            await terminal.close()
        anonymous = await SshTerminal.open(server.port, username="lee")
        try:
            await anonymous.wait_for_text("Welcome, lee.")
            assert session_named(server, "lee").fingerprint is None
        finally:
            await anonymous.close()


async def test_playing_the_computer_over_ssh(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        terminal = await SshTerminal.open(server.port, username="ann")
        try:
            await terminal.wait_for_text("Welcome, ann.")
            await terminal.press("enter")
            await terminal.wait_for_text("Your move", "ann ")
            await terminal.press("enter", "right", "space")
            await terminal.wait_for_text(" 2. Computer")
            await terminal.press("n")
            await terminal.wait_for_text("Welcome, ann.", "Resume computer match")
        finally:
            await terminal.close()
        assert not list(tmp_path.glob("**/stats*")) and not list(tmp_path.glob("**/current-match*"))


async def test_a_match_against_the_computer_is_held_through_a_disconnect_and_resumed(tmp_path) -> None:
    async with running_server(tmp_path, hold_time=120) as server:
        ann = await SshTerminal.open(server.port, username="ann")
        try:
            await ann.wait_for_text("Welcome, ann.", "None right now.")
            await ann.press("enter")
            await ann.wait_for_text("Your move", "secret ")
            secret = secret_shown(ann)
            await ann.press("enter", "right", "space")
            text = await ann.wait_for_text(" 2. Computer")
            history = re.findall(r" [12]\. (?:ann|Computer)\s+\S+>\S+", text)
        finally:
            await ann.close()
        thief = await SshTerminal.open(server.port, username="ann")  # the same name is not enough
        try:
            await thief.wait_for_text("Resume computer match")
            await thief.press("enter")
            await thief.wait_for_text("type the secret")
            await thief.press("zzzzzz", "enter")
            await thief.wait_for_text("That is not the secret of that match.")
        finally:
            await thief.close()
        back = await SshTerminal.open(server.port, username="ann")
        try:
            await back.wait_for_text("Resume computer match")
            await back.press("enter")
            await back.wait_for_text("type the secret")
            await back.press(secret.lower(), "enter")
            text = await back.wait_for_text("Your move", " 2. Computer", f"secret {secret}")
            assert re.findall(r" [12]\. (?:ann|Computer)\s+\S+>\S+", text) == history
            assert not list(tmp_path.glob("**/stats*")) and not list(tmp_path.glob("**/current-match*"))
        finally:
            await back.close()
