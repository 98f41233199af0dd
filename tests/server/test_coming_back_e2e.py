"""Coming back over real SSH: through a half-dead connection, without one's key, after the server closed the
session (idle, shutdown) with only what its last line said, and the idle warning a player away still sees.

Real asyncssh clients with pseudo-terminals read by pyte, a real server on 127.0.0.1.
"""

from __future__ import annotations

import re

import asyncssh

from .helpers import (
    SshTerminal,
    Terminals,
    child_gone,
    keep_the_name,
    running_server,
    session_named,
    terminals,
    wait_until,
)
from .test_two_players import create_match, join_match, secret_shown


def freeze(terminal: SshTerminal) -> None:
    """The client stops reading (a laptop lid closed, a network gone quiet): the server sees nothing wrong."""
    terminal.connection._transport.pause_reading()


def last_line(output: bytes) -> str:
    """What the session wrote after its game left the screen: its last line, plain."""
    return output[output.rfind(b"\x1b[?1049l"):].decode(errors="replace").replace("\r\n", " ")


async def a_match(opened: Terminals, creator: str = "ann", key=None) -> tuple[SshTerminal, SshTerminal, str]:
    """``creator`` (with ``key``, if any) creates a match and bob, a guest, joins it: both terminals and its code."""
    first, bob = await opened.open(creator, key), await opened.open("bob")
    if key is not None:
        await keep_the_name(first)
    code = await create_match(first)
    await join_match(bob, code)
    await first.wait_for_text("Your move", f"code {code}, secret")
    await bob.wait_for_text(f"Waiting for {creator}.", f"code {code}, secret")
    return first, bob, code


async def test_a_half_dead_connection_gives_way_at_once_to_the_secret(tmp_path) -> None:
    async with running_server(tmp_path, hold_time=120) as server, terminals(server.port) as opened:
        ann, bob, code = await a_match(opened)
        secret = secret_shown(bob)
        old = session_named(server, "bob")
        freeze(bob)
        back = await opened.open("bob")
        await join_match(back, code)
        await back.wait_for_text("type the secret")  # not "two players already": the seat may be his
        await back.press(secret.lower(), "enter")
        await back.wait_for_text("Welcome back.", "Waiting for ann.")
        await ann.wait_for_text("bob reconnected.")
        await wait_until(lambda: old.ending.requested and child_gone(old.child.process),
                         what="the frozen session being closed")
        assert [session for session in server.sessions if session.name == "bob" and not session.ending.requested]
        await ann.press("enter", "right", "space")  # the game goes on with the new terminal
        await back.wait_for_text(" 1. ann", "Your move")


async def test_a_keyed_player_s_half_dead_connection_gives_way_to_the_key(tmp_path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with running_server(tmp_path, hold_time=120) as server, terminals(server.port) as opened:
        ann, bob, _ = await a_match(opened, "ann", key)
        freeze(ann)
        back = await opened.open("ann", key)
        await back.wait_for_text("Your seat: ann vs bob", "Return to your match")  # her key: hers
        await back.press("enter")
        await back.wait_for_text("Welcome back.", "Your move")
        assert "type the secret" not in back.text
        await bob.wait_for_text("ann reconnected.")


async def test_a_keyed_player_back_without_the_key_takes_the_seat_with_the_secret(tmp_path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with running_server(tmp_path, hold_time=120) as server, terminals(server.port) as opened:
        kim, bob, _ = await a_match(opened, "kim", key)
        secret = secret_shown(kim)
        await kim.close()
        await bob.wait_for_text("kim has left")
        back = await opened.open("kim")  # another computer: no key
        await back.wait_for_text("Welcome, kim (guest).", "Your seat: kim vs bob", "Return to your match")
        await back.press("enter")
        await back.wait_for_text("type the secret")
        await back.press(secret.lower(), "enter")
        await back.wait_for_text("Welcome back.", "Your move")
        await bob.wait_for_text("kim is back.")


async def test_a_guest_closed_for_idling_comes_back_with_what_the_last_line_said(tmp_path) -> None:
    async with (running_server(tmp_path, hold_time=120, idle_timeout=8, idle_warning=4) as server,
                terminals(server.port) as opened):
        _, bob, code = await a_match(opened)
        line = last_line(await bob.wait_closed(timeout=30))  # bob presses nothing more
        assert "Closed after 8 seconds without a key press." in line
        found = re.search(r"join ([A-Z]{4}) with your secret ([A-Z]{6})", line)
        assert found is not None, line
        assert found.group(1) == code
        back = await opened.open("bob")
        await back.wait_for_text("Return to your match")
        await back.press("enter")
        await back.wait_for_text("type the secret")
        await back.press(found.group(2).lower(), "enter")
        await back.wait_for_text("Welcome back.")


async def test_the_idle_warning_counts_down_until_a_key_and_the_key_keeps_the_session(tmp_path) -> None:
    async with running_server(tmp_path, idle_timeout=8, idle_warning=6) as server, terminals(server.port) as opened:
        ann = await opened.open("ann")
        await ann.wait_for_text("Welcome, ann.")
        await ann.wait_for_text("No key pressed for 2 seconds.", "closes in 6 seconds")
        await ann.wait_for_text("closes in 4 seconds")  # still there, counting down
        await ann.press("x")  # any key
        await ann.wait_for(lambda text: "No key pressed" not in text and "Welcome, ann." in text)
        await ann.pump(5)  # past the first deadline
        assert not ann.closed and server.gate.sessions == 1


async def test_a_computer_match_outlives_a_shutdown_with_its_analysis_mode_and_the_last_line_s_secret(
        tmp_path) -> None:
    async with running_server(tmp_path, hold_time=2) as server:
        eve = await SshTerminal.open(server.port, username="eve")
        await eve.wait_for_text("Welcome, eve.")
        await eve.press("enter")
        await eve.wait_for_text("Your move")
        await eve.press("A")
        await eve.wait_for_text("analysis on")
        await wait_until(lambda: any(game.saved.analysis for game in server.lobby.games.playing.values()),
                         what="the server keeping analysis mode")
    line = last_line(await eve.wait_closed())
    await eve.close()
    assert "The server is shutting down." in line and "kept for 12 hours" in line
    secret = re.search(r"with your secret ([A-Z]{6})", line).group(1)
    async with running_server(tmp_path, hold_time=2) as server, terminals(server.port) as opened:  # another day's
        back = await opened.open("eve")
        await back.wait_for_text("Resume computer match")
        await back.pump(3)  # longer than a seat is held: a match against the computer is kept longer
        await back.press("enter")
        await back.wait_for_text("type the secret")
        await back.press(secret.lower(), "enter")
        await back.wait_for_text("analysis on", f"secret {secret}")
