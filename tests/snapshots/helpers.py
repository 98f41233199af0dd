"""Helpers for the snapshot tests: seeded apps and a player's keys, so every screenshot is the same.

Each test drives the app as a player would (keys, waiting for the computer and the solver)
in ``run_before``; ``snap_compare`` then takes the screenshot. Regenerate them all with
``pytest tests/snapshots --snapshot-update`` after a deliberate change of the look.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from soluna_tui.app.soluna_app import SolunaApp
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.rules import MatchOptions, choose_move

from ..app.helpers import game, make_app, play_by_keys, play_randomly_until

#: A match between two players on this terminal, the same every time.
SEED = 7


def hot_seat_app(data_dir: Path, *, ascii_mode: bool = False, **options) -> SolunaApp:
    setup = MatchSetup(MatchOptions(**options), ("Ann", "Bob"), None, SEED)
    return make_app(data_dir, setup, ascii_mode=ascii_mode)


async def idle(pilot: Pilot) -> None:
    """Wait until the workers (solver, computer) are done and their messages drawn."""
    for _ in range(20):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if not pilot.app.workers:
            break
    await pilot.pause()


def moves_then(count: int, *keys: str) -> Callable[[Pilot], Awaitable[None]]:
    """Play ``count`` seeded random moves by keys, then press ``keys``."""

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        rng = random.Random(SEED)
        for _ in range(count):
            await play_by_keys(pilot, pilot.app, choose_move("random", game(pilot.app).match.position, rng))
            await idle(pilot)
        await pilot.press(*keys)
        await idle(pilot)

    return run_before


def play_until(*screens: type, then: tuple[str, ...] = ()) -> Callable[[Pilot], Awaitable[None]]:
    """Play seeded random moves by keys (going on from each round review) until one of ``screens``."""

    async def run_before(pilot: Pilot) -> None:
        await pilot.pause()
        await play_randomly_until(pilot, pilot.app, random.Random(SEED), *screens)
        await idle(pilot)
        await pilot.press(*then)
        await idle(pilot)

    return run_before


def steady_cursors(pilot: Pilot) -> None:
    """The text fields of the screen on top drawn with a steady cursor: a blinking one shows or not by the
    moment the screenshot is taken (the chat line's never blinks)."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False


#: The two sizes every screen is drawn at: the classic terminal, and a phone's (issue 38).
TWO_SIZES = pytest.mark.parametrize("size", [(80, 24), (40, 20)], ids=["80x24", "40x20"])
