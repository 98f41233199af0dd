"""Playing on the board with the keyboard: focus, pick, targets, refusal, a move."""

from __future__ import annotations

import pytest

from soluna_tui.rules import Move, Position
from soluna_tui.widgets.board import Board
from soluna_tui.widgets.tower import TowerWidget

from .helpers import game, hot_seat, make_app, screen_text, set_position


def focused_slot(app) -> int | None:
    return app.game.board.focused_slot


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
        assert screen.picked_slot == 0
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
        assert screen.picked_slot is None
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
        # Reach a position with towers of different heights and symbols.
        screen.table.match.play(Move.parse("1S>1S"))
        screen.refresh_view(focus_slot=0)
        await pilot.pause()
        position = screen.match.position
        assert position.towers[0] == Position.parse("2S").towers[0]
        target = next(slot for slot, tower in enumerate(position.towers)
                      if tower.height != 2 and tower.symbol.letter != "S")
        await pilot.press("enter")
        screen.board.focus_slot(target)
        await pilot.press("enter")
        assert screen.picked_slot == 0
        assert screen.match.round.ply == 1
        text = screen_text(app)
        assert "Not there:" in text and "the heights differ" in text


async def test_a_tower_without_targets_cannot_be_picked(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat())
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        set_position(screen, "4S 2M 1M 1C")
        await pilot.press("enter")
        assert screen.picked_slot is None
        assert "4S cannot go anywhere" in screen_text(app)


async def test_clicks_pick_and_place(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        start = screen.match.position
        await pilot.pause()  # the board has taken its size and laid the towers out
        await pilot.click("#tower-0")
        assert screen.picked_slot == 0
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
        assert game(app).board.columns == 7
        text = screen_text(app)
        assert "Soluna" in text and "Moves" in text and "Pick up/place" in text
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

    from .helpers import play_by_keys

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
        assert screen.viewing is not None and screen.viewing.ply == 2
        shown = [widget.look.tower for widget in screen.board.tower_widgets if widget.display]
        assert shown == list(screen.match.round.position_at(2).towers)
        assert "after move 2 (read-only)" in screen_text(app)
        await pilot.press("up", "up")  # the start of the round
        assert screen.viewing.ply == 0
        assert [w.look.tower for w in screen.board.tower_widgets if w.display] == list(screen.match.round.start)
        screen.press(0)  # a click on the board changes nothing while viewing
        assert screen.match.round.ply == 3
        await pilot.press("escape")  # back to play
        assert screen.viewing is None
        assert [w.look.tower for w in screen.board.tower_widgets if w.display] == list(live.towers)
        assert "to move" in screen_text(app)
