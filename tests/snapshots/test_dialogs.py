"""The dialogs over a game on this terminal, at 80x24 and 40x20: resigning (asked first), the saved match offered
on start (Welcome back), the command palette; and the notice below 40x20."""

from __future__ import annotations

import random

from textual.pilot import Pilot

from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.saves import SavedMatch, SaveStore
from soluna_tui.rules import Match, MatchOptions, choose_move

from ..app.helpers import make_app
from .helpers import SEED, TWO_SIZES, hot_seat_app, idle, moves_then, steady_cursors


async def drawn(pilot: Pilot) -> None:
    await idle(pilot)


@TWO_SIZES
def test_resigning_is_asked_first(snap_compare, tmp_path, size) -> None:
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=size, run_before=moves_then(3, "R"))


@TWO_SIZES
def test_welcome_back_to_an_unfinished_match(snap_compare, tmp_path, size) -> None:
    setup = MatchSetup(MatchOptions(), ("Ann", "Bob"), None, SEED)
    match, rng = Match(setup.options, ("Ann", "Bob"), seed=SEED), random.Random(SEED)
    for _ in range(5):
        match.play(choose_move("random", match.position, rng), match.to_move)
    store = SaveStore(tmp_path)
    store.save(SavedMatch(setup, match, hints_used=(1, 0)))
    store.release()
    assert snap_compare(make_app(tmp_path), terminal_size=size, run_before=drawn)


@TWO_SIZES
def test_the_command_palette(snap_compare, tmp_path, size) -> None:
    async def open_the_palette(pilot: Pilot) -> None:
        await moves_then(1, "ctrl+p")(pilot)
        steady_cursors(pilot)

    assert snap_compare(hot_seat_app(tmp_path), terminal_size=size, run_before=open_the_palette)


def test_below_40x20_a_notice(snap_compare, tmp_path) -> None:
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=(38, 16), run_before=drawn)
