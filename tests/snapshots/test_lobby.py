"""The SSH lobby, as a session's app shows it with two matches in play."""

from __future__ import annotations

import json
import socket
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager

from textual.pilot import Pilot

from soluna_tui.online.child_app import ChildApp
from soluna_tui.online.screens.lobby import LobbyScreen

MATCHES = [
    {"code": "KQXP", "players": ["bob", "cy"], "round": 2, "stars": [1, 0], "watchers": 1, "away": [False, False]},
    {"code": "ZWRT", "players": ["dee", "eve"], "round": 1, "stars": [0, 0], "watchers": 0, "away": [False, True]},
]


@contextmanager
def lobby_with_matches(*keys: str) -> Iterator[tuple[ChildApp, Callable[[Pilot], Awaitable[None]]]]:
    """A session's app whose server's first word is ``MATCHES`` (a line of JSON, as on the wire), and the steps
    that wait for its lobby to list them, then press ``keys``. The server's end stays open while the test runs."""
    ours, theirs = socket.socketpair()
    with ours:
        ours.sendall(json.dumps({"type": "lobby", "matches": MATCHES}).encode() + b"\n")
        app = ChildApp(name="ann", link=theirs, computer_pause=0, reveal_pause=0)

        async def run_before(pilot: Pilot) -> None:
            # The app listens to the server for as long as it runs: wait for the list, not for workers.
            for _ in range(100):
                await pilot.pause(0.02)
                if isinstance(pilot.app.screen, LobbyScreen) and pilot.app.screen.matches:
                    break
            await pilot.press(*keys)

        yield app, run_before


def test_the_lobby_with_matches_in_play(snap_compare) -> None:
    with lobby_with_matches("down", "down", "down") as (app, run_before):  # to "Watch a match"
        assert snap_compare(app, terminal_size=(100, 32), run_before=run_before)
