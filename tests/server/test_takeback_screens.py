"""The takeback in the child's app, in a pilot, with the test playing the server: ``u`` asks, the opponent's request
is answered in a one-key dialog, and the dialog goes by itself when the request lapses, its notice with it."""

from __future__ import annotations

from soluna_tui.link.protocol import Link
from soluna_tui.online.screens.takeback_request import TakebackRequestScreen
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.game import GameScreen
from soluna_tui.widgets.notice_line import NoticeLine

from ..app.helpers import footer_keys, play_by_keys, screen_text
from .test_child_app import FakeServer, match_message, moved_message, settle, start


async def at_bobs_match(pilot, ours) -> tuple[FakeServer, Match]:
    """ann joins match KQXP by its code, the test playing the server: bob has made the first move. The server's end
    of the link, and the match as the server keeps it."""
    server = FakeServer(await Link.over(ours))
    await pilot.press("down", "down", "enter", "k", "q", "x", "p", "enter")
    await server.expect("join")
    match = Match(MatchOptions(discs=6), ("bob", "ann"), seed=3)
    server.send(match_message(match, 1, code="KQXP"))
    server.send(moved_message(match, match.position.legal_moves[0], 1, code="KQXP"))
    await settle(pilot)
    return server, match

async def test_u_asks_and_the_opponent_s_request_is_accepted_declined_or_lapses() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server, match = await at_bobs_match(pilot, ours)
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


async def test_ones_own_move_confirmed_redraws_the_keys_alone_and_undo_is_offered() -> None:
    """The server's echo of this player's own move changes nothing shown but Undo (the move may now be asked back):
    the footer offers it, and the screen is not redrawn from the table (that cost the mover's terminal a frame's
    worth of CPU every move, for one key). The opponent's reply redraws it, as ever."""
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server, match = await at_bobs_match(pilot, ours)
        await play_by_keys(pilot, app, app.game.match.position.legal_moves[0])
        await server.expect("move")
        await settle(pilot)
        assert "Undo" not in footer_keys(app)  # sent, not confirmed: not yet to be asked back
        game, redraws = app.game, []
        redraw = game.redraw
        game.redraw = lambda cursor=None: (redraws.append(cursor), redraw(cursor))[1]  # type: ignore[method-assign]
        server.send(moved_message(match, app.game.match.round.placed_moves[-1], 2, code="KQXP"))
        await settle(pilot)
        assert footer_keys(app).get("Undo") is True and redraws == []
        assert app.remote.version == 2 and app.remote.can_undo
        server.send(moved_message(match, match.position.legal_moves[0], 3, code="KQXP"))  # bob's reply
        await settle(pilot)
        assert redraws and "Undo" not in footer_keys(app) and "Your move" in screen_text(app)


async def test_the_request_s_notice_goes_once_answered_and_no_toast_covers_the_panels() -> None:
    """80x24, as the tester saw it: the request's notice under the dialog is no toast over the moves panel's border,
    and it goes once answered (declined: the decliner's own line in its place) or lapsed elsewhere."""
    app, ours = await start()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        server, match = await at_bobs_match(pilot, ours)
        notice = app.game.query_one(NoticeLine)
        asks = "bob asks to take their last move back: accept or decline."
        server.send({**match_message(match, 1, code="KQXP", version=2, notice=asks), "takeback": 0})
        await settle(pilot)
        assert isinstance(app.screen, TakebackRequestScreen)
        assert not app.screen.query("Toast") and notice.text == asks  # in the notice lines, behind the dialog
        await pilot.press("n")
        assert (await server.expect("answer_takeback"))["accept"] is False
        server.send(match_message(match, 1, code="KQXP", version=3, notice="You declined bob's takeback."))
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and notice.text == "You declined bob's takeback."
        assert "bob asks" not in screen_text(app) and not app.screen.query("Toast")
        server.send({**match_message(match, 1, code="KQXP", version=4, notice=asks), "takeback": 0})
        await settle(pilot)
        server.send(match_message(match, 1, code="KQXP", version=5))  # answered elsewhere, no line for this one
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and notice.text == "" and "bob asks" not in screen_text(app)


async def test_a_pairing_s_news_on_a_phone_is_in_the_match_s_notice_lines_not_over_the_board() -> None:
    """40x20: a tournament's pairing news comes as the match's screen is on its way: it shows in the notice lines
    (above the board on a phone), never as a toast over the towers and the status line."""
    app, ours = await start()
    async with app.run_test(size=(40, 20), notifications=True) as pilot:
        server = FakeServer(await Link.over(ours))
        await settle(pilot)
        server.send({"type": "paired", "code": "KQXP", "opponent": "eve"})
        match = Match(MatchOptions(discs=6), ("eve", "ann"), seed=3)
        server.send(match_message(match, 1, code="KQXP"))
        words = "Spring cup, round 1: you play eve. The match begins."
        server.send({"type": "notice", "text": words})
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and not app.screen.query("Toast")
        assert app.game.query_one(NoticeLine).text == words
        text = screen_text(app)
        assert "Spring cup, round 1: you play eve. The" in text and "Waiting for eve." in text
