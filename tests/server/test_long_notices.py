"""Long notices read whole at 80x24 (issue 39: a game's notice was cut after three lines of the sidebar): the moves
make way while it shows; the lobby's status keeps the footer and the matches' title in view. The server is the test,
at the other end of the child's link."""

from __future__ import annotations

from soluna_tui.link.protocol import Link
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.match_over import MatchOverScreen
from soluna_tui.widgets.notice_line import NOTICE_LINES, NoticeLine

from ..app.helpers import screen_text
from .test_child_app import FakeServer, match_message, settle, start, wait_for_screen
from .test_pairing_screens import WELCOME

LONG = ("bob has left: the seat is held for 5 min, then the match is his forfeit unless he comes back with the "
        "secret shown beside his board.")


def words(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


async def match_on_screen(pilot, app, server: FakeServer, match: Match) -> None:
    """From the lobby, ``match`` (code ABCD) on screen at the first seat, laid out (under load the screen may be
    pushed and not laid out yet)."""
    server.send(WELCOME)
    await wait_for_screen(pilot, app, LobbyScreen, "Welcome")
    app.following = "ABCD"
    server.send(match_message(match, 0))
    await wait_for_screen(pilot, app, GameScreen)
    await settle(pilot)


async def test_a_long_notice_beside_the_board_reads_whole_at_80x24_and_the_moves_make_way() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        await match_on_screen(pilot, app, server, Match(MatchOptions.preset("online"), ("ann", "bob"), seed=3))
        notice = app.screen.query_one(NoticeLine)
        assert notice.size.height == NOTICE_LINES  # kept for notices, shown or not: a short one moves nothing
        server.send({"type": "notice", "text": LONG})
        await wait_for_screen(pilot, app, GameScreen, "bob has left")
        await settle(pilot)
        rows = screen_text(app).splitlines()
        beside = words("\n".join(row[50:] for row in rows))
        assert LONG in beside, "\n".join(rows)
        assert "…" not in beside and "Pick/place" in rows[-1] and "Moves" in "\n".join(rows)
        server.send({"type": "notice", "text": "bob is back."})
        await wait_for_screen(pilot, app, GameScreen, "bob is back.")
        await settle(pilot)
        assert notice.size.height == NOTICE_LINES


async def test_a_long_notice_in_the_lobby_reads_whole_at_80x24_above_the_footer() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({**WELCOME, "rated": False, "browser_link": True})
        server.send({"type": "lobby", "matches": [
            {"code": "ABCD", "players": ["ann", "bob"], "round": 1, "stars": [0, 0], "watchers": 0,
             "away": [True, False], "yours": True, "held": 200.0}],
            "computer": {"level": "5", "round": 1, "stars": [0, 0], "needs_secret": False}})
        await wait_for_screen(pilot, app, LobbyScreen, "Your seat: ann vs bob")
        longest = " ".join([LONG] * 4)  # eight lines
        server.send({"type": "notice", "text": longest})
        await wait_for_screen(pilot, app, LobbyScreen, "bob has left")
        await settle(pilot)
        rows = screen_text(app).splitlines()
        assert longest in words("\n".join(rows)), "\n".join(rows)  # the welcome made way for it
        assert any(row.strip().startswith("╰") for row in rows[-3:]) and "Help" in rows[-1]
        server.send({"type": "notice", "text": "bob is back."})
        await wait_for_screen(pilot, app, LobbyScreen, "bob is back.")
        await settle(pilot)
        assert "Welcome, ann." in screen_text(app)  # and it is back with a short one


async def test_news_sent_after_a_move_s_own_is_shown_after_it() -> None:
    """The server's notice that follows a change of the match (a tournament over, told once the resignation that ended
    it was filed) stays the one shown: the match's own news, drawn as its screen takes the change, came first and
    does not replace it. (Drawn in the order handled, the tournament's end was replaced at once by the resignation
    and never read.)"""
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        match = Match(MatchOptions.preset("online"), ("ann", "bob"), seed=3)
        await match_on_screen(pilot, app, server, match)
        match.forfeit(1)
        resigned, over = "bob resigned: ann wins the match.", "Tournament Club Swiss is over: ann wins with 2 points."
        server.send(match_message(match, 0, version=1, notice=resigned))
        server.send({"type": "notice", "text": over})  # together, as the server's next tending sends it
        await wait_for_screen(pilot, app, MatchOverScreen)
        await settle(pilot)
        assert app.game.query_one(NoticeLine).text == over  # under the dialog, as its lines are read
