"""Sessions in houses (``soluna serve --sessions-per-process N``): several sessions' apps in one process, over real
SSH clients read by pyte.

Players of one kind of terminal share a house up to N, another kind gets a house of its own; each app has its own
terminal size; an app that fails ends its own session only; a house that dies tells each of its players; a house
ends with its last session.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import time

from .helpers import SshTerminal, process_gone, running_server, session_named, terminals, wait_until

LOBBY = "Play the computer"
#: Loaded by every Python the test's server starts (``PYTHONPATH``): "?" fails the session's app.
FAILING_HELP = """
from soluna_tui.online import child_app

def fail(self):
    raise ZeroDivisionError("a failure of the test's making")

child_app.ChildApp.action_help = fail
"""
KILLED = (b"Sorry: your game stopped unexpectedly (it was killed). Connect again: a match in play keeps your seat "
          b"for 5 minutes.")


def house_of(server, name: str) -> int:
    return session_named(server, name).child.process.pid


def frame_width(terminal: SshTerminal) -> int:
    """The width of the lobby's frame as drawn (0 while its top edge is not whole on the screen)."""
    top = next((line.rstrip() for line in terminal.display if "Soluna" in line), "")
    return len(top) if top.endswith("╮") else 0


async def test_one_kind_of_terminal_shares_a_house_up_to_its_size_and_each_keeps_its_own_screen(tmp_path) -> None:
    async with running_server(tmp_path, sessions_per_process=2, per_ip=4) as server, terminals(server.port) as opened:
        ann = await opened.open("ann")
        bob = await opened.open("bob")
        cat = await opened.open("cat", env={"NO_COLOR": "1"})
        dan = await opened.open("dan")
        for terminal in (ann, bob, cat, dan):
            await terminal.wait_for_text(LOBBY)
        houses = {name: house_of(server, name) for name in ("ann", "bob", "cat", "dan")}
        assert houses["ann"] == houses["bob"], "two xterm-256color players share a house"
        assert houses["cat"] not in (houses["ann"], houses["dan"]), "NO_COLOR is another environment"
        assert houses["dan"] != houses["ann"], "a house holds two sessions at most here"
        assert len(set(houses.values())) == 3

        bob.resize(60, 20)
        await bob.wait_for(lambda _: 0 < frame_width(bob) <= 60)
        assert frame_width(ann) > 60, "a housemate's size is its own"
        await ann.press("enter")  # a match against the computer, for ann only
        await ann.wait_for_text("Your move")
        assert "Your move" not in bob.text

        await cat.press("q")
        await cat.wait_for_text("Leave Soluna?")
        await cat.press("y")
        await cat.wait_closed()
        await wait_until(lambda: process_gone(houses["cat"]), what="the house of cat's session ending with it")
        assert not process_gone(houses["ann"])


async def test_a_failing_app_ends_its_own_session_and_a_house_that_dies_tells_each_player(tmp_path, monkeypatch,
                                                                                          caplog) -> None:
    caplog.set_level(logging.INFO, logger="soluna.server")
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(FAILING_HELP)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(hook), *(path for path in sys.path if path)]))
    async with running_server(tmp_path, sessions_per_process=4) as server, terminals(server.port) as opened:
        players = {name: await opened.open(name) for name in ("ann", "bob", "cat")}
        for terminal in players.values():
            await terminal.wait_for_text(LOBBY)
        house = house_of(server, "ann")
        assert {house_of(server, name) for name in players} == {house}

        players["bob"].send("?")
        output = await players["bob"].wait_closed()
        assert b"Sorry: your game stopped unexpectedly (it hit an internal error)." in output
        assert b"Traceback" not in output and b"ZeroDivisionError" not in output
        reports = [record.getMessage() for record in caplog.records if "the child crashed" in record.getMessage()]
        assert len(reports) == 1 and "ZeroDivisionError: a failure of the test's making" in reports[0]

        ann = players["ann"]
        await ann.press("enter")  # bob's failure left ann's app as it was
        await ann.wait_for_text("Your move")

        os.kill(house, signal.SIGKILL)
        for name in ("ann", "cat"):
            output = await players[name].wait_closed()
            assert KILLED in output, f"{name} was not told:\n{players[name].shown}"
        ended = [record.getMessage() for record in caplog.records if "ended: child killed by SIGKILL" in
                 record.getMessage()]
        assert len(ended) == 2

        eve = await opened.open("eve")  # a new house for the next player
        await eve.wait_for_text(LOBBY)
        assert house_of(server, "eve") != house


async def test_a_housemate_flooding_keys_and_one_not_reading_leave_the_other_s_keys_prompt(tmp_path) -> None:
    async with running_server(tmp_path, sessions_per_process=4, per_ip=4) as server, terminals(server.port) as opened:
        ann, bob, cat = [await opened.open(name) for name in ("ann", "bob", "cat")]
        for terminal in (ann, bob, cat):
            await terminal.wait_for_text(LOBBY)
        assert len({house_of(server, name) for name in ("ann", "bob", "cat")}) == 1
        await bob.press("enter")  # bob plays the computer
        await bob.wait_for_text("Your move")

        cat.connection._transport.pause_reading()  # cat's client reads nothing more
        ann.send("\x1b[B\x1b[A" * 5000)  # 30 KB of keys at once (the input burst allows 32 KB): ten thousand keys
        slowest = 0.0
        for _ in range(6):
            before = bob.text
            started = time.monotonic()
            bob.send("\x1b[C")  # the next tower
            await bob.wait_for(lambda screen, before=before: screen != before, timeout=5)
            slowest = max(slowest, time.monotonic() - started)
        assert slowest < 1.0, f"a key of bob's took {slowest:.2f} s beside the flood"

        cat.connection._transport.resume_reading()
        await cat.press("q")  # cat's session lived on
        await cat.wait_for_text("Leave Soluna?")
