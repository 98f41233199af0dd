"""A player's pages over SSH, at 80x24 and 40x20: the leaderboard (their own row highlighted), their record, and the
name a player with a key chooses."""

from __future__ import annotations

from textual.pilot import Pilot

from soluna_tui.online.screens.choose_name import ChooseNameScreen
from soluna_tui.online.screens.leaderboard import LeaderboardScreen
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.online.screens.record import RecordScreen

from ..server.test_child_app import FakeServer, wait_for_screen
from .helpers import TWO_SIZES
from .online import LOBBY, WELCOME, listed, online_app, sends

NAMES = ["mira", "bob", "teodor", "eve", "li", "ann", "quentin", "sol", "dee", "yuki", "ravi", "oona"]
LEADERBOARD = {"type": "leaderboard", "offset": 0, "total": 12, "you": {"rank": 6, "rating": 1532},
               "rows": [{"rank": rank, "name": name, "rating": 1720 - 31 * rank - rank % 3, "played": 40 - rank,
                         "won": 30 - 2 * rank} for rank, name in enumerate(NAMES, 1)]}
#: Stopped when bob won 1-0: the record's first match, replayed from there.
FINISHED = {"id": 17, "opponent": "bob", "result": "lost", "forfeit": False, "stars": [0, 1],
            "finished_at": 1_795_600_000.0, "ended": "won"}
RECORD = {"type": "record", "name": "ann", "rated": True, "rating": 1532, "rank": 6, "played": 12, "won": 7,
          "lost": 5, "recent": [
              FINISHED,
              {"id": 9, "opponent": "cy", "result": "abandoned", "forfeit": False, "stars": [0, 0],
               "finished_at": 1_795_500_000.0, "ended": "abandoned"},
              {"id": 8, "opponent": "dee", "result": "won", "forfeit": False, "stars": [0, 0],
               "finished_at": 1_795_400_000.0, "on_time": True, "ended": "time"},
              {"id": 5, "opponent": "eve", "result": "won", "forfeit": True, "stars": [2, 1],
               "finished_at": 1_795_300_000.0, "ended": "resigned"}]}


async def the_leaderboard(pilot: Pilot, server: FakeServer) -> None:
    await sends(WELCOME, LOBBY, then=LobbyScreen, ready=listed, keys=("down",) * 4 + ("enter",))(pilot, server)
    server.answer(await server.expect("leaderboard"), LEADERBOARD)
    await wait_for_screen(pilot, pilot.app, LeaderboardScreen, "Players 1-12 of 12")


async def the_record(pilot: Pilot, server: FakeServer) -> None:
    await sends(WELCOME, LOBBY, then=LobbyScreen, ready=listed, keys=("down",) * 5 + ("enter",))(pilot, server)
    server.answer(await server.expect("record"), RECORD)
    await wait_for_screen(pilot, pilot.app, RecordScreen, "ann: rating 1532")


@TWO_SIZES
def test_the_leaderboard(snap_compare, size) -> None:
    with online_app(the_leaderboard) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)


@TWO_SIZES
def test_the_record(snap_compare, size) -> None:
    with online_app(the_record) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)


@TWO_SIZES
def test_a_player_with_a_key_chooses_a_name(snap_compare, size) -> None:
    steps = sends({**WELCOME, "name": "ann2", "name_chosen": False}, LOBBY, then=ChooseNameScreen,
                  keys=("backspace", *"Ann Lee"))
    with online_app(steps) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)
