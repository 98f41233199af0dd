"""What one key does to the screen: no CSS class or layout change, one frame, only what changed
repainted, drawings shared between the towers, nothing that moves or changes size."""

from __future__ import annotations

import inspect
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

from rich.segment import Segment
from rich.style import Style
from textual.dom import DOMNode
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Tooltip

from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.rules import MatchOptions
from soluna_tui.widgets.cached_lines import changed_cells
from soluna_tui.widgets.history import History
from soluna_tui.widgets.key_footer import KeyFooter
from soluna_tui.widgets.status_line import StatusLine
from soluna_tui.widgets.tally import Tally

from ..fresh import modules_after
from .helpers import game, hot_seat, make_app, settle


@contextmanager
def watching(monkeypatch):
    """Count, while it is open: CSS class changes, layout passes, frames, and the widgets marked
    for repainting (with the regions marked)."""
    seen: Counter[str] = Counter()
    dirty: list[tuple[Widget, tuple]] = []
    set_class, refresh_layout, compositor_refresh = DOMNode.set_class, Screen._refresh_layout, \
        Screen._compositor_refresh
    set_dirty = Widget._set_dirty

    def spy_set_class(node, add, *names, update=True):
        if any(add != node.has_class(name) for name in names):
            seen[f"class {type(node).__name__}"] += 1
        return set_class(node, add, *names, update=update)

    def spy_layout(screen, *args, **kwargs):
        seen["layout"] += 1
        return refresh_layout(screen, *args, **kwargs)

    def spy_frame(screen, *args, **kwargs):
        seen["frame"] += 1
        return compositor_refresh(screen, *args, **kwargs)

    def spy_dirty(widget, *regions):
        dirty.append((widget, regions))
        return set_dirty(widget, *regions)

    monkeypatch.setattr(DOMNode, "set_class", spy_set_class)
    monkeypatch.setattr(Screen, "_refresh_layout", spy_layout)
    monkeypatch.setattr(Screen, "_compositor_refresh", spy_frame)
    monkeypatch.setattr(Widget, "_set_dirty", spy_dirty)
    yield seen, dirty


async def test_keys_change_no_css_class_make_no_layout_and_draw_one_frame(tmp_path, monkeypatch) -> None:
    """Moving between towers, picking up, putting back, a move and taking it back: the towers'
    states are drawn, not styled (no class toggled), the grid never changes shape (no layout
    pass), and each key lands in one frame."""
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("right", "left", "1", "space", "escape")  # every drawing met once
        await pilot.pause()
        for keys in (["right"], ["left"], ["space"], ["space"], ["2"], ["enter"], ["3"], ["enter"], ["u"]):
            with watching(monkeypatch) as (seen, _):
                await pilot.press(*keys)
                await pilot.pause()
            assert not any(name.startswith("class") for name in seen), (keys, seen)
            assert seen["layout"] == 0, (keys, seen)
            assert seen["frame"] <= 1, (keys, seen)
        assert game(app).match.round.ply == 0  # the move was played and taken back


async def test_moving_the_cursor_repaints_two_towers_and_nothing_else(tmp_path, monkeypatch) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("right", "left")
        await pilot.pause()
        with watching(monkeypatch) as (_, dirty):
            await pilot.press("right")
            await pilot.pause()
        repainted = {widget for widget, _ in dirty}
        assert repainted == {game(app).board.tower_widgets[0], game(app).board.tower_widgets[1]}
        # ... and only their caps: the heavy top and bottom of the cursor.
        for _, regions in dirty:
            assert regions and all(region.height < game(app).board.tower_widgets[0].size.height
                                   for region in regions)


async def test_a_move_repaints_the_new_history_line_not_the_list(tmp_path, monkeypatch) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("1", "enter", "2", "enter")  # a first move: the list has two lines
        await pilot.pause()
        history = app.screen.query_one(History)
        with watching(monkeypatch) as (_, dirty):
            await pilot.press("5", "enter", "6", "enter")
            await pilot.pause()
        marked = [regions for widget, regions in dirty if widget is history]
        assert marked and all(regions for regions in marked)  # never the whole list
        assert sum(region.height for regions in marked for region in regions) <= 3
        assert [entry.ply for entry in history.entries] == [0, 1, 2]


async def test_towers_share_their_drawings(tmp_path) -> None:
    """Two towers that look alike are drawn once: the board keeps the drawings, not each tower."""
    app = make_app(tmp_path, hot_seat(seed=1))  # 1S 1S 1S 1S 1M 1M 1M ...
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        second, third = game(app).board.tower_widgets[1:3]
        assert str(second.look.tower) == str(third.look.tower) == "1S" and second.look.label != third.look.label
        fifth, sixth = game(app).board.tower_widgets[4:6]  # two 1M towers
        lines = [y for y in range(fifth.size.height) if "5" not in fifth.render_line(y).text]
        assert len(lines) == fifth.size.height - 1  # all but the line with its key...
        assert all(fifth.render_line(y) is sixth.render_line(y) for y in lines)  # ...drawn once for both


