"""Finding an opponent over SSH, at 80x24 and 40x20: a match created and its code to tell (waiting), a quick match
waiting with the server's news, and the challenges to and from this player."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from soluna_tui.online.screens import seeking
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.online.screens.seeking import SeekingScreen
from soluna_tui.online.screens.waiting import WaitingScreen

from ..server.test_child_app import FakeServer, wait_for_screen
from .helpers import TWO_SIZES
from .online import LOBBY, TERMS, WELCOME, listed, online_app, sends, stop_the_clock

CHALLENGES = {"type": "challenges", "new": [], "challenges": [
    {"id": 3, "name": "bob", "incoming": True, "terms": TERMS, "sent_at": 0.0, "rating": 1610},
    {"id": 4, "name": "eve", "incoming": True, "terms": {**TERMS, "clock": None}, "sent_at": 0.0, "rating": 1488},
    {"id": 5, "name": "dee (guest)", "incoming": False, "terms": {**TERMS, "rated": False}, "sent_at": 0.0,
     "waiting": True}]}


async def create_a_match(pilot: Pilot, server: FakeServer) -> None:
    await sends(WELCOME, LOBBY, then=LobbyScreen, ready=listed, keys=("down", "enter"))(pilot, server)
    server.answer(await server.expect("create"), {"type": "waiting", "code": "KQXP"})
    await wait_for_screen(pilot, pilot.app, WaitingScreen, "K Q X P")


async def find_me_an_opponent(pilot: Pilot, server: FakeServer) -> None:
    await sends(WELCOME, LOBBY, then=LobbyScreen, ready=listed, keys=("end", "up", "enter"))(pilot, server)
    server.answer(await server.expect("seek"), {"type": "seeking", "since": 0.0})
    server.send({"type": "notice", "text": "dee (guest) waits on the same settings, rated: a guest's matches are "
                                           "unrated."})
    await wait_for_screen(pilot, pilot.app, SeekingScreen, "dee (guest) waits")


def test_a_match_created_waits_for_its_opponent(snap_compare) -> None:
    """At 80x24 only: on a phone the lobby behind the dialog shows its status ("Match KQXP created: waiting for an
    opponent.", two lines there) scrolled whole or a line short, by whether it was painted before the dialog came
    over it; the dialog itself is the same at 40x20 as the quick match's."""
    with online_app(create_a_match) as (app, run_before):
        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


@TWO_SIZES
def test_a_quick_match_waits_with_the_server_s_news(snap_compare, monkeypatch: pytest.MonkeyPatch, size) -> None:
    stop_the_clock(monkeypatch, seeking)
    with online_app(find_me_an_opponent) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)


@TWO_SIZES
def test_the_challenges_to_answer_and_to_withdraw(snap_compare, size) -> None:
    steps = sends(WELCOME, LOBBY, CHALLENGES, then=LobbyScreen, showing="3 challenges (c)", keys=("c",))
    with online_app(steps) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)
