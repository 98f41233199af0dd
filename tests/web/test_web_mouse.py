"""The mouse in the browser, as in a terminal: a click picks a tower up, a click on a lit one places it."""

from __future__ import annotations

from soluna_tui.play.looks import move_words

from ..server.helpers import SshTerminal, play_a_move, server_places, wait_until
from ..server.test_lobby_e2e import JOIN_KEYS, create
from ..server.test_places_e2e import shows_places
from .helpers import WebTerminal, place_cell, web_server


async def test_a_browser_player_moves_by_clicking_two_towers(tmp_path) -> None:
    async with web_server(tmp_path, hold_time=120) as server:
        assert server.web is not None
        ann = await SshTerminal.open(server.port, username="ann")
        bob = await WebTerminal.open(server.web.port, name="bob")
        try:
            await ann.wait_for_text("Welcome, ann")
            code = await create(ann)
            await bob.wait_for_text("Welcome, bob")
            await bob.press(*JOIN_KEYS, pause=0.05)
            await bob.wait_for_text("Type the four-letter code")
            await bob.press(code.lower(), "enter")
            await play_a_move(server, code, [ann, bob])  # ann opens, with the keys
            table = server.lobby.tables[code]
            match, version = table.match, table.version
            placed = match.round.table.resolve(match.position.legal_moves[0])
            await bob.wait_for_text("Your move")
            await shows_places(bob, server_places(match.round.table))
            lifted_from, put_on = (place_cell(bob.screen.display, slot) for slot in (placed.mover_slot,
                                                                                     placed.target_slot))
            bob.click(*lifted_from)  # the tower lifts, its neighbours stay where they stand
            await bob.wait_for_text(f"put {placed.move.mover} on a lit tower")
            bob.click(*put_on)
            await wait_until(lambda: server.lobby.tables[code].version == version + 1, what="the server taking it")
            played = server.lobby.tables[code].match.round
            # As the game words it: with the places' keys where alike towers leave the notation in doubt.
            await bob.wait_for_text(f"Last move: bob {move_words(played, played.ply - 1)}")
            after = server_places(server.lobby.tables[code].match.round.table)
            assert after[placed.mover_slot] is None  # the tower clicked first left its place
            for terminal in (ann, bob):
                await shows_places(terminal, after)
        finally:
            await ann.close()
            await bob.close()
