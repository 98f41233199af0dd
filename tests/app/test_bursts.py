"""Keys that arrive together are played in order: the same result as typing them slowly."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import pytest
from textual import events
from textual.widgets import Static

from soluna_tui.rules import Move
from soluna_tui.screens.puzzle import PuzzleScreen
from soluna_tui.terminal.key_order import CHECK_SECONDS, GIVE_UP_SECONDS
from soluna_tui.widgets.board import JUMP_KEYS
from soluna_tui.widgets.history import History

from .burst import burst, key_event
from .helpers import game, hot_seat, make_app, screen_text, set_position


async def test_a_digit_then_enter_picks_up_that_tower(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        sixth = screen.match.position.towers[5]
        await burst(pilot, "6", "enter")
        assert screen.picking.picked_slot == 5 and screen.board.cursor == 5
        assert screen.board.tower_widgets[5].look.picked
        assert f"put {sixth} on a lit tower" in screen_text(app)


async def test_steps_then_enter_pick_up_the_tower_reached(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        await burst(pilot, "l", "l", "enter")
        assert screen.picking.picked_slot == 2
        await burst(pilot, "escape", "right", "right", "right", "h", "space")
        assert screen.picking.picked_slot == 4


async def test_a_whole_move_in_one_burst(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        start = screen.match.position
        move = Move(start.towers[4], start.towers[5])  # 1M>1M
        await burst(pilot, "5", "enter", "6", "enter")
        assert screen.match.round.moves == (move,)
        assert screen.board.cursor == 5  # on the new 2M, in the target's place
        text = screen_text(app)
        assert f"1. Ann       {move}" in text and "Bob to move" in text
        # Bob answers (the towers kept their keys: 2 and 3 are still suns), then picks up tower 4, all at once.
        answer = Move.parse("1S>1S")
        await burst(pilot, "2", "enter", "3", "enter", "4", "enter")
        assert screen.match.round.moves == (move, answer) and screen.picking.picked_slot == 3


@pytest.mark.parametrize("keys", [
    ("6", "enter", "escape", "l", "l", "enter", "right", "enter"),
    ("end", "enter", "1", "enter", "down", "enter"),
    ("tab", "up", "escape", "3", "enter", "4", "enter"),
    ("2", "enter", "2", "enter", "j", "k", "enter", "b", "enter"),
])
async def test_a_burst_ends_where_slow_typing_does(tmp_path, keys) -> None:
    """The same keys, typed one at a time and all at once, leave the same match on the screen."""
    results = []
    for fast in (False, True):
        app = make_app(tmp_path / str(fast), hot_seat(seed=1))
        async with app.run_test(size=(100, 30)) as pilot:
            screen = game(app)
            screen.table.match.play(Move.parse("1S>1S"))  # towers of two heights, so some moves are refused
            screen.redraw(cursor=0)
            await pilot.pause()
            if fast:
                await burst(pilot, *keys)
            else:
                for key in keys:
                    await pilot.press(key)
            results.append((screen.match.round.moves, screen.picking.picked_slot, screen.board.cursor,
                            screen.browsing.viewing, screen_text(app).splitlines()[-4:]))
    assert results[0] == results[1]


async def test_leaving_the_history_then_picking_in_one_burst(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        await burst(pilot, "1", "enter", "2", "enter")
        await burst(pilot, "tab", "up")
        assert isinstance(app.focused, History) and screen.browsing.viewing is not None
        await burst(pilot, "escape", "3", "enter")
        assert screen.browsing.viewing is None and screen.picking.picked_slot == 2
        assert "read-only" not in screen_text(app)


@pytest.mark.parametrize("review", [False, True])
async def test_enter_enter_ends_the_round_and_answers_its_dialogs(tmp_path, review) -> None:
    app = make_app(tmp_path, replace(hot_seat(seed=1), review=review))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        set_position(screen, "1S 1S 1M")
        await pilot.pause()
        # 1S>1S wins the round; Enter (twice with the review) starts the next one, Ann (the loser
        # in box rules) choosing to open it, the first choice.
        keys = ["1", "enter", "2", "enter", "enter"] + (["enter"] if review else [])
        await burst(pilot, *keys)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is screen
        assert screen.match.round_number == 2 and screen.match.round.ply == 0
        assert screen.match.stars == (1, 0)
        assert "Round 2" in screen_text(app)


async def test_a_puzzle_answered_in_one_burst(tmp_path) -> None:
    app = make_app(tmp_path, puzzle=(5, "easy", 8))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        for _ in range(100):
            if screen.puzzle is not None:
                break
            await pilot.pause(0.05)
        puzzle = screen.puzzle
        position = puzzle.position
        mover = position.towers.index(puzzle.solution.mover)
        target = next(slot for slot, tower in enumerate(position.towers)
                      if tower == puzzle.solution.target and slot != mover)
        await burst(pilot, JUMP_KEYS[mover], "enter", JUMP_KEYS[target], "enter")
        assert screen.answered == puzzle.solution and screen.solved
        assert "Solved!" in screen_text(app)


async def test_keys_held_up_behind_a_busy_widget_wait_for_it(tmp_path) -> None:
    """A stall longer than a check (two and a half, in the tower's queue) sends no key to the wrong widget."""
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        app.focused.call_later(asyncio.sleep, 2.5 * CHECK_SECONDS)  # ':' queues behind this
        await burst(pilot, ":", *"5>6", "enter")
        assert screen.match.round.moves == (Move.parse("1M>1M"),)


class KeyDropper(Static, can_focus=True):
    """A widget that drops the keys sent to it, as one already closing does: they never come back."""

    def check_message_enabled(self, message) -> bool:
        return not isinstance(message, events.Key) and super().check_message_enabled(message)


async def test_a_key_whose_widget_went_away_holds_up_no_other(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        dropper = KeyDropper("x")
        await screen.mount(dropper)
        dropper.focus()
        await pilot.pause()
        for key in ("x", "3"):
            app.post_message(key_event(key))
        await pilot.pause(3 * CHECK_SECONDS)
        assert app.input_pending  # the 'x' is not back, and its widget is still there: '3' waits
        await dropper.remove()
        removed = time.monotonic()
        while app.input_pending and time.monotonic() - removed < GIVE_UP_SECONDS:
            await asyncio.sleep(0.05)
        # Let go once its widget is gone, not when it is GIVE_UP_SECONDS overdue (3.5 s after this).
        assert time.monotonic() - removed < GIVE_UP_SECONDS - 3 * CHECK_SECONDS - 0.5
        screen.board.put_cursor(0)
        screen.board.focus()
        await burst(pilot, "3")
        assert screen.board.cursor == 2
