"""Two copies of the app on one data directory, running at once: neither loses the other's match."""

from __future__ import annotations

import json

from soluna_tui.app.start_up import ELSEWHERE_NOTICE
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.new_match import NewMatchScreen
from soluna_tui.screens.resume import ResumeScreen

from .helpers import game, hot_seat, make_app, screen_text
from .test_saves_and_terminals import play_some_moves, text_showing


def saved_moves(path) -> list[str]:
    return json.loads(path.read_text())["match"]["rounds"][0]["moves"]


async def test_a_second_copy_is_told_and_plays_a_separate_match(tmp_path) -> None:
    first = make_app(tmp_path, hot_seat(seed=7))
    async with first.run_test(size=(100, 30)) as pilot:
        await play_some_moves(pilot, first, 2)
        kept = saved_moves(tmp_path / "current-match.json")
        second = make_app(tmp_path)  # a second terminal, while the first one plays
        async with second.run_test(size=(100, 30)) as other:
            await text_showing(other, second, "Another copy of Soluna has the saved match;")
            assert isinstance(second.screen, NewMatchScreen)  # not offered the first one's match
            await other.press("enter")  # start a match of its own
            await text_showing(other, second, "Ann to move")
            await play_some_moves(other, second, 3, seed=9)
            assert second.store.current_path.name == "current-match-2.json"
            assert len(saved_moves(tmp_path / "current-match-2.json")) == 3
        assert saved_moves(tmp_path / "current-match.json") == kept  # untouched by the second copy
        await play_some_moves(pilot, first, 1)
        assert len(saved_moves(tmp_path / "current-match.json")) == 3
    later = make_app(tmp_path)  # both closed: the first copy's match is offered first
    async with later.run_test(size=(100, 30)) as pilot:
        await text_showing(pilot, later, "You have an unfinished match")
        assert isinstance(later.screen, ResumeScreen) and ELSEWHERE_NOTICE not in screen_text(later)
        await pilot.press("enter")
        await text_showing(pilot, later, "3. ")
        assert len(game(later).match.round.moves) == 3 and later.store.current_path.name == "current-match.json"


async def test_soluna_play_in_a_second_copy_shows_the_notice_over_its_match(tmp_path) -> None:
    first = make_app(tmp_path, hot_seat(seed=7))
    async with first.run_test(size=(100, 30)) as pilot:
        await play_some_moves(pilot, first, 1)
        second = make_app(tmp_path, hot_seat(seed=8))
        async with second.run_test(size=(100, 30), notifications=True) as other:
            await text_showing(other, second, "Another copy of Soluna", "Ann to move")
            assert isinstance(second.screen, GameScreen) and game(second).match.seed == 8
            await play_some_moves(other, second, 1)
        assert json.loads((tmp_path / "current-match.json").read_text())["match"]["seed"] == 7
        assert json.loads((tmp_path / "current-match-2.json").read_text())["match"]["seed"] == 8


async def test_a_second_copy_resumes_its_own_earlier_match(tmp_path) -> None:
    first = make_app(tmp_path, hot_seat(seed=7))
    async with first.run_test(size=(100, 30)) as pilot:
        await play_some_moves(pilot, first, 1)
        second = make_app(tmp_path, hot_seat(seed=8))
        async with second.run_test(size=(100, 30)) as other:
            await play_some_moves(other, second, 2)
        third = make_app(tmp_path)  # the second terminal again, the first still playing
        async with third.run_test(size=(100, 30)) as other:
            text = await text_showing(other, third, "You have an unfinished match", "Another copy of Soluna")
            assert isinstance(third.screen, ResumeScreen) and "round 1, move 3" in text
