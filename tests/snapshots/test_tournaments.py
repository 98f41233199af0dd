"""Tournaments over SSH, at 80x24 and 40x20: the list (``t`` in the lobby: upcoming with its countdown, running,
finished with its winner) and a running Swiss's page (standings with the tie-breaks, a paused player, each round's
pairings and results), on a stopped clock."""

from __future__ import annotations

from textual.pilot import Pilot

from soluna_tui.online.screens import tournament, tournaments
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.online.screens.tournament import TournamentScreen
from soluna_tui.online.screens.tournaments import TournamentsScreen

from ..server.test_child_app import FakeServer, wait_for_screen
from .helpers import TWO_SIZES
from .online import LOBBY, STOPPED_AT, TERMS, WELCOME, listed, online_app, sends, stop_the_clock

#: One star, twelve discs, a 3+2 clock, rated: an arena's quick matches.
ONE_STAR = {**TERMS, "options": {**TERMS["options"], "stars_to_win": 1}}
LINES = [
    {"id": 4, "name": "Sunday Swiss", "kind": "swiss", "state": "upcoming", "length": 5,
     "starts_at": STOPPED_AT + 754, "terms": TERMS, "entrants": 7, "joined": True, "min_rating": 1400,
     "min_rated_matches": 5},
    {"id": 3, "name": "Blitz arena", "kind": "arena", "state": "running", "length": 30,
     "starts_at": STOPPED_AT - 600, "terms": ONE_STAR, "entrants": 12},
    {"id": 2, "name": "Friday Swiss", "kind": "swiss", "state": "finished", "length": 3,
     "starts_at": STOPPED_AT - 86400, "terms": TERMS, "entrants": 5, "winner": "mira"},
]
LIST = {"type": "tournaments", "tournaments": LINES, "may_create": True, "now": STOPPED_AT}
PAGE = {"type": "tournament",
        "tournament": {**LINES[0], "id": 3, "name": "Club Swiss", "state": "running", "length": 3, "entrants": 5},
        "standings": [
            {"rank": 1, "name": "mira", "points": 2.0, "played": 2, "tie_breaks": [2.5, 2.0]},
            {"rank": 2, "name": "ann", "points": 1.5, "played": 2, "tie_breaks": [3.0, 1.25], "you": True},
            {"rank": 3, "name": "bob", "points": 1.0, "played": 1, "tie_breaks": [2.0, 0.0]},
            {"rank": 3, "name": "teodor", "points": 1.0, "played": 2, "tie_breaks": [2.0, 0.0], "paused": True},
            {"rank": 5, "name": "eve", "points": 0.5, "played": 2, "tie_breaks": [3.5, 0.5]}],
        "games": [
            {"round": 1, "players": ["mira", "eve"], "result": "mira won"},
            {"round": 1, "players": ["ann", "teodor"], "result": "draw"},
            {"round": 1, "players": ["bob", None], "result": "bye"},
            {"round": 2, "players": ["mira", "ann"], "result": ""},
            {"round": 2, "players": ["teodor", "eve"], "result": "nobody scored"},
            {"round": 2, "players": ["bob", None], "result": "bye"}],
        "round": 2, "now": STOPPED_AT}


async def the_list(pilot: Pilot, server: FakeServer) -> None:
    await sends(WELCOME, LOBBY, then=LobbyScreen, ready=listed, keys=("t",))(pilot, server)
    server.answer(await server.expect("tournaments"), LIST)
    await wait_for_screen(pilot, pilot.app, TournamentsScreen, "Sunday Swiss")


async def a_page(pilot: Pilot, server: FakeServer) -> None:
    await the_list(pilot, server)
    await pilot.press("down", "enter")
    server.answer(await server.expect("tournament"), PAGE)
    await wait_for_screen(pilot, pilot.app, TournamentScreen, "teodor (p")


@TWO_SIZES
def test_the_tournaments(snap_compare, size, monkeypatch) -> None:
    stop_the_clock(monkeypatch, tournaments, tournament)
    with online_app(the_list) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)


@TWO_SIZES
def test_a_tournament_s_page(snap_compare, size, monkeypatch) -> None:
    stop_the_clock(monkeypatch, tournaments, tournament)
    with online_app(a_page) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)
