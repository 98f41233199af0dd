"""Playing on the board with the keyboard: the cursor, pick, targets, refusal, a move; the board keeps still."""

from __future__ import annotations

import pytest

from soluna_tui.rules import Move, Position, arrange
from soluna_tui.widgets.board import Board
from soluna_tui.widgets.tower import TowerWidget

from .helpers import game, hot_seat, make_app, play_by_keys, screen_text, set_position


def focused_slot(app) -> int | None:
    """The place the board's cursor is on (the board keeps the focus; towers are not focusable)."""
    return app.game.board.cursor


def shown_places(app) -> list:
    return [widget.look.tower for widget in game(app).board.tower_widgets if widget.display]


@pytest.mark.parametrize(("right", "left", "down", "up"), [
    ("right", "left", "down", "up"), ("l", "h", "j", "k"), ("d", "a", "s", "w")])
async def test_focus_moves_with_every_key_set(tmp_path, right, left, down, up) -> None:
    app = make_app(tmp_path, hot_seat())
    async with app.run_test(size=(100, 30)) as pilot:
        columns = game(app).board.columns
        assert focused_slot(app) == 0
        await pilot.press(right)
        assert focused_slot(app) == 1
        await pilot.press(left, left)
        assert focused_slot(app) == 11  # wraps to the last tower
        await pilot.press(right)
        assert focused_slot(app) == 0
        await pilot.press(down)
        assert focused_slot(app) == columns
        await pilot.press(up)
        assert focused_slot(app) == 0
        await pilot.press(up)  # wraps to the last row, same column
        assert focused_slot(app) == columns


