"""Replaying a finished match: stepping, the solver's annotations, the whole text; finished local matches kept."""

from __future__ import annotations

import re

from soluna_tui.cli import main
from soluna_tui.local.saves import FINISHED_KEPT, FinishedStore, SavedMatch, SaveStore
from soluna_tui.play.match_text import export_match
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.rules.teaching import RESULT_CONVENTION, review_round
from soluna_tui.screens.annotated_text import AnnotatedTextScreen
from soluna_tui.screens.finished import FinishedListScreen
from soluna_tui.screens.match_over import MatchOverScreen
from soluna_tui.screens.replay import ReplayScreen
from soluna_tui.screens.review import describe_review
from soluna_tui.widgets.board import Board

from .helpers import hot_seat, make_app, play_by_keys, screen_text, skip_review, wait_for, wait_for_text


def finished(seed: int = 3, discs: int = 6, stars: int = 2) -> Match:
    """A match played to its end, each player always taking the first legal move."""
    match = Match(MatchOptions(discs=discs, stars_to_win=stars), ("Ann", "Bob"), seed=seed)
    while not match.is_over:
        if match.round.is_over:
            match.start_next_round(match.round.outcome.loser, match.round.outcome.loser)
        match.play(match.position.legal_moves[0], match.to_move)
    return match


async def test_stepping_through_a_replay_shows_each_move_judged_and_the_end(tmp_path) -> None:
    match = finished()
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await app.push_screen(ReplayScreen(match))
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert "Round 1: Ann opened" in screen_text(app) and replay.index == 0
        await pilot.press("right")
        first = match.rounds[0].moves[0]
        assert replay.entry.ply == 1 and f"Move 1: Ann played {first}" in screen_text(app)
        await wait_for(pilot, app, lambda: len(replay.reviews) == len(match.rounds), "the judging")
        await pilot.pause()
        text = screen_text(app)
        assert "judging" not in text and ("win in" in text or "loss in" in text)
        expected = export_match(match).splitlines()
        move_line = next(line for line in expected if line.strip().startswith("1. Ann") and str(first) in line)
        annotation = move_line.split(str(first), 1)[1].strip()
        assert annotation.split()[0] in text  # the same outcome the export writes beside the move
        await pilot.press("down", "down")  # the history steps too
        assert replay.entry.ply == 3
        await pilot.press("end")
        winner = match.players[match.winner]
        assert replay.index == len(replay.entries) - 1
        text = screen_text(app)
        assert f"{winner} won the round." in text and f"{winner} won the match" in text
        assert f"{match.stars[match.winner]}/2" in text  # the tally counts the last star
        await pilot.press("home")
        assert replay.index == 0 and "0/2" in screen_text(app)
        await pilot.click("TowerWidget")  # the board is read-only: the arrows still step
        await pilot.press("right")
        assert replay.index == 1 and app.focused is replay.history
        await pilot.press("t")
        await wait_for(pilot, app, lambda: isinstance(app.screen, AnnotatedTextScreen), "the annotated text")
        assert app.screen.text == export_match(match)
        assert "Accuracy:" in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, app, lambda: app.screen is replay, "the replay again")
        await pilot.press("escape")
        await wait_for(pilot, app, lambda: not isinstance(app.screen, ReplayScreen), "the replay closing")


async def test_a_hot_seat_match_played_to_the_end_is_kept_and_replayed_from_the_palette(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=2, discs=4, stars_to_win=1))
    async with app.run_test(size=(100, 32)) as pilot:
        while not isinstance(app.screen, MatchOverScreen):
            if not await skip_review(pilot, app):
                await play_by_keys(pilot, app, app.game.match.position.legal_moves[0])
            await pilot.pause()
        played = app.game.match
        kept = FinishedStore(tmp_path).newest_first()
        assert len(kept) == 1 and kept[0].saved.match.to_dict() == played.to_dict()
        assert SaveStore(tmp_path).load() is None  # no unfinished save left behind
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await pilot.press(*"Replay a fin")
        await wait_for_text(pilot, app, "Replay a finished match")
        await pilot.press("enter")
        await wait_for(pilot, app, lambda: isinstance(app.screen, FinishedListScreen), "the list")
        assert f"Ann vs Bob: {played.players[played.winner]} won, " in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, app, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        assert app.screen.match.to_dict() == played.to_dict()
    assert len(FinishedStore(tmp_path).paths()) == 1  # kept once, however often it was saved after


