"""The SSH lobby at 80x24 and 40x20, each of its panes in turn: the menu and settings over the matches in play,
who is online (o) and the lobby's talk (C), each list or line in view once shown."""

from __future__ import annotations

from textual.pilot import Pilot

from soluna_tui.online.screens.lobby import LobbyScreen

from ..app.test_small_screens import in_view
from ..server.test_child_app import FakeServer
from .helpers import TWO_SIZES
from .online import LOBBY, WELCOME, Steps, drawn, listed, online_app, sends

#: Who is online: ann (you), a rated player in a match, a guest watching it, someone waiting for an opponent.
PEOPLE = [
    {"id": 1, "name": "ann", "keyed": True, "rating": 1532, "doing": "lobby", "others": []},
    {"id": 2, "name": "bob", "keyed": True, "rating": 1610, "doing": "playing", "others": ["cy"]},
    {"id": 3, "name": "cy", "keyed": True, "rating": None, "doing": "playing", "others": ["bob"]},
    {"id": 4, "name": "dee (guest)", "keyed": False, "rating": None, "doing": "watching", "others": ["bob", "cy"]},
    {"id": 5, "name": "eve", "keyed": True, "rating": 1488, "doing": "waiting", "others": []},
]
ONLINE = {"type": "online", "people": PEOPLE, "total": 5, "you": 1}
#: The lobby's talk, whole, as a player finds it on opening it.
TALK = {"type": "chat", "room": "lobby", "whole": True, "lines": [
    {"id": number, "room": "lobby", "speaker": speaker, "name": name, "text": text, "at": 1_795_600_000.0 + number,
     "yours": speaker == 1}
    for number, (speaker, name, text) in enumerate([
        (5, "eve", "anyone for a 3+2 rated?"), (2, "bob", "after this one"), (1, "ann", "me, once I had lunch"),
        (4, "dee (guest)", "how do stars work?"), (5, "eve", "first to four round wins takes the match")], 1)]}


def the_focus_shown(steps: Steps) -> Steps:
    """``steps``, then the field in hand in view: a list or a chat line shown and focused at once, on a phone,
    scrolled to."""

    async def checked(pilot: Pilot, server: FakeServer) -> None:
        await steps(pilot, server)
        await drawn(pilot)
        focused = pilot.app.screen.focused
        assert focused is not None and in_view(focused), f"{focused} is out of view"

    return checked


@TWO_SIZES
def test_the_menu_and_settings_over_the_matches_in_play(snap_compare, size) -> None:
    with online_app(sends(WELCOME, LOBBY, then=LobbyScreen, ready=listed)) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)


@TWO_SIZES
def test_who_is_online(snap_compare, size) -> None:
    steps = sends(WELCOME, LOBBY, ONLINE, then=LobbyScreen, ready=lambda app: listed(app) and app.online.people,
                  keys=("o",))
    with online_app(the_focus_shown(steps)) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)


@TWO_SIZES
def test_the_lobby_s_talk(snap_compare, size) -> None:
    steps = sends(WELCOME, LOBBY, TALK, then=LobbyScreen, ready=listed, keys=("C", *"me too"))
    with online_app(the_focus_shown(steps)) as (app, run_before):
        assert snap_compare(app, terminal_size=size, run_before=run_before)
