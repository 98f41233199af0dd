"""The child's app in a pilot, with the test playing the server at the other end of its socketpair."""

from __future__ import annotations

import asyncio
import socket

from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.lobby import LobbyScreen
from soluna_tui.screens.waiting import WaitingScreen
from soluna_tui.server.child_app import ChildApp
from soluna_tui.server.protocol import Link
from soluna_tui.server.remote_table import RemoteTable

from ..app.helpers import play_by_keys, screen_text


class FakeServer:
    def __init__(self, link: Link) -> None:
        self.link = link

    async def expect(self, kind: str) -> dict:
        while True:
            message = await asyncio.wait_for(self.link.receive(), 5)
            assert message is not None, "the child closed its link"
            if message["type"] == kind:
                return message


async def start(pilot_size=(100, 32)):
    ours, theirs = socket.socketpair()
    app = ChildApp(name="ann", link=theirs, computer_pause=0, reveal_pause=0)
    return app, ours


def match_message(match: Match, seat: int | None, code: str = "ABCD", notice: str | None = None) -> dict:
    return {"type": "match", "code": code, "seat": seat, "match": match.to_dict(), "hints": False,
            "away": [False, False], "notice": notice}


async def settle(pilot) -> None:
    for _ in range(5):
        await pilot.pause(0.05)


async def test_creating_shows_the_code_and_escape_cancels() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.link.send({"type": "lobby", "matches": []})
        await pilot.press("down", "enter")
        request = await server.expect("create")
        assert request["options"]["stars_to_win"] == 4 and request["hints"] is False
        server.link.send({"type": "waiting", "code": "KQXP"})
        await settle(pilot)
        assert isinstance(app.screen, WaitingScreen) and "K Q X P" in screen_text(app)
        await pilot.press("escape")
        await server.expect("cancel")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen) and app.following is None


async def test_a_joined_match_plays_through_the_server() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        await pilot.press("down", "down", "enter", "k", "q", "x", "p", "enter")
        request = await server.expect("join")
        assert request["code"] == "KQXP"
        match = Match(MatchOptions(), ("bob", "ann"), seed=3)
        server.link.send(match_message(match, 1, code="KQXP"))
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen) and isinstance(game.table, RemoteTable)
        assert "Waiting for bob." in screen_text(app)
        move = match.position.legal_moves[0]
        match.play(move, 0)
        server.link.send(match_message(match, 1, code="KQXP"))
        await settle(pilot)
        assert "ann to move" in screen_text(app)
        await play_by_keys(pilot, app, app.game.match.position.legal_moves[0])
        sent = await server.expect("move")
        assert (sent["round"], sent["ply"]) == (1, 1)
        assert app.game.match.round.ply == 2  # played at once, before the server answers
        await pilot.press("u")
        assert app.game.match.round.ply == 2  # no take-backs over the network


async def test_news_about_a_match_left_behind_is_ignored_and_errors_show_in_the_lobby() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.link.send(match_message(Match(seed=1), 0, code="ZZZZ"))
        server.link.send({"type": "error", "text": "No match has the code ZZZZ."})
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert "No match has the code ZZZZ." in screen_text(app)


async def test_the_server_ending_the_session_ends_the_app() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.link.send({"type": "exit"})
        await settle(pilot)
    assert app.return_code == 0


async def test_a_spectator_cannot_move_and_leaving_goes_back_to_the_lobby() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "WXYZ"
        server.link.send(match_message(Match(seed=2), None, code="WXYZ", notice="You are watching."))
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.game.table.watching
        await pilot.press("enter", "right", "space")
        assert app.game.match.round.ply == 0
        await pilot.press("n")
        await server.expect("leave")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen) and app.remote is None


async def test_a_rematch_over_the_network_is_asked_of_the_server() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "ABCD"
        match = Match(MatchOptions(discs=3, stars_to_win=1), ("ann", "bob"), seed=5)
        while not match.is_over:
            match.play(match.position.legal_moves[0], match.to_move)
        server.link.send(match_message(match, 0))
        for _ in range(40):
            await pilot.pause(0.05)
            if type(app.screen).__name__ == "MatchOverScreen":
                break
        await settle(pilot)  # pushed is not yet drawn
        assert "wins the match" in screen_text(app) or "win the match" in screen_text(app)
        await pilot.press("enter")  # the first choice: rematch
        await server.expect("rematch")
        await settle(pilot)
        assert "Rematch asked" in screen_text(app)
