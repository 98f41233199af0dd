"""How the board looks: towers that grow with the terminal, marks that never move it, analysis mode
kept with the match, a footer that never overlaps, a solved puzzle showing its move."""

from __future__ import annotations

import pytest

from soluna_tui.rules import Arrangement, Move
from soluna_tui.rules.puzzles import make_puzzle
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.puzzle import PuzzleScreen
from soluna_tui.widgets.board import JUMP_KEYS, ROOM_STEPS
from soluna_tui.widgets.key_footer import KeyFooter
from soluna_tui.widgets.tally import Tally

from .helpers import game, hot_seat, make_app, play_by_keys, screen_text, wait_for


def shown_regions(app) -> list:
    return [widget.region for widget in game(app).board.tower_widgets if widget.display]


async def wait(pilot, app) -> None:
    for _ in range(20):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not app.workers:
            return


@pytest.mark.parametrize(("size", "inside", "disc_lines"), [
    ((80, 24), 3, 1), ((100, 30), 7, 1), ((120, 40), 7, 2), ((160, 50), 15, 3), ((200, 50), 21, 3)])
async def test_towers_grow_with_the_terminal_and_fill_the_board(tmp_path, size, inside, disc_lines) -> None:
    app = make_app(tmp_path, hot_seat())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        board = game(app).board
        assert (board.scale.inside, board.scale.disc_lines) == (inside, disc_lines)
        regions = shown_regions(app)
        assert len(regions) == 12 and all(board.region.contains_region(region) for region in regions)
        assert all(not a.overlaps(b) for i, a in enumerate(regions) for b in regions[i + 1:])
        assert all(region.width >= board.scale.frame_width for region in regions)
        # The places share the whole board out across (a column left over at most each column); down, thin
        # discs share the height out too, and thick ones stand on the bottom in rows as tall as a tower
        # a little taller than the tallest needs.
        assert board.region.width - sum(region.width for region in regions[: board.columns]) < board.columns
        if disc_lines == 1:
            heights = sum(region.height for region in regions[:: board.columns])
            assert board.region.height - heights < 2 * board.plan.rows
        else:
            room = board.scale.lines_for(ROOM_STEPS[0], board.plan.geometry.note_line)
            assert {region.height for region in regions} == {room}
            assert max(region.bottom for region in regions) == board.region.bottom
        await pilot.press("down")  # a row down is still a row down
        assert board.cursor == board.columns


async def test_on_a_large_terminal_rows_grow_with_the_tallest_tower_and_the_last_row_keeps_still(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat())
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        screen = game(app)
        board = screen.board
        first = board.plan.row_height
        bottom_row = [region for region in shown_regions(app)][board.columns:]
        assert first == board.scale.lines_for(ROOM_STEPS[0], board.plan.geometry.note_line)
        # 22 blank lines stood above each row before (issue 30): now above the board, the rows together.
        assert board.plan.rows * first < 0.6 * board.region.height
        for _ in range(3):  # towers onto the tallest: four discs high
            match = screen.match
            move = max(match.position.legal_moves, key=lambda move: move.mover.height + move.target.height)
            screen.table.play(screen.picking_arrangement.resolve(move), match.to_move)
            screen.after_change()
            await pilot.pause()
            tallest = max(tower.height for tower in screen.match.position.towers)
            if tallest < ROOM_STEPS[0]:
                assert board.plan.row_height == first  # room enough: the rows keep still
        assert tallest == ROOM_STEPS[0] == 4
        # As many whole discs as the board's height holds, now.
        assert board.plan.row_height > first and board.plan.geometry.max_discs > ROOM_STEPS[0]
        assert board.plan.row_height > board.region.height // board.plan.rows - board.scale.disc_lines
        assert [region for region in shown_regions(app)][board.columns:][0].bottom == bottom_row[0].bottom


async def test_a_large_board_keeps_the_compact_one_at_80x24_after_a_resize(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat())
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        assert game(app).board.scale.inside == 21
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        board = game(app).board
        assert board.scale.inside == 3 and board.columns == 6
        assert "╰─1S╯" in screen_text(app)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_marks_appear_without_moving_the_board(tmp_path, size) -> None:
    app = make_app(tmp_path, hot_seat(seed=3))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        before = shown_regions(app)
        await pilot.press("A")
        await wait(pilot, app)
        assert all(widget.look.note for widget in game(app).board.tower_widgets if widget.display)
        assert shown_regions(app) == before
        await pilot.press("H", "H")
        await wait(pilot, app)
        assert any(widget.look.note == "move" for widget in game(app).board.tower_widgets)
        assert shown_regions(app) == before


async def test_analysis_mode_is_shown_and_kept_with_the_saved_match(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=3))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("A")
        await wait(pilot, app)
        assert app.screen.query_one(Tally).border_subtitle == "analysis on"
        assert "analysis on" in screen_text(app)
    resumed = make_app(tmp_path)
    async with resumed.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("r")  # resume the saved match
        await wait(pilot, resumed)
        assert isinstance(resumed.screen, GameScreen) and resumed.screen.teaching.analysis_on
        assert "analysis on" in screen_text(resumed)
        await pilot.press("A")
        await pilot.pause()
        assert resumed.screen.query_one(Tally).border_subtitle == ""
    again = make_app(tmp_path)
    async with again.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await wait(pilot, again)
        assert not again.screen.teaching.analysis_on


