"""Issue 39: the server's database goes away while a player at a match over the network is moving. The server shows
every screen its clocks stopped (the whole match again); that state must not take back a move this terminal has just
sent (the server says what became of it), nor drop a tower in hand."""

from __future__ import annotations

from soluna_tui.link.protocol import Link
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.game import GameScreen
from soluna_tui.server.lobby.upkeep import CLOCKS_STOPPED

from ..server.helpers import move_keys
from ..server.test_child_app import FakeServer, match_message, settle, start
from .helpers import screen_text

#: The clock as the server shows it stopped: ann has 100 s, bob 90 s, and neither runs.
STOPPED = {"setting": {"seconds": 180, "increment": 2}, "left": [100.0, 90.0], "running": None}


def stopped_state(match: Match, version: int) -> dict:
    return {**match_message(match, 0, code="KQXP", version=version, notice=CLOCKS_STOPPED), "clock": STOPPED,
            "clocks_stopped": True}


async def test_the_clocks_stopping_keeps_a_move_just_sent_and_a_tower_in_hand() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "KQXP"
        match = Match(MatchOptions(), ("ann", "bob"), seed=4)  # ann, this terminal, to move
        server.send(match_message(match, 0, code="KQXP", version=1))
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen)
        mover, target = move_keys(match, match.position.legal_moves[0])
        await pilot.press(mover, "enter")
        server.send(stopped_state(match, 1))  # mid-placement
        await settle(pilot)
        await pilot.press(target, "enter")
        sent = await server.expect("move")  # the tower stayed in hand, and went where it was put
        server.send(stopped_state(match, 1))  # as if the database went before the server read the move
        await settle(pilot)
        assert game.match.round.ply == 1, "the move just sent was taken back"
        assert CLOCKS_STOPPED in " ".join(screen_text(app).split())
        # Saved once the database is back: the move as the server took it, with its places.
        server.send({"type": "moved", "code": "KQXP", "version": 2, "round": sent["round"], "ply": sent["ply"],
                     "move": sent["move"], "notice": "Your move is saved: the database is back."})
        await settle(pilot)
        assert game.match.round.ply == 1 and game.table.version == 2 and not game.table.syncing
