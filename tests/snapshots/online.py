"""The online screens' scenarios: a session's app (``ChildApp``, as ``soluna serve`` runs one a player) with the test
as its server at the other end of its link, as ``tests/server/test_child_app.py`` plays it; no server runs.

``online_app`` gives the app and the steps ``snap_compare`` runs before its screenshot: the server's words (a line
of JSON each, as on the wire) and the player's keys, in the order a scenario gives them. Every name, code, rating
and date is fixed; a screen that counts time down or up reads a stopped clock (``stop_the_clock``).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen

from soluna_tui.link.protocol import Link
from soluna_tui.online.child_app import ChildApp
from soluna_tui.rules import MatchOptions

from ..app.helpers import screen_text
from ..app.test_small_screens import in_view
from ..server.test_child_app import FakeServer, wait_for_screen
from .helpers import steady_cursors

#: A keyed player's welcome from a server that pairs players, passes challenges on and has a web door.
WELCOME = {"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300, "name": "ann", "rated": True,
           "name_chosen": True, "quick_match": True, "challenges": True, "browser_link": True}
#: Two matches in play, one with a player away.
MATCHES = [
    {"code": "KQXP", "players": ["bob", "cy"], "round": 2, "stars": [1, 0], "watchers": 1, "away": [False, False]},
    {"code": "ZWRT", "players": ["dee", "eve"], "round": 1, "stars": [0, 0], "watchers": 0, "away": [False, True]},
]
LOBBY = {"type": "lobby", "matches": MATCHES}
#: A quick match's or a challenge's terms: online rules to three stars, a 3+2 clock, rated.
TERMS = {"options": MatchOptions.preset("online", stars_to_win=3).to_dict(),
         "clock": {"seconds": 180.0, "increment": 2.0}, "rated": True, "hints": False}

#: What a scenario does as the server: send, expect the app's questions and answer them, and wait for screens.
Steps = Callable[[Pilot, FakeServer], Awaitable[None]]


@contextmanager
def online_app(steps: Steps) -> Iterator[tuple[ChildApp, Callable[[Pilot], Awaitable[None]]]]:
    """A session's app for player ann, and what ``snap_compare`` runs first: ``steps``, then a pause for the last
    words to be drawn. The server's end stays open while the test runs."""
    ours, theirs = socket.socketpair()
    with ours:
        app = ChildApp(name="ann", link=theirs, computer_pause=0, reveal_pause=0)

        async def run_before(pilot: Pilot) -> None:
            await steps(pilot, FakeServer(await Link.over(ours)))
            steady_cursors(pilot)
            await drawn(pilot)
            if app.screen is not app.lobby:  # a dialog: the lobby behind it where the answer left it
                await the_answer_in_view(pilot, app)

        yield app, run_before


def sends(*words: dict[str, Any], then: type[Screen[Any]], showing: str = "", keys: tuple[str, ...] = (),
          ready: Callable[[ChildApp], object] = lambda app: True) -> Steps:
    """The server says ``words``; once ``then`` is on top showing ``showing`` (and ``ready`` holds), the player
    presses ``keys``."""

    async def steps(pilot: Pilot, server: FakeServer) -> None:
        app = pilot.app
        assert isinstance(app, ChildApp)
        for each in words:
            server.send(each)
        await wait_for_screen(pilot, app, then, showing)
        for _ in range(100):
            if ready(app):
                break
            await pilot.pause(0.05)
        await pilot.pause()
        from_the_top(app)
        await pilot.press(*keys)

    return steps


async def drawn(pilot: Pilot) -> None:
    """Until the screen shows the same twice in a row: the last words and keys drawn, and what they scroll into view
    scrolled to (at most 2 s)."""
    shown = screen_text(pilot.app)
    for _ in range(40):
        await pilot.pause(0.05)
        now = screen_text(pilot.app)
        if now == shown:
            return
        shown = now


def from_the_top(app: ChildApp) -> None:
    """The lobby scrolled to its top, as a player finds it when the server's words came before it was drawn.

    A phone's lobby scrolls to its menu as it opens: where it stands then depends on whether the words above the
    menu (the welcome's lines) were drawn yet, one run in two a line apart under load. The same lobby by another
    path: from its top, the player's keys then scroll it the same on every run."""
    app.lobby.query_one("#lobby").scroll_home(animate=False, immediate=True)


async def the_answer_in_view(pilot: Pilot, app: ChildApp) -> None:
    """A phone's lobby behind a dialog scrolled as the answer that opened it leaves it: the field in hand, then the
    whole of the status the answer wrote, in view. The lobby scrolls so once the status is drawn, when its second
    line may not be laid out yet (one run in two under load): scrolled again until it shows whole, as it would
    once laid out."""
    lobby = app.lobby
    status = lobby.query_one("#lobby-status")
    for _ in range(20):
        if lobby.focused is not None:
            lobby.focused.scroll_visible(animate=False, immediate=True)
        status.scroll_visible(animate=False, immediate=True)
        await drawn(pilot)
        if in_view(status):
            return


def listed(app: ChildApp) -> object:
    """The server's list of the matches in play has come (the lobby draws it as it comes)."""
    return app.matches_in_play


#: A moment every stopped clock reads: 2026-11-25 10:00 UTC.
STOPPED_AT = 1_795_600_800.0


class StoppedClock:
    """A screen module's ``time``, stopped at ``STOPPED_AT``: a countdown or a wait drawn the same on every run,
    however long the machine takes to draw it. Everything else is the real ``time``."""

    def monotonic(self) -> float:
        return STOPPED_AT

    def time(self) -> float:
        return STOPPED_AT

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


def stop_the_clock(monkeypatch: pytest.MonkeyPatch, *modules: ModuleType) -> None:
    """The clock ``modules`` read (their ``time``) stopped for this test."""
    for module in modules:
        monkeypatch.setattr(module, "time", StoppedClock())
