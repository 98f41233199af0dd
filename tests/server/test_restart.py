"""One server on its SQLite file, stopped and started again: matches in play and computer matches are kept."""

from __future__ import annotations

import re

from .helpers import SshTerminal, running_server
from .test_two_players import create_match, join_match, secret_shown


async def test_a_restarted_server_keeps_matches_in_play_and_held_computer_matches(tmp_path) -> None:
    async with running_server(tmp_path, hold_time=120) as server:
        ann = await SshTerminal.open(server.port, username="ann")
        bob = await SshTerminal.open(server.port, username="bob")
        cyd = await SshTerminal.open(server.port, username="cyd")
        try:
            await join_match(bob, await create_match(ann))
            await ann.wait_for_text("Your move", "bob has joined")
            await ann.press("enter", "right", "space")
            await bob.wait_for_text(" 1. ann", "secret ")
            bob_secret = secret_shown(bob)
            await cyd.wait_for_text("Welcome, cyd.")
            await cyd.press("enter")  # play the computer
            await cyd.wait_for_text("Your move", "secret ")
            cyd_secret = secret_shown(cyd)
            await cyd.press("enter", "right", "space")
            history = re.findall(r" [12]\. (?:cyd|Computer)\s+\S+>\S+", await cyd.wait_for_text(" 2. Computer"))
        finally:
            for terminal in (ann, bob, cyd):
                await terminal.close()
    assert (tmp_path / "soluna.sqlite3").is_file()
    async with running_server(tmp_path, hold_time=120) as server:
        bob = await SshTerminal.open(server.port, username="bob")
        cyd = await SshTerminal.open(server.port, username="cyd")
        try:
            await bob.wait_for_text("Your seat: ann vs bob", "Return to your match")
            await bob.press("enter")
            await bob.wait_for_text("type the secret")
            await bob.press(bob_secret.lower(), "enter")
            await bob.wait_for_text("Welcome back.", " 1. ann", f"secret {bob_secret}")
            await cyd.wait_for_text("Resume computer match")
            await cyd.press("enter")
            await cyd.wait_for_text("type the secret")
            await cyd.press(cyd_secret.lower(), "enter")
            text = await cyd.wait_for_text("Your move", " 2. Computer")
            assert re.findall(r" [12]\. (?:cyd|Computer)\s+\S+>\S+", text) == history
        finally:
            await bob.close()
            await cyd.close()
