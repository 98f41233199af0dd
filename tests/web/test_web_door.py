"""The web door over real websockets: a browser guest in the same lobby as SSH players."""

from __future__ import annotations

import asyncssh
import pytest

from soluna_tui.server.lobby import player_name
from soluna_tui.server.web.visitor import WebVisitor

from ..server.helpers import SshTerminal, keep_the_name, process_gone, session_named, wait_until
from ..server.test_coming_back_e2e import last_line
from .helpers import WebTerminal, web_server


async def test_a_browser_guest_reaches_the_lobby_under_the_name_typed(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        ann = await WebTerminal.open(server.web.port, name="ann")
        try:
            await ann.wait_for_text("Welcome, ann")
        finally:
            await ann.close()


async def test_a_closed_tab_gives_back_its_place_and_its_child_is_reaped(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        ann = await WebTerminal.open(server.web.port, name="ann")
        try:
            await ann.wait_for_text("Welcome, ann")
            session = session_named(server, "ann")
            pid = session.child.process.pid
            assert server.gate.sessions == 1
        finally:
            await ann.close()
        await wait_until(lambda: server.gate.sessions == 0 and server.gate.connections == 0 and process_gone(pid),
                         what="the session's place given back and its child reaped")
        assert server.sessions == []


async def test_max_sessions_counts_both_doors(tmp_path) -> None:
    async with web_server(tmp_path, sessions=1) as server:
        assert server.web is not None
        ann = await SshTerminal.open(server.port, username="ann")
        try:
            await ann.wait_for_text("Welcome, ann")
            bob = await WebTerminal.open(server.web.port, name="bob")
            try:
                assert "Server full: 1 players are on already" in (await bob.wait_closed()).decode()
            finally:
                await bob.close()
        finally:
            await ann.close()
        await wait_until(lambda: server.gate.sessions == 0, what="ann's place given back")
        cyd = await WebTerminal.open(server.web.port, name="cyd")
        try:
            await cyd.wait_for_text("Welcome, cyd")
            other = await SshTerminal.open(server.port, username="dan")
            try:
                assert b"Server full" in await other.wait_closed()
            finally:
                await other.close()
        finally:
            await cyd.close()


@pytest.mark.parametrize(("typed", "shown"), [
    ("Ｃｏｍｐｕｔｅｒ", "Computer (guest)"), ("\x1b[31mkim\x07", "31mkim"), ("a/b?c #1%2F", "a/b?c #1%2F")])
async def test_the_name_typed_is_cleaned_as_an_ssh_user_name_is(tmp_path, typed: str, shown: str) -> None:
    visitor = WebVisitor("127.0.0.1", 1, typed, "", None, None, lambda: None)  # type: ignore[arg-type]
    assert visitor.player_name == player_name(typed) == shown  # as an SSH user name is
    async with web_server(tmp_path) as server:
        assert server.web is not None
        guest = await WebTerminal.open(server.web.port, name=typed)
        try:
            await guest.wait_for_text(f"Welcome, {shown}")
        finally:
            await guest.close()


async def test_a_browser_guest_is_not_taken_for_the_keyed_player_whose_name_it_typed(tmp_path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with web_server(tmp_path) as server:
        assert server.web is not None
        bob = await SshTerminal.open(server.port, username="bob", client_keys=[key])
        try:
            await keep_the_name(bob)
            impostor = await WebTerminal.open(server.web.port, name="bob")
            try:
                await impostor.wait_for_text("Welcome, bob (guest)")
            finally:
                await impostor.close()
        finally:
            await bob.close()


async def test_a_server_shutting_down_tells_the_browser_player_and_ends_the_tab(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        ann = await WebTerminal.open(server.web.port, name="ann")
        try:
            await ann.wait_for_text("Welcome, ann")
            await server.close()
            assert "The server is shutting down." in last_line(await ann.wait_closed())
            assert server.sessions == [] and server.gate.sessions == 0
        finally:
            await ann.close()
