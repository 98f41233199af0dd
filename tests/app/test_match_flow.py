"""A whole match: rounds, the round-over choice, the match-over screen, undo/redo, the computer."""

from __future__ import annotations

import random

import pytest

from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.rules import MatchOptions, choose_move
from soluna_tui.screens.match_over import MatchOverScreen
from soluna_tui.screens.round_over import RoundOverScreen

from .helpers import (
    footer_keys,
    game,
    hot_seat,
    make_app,
    play_by_keys,
    play_randomly_until,
    screen_text,
    settle,
    skip_review,
    wait_for,
)


@pytest.mark.slow
async def test_a_whole_hot_seat_match_to_four_stars_by_keys_only(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=3))
    rng = random.Random(3)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        rounds_seen = 0
        reviews = 0
        for _ in range(200):
            if await skip_review(pilot, app):
                reviews += 1
                continue
            await app.workers.wait_for_complete()
            await pilot.pause()
            if isinstance(app.screen, MatchOverScreen):
                break
            if isinstance(app.screen, RoundOverScreen):
                rounds_seen += 1
                text = screen_text(app)
                assert "wins round" in text and "opens round" in text
                await pilot.press("enter")  # the loser opens the next round
                await pilot.pause()
                continue
            move = choose_move("random", screen.match.position, rng)
            await play_by_keys(pilot, app, move)
            await pilot.pause()
        assert isinstance(app.screen, MatchOverScreen)
        match = screen.match
        assert max(match.stars) == 4 and match.winner is not None
        assert rounds_seen == sum(match.stars) - 1
        assert reviews == sum(match.stars)  # every round reviewed, the last one too
        text = screen_text(app)
        assert f"{match.players[match.winner]} wins the match 4-" in text
        assert all(round_.start == match.rounds[0].start for round_ in match.rounds)  # box rules: same layout
        assert not app.store.current_path.exists()  # a finished match leaves no save
        await pilot.press("enter")  # rematch
        await pilot.pause()
        assert game(app).match is not match and game(app).match.stars == (0, 0)
        assert game(app).match.round.opener == 1 - match.winner
        text = screen_text(app)
        assert app.screen is screen and ("Ann to move" in text or "Bob to move" in text)


async def test_the_loser_chooses_to_move_second(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=5))
    rng = random.Random(5)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        await play_randomly_until(pilot, app, rng, RoundOverScreen)
        loser = screen.match.round.outcome.loser
        assert f"{screen.match.players[loser]} lost the round" in screen_text(app)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert screen.match.round_number == 2
        assert screen.match.round.opener == 1 - loser
        assert screen.match.round.start == screen.match.rounds[0].start


async def test_online_rules_new_layout_and_the_loser_opens(tmp_path) -> None:
    setup = MatchSetup(MatchOptions.preset("online"), ("Ann", "Bob"), None, 8)
    app = make_app(tmp_path, setup)
    rng = random.Random(8)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        await play_randomly_until(pilot, app, rng, RoundOverScreen)
        loser = screen.match.round.outcome.loser
        assert "the loser" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.match.round.opener == loser
        assert screen.match.round.start == screen.match.layout_for(2)


async def test_undo_and_redo_in_hot_seat(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=2))
    rng = random.Random(2)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        first = choose_move("random", screen.match.position, rng)
        await play_by_keys(pilot, app, first)
        second = choose_move("random", screen.match.position, rng)
        await play_by_keys(pilot, app, second)
        assert screen.match.round.moves == (first, second)
        await pilot.press("u")
        assert screen.match.round.moves == (first,)
        assert "Took back" in screen_text(app)
        await pilot.press("u")
        assert screen.match.round.moves == ()
        await pilot.press("r", "r")
        assert screen.match.round.moves == (first, second)
        await pilot.press("r")  # nothing left: refused quietly
        assert screen.match.round.moves == (first, second)


async def test_against_the_computer_with_a_seed(tmp_path) -> None:
    setup = MatchSetup.against_computer("perfect", MatchOptions(), seed=42)
    app = make_app(tmp_path, setup)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        rng = random.Random(1)
        await play_by_keys(pilot, app, choose_move("random", screen.match.position, rng))
        await settle(pilot, app)
        moves = screen.match.round.moves
        assert len(moves) == 2  # our move and the computer's reply
        assert screen.match.to_move == 0
        text = screen_text(app)
        assert f" 2. Computer  {moves[1]}" in text
        assert "level 10 (perfect)" in text
        # The computer's reply is reproducible from the seed.
        again = make_app(tmp_path / "again", setup)
        async with again.run_test(size=(100, 30)) as pilot_again:
            await play_by_keys(pilot_again, again, moves[0])
            await settle(pilot_again, again)
            assert game(again).match.round.moves == moves


