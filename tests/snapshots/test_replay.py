"""The matches finished on this computer, replayed (the palette's "Replay a finished match"): the list, newest
first, a replay with every move judged, and its annotated text (t)."""

from __future__ import annotations

import calendar
import os
import random
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.saves import FinishedStore, SavedMatch
from soluna_tui.rules import Match, MatchOptions, choose_move
from soluna_tui.screens.annotated_text import AnnotatedTextScreen
from soluna_tui.screens.finished import FinishedListScreen
from soluna_tui.screens.replay import ReplayScreen

from ..app.helpers import wait_for, wait_for_text
from .helpers import SEED, TWO_SIZES, hot_seat_app, idle

#: When the two kept matches ended (UTC).
ENDED = (calendar.timegm((2026, 11, 25, 18, 40, 0)), calendar.timegm((2026, 11, 26, 9, 15, 0)))


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The local time is UTC, whatever the caller's zone: the list says when each match ended in local time."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def keep_two_finished_matches(data_dir: Path) -> None:
    """Two one-star matches of seeded random moves, kept as this computer keeps the matches finished on it."""
    store = FinishedStore(data_dir)
    for seed, names, ended in ((SEED, ("Ann", "Bob"), ENDED[0]), (SEED + 1, ("Ann", "Cy"), ENDED[1])):
        setup = MatchSetup(MatchOptions(stars_to_win=1), names, None, seed)
        match, rng = Match(setup.options, names, seed=seed), random.Random(seed)
        while not match.is_over:
            match.play(choose_move("random", match.position, rng), match.to_move)
        path = store.keep(SavedMatch(setup, match))
        os.utime(path, (ended, ended))


def replay(*then: type, keys: tuple[str, ...] = ()) -> Callable[[Pilot], Awaitable[None]]:
    """The palette's "Replay a finished match", then on to each of ``then``: the newest's replay (Enter), its text
    once every move is judged (t); then ``keys``."""

    async def run_before(pilot: Pilot) -> None:
        app = pilot.app
        await idle(pilot)
        await pilot.press("ctrl+p", *"Replay a fin")
        await wait_for_text(pilot, app, "Replay a finished match")
        await pilot.press("enter")
        await wait_for(pilot, app, lambda: isinstance(app.screen, FinishedListScreen), "the list")
        for screen, key in ((ReplayScreen, "enter"), (AnnotatedTextScreen, "t")):
            if screen in then:
                await idle(pilot)
                await pilot.press(key)
                await wait_for(pilot, app, lambda screen=screen: isinstance(app.screen, screen), screen.__name__)
        await idle(pilot)
        await pilot.press(*keys)
        await idle(pilot)

    return run_before


@TWO_SIZES
def test_the_finished_matches_newest_first(snap_compare, tmp_path, utc, size) -> None:
    keep_two_finished_matches(tmp_path)
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=size, run_before=replay())


@TWO_SIZES
def test_a_finished_match_replayed(snap_compare, tmp_path, utc, size) -> None:
    keep_two_finished_matches(tmp_path)
    run_before = replay(ReplayScreen, keys=("right",) * 4)  # to Cy's second move, which threw the win away
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=size, run_before=run_before)


@TWO_SIZES
def test_its_annotated_text(snap_compare, tmp_path, utc, size) -> None:
    keep_two_finished_matches(tmp_path)
    app = hot_seat_app(tmp_path)
    assert snap_compare(app, terminal_size=size, run_before=replay(ReplayScreen, AnnotatedTextScreen))