async def test_digits_and_letters_jump_to_towers(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("5")
        assert focused_slot(app) == 4
        await pilot.press("0")
        assert focused_slot(app) == 9
        await pilot.press("c")
        assert focused_slot(app) == 11
        await pilot.press("end", "home")
        assert focused_slot(app) == 0


async def test_pick_lights_targets_and_a_legal_move_is_played(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        start = screen.match.position
        await pilot.press("enter")
        assert screen.picking.picked_slot == 0
        widgets = screen.board.tower_widgets
        picked = start.towers[0]
        for slot, tower in enumerate(start.towers):
            look = widgets[slot].look
            if slot == 0:
                assert look.picked
            else:
                legal = start.why_illegal(Move(picked, tower)) is None
                assert look.target == legal and look.dimmed == (not legal)
        targets = sum(widget.look.target for widget in widgets)
        assert screen_text(app).count("▸") == targets > 0  # each lit target is marked on screen
        assert "put 1S on a lit tower" in screen_text(app)
        await pilot.press("escape")
        assert screen.picking.picked_slot is None
        assert not any(widget.look.dimmed for widget in widgets)
        await pilot.press("space", "right", "space")
        move = Move(start.towers[0], start.towers[1])
        assert screen.match.round.moves == (move,)
        assert screen.match.position == start.play(move)
        text = screen_text(app)
        assert f"1. Ann       {move}" in text
        assert "Bob to move" in text


async def test_an_illegal_target_says_why_and_keeps_the_selection(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        # Reach a position with towers of different heights and symbols: the first sun goes onto the
        # second, whose place (key 2) holds the new 2S; place 1 is empty.
        screen.table.match.play(Move.parse("1S>1S"))
        screen.redraw(cursor=1)
        await pilot.pause()
        table = screen.picking_arrangement
        assert table[0] is None and table[1] == Position.parse("2S").towers[0]
        target = next(slot for slot, tower in enumerate(table)
                      if tower is not None and tower.height != 2 and tower.symbol.letter != "S")
        await pilot.press("enter")
        screen.board.put_cursor(target)
        await pilot.press("enter")
        assert screen.picking.picked_slot == 1
        assert screen.match.round.ply == 1
        text = screen_text(app)
        assert "Not there:" in text and "the heights differ" in text


async def test_a_tower_without_targets_cannot_be_picked(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat())
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        set_position(screen, "4S 2M 1M 1C")
        await pilot.press("enter")
        assert screen.picking.picked_slot is None
        assert "4S cannot go anywhere" in screen_text(app)


async def test_clicks_pick_and_place(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        start = screen.match.position
        await pilot.pause()  # the board has taken its size and laid the towers out
        await pilot.click("#tower-0")
        assert screen.picking.picked_slot == 0
        await pilot.click("#tower-1")
        assert screen.match.round.moves == (Move(start.towers[0], start.towers[1]),)


def assert_towers_fit(app, count: int) -> None:
    board = app.screen.query_one(Board)
    widgets = [widget for widget in app.screen.query(TowerWidget) if widget.display]
    assert len(widgets) == count
    for widget in widgets:
        assert widget.region.width >= 5 and widget.region.height >= 4
        assert board.region.contains_region(widget.region)
    regions = [widget.region for widget in widgets]
    assert all(not a.overlaps(b) for i, a in enumerate(regions) for b in regions[i + 1:])


async def test_towers_reflow_and_nothing_is_cut_at_80x24(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(discs=24))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert_towers_fit(app, 24)
        assert game(app).board.columns == 6  # four even rows of six
        text = screen_text(app)
        assert "Soluna" in text and "Moves" in text and "Pick/place" in text
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert game(app).board.columns == 8  # larger towers, three even rows
        assert game(app).board.scale.inside > 3
        assert_towers_fit(app, 24)


async def test_tall_towers_are_capped_to_fit(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(discs=24))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game(app)
        set_position(screen, "12S 6M 3* 2C 1C")
        await pilot.pause()
        assert_towers_fit(app, 5)
        text = screen_text(app)
        assert "12S" in text and "6M" in text


async def test_browsing_the_history_shows_earlier_positions_read_only(tmp_path) -> None:
    from soluna_tui.widgets.history import History


    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        played = []
        for _ in range(3):
            move = screen.match.position.legal_moves[0]
            played.append(move)
            await play_by_keys(pilot, app, move)
        live = screen.match.position
        await pilot.press("tab")
        assert app.screen.query_one(History).has_focus
        await pilot.press("up")  # after move 2
        assert screen.browsing.viewing is not None and screen.browsing.viewing.ply == 2
        # Every tower in the place it had then: the same places as in play.
        played_round = screen.match.round
        assert shown_places(app) == list(arrange(played_round.start, played_round.moves[:2]).places)
        assert "after move 2 (read-only)" in screen_text(app)
        assert "Move 2: Bob" in screen_text(app)  # the move shown, in words
        await pilot.press("left", "up")  # the start of the round: Left steps back as Up does
        assert screen.browsing.viewing.ply == 0
        await pilot.press("right")  # and Right on, as Down
        assert screen.browsing.viewing.ply == 1
        await pilot.press("left")
        assert shown_places(app) == list(played_round.start)
        screen.picking.press(1)  # a click on the board changes nothing while viewing
        assert screen.match.round.ply == 3
        await pilot.press("escape")  # back to play
        assert screen.browsing.viewing is None
        assert sorted(map(str, filter(None, shown_places(app)))) == sorted(map(str, live.towers))
        assert "to move" in screen_text(app)


async def test_the_board_keeps_still_a_move_empties_the_movers_place(tmp_path) -> None:
    """Each tower keeps its place and its key for the round: after 1S>1S (the second sun onto the
    third), the moved tower's place is empty and every other tower is where it was."""
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = game(app)
        board = screen.board
        before = shown_places(app)
        regions = [widget.region for widget in board.tower_widgets]
        assert [str(tower) for tower in before[:3]] == ["1S", "1S", "1S"]
        await pilot.press("2", "enter", "3", "enter")
        assert screen.match.round.ply == 1
        after = shown_places(app)
        assert after[1] is None and str(after[2]) == "2S"
        assert all(after[slot] == before[slot] for slot in range(len(before)) if slot not in (1, 2))
        # The grid did not move or change shape: no new layout on a move.
        assert [widget.region for widget in board.tower_widgets] == regions
        assert focused_slot(app) == 2  # the cursor on the new tower
        text = screen_text(app)
        assert "Last move: Ann 1S>1S" in text
        # Bob's turn: the keys are the same; 3 is the 2S now, 2 is an empty place.
        await pilot.press("2")
        assert focused_slot(app) == 2 and "Nothing stands at 2 now" in screen_text(app)
        await pilot.press("left")  # the arrows pass over the empty place
        assert focused_slot(app) == 0
        await pilot.press("right")
        assert focused_slot(app) == 2
        # Undo brings the sun back to its own place; redo plays it from and onto the same places.
        await pilot.press("u")
        assert shown_places(app) == before
        assert [widget.region for widget in board.tower_widgets] == regions
        await pilot.press("r")
        assert shown_places(app) == after


async def test_the_board_has_the_focus_and_draws_its_cursor(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = game(app)
        assert screen.focused is screen.board
        assert not any(widget.can_focus for widget in screen.board.tower_widgets)
        await pilot.press("right", "right")
        assert screen.focused is screen.board
        assert [widget.slot for widget in screen.board.tower_widgets if widget.cursor] == [2]
        assert "┍━━━3━━━┑" in screen_text(app)  # the cursor: heavy caps on the tower it is on


async def test_keys_that_do_nothing_now_say_why_in_the_status(tmp_path) -> None:
    """Issue 17: H with hints off, Enter or : while it is not the player's move said nothing at all."""
    from dataclasses import replace

    from soluna_tui.local.match_setup import MatchSetup
    from soluna_tui.rules import MatchOptions
    from soluna_tui.widgets.status_line import StatusLine

    app = make_app(tmp_path, replace(hot_seat(seed=5), hints=False))
    async with app.run_test(size=(80, 24)) as pilot:
        status = game(app).query_one(StatusLine)
        await pilot.press("H")
        await pilot.pause()
        assert status.text == "Hints are off in this match."
    # The computer opens, and takes its time: Enter and : say whose move it is.
    setup = MatchSetup.against_computer("random", MatchOptions(first_opener=1), seed=5)
    app = make_app(tmp_path / "computer", setup, computer_pause=30)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        status = game(app).query_one(StatusLine)
        for key in ("enter", "colon"):
            await pilot.press(key)
            await pilot.pause()
            assert status.text == "Computer is thinking: wait for the move.", key


async def test_y_copies_the_position_shown_in_notation_for_soluna_analyze(tmp_path) -> None:
    """``Y`` (and the palette's "Copy the position"): the live position, or the one shown in the history, to the
    terminal's clipboard and on the status line (a terminal without OSC 52 still gives it), and ``soluna analyze``
    reads it back as the same position."""
    from soluna_tui.widgets.status_line import StatusLine

    from .helpers import help_and_palette, wait_for

    app = make_app(tmp_path, hot_seat(seed=3, discs=8))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game(app)
        start = screen.match.position
        await play_by_keys(pilot, app, start.legal_moves[0])
        await pilot.pause()
        live = screen.match.position
        keys, titles = await help_and_palette(pilot, app)
        assert "Copy the position" in titles and "Y (shift+y) copy the position shown in notation" in keys
        await pilot.press("Y")
        await pilot.pause()
        assert app.clipboard == str(live) and Position.parse(app.clipboard) == live
        status = screen.query_one(StatusLine).text
        assert status == f"Copied, for soluna analyze: {live}" and status in " ".join(screen_text(app).split())
        await pilot.press("tab", "up")  # the history: the layout, before the move
        await wait_for(pilot, app, lambda: screen.browsing.viewing is not None and screen.browsing.viewing.ply == 0,
                       "the layout")
        await pilot.press("Y")
        await pilot.pause()
        assert app.clipboard == str(start) and Position.parse(app.clipboard) == start
