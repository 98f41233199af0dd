"""What the server refuses: commands, sessions without a terminal, SFTP, forwarding; and its limits."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from .helpers import TIMEOUT, SshTerminal, client_options, process_gone, running_server, session_named, wait_until


async def test_a_command_is_refused_with_one_line(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        async with asyncssh.connect("127.0.0.1", server.port, **client_options()) as connection:
            result = await asyncio.wait_for(connection.run("cat /etc/passwd", encoding=None), TIMEOUT)
        assert result.exit_status == 1
        assert result.stdout == b""
        assert b"offers only the game, no commands" in result.stderr and result.stderr.count(b"\n") <= 2


async def test_a_session_without_a_terminal_is_refused_with_one_line(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        async with asyncssh.connect("127.0.0.1", server.port, **client_options()) as connection:
            process = await connection.create_process(encoding=None)  # a shell request, no PTY
            stdout, stderr = await asyncio.wait_for(process.communicate(), TIMEOUT)
        assert process.exit_status == 1
        assert stdout == b"" and b"needs a terminal" in stderr and stderr.count(b"\n") <= 2
        assert server.gate.sessions == 0


async def test_sftp_and_scp_are_refused(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        async with asyncssh.connect("127.0.0.1", server.port, **client_options()) as connection:
            with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
                await asyncio.wait_for(connection.start_sftp_client(), TIMEOUT)
        async with asyncssh.connect("127.0.0.1", server.port, **client_options()) as connection:
            result = await asyncio.wait_for(connection.run("scp -t /tmp", encoding=None), TIMEOUT)
            assert result.exit_status == 1 and b"no commands" in result.stderr


async def test_port_forwarding_is_refused(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        async with asyncssh.connect("127.0.0.1", server.port, **client_options()) as connection:
            with pytest.raises(asyncssh.ChannelOpenError):
                await asyncio.wait_for(connection.open_connection("127.0.0.1", server.port), TIMEOUT)
            with pytest.raises(asyncssh.ChannelListenError):
                await asyncio.wait_for(connection.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9), TIMEOUT)
            with pytest.raises(asyncssh.ChannelOpenError):
                await asyncio.wait_for(connection.open_unix_connection("/run/anything.sock"), TIMEOUT)


async def test_agent_and_x11_forwarding_are_not_granted(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        terminal = await SshTerminal.open(server.port, agent_forwarding=True, agent_path="/nonexistent/agent.sock")
        try:
            await terminal.wait_for_text("Welcome, ann.")
            session = session_named(server, "ann")
            assert session.channel.chan.get_agent_path() is None
            assert session.channel.chan.get_x11_display() is None
        finally:
            await terminal.close()


async def test_idle_sessions_are_warned_then_closed(tmp_path) -> None:
    async with running_server(tmp_path, idle_timeout=3, idle_warning=2) as server:
        terminal = await SshTerminal.open(server.port)
        await terminal.wait_for_text("Welcome, ann.")
        pid = session_named(server, "ann").child.process.pid
        await terminal.wait_for_text("No key pressed for 1 second.", "This session closes in")
        output = await terminal.wait_closed()
        assert b"Closed after 3 seconds without a key press." in output
        assert output.rfind(b"\x1b[?1049l") < output.rfind(b"Closed after")  # the line is on the main screen
        await wait_until(lambda: process_gone(pid), what="the child being reaped")
        await terminal.close()


async def test_a_key_press_keeps_a_session_alive(tmp_path) -> None:
    async with running_server(tmp_path, idle_timeout=4, idle_warning=1) as server:
        terminal = await SshTerminal.open(server.port)
        await terminal.wait_for_text("Welcome, ann.")
        for _ in range(8):  # 6.4 s of keys, each a move between the lobby's choices: longer than the idle timeout
            await terminal.press("down", pause=0.8)
        assert not terminal.closed and server.gate.sessions == 1
        await terminal.close()


async def test_the_longest_session_ends_with_a_word(tmp_path) -> None:
    async with running_server(tmp_path, session_time=2) as server:
        terminal = await SshTerminal.open(server.port)
        await terminal.wait_for_text("Welcome, ann.")
        output = await terminal.wait_closed()
        assert b"This session reached its limit of 2 seconds." in output
        await terminal.close()


async def test_connections_per_address_are_capped(tmp_path) -> None:
    async with running_server(tmp_path, per_ip=2) as server:
        first = await SshTerminal.open(server.port, username="ann")
        second = await SshTerminal.open(server.port, username="bob")
        try:
            with pytest.raises(asyncssh.DisconnectError, match="Slow down: at most 2 connections at once"):
                await asyncssh.connect("127.0.0.1", server.port, **client_options("cyd"))
            await first.wait_for_text("Welcome, ann.")
            await second.wait_for_text("Welcome, bob.")
        finally:
            await first.close()
            await second.close()
        await wait_until(lambda: server.gate.connections == 0, what="the connections being released")
        third = await SshTerminal.open(server.port, username="cyd")
        await third.wait_for_text("Welcome, cyd.")
        await third.close()


async def test_new_connections_a_minute_are_capped(tmp_path) -> None:
    async with running_server(tmp_path, new_per_minute=2) as server:
        for _ in range(2):
            async with asyncssh.connect("127.0.0.1", server.port, **client_options()):
                pass
        with pytest.raises(asyncssh.DisconnectError, match="Slow down: at most 2 new connections a minute"):
            await asyncssh.connect("127.0.0.1", server.port, **client_options())


async def test_total_sessions_are_capped(tmp_path) -> None:
    async with running_server(tmp_path, sessions=1) as server:
        first = await SshTerminal.open(server.port, username="ann")
        try:
            await first.wait_for_text("Welcome, ann.")
            second = await SshTerminal.open(server.port, username="bob")
            output = await second.wait_closed()
            assert b"Server full: 1 players are on already" in output and output.count(b"\n") <= 2
            assert second.process.exit_status == 1
            await second.close()
        finally:
            await first.close()


async def test_sessions_per_connection_are_capped(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        async with asyncssh.connect("127.0.0.1", server.port, **client_options()) as connection:
            first = await connection.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            second = await connection.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            output = await asyncio.wait_for(second.stdout.read(), TIMEOUT)
            assert b"Slow down: at most 1 game(s) on one connection." in output
            first.close()


async def test_too_much_input_is_cut_off(tmp_path) -> None:
    async with running_server(tmp_path, input_rate=100) as server:
        terminal = await SshTerminal.open(server.port)
        await terminal.wait_for_text("Welcome, ann.")
        terminal.send(b"\x1b[B" * 200)
        output = await terminal.wait_closed()
        assert b"Slow down: more input than this server accepts" in output
        await terminal.close()
