"""Over SSH, at 80x24 and 40x20: a match's talk (beside the board; on a phone, behind Tab), play in a browser (a
code to sign one in, and the browsers signed in), and the warning that an idle session closes soon."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from soluna_tui.online.screens import browsers, closing_soon
from soluna_tui.online.screens.browsers import BrowsersScreen
from soluna_tui.online.screens.closing_soon import ClosingSoonScreen
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.game import GameScreen

from ..server.test_child_app import FakeServer, match_message, wait_for_screen
from .helpers import TWO_SIZES
from .online import LOBBY, STOPPED_AT, WELCOME, listed, online_app, sends, stop_the_clock

TALK = [(2, "bob", "good luck, have fun"), (1, "ann", "you too!"), (2, "bob", "that tower was a trap"),
        (1, "ann", "I saw it coming")]
BROWSERS = {"type": "browsers", "browsers": [
    {"id": 3, "linked_at": STOPPED_AT - 9 * 86400, "last_seen": STOPPED_AT - 130, "address": "203.0.113.77",
     "agent": "Firefox on Windows"},
    {"id": 5, "linked_at": STOPPED_AT - 2 * 86400, "last_seen": STOPPED_AT - 3 * 3600, "address": "198.51.100.4",
     "agent": "Safari on iPhone"}]}


async def talk_at_a_match(pilot: Pilot, server: FakeServer) -> None:
    """ann joins bob's match by its code, bob moves, and they talk."""
    keys = ("down", "down", "enter", *"kqxp", "enter")
    await sends(WELCOME, LOBBY, then=LobbyScreen, ready=listed, keys=keys)(pilot, server)
    await server.expect("join")
    match = Match(MatchOptions(), ("bob", "ann"), seed=3)
    match.play(match.position.legal_moves[4], match.to_move)
    server.send(match_message(match, 1, code="KQXP", version=1))
    server.send({"type": "chat", "room": "players", "code": "KQXP", "whole": True, "lines": [
        {"id": number, "room": "players", "speaker": speaker, "name": name, "text": text,
         "at": STOPPED_AT + number, "yours": speaker == 1} for number, (speaker, name, text) in enumerate(TALK, 1)]})
    await wait_for_screen(pilot, pilot.app, GameScreen, "Your move")
    narrow = pilot.app.size.width < 80
    await pilot.press("tab" if narrow else "C")  # a phone's moves and talk behind Tab; beside the board, its line


async def play_in_a_browser(pilot: Pilot, server: FakeServer) -> None:
    await sends(WELCOME, LOBBY, then=LobbyScreen, ready=listed, keys=("b",))(pilot, server)
    code, listed_browsers = await server.expect("browser_code"), await server.expect("browsers")
    server.answer(code, {"type": "browser_code", "code": "KQXM-RTPLWZ", "seconds": 300.0,
                         "link": "https://soluna.example.org/?code=KQXMRTPLWZ"})
    server.answer(listed_browsers, BROWSERS)
    await wait_for_screen(pilot, pilot.app, BrowsersScreen, "Safari on iPhone")


@TWO_SIZES
def test_a_match_s_talk(snap_compare, size) -> None:
    with online_app(talk_at_a_match) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)


@TWO_SIZES
def test_play_in_a_browser(snap_compare, monkeypatch: pytest.MonkeyPatch, size) -> None:
    stop_the_clock(monkeypatch, browsers)
    with online_app(play_in_a_browser) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)


@TWO_SIZES
def test_an_idle_session_closes_soon(snap_compare, monkeypatch: pytest.MonkeyPatch, size) -> None:
    stop_the_clock(monkeypatch, closing_soon)
    steps = sends(WELCOME, LOBBY, {"type": "closing_soon", "idle": 1740.0, "seconds": 60.0}, then=ClosingSoonScreen)
    with online_app(steps) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)
