"""Issue 16 on the child's screens, with the test playing the server: the lobby's clock setting and help, the
clock panel counting down, a match gone from play, the leaderboard's minimum and the player's own side marked."""

from __future__ import annotations

import re

from textual.widgets import Static

from soluna_tui.link.protocol import Link
from soluna_tui.online.screens.leaderboard import LeaderboardScreen
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.help import HelpScreen
from soluna_tui.widgets.clock_panel import ClockPanel

from ..app.helpers import screen_text
from .test_child_app import FakeServer, match_message, settle, start, wait_for_screen
from .test_lobby_screens import LEADERBOARD_KEY

CLOCKS = [{"seconds": 180.0, "increment": 2.0}, {"seconds": 600.0, "increment": 5.0}]


def welcome(**more) -> dict:
    return {"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300, "name": "ann", "rated": True,
            "name_chosen": True, "clocks": CLOCKS, "ranked_after": 5, **more}


def clocked(match: Match, seat: int | None, left: tuple[float, float], running: int | None, **more) -> dict:
    return {**match_message(match, seat, **more),
            "clock": {"setting": CLOCKS[0], "left": list(left), "running": running}}


async def test_a_match_is_created_with_a_clock_the_server_offers() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(welcome())  # before the lobby's settings are mounted: kept and offered once they are
        await wait_for_screen(pilot, app, LobbyScreen, "Welcome, ann.")
        assert "Clock           ◂ none ▸" in screen_text(app)
        await pilot.press(*("tab",) * 7, "right", "right", "escape", "down", "enter")
        assert "Clock           ◂ 10 min + 5 s a move ▸" in screen_text(app)
        request = await server.expect("create")
        assert request["clock"] == {"seconds": 600.0, "increment": 5.0}


async def test_the_lobby_s_help_says_this_server_s_rules() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 40)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(welcome(hold_seconds=120, ranked_opponents=3, pair_rated_per_day=5))
        await wait_for_screen(pilot, app, LobbyScreen, "Welcome, ann.")
        await pilot.press("question_mark")
        await wait_for_screen(pilot, app, HelpScreen, "THE RULES IN BRIEF")
        help_text = " ".join(" ".join(str(static.render()) for static in app.screen.query(Static)).split())
        assert "ON THIS SERVER" in help_text
        for said in ("Time away adds up over a match: 2 minutes in all", "3+2: 3 minutes each, 2 s added a move",
                     "10+5: 10 minutes each", "loses on time", "from different addresses",
                     "once a round has been decided on the board", "is not rated for either player",
                     "before both players have moved it is aborted", "at most 5 times in 24 hours",
                     "after 5 rated matches, against at least 3 different established opponents"):
            assert said in help_text, said


async def test_the_clock_panel_counts_down_the_running_clock_for_players_and_spectators() -> None:
    for seat in (1, None):
        app, ours = await start()
        async with app.run_test(size=(100, 32)) as pilot:
            server = FakeServer(await Link.over(ours))
            app.following = "ABCD"
            match = Match(MatchOptions(), ("ann", "bob"), seed=4)
            server.send(clocked(match, seat, (12.0, 100.0), 0))
            await wait_for_screen(pilot, app, GameScreen, "1:40")
            panel = app.screen.query_one(ClockPanel)
            assert panel.display
            text = screen_text(app)
            assert re.search(r"▶ ann\s+0:1[12](?!\d)", text) and re.search(r" bob\s+1:40", text), text
            for _ in range(60):
                await pilot.pause(0.05)
                later = screen_text(app)
                if re.search(r"▶ ann\s+0:09\.\d", later):
                    break
            assert re.search(r"▶ ann\s+0:09\.\d", later), later  # tenths under ten seconds
            assert re.search(r" bob\s+1:40", later)  # only the running clock moves
            if seat is None:
                assert "(you)" not in later  # a spectator is neither player
            else:
                assert "bob (you)" in later and "ann (you)" not in later


async def test_a_match_without_a_clock_shows_none() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "ABCD"
        server.send(match_message(Match(MatchOptions(), ("ann", "bob"), seed=2), 0))
        await wait_for_screen(pilot, app, GameScreen, "ann (you)")
        assert not app.screen.query_one(ClockPanel).display
        assert "ann (you)" in screen_text(app)


async def test_a_match_gone_from_play_takes_its_players_back_to_the_lobby_saying_why() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "ABCD"
        server.send(match_message(Match(seed=2), 0))
        await wait_for_screen(pilot, app, GameScreen)
        line = "bob did not come back before both players had moved: the match is aborted, and not rated."
        server.send({"type": "match_gone", "code": "ABCD", "text": line})
        await wait_for_screen(pilot, app, LobbyScreen, "the match is aborted")
        assert app.remote is None and app.following is None
        await server.expect("leave")


async def test_the_leaderboard_says_who_it_lists_and_how_far_the_player_is() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(welcome())
        await wait_for_screen(pilot, app, LobbyScreen, "Welcome, ann.")
        await pilot.press(*LEADERBOARD_KEY)
        request = await server.expect("leaderboard")
        server.answer(request, {"type": "leaderboard", "offset": 0, "total": 0, "rows": [],
                                "you": {"rank": None, "rating": 1012}, "minimum": 5})
        await wait_for_screen(pilot, app, LeaderboardScreen, "No player ranked yet (with at least 5 rated matches)")
        assert "ann: rating 1012, not ranked until 5 rated matches." in screen_text(app)
        await settle(pilot)