@pytest.mark.parametrize("ascii_mode", [True, False])
async def test_the_footer_never_overlaps(tmp_path, ascii_mode) -> None:
    app = make_app(tmp_path, hot_seat(), ascii_mode=ascii_mode)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_by_keys(pilot, app, game(app).match.position.legal_moves[0])  # Undo joins the keys
        await pilot.pause()
        footer = app.screen.query_one(KeyFooter)
        keys = footer.placed
        assert all(0 <= key.start < key.end <= footer.region.width for key in keys)
        assert all(a.end <= b.start for a, b in zip(keys, keys[1:], strict=False))
        last_line = screen_text(app).splitlines()[-1]
        assert "q Quit" in last_line and "u Undo" in last_line
        await pilot.resize_terminal(160, 24)  # room again: the roomy look and the palette key come back
        await wait_for(pilot, app, lambda: not footer.compact and footer.show_command_palette
                       and "^p palette" in screen_text(app).splitlines()[-1], "the roomy footer at 160 columns")


async def test_a_solved_puzzle_shows_the_table_after_its_move(tmp_path) -> None:
    app = make_app(tmp_path, puzzle=(5, "any", 12))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait(pilot, app)
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        puzzle = make_puzzle(5)
        solution: Move = puzzle.solution
        table = Arrangement.opening(puzzle.position)
        placed = table.resolve(solution)
        await pilot.press(JUMP_KEYS[placed.mover_slot], "enter", JUMP_KEYS[placed.target_slot], "enter")
        await wait(pilot, app)
        shown = [widget.look for widget in screen.board.tower_widgets if widget.display]
        # The table after the move: the mover's place empty, the new tower in the target's place.
        assert [look.tower for look in shown] == list(table.after(placed).places)
        assert {slot for slot, look in enumerate(shown) if look.last} == {placed.mover_slot, placed.target_slot}
        assert f"Solved: {solution} wins!" in screen_text(app)


async def test_a_tower_kept_drawing_is_never_shown_stale(tmp_path) -> None:
    """Towers keep their recent drawings (a keystroke redraws from them): picking up and putting
    back, moving on and back, and a new theme each show the tower as it is now."""
    app = make_app(tmp_path, hot_seat())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        tower = game(app).board.tower_widgets[0]

        def drawing() -> list[str]:
            return [tower.render_line(y).text for y in range(tower.size.height)]

        def colours() -> set:
            return {segment.style for y in range(tower.size.height) for segment in tower.render_line(y)}

        plain = drawing()
        await pilot.press("1", "space")  # picked up: a doubled frame, lifted a line
        picked = drawing()
        assert picked != plain and any("╔" in line for line in picked)
        await pilot.press("escape")  # put back: drawn as before, from the kept drawing
        await pilot.pause()
        assert drawing() == plain
        await pilot.press("right")
        await pilot.pause()
        assert drawing() != plain  # no longer in focus: a plain frame
        await pilot.press("left")
        await pilot.pause()
        assert drawing() == plain
        dark = colours()
        app.theme = "textual-light"
        await pilot.pause()
        assert colours() != dark and drawing() == plain


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_notice_never_covers_the_status_line(tmp_path, size) -> None:
    """A toast (a notice over the game: the stats file, the computer's pause, news over SSH) stands in the
    sidebar's columns, never over the lines under the board."""
    from soluna_tui.widgets.status_line import StatusLine

    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=size, notifications=True) as pilot:
        screen = game(app)
        status = screen.query_one(StatusLine)
        app.notify("The computer now waits 1.5 seconds before its move lands, so you can follow it. " * 2)
        await wait_for(pilot, app, lambda: bool(app.screen.query("Toast")), "the notice")
        await pilot.pause()
        toast = app.screen.query_one("Toast")
        assert toast.region.x >= status.region.right, (toast.region, status.region)
        assert "Ann to move: pick a tower up" in screen_text(app)


async def test_the_analysis_line_is_whole_at_80x24_and_names_marks_on_the_board(tmp_path) -> None:
    """The legend explains the marks by ones under the towers shown (``W11``, ``L10`` here), not by
    ``W3`` and ``L5`` that are nowhere on the board, and reads whole under it at 80x24."""
    import re

    from soluna_tui.widgets.status_line import StatusLine

    app = make_app(tmp_path, hot_seat(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game(app)
        await pilot.press("A")
        await wait_for(pilot, app, lambda: "Under each tower" in screen.query_one(StatusLine).text, "the analysis")
        await pilot.pause()
        said, text = screen.query_one(StatusLine).text, screen_text(app)
        board = "\n".join(line[:50] for line in text.splitlines()[:19])
        named = re.findall(r"\b([WL]\d+) (?:wins|loses) in", said)
        assert named and all(re.search(rf"\b{mark}\b", board) for mark in named), (said, board)
        assert "…" not in text and " ".join(said.split()[-4:]) in " ".join(text.split())


async def test_the_tally_s_height_is_worked_out_for_the_width_the_layout_asks_about(tmp_path) -> None:
    """Asked its height while the screen is laid out, the panel answers for the width it is asked about (its own
    size is not known yet then: reading it laid the screen out again inside the layout)."""
    app = make_app(tmp_path, hot_seat())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait(pilot, app)
        tally = app.screen.query_one(Tally)
        lines = screen_text(app).splitlines()
        assert any("12 discs, two players" in line for line in lines)  # one line at the panel's width
        whole = tally.get_content_height(app.size, app.size, 40)
        # Narrower than "12 discs, two players": that line breaks after its comma, one line more.
        assert tally.get_content_height(app.size, app.size, 15) == whole + 1