def test_only_the_last_matches_are_kept_newest_first_and_exported_with_last(tmp_path, capsys) -> None:
    store = FinishedStore(tmp_path)
    setup = hot_seat()
    for seed in range(FINISHED_KEPT + 3):
        store.keep(SavedMatch(setup, finished(seed=seed, discs=3, stars=1)))
    assert len(store.paths()) == FINISHED_KEPT
    newest = store.newest_first()
    assert newest[0].saved.match.seed == FINISHED_KEPT + 2 and newest[-1].saved.match.seed == 3
    assert main(["export", "--last", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Soluna: Ann vs Bob") and f"seed {FINISHED_KEPT + 2}" in out
    store.paths()[-1].write_text("{not json")  # a damaged newest file: one line, no traceback
    assert main(["export", "--last", "--data-dir", str(tmp_path)]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["export", "--last", "--data-dir", str(tmp_path / "empty")]) == 1
    assert "no finished match kept" in capsys.readouterr().err


def test_the_review_and_the_export_give_each_move_the_same_number_and_say_which() -> None:
    """The review gave the value before the move (``won in 11``), the export the move's result
    (``loss in 10``): now both give the move's result for its player, and say so."""
    match = finished(seed=3, discs=12, stars=1)
    played = match.rounds[0]
    review = review_round(played)
    shown = [line for line, _ in describe_review(review, played, match.players)][:played.ply]
    exported = export_match(match)
    move_lines = [line for line in exported.splitlines() if re.match(r"\s+\d+\. ", line)]
    for item, review_line, export_line in zip(review.moves, shown, move_lines, strict=True):
        assert str(item.after) in review_line and str(item.after) in export_line
    assert RESULT_CONVENTION in exported
    assert "Round 1: Ann opened;" in exported


async def test_a_replay_opens_at_the_start_with_its_list_at_the_start(tmp_path) -> None:
    match = finished(seed=3, discs=12, stars=3)
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(ReplayScreen(match))
        await pilot.pause()
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.index == 0
        assert replay.history.highlighted == 0 and replay.history.scroll_offset.y == 0
        assert "Round 1: Ann opened" in screen_text(app)
        assert "its result for the player" in screen_text(app)


async def test_the_annotated_text_wraps_at_80_columns(tmp_path) -> None:
    match = finished(seed=3, discs=12, stars=1)
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(ReplayScreen(match))
        replay = app.screen
        await wait_for(pilot, app, lambda: replay.text is not None, "the judging")
        await pilot.press("t")
        await wait_for(pilot, app, lambda: isinstance(app.screen, AnnotatedTextScreen), "the annotated text")
        await pilot.pause()
        text = screen_text(app)
        assert "seed 3" in text  # the end of the rules line, past the 80th column
        assert "counted from that" in text


async def test_at_80x24_the_replay_s_text_never_covers_the_towers_nor_moves_them(tmp_path) -> None:
    match = finished(discs=12, stars=1)
    app = make_app(tmp_path, hot_seat())
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(ReplayScreen(match))
        replay = app.screen
        board, text = replay.query_one(Board), replay.query_one("#replay-move")
        regions = set()
        for key in ("home", "right", "right", "end"):  # the start's text is the longest, then moves, the end
            await pilot.press(key)
            await pilot.pause()
            assert board.region.bottom <= text.region.y
            for tower in board.tower_widgets:
                assert board.region.contains_region(tower.region), f"{tower.region} is not all on {board.region}"
            regions.add(tuple(tower.region for tower in board.tower_widgets))
        assert len(regions) == 1  # every tower where it was
