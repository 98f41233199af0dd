"""A player's card over SSH (issue 42), at 80x24 and 40x20: opened with i on the leaderboard, their rating with its
graph, their records, the recent matches."""

from __future__ import annotations

from textual.pilot import Pilot

from soluna_tui.online.screens.leaderboard import LeaderboardScreen
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.online.screens.player_card import PlayerCardScreen

from ..server.test_child_app import FakeServer, wait_for_screen
from .helpers import TWO_SIZES
from .online import LOBBY, WELCOME, listed, online_app, sends
from .test_player_pages import FINISHED, LEADERBOARD

CARD = {"type": "card", "person": 3, "name": "teodor", "keyed": True, "rating": 1625, "rank": 3, "played": 37,
        "won": 24, "lost": 13, "graph": [1580, 1596, 1588, 1571, 1590, 1603, 1611, 1604, 1618, 1625],
        "against_you": [2, 3], "member_since": 1_780_000_000.0,
        "recent": [{**FINISHED, "opponent": "ann", "result": "won", "stars": [1, 0], "rating": [1618, 1625]},
                   {"id": 9, "opponent": "mira", "result": "lost", "forfeit": False, "stars": [1, 2],
                    "finished_at": 1_795_500_000.0, "ended": "time", "on_time": True, "rating": [1611, 1604]}]}


async def teodor_s_card(pilot: Pilot, server: FakeServer) -> None:
    await sends(WELCOME, LOBBY, then=LobbyScreen, ready=listed, keys=("down",) * 4 + ("enter",))(pilot, server)
    server.answer(await server.expect("leaderboard"),
                  {**LEADERBOARD, "rows": [{**row, "person": row["rank"]} for row in LEADERBOARD["rows"]]})
    await wait_for_screen(pilot, pilot.app, LeaderboardScreen, "Players 1-12 of 12")
    await pilot.press("down", "down", "i")
    server.answer(await server.expect("card"), CARD)
    await wait_for_screen(pilot, pilot.app, PlayerCardScreen, "teodor: rating 1625")


@TWO_SIZES
def test_a_player_s_card(snap_compare, size) -> None:
    with online_app(teodor_s_card) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)

