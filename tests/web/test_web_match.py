"""A whole match between an SSH player and a browser player, watched from another browser: every screen in step.

A real server on 127.0.0.1 with its web door, a real asyncssh client and two websockets speaking ``textual.js``'s
messages, each terminal read by pyte.
"""

from __future__ import annotations

from ..server.helpers import SshTerminal, play_a_move, server_places, wait_until
from ..server.test_endings_e2e import watch_the_first_listed
from ..server.test_lobby_e2e import JOIN_KEYS, create, short_match_settings
from ..server.test_places_e2e import shows_places
from .helpers import WebTerminal, web_server


async def test_an_ssh_player_and_a_browser_player_play_a_whole_match_watched_from_a_browser(tmp_path) -> None:
    async with web_server(tmp_path, hold_time=120) as server:
        assert server.web is not None
        ann = await SshTerminal.open(server.port, username="ann")
        bob = await WebTerminal.open(server.web.port, name="bob")
        eve = await WebTerminal.open(server.web.port, name="eve")
        try:
            await short_match_settings(ann)
            code = await create(ann)
            await bob.wait_for_text("Welcome, bob")
            await bob.press(*JOIN_KEYS, pause=0.05)
            await bob.wait_for_text("Type the four-letter code")
            await bob.press(code.lower(), "enter")
            await eve.wait_for_text("ann vs bob: round 1")
            await watch_the_first_listed(eve)
            await wait_until(lambda: server.lobby.tables[code].match is not None, what="the match beginning")
            moves = 0
            while not server.lobby.tables[code].match.is_over:
                await play_a_move(server, code, [ann, bob])
                moves += 1
                match = server.lobby.tables[code].match
                if not match.is_over:  # the match-over dialog covers the board
                    for terminal in (ann, bob, eve):
                        await shows_places(terminal, server_places(match.round.table))
            assert moves >= 2
            winner = server.lobby.tables[code].match.winner
            for terminal in (ann, bob, eve):
                await terminal.wait_for_text("Match over", f"{('ann', 'bob')[winner]} wins")
            assert {session.name for session in server.sessions} == {"ann", "bob", "eve"}
        finally:
            for terminal in (ann, bob, eve):
                await terminal.close()
