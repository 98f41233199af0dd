"""The table a player played is the table everywhere after: undo and redo, the save and the resumed
match, the kept finished match's replay and its export (a move between alike towers names its places)."""

from __future__ import annotations

import json

from soluna_tui.cli import main
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.saves import FinishedStore
from soluna_tui.rules import MatchOptions
from soluna_tui.screens.match_over import MatchOverScreen
from soluna_tui.screens.replay import ReplayScreen
from soluna_tui.screens.resume import ResumeScreen

from .helpers import (
    game,
    make_app,
    play_by_keys,
    replay_of_the_newest_finished_match,
    screen_text,
    settle,
    wait_for,
)
from .test_game_keys import shown_places

#: ``soluna play --discs 12 --stars 1 --no-review --seed 11``: a one-disc sun in each of places 1 to 4; the
#: moves below put the second of two alike towers onto the first (``2`` Enter ``1`` Enter, ``5`` Enter ``4`` Enter).
SETUP = MatchSetup(MatchOptions(discs=12, stars_to_win=1), ("Ann", "Bob"), None, 11, review=False)


async def test_moves_between_alike_towers_keep_their_places_in_the_save_the_replay_and_the_export(
        tmp_path, capsys) -> None:
    app = make_app(tmp_path, SETUP)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        start = list(screen.picking_arrangement)
        assert start[0] == start[1] and start[3] == start[4]  # alike towers: keys 1 and 2, 4 and 5
        await pilot.press("2", "enter", "1", "enter", "5", "enter", "4", "enter")
        await settle(pilot, app)
        played = shown_places(app)
        assert played[1] is None and played[4] is None and played[0] is not None and played[3] is not None
        assert " 1. Ann       1S>1S 2>1" in screen_text(app)
        await pilot.press("u", "u", "r", "r")  # taken back and played again: the same places
        await settle(pilot, app)
        assert shown_places(app) == played
        saved = json.loads((tmp_path / "current-match.json").read_text())["match"]["rounds"][0]["moves"]
        assert saved == [f"2:{start[1]}>1:{start[0]}", f"5:{start[4]}>4:{start[3]}"]

    resumed = make_app(tmp_path)
    async with resumed.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, resumed, lambda: isinstance(resumed.screen, ResumeScreen), "the offer to resume")
        await pilot.press("enter")
        await wait_for(pilot, resumed, lambda: resumed.game is not None, "the match")
        await settle(pilot, resumed)
        assert shown_places(resumed) == played  # places 2 and 5 empty, as played; not 1 and 3
        # Played to the end by the first legal move each time; the kept match keeps every place.
        for _ in range(20):
            if isinstance(resumed.screen, MatchOverScreen):
                break
            await play_by_keys(pilot, resumed, game(resumed).match.position.legal_moves[0])
            await settle(pilot, resumed)
        assert isinstance(resumed.screen, MatchOverScreen)
        finished = game(resumed).match
        await pilot.press("escape")
        replay = await replay_of_the_newest_finished_match(pilot, resumed)
        assert isinstance(replay, ReplayScreen)
        await pilot.press("down", "down")  # after move 2
        await pilot.pause()
        from soluna_tui.widgets.board import Board

        board = replay.query_one(Board)
        assert [widget.look.tower for widget in board.tower_widgets if widget.display] == played
        assert "Move 2: Bob played 1S>1S 5>4." in screen_text(resumed)

    kept = FinishedStore(tmp_path).newest_first()[0].saved.match
    assert [played.placed_moves for played in kept.rounds] == [played.placed_moves for played in finished.rounds]
    assert main(["export", "--last", "--data-dir", str(tmp_path)]) == 0
    exported = capsys.readouterr().out
    assert " 1. Ann  1S>1S 2>1" in exported and " 2. Bob  1S>1S 5>4" in exported
