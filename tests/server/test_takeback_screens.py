"""The takeback in the child's app, in a pilot, with the test playing the server: ``u`` asks, the opponent's request
is answered in a one-key dialog, and the dialog goes by itself when the request lapses."""

from __future__ import annotations

from soluna_tui.link.protocol import Link
from soluna_tui.online.screens.takeback_request import TakebackRequestScreen
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.game import GameScreen

from ..app.helpers import play_by_keys, screen_text
from .test_child_app import FakeServer, match_message, moved_message, settle, start


async def test_u_asks_and_the_opponent_s_request_is_accepted_declined_or_lapses() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        await pilot.press("down", "down", "enter", "k", "q", "x", "p", "enter")
        await server.expect("join")
        match = Match(MatchOptions(discs=6), ("bob", "ann"), seed=3)
        server.send(match_message(match, 1, code="KQXP"))
        server.send(moved_message(match, match.position.legal_moves[0], 1, code="KQXP"))
        await settle(pilot)
        await play_by_keys(pilot, app, app.game.match.position.legal_moves[0])
        await server.expect("move")
        server.send(moved_message(match, app.game.match.round.placed_moves[-1], 2, code="KQXP"))
        await settle(pilot)
        await pilot.press("u")  # ann's own last move: the opponent is asked
        assert (await server.expect("ask_takeback")) == {"type": "ask_takeback"}
        assert app.game.match.round.ply == 2  # nothing taken back here: the server's state will say
        asked = {**match_message(match, 1, code="KQXP", version=3), "takeback": 1}
        server.send(asked)
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)  # one's own request: no dialog
        server.send(moved_message(match, match.position.legal_moves[0], 4, code="KQXP"))  # bob moves: it lapses
        await settle(pilot)
        server.send({**match_message(match, 1, code="KQXP", version=5), "takeback": 0})  # bob asks
        await settle(pilot)
        assert isinstance(app.screen, TakebackRequestScreen)
        assert "bob asks to take their last move" in screen_text(app)
        await pilot.press("y")
        assert (await server.expect("answer_takeback"))["accept"] is True
        server.send({**match_message(match, 1, code="KQXP", version=6), "takeback": 0})  # asked again (say)
        await settle(pilot)
        await pilot.press("n")
        assert (await server.expect("answer_takeback"))["accept"] is False
        server.send({**match_message(match, 1, code="KQXP", version=7), "takeback": 0})
        await settle(pilot)
        assert isinstance(app.screen, TakebackRequestScreen)
        server.send(match_message(match, 1, code="KQXP", version=8))  # answered elsewhere, or lapsed: it goes
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
