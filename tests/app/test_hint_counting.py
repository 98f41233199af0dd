"""What counts as a hint: each hint step, and analysis mode once for each time it is turned on."""

from __future__ import annotations

import random

from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.rules import MatchOptions, choose_move

from .helpers import game, hot_seat, make_app, play_by_keys, settle


async def test_analysis_mode_left_on_counts_once_not_once_a_move(tmp_path) -> None:
    app = make_app(tmp_path, MatchSetup.against_computer("random", MatchOptions(), seed=5))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        table = game(app).table
        await pilot.press("A")
        await settle(pilot, app)
        assert table.hints_used == [1, 0]
        await pilot.press("A", "A")  # off and on again in the same position: nothing more
        await settle(pilot, app)
        assert table.hints_used == [1, 0]
        rng = random.Random(1)
        for _ in range(4):  # four of your moves, the computer answering each, analysis on throughout
            await play_by_keys(pilot, app, choose_move("random", game(app).match.position, rng))
            await settle(pilot, app)
            await pilot.pause()
        assert game(app).match.round.ply >= 7 and table.hints_used == [1, 0]
        await pilot.press("H")  # a hint step counts
        await settle(pilot, app)
        assert table.hints_used == [2, 0]


async def test_analysis_turned_on_again_later_counts_again(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=5))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        table = game(app).table
        await pilot.press("A")
        await settle(pilot, app)
        rng = random.Random(2)
        for _ in range(3):
            await play_by_keys(pilot, app, choose_move("random", game(app).match.position, rng))
            await settle(pilot, app)
        assert table.hints_used == [1, 0]  # Ann turned it on; Bob's turns with it showing are not hints
        await pilot.press("A")  # off
        await play_by_keys(pilot, app, choose_move("random", game(app).match.position, rng))
        await settle(pilot, app)
        await pilot.press("A")  # Ann turns it on again, on her turn
        await settle(pilot, app)
        assert table.hints_used == [2, 0]