async def test_undo_against_the_computer_takes_back_both_moves(tmp_path) -> None:
    setup = MatchSetup.against_computer("greedy", MatchOptions(), seed=9)
    app = make_app(tmp_path, setup)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        rng = random.Random(4)
        await play_by_keys(pilot, app, choose_move("random", screen.match.position, rng))
        await settle(pilot, app)
        assert screen.match.round.ply == 2
        await pilot.press("u")
        await settle(pilot, app)
        assert screen.match.round.ply == 0 and screen.match.to_move == 0
        await pilot.press("r")
        await settle(pilot, app)
        assert screen.match.round.ply == 2 and screen.match.to_move == 0


async def test_input_is_refused_while_the_computer_thinks(tmp_path) -> None:
    setup = MatchSetup.against_computer("perfect", MatchOptions(first_opener=1), seed=11)
    # A long pause, so the keys surely land while it thinks however slowly the machine starts the app.
    app = make_app(tmp_path, setup, computer_pause=5.0, reveal_pause=0.3)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        await wait_for(pilot, app, lambda: screen.flow.thinking and "thinking" in screen_text(app),
                       "the computer thinking")
        await pilot.press("enter", "right", "enter")
        assert screen.flow.thinking, "the keys took longer than the computer's pause of 5 s: the machine is too busy"
        assert screen.picking.picked_slot is None and screen.match.round.ply == 0
        # Dimmed while it thinks (not hidden: the footer keeps its keys from turn to turn).
        shown = footer_keys(app)
        assert shown["Pick/place"] is False and shown["Type"] is False
        for _ in range(200):  # the computer moves once its pause is over: waited for, at most 20 s
            if screen.match.round.ply == 1 and not screen.flow.thinking:
                break
            await pilot.pause(0.1)
        await settle(pilot, app)
        assert screen.match.round.ply == 1 and not screen.flow.thinking
        # The computer's move is marked where it went from (an empty place now) and where it landed,
        # and said in words.
        last = screen.match.round.moves[0]
        marked = [widget.look for widget in screen.board.tower_widgets if widget.look.last]
        assert [look.tower for look in marked if look.tower is not None] == [last.result]
        assert sum(look.tower is None for look in marked) == 1
        assert f"Last move: Computer {last}" in screen_text(app)


async def test_the_footer_keeps_its_keys_while_the_computer_moves(tmp_path) -> None:
    # Rebuilding the footer on every turn cost a remote player more than drawing the move itself.
    setup = MatchSetup.against_computer("greedy", MatchOptions(first_opener=0), seed=5)
    app = make_app(tmp_path, setup, computer_pause=1.0)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        await play_by_keys(pilot, app, screen.match.position.legal_moves[0])
        await settle(pilot, app)  # the computer has answered: Undo is on offer from now on
        keys = list(footer_keys(app))
        assert footer_keys(app)["Pick/place"] is True
        await play_by_keys(pilot, app, screen.match.position.legal_moves[0])
        await pilot.pause()
        assert screen.flow.thinking
        shown = footer_keys(app)
        assert shown["Pick/place"] is False and shown["Cancel"] is False
        await settle(pilot, app)
        assert screen.match.round.ply == 4 and footer_keys(app)["Pick/place"] is True
        assert list(footer_keys(app)) == keys  # the same keys, dimmed and lit again


async def test_a_new_match_from_the_game_with_more_discs(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=2))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        await play_by_keys(pilot, app, screen.match.position.legal_moves[0])
        await pilot.press("n")
        await pilot.pause()
        for _ in range(5):
            await pilot.press("down")
        await pilot.press("right", "right", "right", "right")  # discs 12 -> 16
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")  # yes, abandon the match in progress
        await pilot.pause()
        await pilot.pause()
        assert app.screen is screen
        assert screen.match.options.discs == 16 and screen.match.round.ply == 0
        assert len(screen.match.position) == 16
        assert sum(widget.display for widget in screen.board.tower_widgets) == 16
        assert "16 discs" in screen_text(app)
