"""Typed moves in a match over the network: sent to the server, and only on this player's turn."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from soluna_tui.link.protocol import Link
from soluna_tui.online.remote_table import RemoteTable
from soluna_tui.play.looks import move_words, place_keys
from soluna_tui.rules import Match, MatchOptions, Move
from soluna_tui.screens.game import GameScreen

from ..server.test_child_app import FakeServer, match_message, settle, start
from .burst import burst
from .helpers import screen_text


async def test_a_typed_move_goes_to_the_server_on_your_turn_only() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "KQXP"
        match = Match(MatchOptions(), ("bob", "ann"), seed=3)
        server.send(match_message(match, 1, code="KQXP"))
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen) and isinstance(game.table, RemoteTable)
        await burst(pilot, ":", *"1>2", "enter")  # bob's turn: no prompt, nothing sent
        assert not game.picking.move_prompt.display and game.match.round.ply == 0
        assert "It is bob's move: wait for it." in screen_text(app)  # the key said why it did nothing

        theirs = match.position.legal_moves[0]
        match.play(theirs, 0)
        server.send(match_message(match, 1, code="KQXP"))
        await settle(pilot)
        mine = game.match.position.legal_moves[-1]
        await burst(pilot, ":", *str(mine).lower(), "enter")
        sent = await server.expect("move")
        placed = game.match.round.placed_moves[1]  # the move with its places: what the server is told
        assert sent["move"] == str(placed) and (sent["round"], sent["ply"]) == (1, 1)
        assert game.match.round.moves == (theirs, mine)  # played at once, before the server answers
        assert not game.picking.move_prompt.display
        assert f"2. ann       {move_words(game.match.round, 1)}" in screen_text(app)


async def test_the_prompt_closes_when_the_server_moves_the_match_on() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "KQXP"
        match = Match(MatchOptions(), ("ann", "bob"), seed=4)
        server.send(match_message(match, 0, code="KQXP"))
        await settle(pilot)
        game = app.screen
        await burst(pilot, ":", *"1>")
        assert game.picking.move_prompt.display
        # The server's word is final: say another terminal of ann's played meanwhile.
        match.play(match.position.legal_moves[0], 0)
        server.send(match_message(match, 0, code="KQXP"))
        await settle(pilot)
        assert game.match.round.ply == 1 and not game.picking.move_prompt.display
        assert game.board.cursor is not None and app.focused is game.board
        assert "Waiting for bob." in screen_text(app)


@asynccontextmanager
async def bob_to_move() -> AsyncIterator[tuple[Any, FakeServer, Match, GameScreen]]:
    """ann's screen at a match over the network, bob to move: the pilot, the server, its match, the screen."""
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "KQXP"
        match = Match(MatchOptions(), ("bob", "ann"), seed=3)
        server.send(match_message(match, 1, code="KQXP", version=1))
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        yield pilot, server, match, app.screen


async def test_a_move_from_the_server_keeps_the_table_still_and_is_said_in_words() -> None:
    """An opponent's move that arrives as notation only (an older server) is played from the first
    place holding its tower onto the first holding the target, every other tower stays where it
    was, and the line under the board says it."""
    from soluna_tui.rules import Arrangement

    from ..server.test_child_app import moved_message

    async with bob_to_move() as (pilot, server, match, game):
        app = game.app
        before = list(game.picking_arrangement)
        theirs = next(move for move in match.position.legal_moves if move.mover == move.target)  # 1M>1M
        server.send(moved_message(match, theirs, version=2, code="KQXP"))  # (played on ``match`` too)
        await settle(pilot)
        assert game.match.round.moves == (theirs,)
        placed = Arrangement(tuple(before)).resolve(theirs)
        after = list(game.picking_arrangement)
        assert after[placed.mover_slot] is None and after[placed.target_slot] == theirs.result
        assert placed.target_slot == placed.mover_slot + 1  # the first such tower onto the next
        assert all(after[slot] == before[slot] for slot in range(len(before))
                   if slot not in (placed.mover_slot, placed.target_slot))
        assert f"Last move: bob {theirs} {place_keys(placed)}" in screen_text(app)


async def test_a_move_from_the_server_lands_on_the_places_it_names() -> None:
    """The opponent moved the last of three alike towers onto the first: this screen shows the same
    places as the mover's (the server sends the move with its places), not the first that fit."""
    from soluna_tui.rules import PlacedMove

    from ..server.test_child_app import moved_message

    async with bob_to_move() as (pilot, server, match, game):
        app = game.app
        table = match.round.table
        tower = next(tower for tower in table if tower is not None and table.towers.count(tower) >= 3)
        alike = [slot for slot, standing in enumerate(table) if standing == tower]
        theirs = PlacedMove(Move(tower, tower), alike[-1], alike[0])
        server.send(moved_message(match, theirs, version=2, code="KQXP"))
        await settle(pilot)
        assert game.match.round.placed_moves == (theirs,)
        assert game.picking_arrangement == match.round.table
        assert game.picking_arrangement[alike[-1]] is None and game.picking_arrangement[alike[0]] == theirs.move.result
        assert game.picking_arrangement[alike[1]] == tower  # the middle one, which a notation-only move would take
        assert f"Last move: bob {tower}>{tower} {place_keys(theirs)}" in screen_text(app)
