"""Hints step by step, analysis mode, opener advice, the round review, puzzles and stats."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from contextlib import asynccontextmanager
from dataclasses import replace

import pytest

from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.player_stats import StatsStore
from soluna_tui.rules import MatchOptions, Position, drop, shared_solver
from soluna_tui.rules.puzzles import make_puzzle
from soluna_tui.screens.match_over import MatchOverScreen
from soluna_tui.screens.puzzle import PuzzleScreen
from soluna_tui.screens.review import ReviewScreen
from soluna_tui.screens.round_over import RoundOverScreen
from soluna_tui.screens.stats import StatsScreen

from .helpers import (
    game,
    hot_seat,
    make_app,
    play_by_keys,
    play_randomly_until,
    screen_text,
    set_position,
    settle,
    skip_review,
    wait_for,
)

#: The longest a test lets the solver wait.
TIMEOUT = 15.0


async def wait(pilot, app) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()


def won_position() -> Position:
    for seed in range(50):
        position = drop(8, random.Random(seed))
        analysis = shared_solver.analyse(position)
        if analysis.verdict.wins and len(analysis.winning_moves) < len(analysis.moves):
            return position
    raise AssertionError("no won position found")


@asynccontextmanager
async def at_a_won_position(tmp_path, seed: int):
    """A hot-seat game whose round starts from a won position with a losing move: what each
    test needs to judge help, and its perfect-play analysis."""
    app = make_app(tmp_path, hot_seat(seed=seed))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        position = won_position()
        set_position(screen, position)
        yield app, pilot, screen, position, shared_solver.analyse(position)


async def test_each_hint_step_and_the_count(tmp_path) -> None:
    async with at_a_won_position(tmp_path, seed=1) as (app, pilot, screen, position, analysis):
        best = analysis.moves[0].move
        await pilot.press("H")
        await wait(pilot, app)
        assert f"Ann can win, in {analysis.verdict.plies} plies" in screen_text(app)
        assert screen.table.hints_used == [1, 0]
        assert not any(widget.look.hinted for widget in screen.board.tower_widgets)
        await pilot.press("H")
        await wait(pilot, app)
        hinted = [slot for slot, widget in enumerate(screen.board.tower_widgets) if widget.look.hinted]
        assert [position.towers[slot] for slot in hinted] == [best.mover]
        assert f"move the {best.mover} tower" in screen_text(app)
        await pilot.press("H")
        await wait(pilot, app)
        hinted = [slot for slot, widget in enumerate(screen.board.tower_widgets) if widget.look.hinted]
        assert sorted(position.towers[slot].sort_key for slot in hinted) == sorted(
            [best.mover.sort_key, best.target.sort_key])
        assert f"play {best}" in screen_text(app)
        await pilot.press("H")  # nothing more to tell: not counted again
        assert screen.table.hints_used == [1 + 2, 0]
        await play_by_keys(pilot, app, best)  # the hint goes with the position
        assert not any(widget.look.hinted for widget in screen.board.tower_widgets)
        assert "Hint:" not in screen_text(app)


async def test_hints_can_be_turned_off(tmp_path) -> None:
    setup = MatchSetup(MatchOptions(), ("Ann", "Bob"), None, 1, hints=False)
    app = make_app(tmp_path, setup)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("H")
        await pilot.press("A")
        assert game(app).table.hints_used == [0, 0] and not game(app).teaching.analysis_on
        game(app).action_hint()  # from the command palette
        assert "off in this match" in screen_text(app)
        assert "H Hint" not in screen_text(app).splitlines()[-1]


async def test_analysis_mode_marks_every_move(tmp_path) -> None:
    async with at_a_won_position(tmp_path, seed=1) as (app, pilot, screen, position, analysis):
        await pilot.press("A")
        await wait(pilot, app)
        looks = [widget.look for widget in screen.board.tower_widgets if widget.display]
        for look in looks:
            own = [item.verdict for item in analysis.moves if item.move.mover == look.tower]
            if not own:
                assert look.note == "-"
                continue
            best = max(own, key=lambda v: (v.wins, -v.plies if v.wins else v.plies))
            assert look.note == f"{'W' if best.wins else 'L'}{best.plies}"
            assert look.note_kind == ("win" if best.wins else "loss")
        text = screen_text(app)
        assert "Analysis: a win in" in text and re.search(r"\bW\d+\b", text)
        assert screen.table.hints_used == [1, 0]
        # A picked tower's targets show the outcome of each move.
        mover_slot = next(slot for slot, tower in enumerate(position.towers)
                          if any(item.move.mover == tower for item in analysis.moves))
        screen.board.put_cursor(mover_slot)
        await pilot.press("enter")
        await wait(pilot, app)
        mover = position.towers[mover_slot]
        for slot, widget in enumerate(screen.board.tower_widgets[: len(position)]):
            if widget.look.target:
                verdict = next(item.verdict for item in analysis.moves
                               if item.move.mover == mover and item.move.target == position.towers[slot])
                assert widget.look.note == f"{'W' if verdict.wins else 'L'}{verdict.plies}"
        await pilot.press("escape", "A")
        assert not any(widget.look.note for widget in screen.board.tower_widgets)


async def test_analysis_works_on_positions_from_the_history(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=4))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        for _ in range(2):
            await play_by_keys(pilot, app, screen.match.position.legal_moves[0])
        await pilot.press("A")
        await wait(pilot, app)
        await pilot.press("tab", "up", "up")
        await wait(pilot, app)
        assert screen.browsing.viewing is not None and screen.browsing.viewing.ply == 0
        start = screen.match.round.start
        assert screen.teaching.analysis_of(start) is not None
        assert all(widget.look.note for widget in screen.board.tower_widgets if widget.display)
        assert "read-only" in screen_text(app) and "Analysis:" in screen_text(app)


async def test_opener_advice_is_a_counted_hint(tmp_path) -> None:
    app = make_app(tmp_path, MatchSetup(MatchOptions(discs=8), ("Ann", "Bob"), None, 3, review=False))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_randomly_until(pilot, app, random.Random(3), RoundOverScreen)
        assert isinstance(app.screen, RoundOverScreen)
        match = game(app).match
        loser = match.round.outcome.loser
        assert "H says which" in screen_text(app) and "H says which choice wins" in app.screen.keys_line()
        await pilot.press("H")
        await wait(pilot, app)
        opener_wins = shared_solver.verdict(match.layout_for(2)).wins
        text = screen_text(app)
        assert ("choose to open" if opener_wins else "choose to move second") in text
        assert game(app).table.hints_used[loser] == 1


async def test_the_review_finds_a_known_blunder(tmp_path) -> None:
    async with at_a_won_position(tmp_path, seed=2) as (app, pilot, screen, position, analysis):
        blunder = next(item.move for item in analysis.moves if not item.verdict.wins)
        await play_by_keys(pilot, app, blunder)
        while not isinstance(app.screen, ReviewScreen):  # then perfect play to the end
            await play_by_keys(pilot, app, shared_solver.analyse(screen.match.position).moves[0].move)
            await wait(pilot, app)
        await wait(pilot, app)
        text = screen_text(app)
        assert f"The turning point: move 1, Ann's {blunder}" in text
        assert "threw the win away" in text
        assert "Bob:" in text and "(100%)" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RoundOverScreen)


async def test_the_review_lists_the_moves_at_once_and_their_verdicts_once_found(tmp_path, monkeypatch) -> None:
    """The last move of a round is news (over SSH, the opponent's): the review of a round too large to judge as it
    opens shows every move at once, while a worker is still judging them."""
    from soluna_tui.screens import review as review_module

    judged = threading.Event()
    judge = review_module.review_round

    def slow_judge(*args, **kwargs):
        judged.wait(TIMEOUT)
        return judge(*args, **kwargs)

    monkeypatch.setattr(review_module, "review_round", slow_judge)
    monkeypatch.setattr(review_module, "_review_within", lambda played, positions: None)  # too many to judge at once
    app = make_app(tmp_path, hot_seat(seed=3))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        while not isinstance(app.screen, ReviewScreen):
            await play_by_keys(pilot, app, game(app).match.position.legal_moves[0])
            await pilot.pause()
        match = game(app).match
        played, names = match.round, match.players
        text = screen_text(app)
        assert "Reviewing the round" in text and "loss in" not in text and "win in" not in text
        for ply, move in enumerate(played.moves):
            assert re.search(rf"{ply + 1}\. {names[played.mover_at(ply)]} +{re.escape(str(move))}", text), text
        judged.set()
        await wait(pilot, app)
        assert f"{played.ply}. {names[played.mover_at(played.ply - 1)]}" in screen_text(app)
        assert "win in 1" in screen_text(app)  # the last move won


async def test_a_round_of_twelve_discs_is_reviewed_as_its_review_opens(tmp_path, monkeypatch) -> None:
    """Judged on the event loop within 2,000 new positions (at most about 1,700 on twelve discs): the review's first
    frame has its verdicts, and no worker is started (the review is not laid out again as the verdicts come)."""
    from soluna_tui.screens import review as review_module

    searches: list[str] = []
    solve = review_module.solve_in_worker
    monkeypatch.setattr(review_module, "solve_in_worker", lambda node, *a, **k: searches.append("review") or solve(
        node, *a, **k))
    app = make_app(tmp_path, hot_seat(seed=3))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        while not isinstance(app.screen, ReviewScreen):
            await play_by_keys(pilot, app, game(app).match.position.legal_moves[0])
        text = screen_text(app)
        assert "Reviewing the round" not in text and "win in 1" in text, text
        assert app.screen.review is not None and searches == []


async def test_a_round_ending_while_the_solver_is_busy_is_reviewed_by_a_worker_without_holding_the_app(
        tmp_path) -> None:
    """Found by review: a hint's search (a worker) can hold the solver for seconds as the round ends; the review
    does not wait for it on the event loop (in a house, every session's loop), it shows the moves and leaves the
    verdicts to its worker, which has them once the search is done."""
    from soluna_tui.rules.solver import real_solver

    solver = real_solver(shared_solver)
    holding, done = threading.Event(), threading.Event()

    def long_search() -> None:
        with solver.unless_busy():
            holding.set()
            done.wait(TIMEOUT)

    app = make_app(tmp_path, hot_seat(seed=3))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        while not game(app).match.position.after(game(app).match.position.legal_moves[0]).is_blocked:
            await play_by_keys(pilot, app, game(app).match.position.legal_moves[0])
            await pilot.pause()
        search = threading.Thread(target=long_search)
        search.start()
        try:
            assert holding.wait(TIMEOUT)
            started = time.perf_counter()
            await play_by_keys(pilot, app, game(app).match.position.legal_moves[0])
            await wait_for(pilot, app, lambda: isinstance(app.screen, ReviewScreen), "the review")
            assert time.perf_counter() - started < TIMEOUT / 2
            assert "Reviewing the round" in screen_text(app) and app.screen.review is None
        finally:
            done.set()
            search.join(TIMEOUT)
        await wait_for(pilot, app, lambda: app.screen.review is not None, "the verdicts")
        assert "win in 1" in screen_text(app)


async def test_a_puzzle_solved_then_one_failed(tmp_path) -> None:
    app = make_app(tmp_path, puzzle=(7, "any", 12))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait(pilot, app)
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        puzzle = make_puzzle(7)
        assert screen.puzzle == puzzle
        assert "Find the only move" in screen_text(app) and f"It wins in {puzzle.plies} plies" in screen_text(app)
        await play_by_keys_on(pilot, screen, puzzle.position, puzzle.solution)
        assert "Solved!" in screen_text(app)
        stats = StatsStore(tmp_path).load().puzzles
        assert (stats.solved, stats.streak) == (1, 1)
        await pilot.press("n")
        await wait(pilot, app)
        puzzle = make_puzzle(8)
        wrong = next(move for move in puzzle.position.legal_moves if move != puzzle.solution)
        await play_by_keys_on(pilot, screen, puzzle.position, wrong)
        await wait(pilot, app)
        text = screen_text(app)
        assert f"{wrong} does not win" in text and "Perfect play goes on:" in text
        stats = StatsStore(tmp_path).load().puzzles
        assert (stats.solved, stats.failed, stats.streak, stats.best_streak) == (1, 1, 0, 1)
        await pilot.press("r")  # try again: a second answer does not count
        await play_by_keys_on(pilot, screen, puzzle.position, puzzle.solution)
        assert "Solved!" in screen_text(app)
        assert StatsStore(tmp_path).load().puzzles.solved == 1


async def play_by_keys_on(pilot, screen, position: Position, move) -> None:
    from soluna_tui.widgets.board import JUMP_KEYS

    mover = position.towers.index(move.mover)
    target = next(slot for slot, tower in enumerate(position.towers) if tower == move.target and slot != mover)
    await pilot.press(JUMP_KEYS[mover], "enter", JUMP_KEYS[target], "enter")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def play_to_the_match_over(pilot, app, seed: int):
    """A one-star match against the computer played out by keys, random moves for the player, up to the
    match-over dialog (the round's review skipped); the game screen."""
    rng = random.Random(seed)
    screen = game(app)
    for _ in range(20):
        if await skip_review(pilot, app):
            continue
        await settle(pilot, app)
        if isinstance(app.screen, MatchOverScreen):
            break
        if screen.table.seat(screen.match.to_move) == "human" and not screen.match.round.is_over:
            moves = screen.match.position.legal_moves
            await play_by_keys(pilot, app, moves[rng.randrange(len(moves))])
    assert isinstance(app.screen, MatchOverScreen)
    return screen


async def test_stats_are_updated_after_a_match(tmp_path) -> None:
    setup = MatchSetup.against_computer("random", MatchOptions(stars_to_win=1, discs=6), seed=5)
    app = make_app(tmp_path, setup)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await play_to_the_match_over(pilot, app, seed=5)
        assert "of moves kept the best outcome" in screen_text(app)
        document = json.loads((tmp_path / "stats.json").read_text())
        assert len(document["matches"]) == 1
        record = document["matches"][0]
        assert record["mode"] == "computer" and record["level"] == "random"
        assert record["winner"] == screen.match.winner and record["accuracy"][0] is not None
        await pilot.press("escape")  # back to the board
        await pilot.pause()
        app.action_stats()
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        text = screen_text(app)
        assert "vs level 1 (random)" in text and "Accuracy, latest matches" in text


async def test_drawing_asks_the_solver_nothing_and_saves_nothing(tmp_path) -> None:
    """Redrawing only draws: questions to the solver and hint counts come from the handlers."""
    async with at_a_won_position(tmp_path, seed=2) as (app, pilot, screen, position, analysis):
        await pilot.press("A")
        await wait(pilot, app)
        assert screen.teaching.analysis_of(position) == analysis and screen.table.hints_used == [1, 0]
        fresh = next(candidate for candidate in (drop(8, random.Random(seed)) for seed in range(100, 200))
                     if candidate != position and screen.teaching.analysis_of(candidate) is None)
        save = screen.table.store.current_path
        saved = save.read_bytes()
        set_position(screen, fresh)  # redraws, with analysis on, a position nobody asked about
        screen.redraw()
        await pilot.pause()
        assert not [worker for worker in app.workers if worker.group == "oracle"]
        assert screen.teaching.analysis_of(fresh) is None and save.read_bytes() == saved
        assert "Analysis: solving..." in screen_text(app)
        screen.after_change()  # what a handler does after a change: ask for what is shown
        await wait(pilot, app)
        assert screen.teaching.analysis_of(fresh) == shared_solver.analyse(fresh)
        assert "Analysis: solving..." not in screen_text(app)


@pytest.mark.parametrize("hints", [True, False])
async def test_the_match_over_counts_hints_only_where_they_were_offered(tmp_path, hints: bool) -> None:
    """With hints off, "0 hints used" says nothing a player could have done otherwise."""
    setup = replace(MatchSetup.against_computer("random", MatchOptions(stars_to_win=1, discs=6), seed=5), hints=hints)
    app = make_app(tmp_path, setup)
    async with app.run_test(size=(100, 30)) as pilot:
        await play_to_the_match_over(pilot, app, seed=5)
        summary = app.screen.summary()
        assert ("0 hints used" in summary) is hints
        assert "of moves kept the best outcome" in summary
