"""One player over real SSH: the lobby, the terminal's size, the environment, quitting, the spawn modes."""

from __future__ import annotations

import pytest

from .helpers import SshTerminal, process_gone, running_server, session_named, wait_until


@pytest.mark.parametrize("spawn", ["zygote", "exec"])
async def test_the_lobby_renders_with_the_players_name(tmp_path, spawn) -> None:
    async with running_server(tmp_path, spawn=spawn) as server:
        terminal = await SshTerminal.open(server.port, username="ann")
        try:
            text = await terminal.wait_for_text("Welcome, ann.", "Create a match", "Join a match by code",
                                                "Watch a match", "Play the computer", "q Quit")
            assert "Match code" in text and "Matches in play" in text
        finally:
            await terminal.close()


async def test_q_quits_cleanly_and_the_child_is_reaped(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        terminal = await SshTerminal.open(server.port)
        await terminal.wait_for_text("Welcome, ann.")
        pid = session_named(server, "ann").child.process.pid
        terminal.send("q")  # asks first over SSH
        await terminal.wait_for_text("Leave Soluna?")
        terminal.send("y")
        output = await terminal.wait_closed()
        assert terminal.process.exit_status == 0
        assert b"\x1b[?1049l" in output  # the app left the alternate screen itself
        assert b"Traceback" not in output
        await wait_until(lambda: process_gone(pid), what="the child being reaped")
        await wait_until(lambda: not server.sessions and server.gate.sessions == 0, what="the session being gone")
        await terminal.close()


async def test_a_resize_reaches_the_app(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        terminal = await SshTerminal.open(server.port, columns=100, lines=30)
        try:
            await terminal.wait_for_text("Welcome, ann.")
            terminal.resize(46, 35)  # a phone's: the lobby laid out for it
            await terminal.wait_for(lambda text: "Welcome, ann." in text and max(map(len, text.splitlines())) <= 46)
            assert "too small" not in terminal.text
            terminal.resize(36, 18)
            await terminal.wait_for_text("Terminal too small: 36x18.")
            terminal.resize(100, 30)
            await terminal.wait_for(lambda text: "Welcome, ann." in text and "too small" not in text)
        finally:
            await terminal.close()


async def test_a_huge_window_is_clamped(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        terminal = await SshTerminal.open(server.port, columns=1000, lines=10)
        try:
            await terminal.wait_for_text("Terminal too small: 500x10.")
            terminal.resize(80, 300)
            await terminal.wait_for(lambda text: "Welcome, ann." in text and "too small" not in text)
            assert session_named(server, "ann").channel.size == (80, 200)
        finally:
            await terminal.close()


async def test_a_flood_of_window_changes_ends_at_the_last_size(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        terminal = await SshTerminal.open(server.port, columns=0, lines=0)
        try:
            await terminal.pump(1.0)
            for step in range(300):
                terminal.process.change_terminal_size(40 + step % 50, 10 + step % 20)
            terminal.resize(39, 21)
            await terminal.wait_for_text("Terminal too small: 39x21.")
            assert session_named(server, "ann").channel.size == (39, 21)
        finally:
            await terminal.close()


@pytest.mark.parametrize("spawn", ["zygote", "exec"])
async def test_the_child_gets_no_client_environment_but_term_and_colour_hints(tmp_path, spawn) -> None:
    env = {"NO_COLOR": "1", "COLORTERM": "truecolor", "LD_PRELOAD": "/tmp/evil.so", "PYTHONSTARTUP": "/tmp/x",
           "TEXTUAL": "devtools", "LANG": "C.UTF-8"}
    allowed = {"TERM", "NO_COLOR", "COLORTERM", "LANG", "LC_ALL", "PATH", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE"}
    async with running_server(tmp_path, spawn=spawn) as server:
        terminal = await SshTerminal.open(server.port, env=env)
        try:
            await terminal.wait_for_text("Welcome, ann.")
            session = session_named(server, "ann")
            given = session.child.config.environment
            assert (given["TERM"], given["NO_COLOR"], given["COLORTERM"]) == ("xterm-256color", "1", "truecolor")
            assert set(given) <= allowed
            if spawn == "exec":  # what the process was started with, as the kernel keeps it
                with open(f"/proc/{session.child.process.pid}/environ", "rb") as stream:
                    names = {item.split(b"=", 1)[0].decode() for item in stream.read().split(b"\0") if item}
                assert names == set(given)
        finally:
            await terminal.close()


async def test_a_dumb_terminal_is_refused_politely(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        terminal = await SshTerminal.open(server.port, term="dumb")
        output = await terminal.wait_closed()
        assert b"cannot draw the game" in output and output.count(b"\n") <= 2
        assert terminal.process.exit_status == 1
        assert not server.sessions or all(session.child.process is None for session in server.sessions)
        await terminal.close()


async def test_a_client_disconnecting_ends_its_child(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        terminal = await SshTerminal.open(server.port)
        await terminal.wait_for_text("Welcome, ann.")
        pid = session_named(server, "ann").child.process.pid
        await terminal.close()
        await wait_until(lambda: process_gone(pid), what="the child being reaped")
        await wait_until(lambda: server.gate.sessions == 0 and server.gate.connections == 0,
                         what="the places being given back")