async def test_the_board_s_focus_restyles_nothing_as_no_style_depends_on_it(tmp_path, monkeypatch) -> None:
    """The board skips Textual's restyle on a change of its focus: no ``:focus`` rule may apply to it or
    its places, or that rule would never show. Its cursor still shows and goes with the focus."""
    assert "update_node_styles" in inspect.getsource(Widget.watch_has_focus)  # what the board skips
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for rule in app.stylesheet.rules:
            for selector_set in rule.selector_set:
                last = selector_set.selectors[-1]
                assert not ("focus" in last.pseudo_classes and last.name in ("Board", "TowerWidget", "board")), rule.css
        board = game(app).board
        restyled: list[DOMNode] = []
        update_styles = type(app).update_styles
        monkeypatch.setattr(type(app), "update_styles", lambda self, node, animate=True: (
            restyled.append(node), update_styles(self, node, animate=animate))[1])
        await pilot.press("tab")  # the focus goes to the moves list...
        await pilot.pause()
        assert not board.has_focus and not any(widget.cursor for widget in board.tower_widgets)
        await pilot.press("shift+tab")  # ...and back
        await pilot.pause()
        assert board.has_focus and sum(widget.cursor for widget in board.tower_widgets) == 1
        assert board not in restyled


async def test_the_prompt_and_the_messages_never_move_the_board(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = game(app)

        def layout() -> list:
            return [widget.region for widget in (*screen.board.tower_widgets, screen.query_one(StatusLine),
                                                  screen.query_one(Tally), screen.query_one(KeyFooter))]

        before = layout()
        await pilot.press("colon")
        assert screen.picking.move_prompt.is_open and layout()[:12] == before[:12]
        await pilot.press("escape")
        assert layout() == before
        screen.say("A long message that takes every line the status has, and then some more words to be "
                   "cut short with an ellipsis rather than push the board up, as it used to.", "warning")
        await pilot.pause()
        assert layout() == before
        assert "…" in "\n".join(strip.text for strip in
                                (screen.query_one(StatusLine).render_line(y) for y in range(3)))


async def test_the_tally_keeps_its_size_while_the_computer_thinks(tmp_path) -> None:
    setup = MatchSetup.against_computer("random", MatchOptions(first_opener=1), seed=3)
    app = make_app(tmp_path, setup, computer_pause=1.0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game(app)
        for _ in range(40):  # its turn begins once the first frame is drawn (later on a loaded machine)
            if screen.flow.thinking:
                break
            await pilot.pause(0.025)
        assert screen.flow.thinking
        thinking = screen.query_one(Tally).region
        await settle(pilot, app)
        assert not screen.flow.thinking and screen.query_one(Tally).region == thinking


def test_the_game_starts_without_the_other_screens() -> None:
    """``soluna play`` imports what its first frame needs: no server, export, replay, puzzles, stats, side line,
    palette commands, solver, computer players or teaching (the computer's first move imports those)."""
    loaded = modules_after(
        "import soluna_tui.cli as cli\n"
        "cli.build_parser(every_command=not cli.starts_the_app(['play']))\n"
        "from soluna_tui.app.soluna_app import SolunaApp\n"
        "from soluna_tui.screens.game import GameScreen"
    )
    later = ("soluna_tui.server", "soluna_tui.export", "soluna_tui.screens.replay", "soluna_tui.screens.puzzle",
             "soluna_tui.screens.stats", "soluna_tui.local.player_stats", "soluna_tui.screens.review",
             "soluna_tui.screens.new_match", "soluna_tui.screens.side_line", "soluna_tui.app.palette_commands",
             "soluna_tui.app.other_screens", "textual.widgets._text_area", "soluna_tui.rules.solver",
             "soluna_tui.rules.players", "soluna_tui.rules.swindle", "soluna_tui.rules.teaching")
    assert [name for name in loaded if name.startswith(later)] == []


def stylesheets_read(app) -> set[str]:
    return {Path(path).name for path, _ in app.stylesheet.source if path.endswith(".tcss")}


async def test_the_game_starts_with_its_own_styles_and_the_first_dialog_brings_the_rest(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert stylesheets_read(app) == {"app.tcss", "game.tcss"}
        await pilot.press("question_mark")  # the help, a dialog
        await pilot.pause()
        assert stylesheets_read(app) == {"app.tcss", "game.tcss", "dialogs.tcss", "replay.tcss"}
        assert app.screen.query_one(".dialog").styles.border.top[0] == "round"  # styled as it opened
    ascii_app = make_app(tmp_path / "ascii", hot_seat(seed=1), ascii_mode=True)
    async with ascii_app.run_test(size=(80, 24)) as pilot:  # its own sheet comes after all the others
        await pilot.pause()
        assert stylesheets_read(ascii_app) == {"app.tcss", "game.tcss", "dialogs.tcss", "replay.tcss", "ascii.tcss"}


async def test_the_small_screens_layouts_are_read_the_first_time_the_terminal_is_narrow(tmp_path) -> None:
    """A terminal of 80 columns or more never parses the narrow layouts; narrower, they are read once, and
    stay when the terminal widens and narrows again."""
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "narrow.tcss" not in stylesheets_read(app)
        await pilot.resize_terminal(46, 35)
        await pilot.pause()
        assert "narrow.tcss" in stylesheets_read(app) and app.has_class("-narrow")
        assert game(app).query_one("#tally").styles.border.top[0] == ""  # the tally a line above the board
        sources = len(app.stylesheet.source)
        await pilot.resize_terminal(100, 30)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert len(app.stylesheet.source) == sources and app.has_class("-narrow")


async def test_no_tooltip_covers_the_lines_under_the_board_when_the_mouse_rests_on_a_tower(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=(100, 30), tooltips=True) as pilot:
        await pilot.pause()
        lowest = max(game(app).board.tower_widgets, key=lambda tower: tower.region.y)
        await pilot.hover(lowest)  # as a tap on a phone leaves the mouse: on the tower, never moved off
        await pilot.pause(app.TOOLTIP_DELAY + 0.3)
        assert lowest.tooltip is None
        assert not app.screen.query_one(Tooltip).display


def test_only_the_segments_that_changed_are_repainted() -> None:
    plain, lit = Style(), Style(bold=True)
    line = Strip([Segment("┃ ", plain), Segment("3", plain), Segment(" ┃", plain)])
    assert changed_cells(line, Strip(list(line))) is None
    assert changed_cells(line, Strip([Segment("┃ ", plain), Segment("3", lit), Segment(" ┃", plain)])) == (2, 3)
    assert changed_cells(line, Strip([Segment("┃ 3 ┃", lit)])) == (0, 5)
    assert changed_cells(line, Strip([Segment("┃ ", plain), Segment("3 ┃", lit)])) == (2, 5)
    assert changed_cells(line, Strip([Segment("┃ ", plain), Segment("3", plain), Segment("▸┃", plain)])) == (3, 4)
    assert changed_cells(Strip([Segment("  3  ", plain)]), Strip([Segment(" ▸3◂ ", plain)])) == (1, 4)


async def test_the_next_field_of_a_dialog_repaints_two_fields_not_the_screen(tmp_path, monkeypatch) -> None:
    """Down in the new-match dialog: the field left and the field entered draw their own focus look
    (no ``:focus`` rule, no restyle), and nothing else is repainted (the screen's focus does not
    repaint it). Before, it wrote the whole screen and then the two lines again: 4.7 KB in two frames."""
    from soluna_tui.screens.new_match import NewMatchScreen
    from soluna_tui.widgets.choice import Choice

    app = make_app(tmp_path, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)
        for rule in app.stylesheet.rules:
            for selector_set in rule.selector_set:
                last = selector_set.selectors[-1]
                assert not ("focus" in last.pseudo_classes and last.name == "Choice"), rule.css
        stars, discs = app.screen.query_one("#stars", Choice), app.screen.query_one("#discs", Choice)
        stars.focus()
        await pilot.pause()
        unfocused_look = discs.render_line(0)
        restyled: list[DOMNode] = []
        update_styles = type(app).update_styles
        monkeypatch.setattr(type(app), "update_styles", lambda self, node, animate=True: (
            restyled.append(node), update_styles(self, node, animate=animate))[1])
        with watching(monkeypatch) as (seen, dirty):
            await pilot.press("down")
            await pilot.pause()
        assert discs.has_focus
        assert {widget for widget, _ in dirty} == {stars, discs}
        assert seen["frame"] == 1 and not restyled
        focused_look = discs.render_line(0)
        assert focused_look.text == unfocused_look.text
        assert focused_look != unfocused_look  # drawn in the focused parts' colours
        left_look = [segment.style for segment in stars.render_line(0)]
        assert left_look == [segment.style for segment in app.screen.query_one("#opener", Choice).render_line(0)]


async def test_a_menu_repaints_the_two_options_its_highlight_moves_between(monkeypatch) -> None:
    """Textual's OptionList repaints all its options on every key; the lobby's menu repaints the
    option left and the option reached, and still shows the highlight where it is."""
    from textual.app import App, ComposeResult
    from textual.widgets.option_list import Option

    from soluna_tui.widgets.menu import Menu

    class MenuApp(App[None]):
        def compose(self) -> ComposeResult:
            yield Menu(*(Option(f"entry {number}") for number in range(7)))

    app = MenuApp()
    async with app.run_test(size=(40, 12)) as pilot:
        menu = app.query_one(Menu)
        menu.focus()
        await pilot.press("down", "down")
        await pilot.pause()
        with watching(monkeypatch) as (_, dirty):
            await pilot.press("down")
            await pilot.pause()
        marked = [region for widget, regions in dirty if widget is menu for region in regions]
        assert sorted(region.y for region in marked) == [2, 3] and all(region.height == 1 for region in marked)
        assert not any(widget is menu and not regions for widget, regions in dirty)  # never the whole menu
        first_styles = [next(iter(menu.render_line(y))).style for y in range(7)]
        styles = [(style.color, style.bgcolor) for style in first_styles]
        drawn_highlighted = [y for y in range(7) if styles.count(styles[y]) == 1]  # the one option unlike the rest
        assert menu.highlighted == 3 and drawn_highlighted == [3]
