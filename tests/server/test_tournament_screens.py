"""The tournaments' screens in a session's app with the test as its server (no server runs): ``t`` asks for the
list, ``n`` opens a keyed player's form whose Enter asks the server to announce it and whose answer opens its page,
and ``j`` there asks to join."""

from __future__ import annotations

from soluna_tui.link.protocol import Link
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.online.screens.tournament import TournamentScreen
from soluna_tui.online.screens.tournament_form import TournamentFormScreen
from soluna_tui.online.screens.tournaments import TournamentsScreen
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.match_over import MatchOverScreen

from ..app.helpers import screen_text
from ..snapshots.online import LOBBY, STOPPED_AT, TERMS, WELCOME, listed, online_app, sends
from ..snapshots.test_tournaments import LINES, LIST, PAGE
from .test_child_app import FakeServer, match_message, start, wait_for_screen

ANNOUNCED = {"id": 9, "name": "Friday", "kind": "arena", "state": "upcoming", "length": 30,
             "starts_at": STOPPED_AT + 900, "terms": TERMS, "entrants": 0}


async def test_a_keyed_player_announces_an_arena_from_the_form_sees_its_page_and_joins_it() -> None:
    async def steps(pilot, server) -> None:
        await sends(WELCOME, LOBBY, then=LobbyScreen, ready=listed, keys=("t",))(pilot, server)
        server.answer(await server.expect("tournaments"),
                      {"type": "tournaments", "tournaments": [], "may_create": True, "now": STOPPED_AT})
        await wait_for_screen(pilot, pilot.app, TournamentsScreen, "No tournament is announced here yet. n announces")
        await pilot.press("n")
        await wait_for_screen(pilot, pilot.app, TournamentFormScreen, "Announce a tournament")
        await pilot.press(*"Friday", "tab", "right", "tab", "right", "enter")  # an arena of 30 minutes
        asked = await server.expect("create_tournament")
        assert (asked["name"], asked["kind"], asked["length"], asked["starts_in"]) == ("Friday", "arena", 30, 15.0)
        server.answer(asked, {"type": "tournament", "tournament": ANNOUNCED, "now": STOPPED_AT,
                              "next_at": STOPPED_AT + 900})
        await wait_for_screen(pilot, pilot.app, TournamentScreen, "Starts in 15:00, 0 entered.")
        await pilot.press("j")
        joined = await server.expect("join_tournament")
        assert joined["id"] == 9
        server.answer(joined, {"type": "tournament", "tournament": {**ANNOUNCED, "entrants": 1, "joined": True},
                               "standings": [{"rank": 1, "name": "ann", "points": 0.0, "played": 0, "you": True}],
                               "now": STOPPED_AT, "next_at": STOPPED_AT + 900})
        await wait_for_screen(pilot, pilot.app, TournamentScreen, "You are in: you are seated at each pairing")
        await pilot.press("j")  # in already: said so, nothing asked
        await wait_for_screen(pilot, pilot.app, TournamentScreen, "You are in already")

    with online_app(steps) as (app, run_before):
        async with app.run_test(size=(80, 24)) as pilot:
            await run_before(pilot)
            assert "w Withdraw" in screen_text(app) and "j Join" not in screen_text(app)


async def test_a_guest_on_a_tournament_s_page_is_told_they_watch_and_j_says_why_and_stays_said() -> None:
    async def steps(pilot, server) -> None:
        await sends({**WELCOME, "rated": False}, LOBBY, then=LobbyScreen, ready=listed, keys=("t",))(pilot, server)
        server.answer(await server.expect("tournaments"), LIST)
        await wait_for_screen(pilot, pilot.app, TournamentsScreen, "Sunday Swiss")
        await pilot.press("enter")
        guest_page = {**PAGE, "tournament": {**LINES[0], "joined": False}}
        server.answer(await server.expect("tournament"), guest_page)
        await wait_for_screen(pilot, pilot.app, TournamentScreen, "Guests watch")
        await pilot.press("j")
        await wait_for_screen(pilot, pilot.app, TournamentScreen, "for players with an SSH key: connect with one")
        server.answer(await server.expect("tournament"), guest_page)  # the next page, asked 2 s on: it stays
        await pilot.pause()

    with online_app(steps) as (app, run_before):
        async with app.run_test(size=(80, 24)) as pilot:
            await run_before(pilot)
            assert "connect with one to enter" in screen_text(app) and "j Join" not in screen_text(app)


async def test_a_tournament_match_over_names_its_tournament_and_offers_no_rematch_and_no_new_match() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "ABCD"
        match = Match(MatchOptions(discs=3, stars_to_win=1), ("ann", "bob"), seed=5)
        while not match.is_over:
            match.play(match.position.legal_moves[0], match.to_move)
        server.send({**match_message(match, 0), "tournament": "Friday Swiss"})
        await wait_for_screen(pilot, app, MatchOverScreen, "A match of Friday Swiss: your next pairing seats you")
        text = screen_text(app)
        assert "Rematch" not in text and "New match" not in text
        await pilot.press("r", "n")
        assert isinstance(app.screen, MatchOverScreen)  # neither key does anything here
