"""Small screens (issue 38): a phone's browser or SSH client, a narrow split. From 40x20 up to 80 columns the game,
its dialogs and the lobby lay themselves out for the width (the app's ``-narrow`` class): the towers in as many
columns as fit, the tally above the board, the moves and the talk behind Tab, dialogs that scroll. Below 40x20 the
"too small" notice stays (tests/app/test_saves_and_terminals.py)."""

from __future__ import annotations

import random
from typing import ClassVar

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer
from textual.widget import Widget

from soluna_tui.rules import Move, choose_move
from soluna_tui.screens.confirm import ConfirmScreen
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.help import HelpScreen
from soluna_tui.screens.match_over import MatchOverScreen
from soluna_tui.screens.new_match import NewMatchScreen
from soluna_tui.screens.review import ReviewScreen
from soluna_tui.screens.round_over import RoundOverScreen
from soluna_tui.terminal.sizes import NARROW_CLASS
from soluna_tui.widgets.board import Board
from soluna_tui.widgets.history import History
from soluna_tui.widgets.key_footer import KeyFooter
from soluna_tui.widgets.tally import Tally
from soluna_tui.widgets.tower import TowerWidget

from .helpers import game, hot_seat, make_app, play_by_keys, play_randomly_until, screen_text, settle, wait_for

#: A phone held upright at its smallest, the phone of the issue (a 420 px browser), a narrow split.
SMALL_SIZES = [(40, 20), (46, 35), (60, 20)]
SIZE_IDS = ["40x20", "46x35", "60x20"]


def in_view(widget: Widget) -> bool:
    """Whether the whole of ``widget`` shows: on the screen, and inside every container around it (a dialog that
    scrolls shows only part of what it holds)."""
    region = widget.region
    if not region or not widget.screen.region.contains_region(region):
        return False
    for ancestor in widget.ancestors:
        if isinstance(ancestor, Widget) and ancestor is not widget.screen and ancestor.region:
            if not ancestor.region.contains_region(region):
                return False
            if isinstance(ancestor, ScrollableContainer) and not ancestor.scrollable_content_region.contains_region(
                    region):
                return False
    return True


def towers_in_view(screen) -> bool:
    """Whether every tower the board shows is whole on the screen."""
    return all(in_view(widget) for widget in screen.query(TowerWidget) if widget.display)


async def tab_through(pilot, app, limit: int = 40) -> list[Widget]:
    """Tab through the fields of the screen in front: each in view once it has the focus. The fields met."""
    met: list[Widget] = []
    for _ in range(limit):
        focused = app.screen.focused
        assert focused is not None
        if focused in met:
            return met
        await pilot.pause()
        assert in_view(focused), f"{focused!r} has the focus but does not show whole at {app.size}"
        met.append(focused)
        await pilot.press("tab")
    raise AssertionError("the focus never came back to the first field")


@pytest.mark.parametrize("size", SMALL_SIZES, ids=SIZE_IDS)
async def test_every_tower_shows_whole_and_is_reached_by_its_key_and_by_a_tap(tmp_path, size) -> None:
    app = make_app(tmp_path, hot_seat(seed=4))
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        screen = game(app)
        assert app.has_class(NARROW_CLASS)
        board = screen.query_one(Board)
        places = [widget for widget in screen.query(TowerWidget) if widget.display]
        assert len(places) == 12
        for widget in places:
            assert in_view(widget) and board.region.contains_region(widget.region)
            assert widget.region.height >= 4 and widget.region.width >= 5  # a tower, its lift and its label
        # Above the board, both players and their stars; under it, whose move it is; the help's key in the footer.
        tally = screen.query_one(Tally)
        assert in_view(tally) and tally.region.bottom <= board.region.y
        text = screen_text(app)
        assert "▶ Ann" in text and "Bob" in text and text.count("0/4") == 2
        assert "Ann to move" in text
        assert "Help" in [entry.entry.description for entry in screen.query_one(KeyFooter).placed]
        assert board.columns <= 6 if size[0] < 50 else True  # a phone's 46 columns: towers in 4 columns of 3
        for slot in range(12):
            await pilot.press("123456789" "0bc"[slot])
            assert board.cursor == slot
        for slot in range(12):
            await pilot.click(f"#tower-{slot}")
            assert screen.picking.picked_slot == slot, f"a tap on tower {slot + 1} picked {screen.picking.picked_slot}"
            await pilot.press("escape")
        start = screen.match.position
        await pilot.click("#tower-0")
        await pilot.click("#tower-1")
        assert screen.match.round.moves == (Move(start.towers[0], start.towers[1]),)


async def test_a_phone_s_tall_board_spreads_the_towers_over_its_height(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=4))
    async with app.run_test(size=(46, 35)) as pilot:
        await settle(pilot, app)
        board = game(app).query_one(Board)
        assert (board.columns, board.plan.rows if board.plan else 0) == (4, 3)  # not 6 of 2 under twenty blank lines
    wide = make_app(tmp_path / "wide", hot_seat(seed=4))
    async with wide.run_test(size=(80, 24)) as pilot:
        await settle(pilot, wide)
        board = game(wide).query_one(Board)
        assert not wide.has_class(NARROW_CLASS) and board.columns == 6  # 80x24 keeps its two rows beside the sidebar


@pytest.mark.parametrize("size", SMALL_SIZES, ids=SIZE_IDS)
async def test_tab_shows_the_moves_over_the_board_and_gives_the_board_back(tmp_path, size) -> None:
    app = make_app(tmp_path, hot_seat(seed=4))
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        screen = game(app)
        history = screen.query_one(History)
        assert not history.display or not history.region  # behind Tab: the board has the width
        rng = random.Random(3)
        await play_by_keys(pilot, app, choose_move("random", screen.match.position, rng))
        await settle(pilot, app)
        await pilot.press("tab")
        await settle(pilot, app)
        assert app.screen.focused is history and in_view(history)
        assert "Round 1" in screen_text(app) and "Ann" in screen_text(app)
        assert in_view(screen.query_one(Tally))  # the stars still show
        await pilot.press("up")  # browsing: the board shows the position before the move
        await settle(pilot, app)
        assert screen.browsing.viewing is not None
        await pilot.press("tab")
        await settle(pilot, app)
        assert app.screen.focused is screen.board and not history.region
        assert screen.browsing.viewing is None


async def test_the_narrow_layout_follows_the_width_both_ways_under_a_dialog_too(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=4))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        screen = game(app)
        assert not app.has_class(NARROW_CLASS) and screen.query_one(History).region
        await pilot.press("question_mark")
        await wait_for(pilot, app, lambda: isinstance(app.screen, HelpScreen), "the help")
        await pilot.resize_terminal(46, 35)  # rotated, under the help
        await pilot.press("escape")
        await wait_for(pilot, app, lambda: app.screen is screen, "the game")
        await settle(pilot, app)
        assert app.has_class(NARROW_CLASS) and not screen.query_one(History).region
        assert towers_in_view(screen)
        await pilot.resize_terminal(100, 30)
        await settle(pilot, app)
        assert not app.has_class(NARROW_CLASS) and in_view(screen.query_one(History))


@pytest.mark.parametrize("size", SMALL_SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("computer", [False, True], ids=["two-players", "computer"])
async def test_every_field_of_the_new_match_form_shows_when_it_has_the_focus(tmp_path, size, computer) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, app, lambda: isinstance(app.screen, NewMatchScreen), "the form")
        if computer:
            await pilot.press("left")  # Mode: against the computer (more fields)
            await settle(pilot, app)
        form = app.screen
        met = await tab_through(pilot, app)
        ids = [widget.id for widget in met]
        assert "start" in ids and "cancel" in ids and "seed" in ids and ("level" in ids) == computer
        assert in_view(form.query_one("#new-match"))
        while app.screen.focused is not None and app.screen.focused.id != "start":
            await pilot.press("tab")
        await pilot.press("enter")
        await wait_for(pilot, app, lambda: isinstance(app.screen, GameScreen), "the match")


@pytest.mark.parametrize("size", SMALL_SIZES, ids=SIZE_IDS)
async def test_the_dialogs_of_a_round_and_a_match_fit_and_answer(tmp_path, size) -> None:
    """The round's review, the round-over choice, the match-over summary, the help and a confirmation: each inside
    the screen, its fields in view when they have the focus, its choices working."""
    app = make_app(tmp_path, hot_seat(seed=2, discs=4, stars_to_win=2))
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await wait_for(pilot, app, lambda: isinstance(app.screen, HelpScreen), "the help")
        assert in_view(app.screen.query_one("#help"))
        await pilot.press("escape")
        await pilot.press("R")  # resign: asked first
        await wait_for(pilot, app, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        dialog = app.screen.query_one(".dialog")
        assert in_view(dialog)
        await tab_through(pilot, app)
        await pilot.press("escape")
        await wait_for(pilot, app, lambda: isinstance(app.screen, GameScreen), "the game again")
        await play_randomly_until(pilot, app, random.Random(5), ReviewScreen, RoundOverScreen)
        if isinstance(app.screen, ReviewScreen):
            assert in_view(app.screen.query_one(".dialog"))
            assert "Round 1 review" in screen_text(app)
            await pilot.press("escape")
            await wait_for(pilot, app, lambda: isinstance(app.screen, (RoundOverScreen, GameScreen)), "the choice")
        if isinstance(app.screen, RoundOverScreen):
            assert in_view(app.screen.query_one(".dialog"))
            await tab_through(pilot, app)
            await pilot.press("enter")  # the first choice (who opens round 2)
            await wait_for(pilot, app, lambda: isinstance(app.screen, GameScreen), "round 2")
        rng = random.Random(6)
        for _ in range(10):  # rounds until one player has both stars
            await play_randomly_until(pilot, app, rng, MatchOverScreen, RoundOverScreen)
            if isinstance(app.screen, MatchOverScreen):
                break
            await pilot.press("enter")
            await wait_for(pilot, app, lambda: isinstance(app.screen, GameScreen), "the next round")
        assert in_view(app.screen.query_one(".dialog"))
        text = screen_text(app)
        assert "wins the match" in text and "Rematch" in text and "Quit" in text


async def test_the_stats_and_a_replay_read_whole_on_a_phone(tmp_path) -> None:
    """The stats' table told in two lines a row where its columns do not fit; a replay's text under the board whole."""
    from soluna_tui.screens.replay import ReplayScreen
    from soluna_tui.screens.stats import StatsScreen

    from .helpers import replay_of_the_newest_finished_match

    app = make_app(tmp_path, hot_seat(seed=2, discs=4, stars_to_win=1))
    async with app.run_test(size=(40, 20)) as pilot:
        await play_randomly_until(pilot, app, random.Random(1), MatchOverScreen)
        await pilot.press("escape")
        await pilot.press("ctrl+p", *"Stats")
        await settle(pilot, app)
        await pilot.press("enter")
        await wait_for(pilot, app, lambda: isinstance(app.screen, StatsScreen), "the stats")
        text = screen_text(app)
        assert "two players" in text and "1 played, - won; 1 rounds, - won" in text and "100%" in text
        await pilot.press("escape")
        await wait_for(pilot, app, lambda: isinstance(app.screen, GameScreen), "the game")
        replay = await replay_of_the_newest_finished_match(pilot, app)
        assert isinstance(replay, ReplayScreen)
        await settle(pilot, app)
        text = " ".join(screen_text(app).split())
        assert "in plies from that move)." in text and "Ann won the match 1-0." in text
        assert towers_in_view(replay)


@pytest.mark.parametrize("size", [(40, 20), (100, 30)], ids=["40x20", "100x30"])
async def test_a_tap_on_a_setting_s_left_arrow_goes_back_and_elsewhere_goes_on(tmp_path, size) -> None:
    """On a phone a setting is changed by taps: the left arrow goes back a value (12 discs to 4 took 16 taps forward
    round the values), the rest of the line goes on, whether the value is beside its name or under it."""
    from soluna_tui.widgets.choice import Choice

    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, app, lambda: isinstance(app.screen, NewMatchScreen), "the form")
        for choice_id, line in (("discs", 0), ("rules", 0 if size[0] > 80 else 1)):
            choice = app.screen.query_one(f"#{choice_id}", Choice)
            choice.scroll_visible(animate=False)
            await pilot.pause()
            start = choice.index
            left_arrow = choice.label_width if line == 0 else 2
            await pilot.click(f"#{choice_id}", offset=(left_arrow, line))
            assert choice.index == (start - 1) % len(choice.values)
            await pilot.click(f"#{choice_id}", offset=(left_arrow + 4, line))
            await pilot.click(f"#{choice_id}", offset=(1, 0))  # the name: on to the next, too
            assert choice.index == (start + 1) % len(choice.values)


async def test_a_phone_s_first_frame_draws_the_board_as_it_stays(tmp_path, monkeypatch) -> None:
    """The board's first plan, made before the screen is laid out, guesses a phone's margins: it is drawn once in
    its four columns, not first in one column (a tap then hit empty space) and again a moment later."""
    plans = []
    planned = Board._replan

    def recording(board: Board) -> None:
        planned(board)
        if board.plan is not None and (not plans or plans[-1] != (board.plan.columns, board.plan.rows)):
            plans.append((board.plan.columns, board.plan.rows))

    monkeypatch.setattr(Board, "_replan", recording)
    app = make_app(tmp_path, hot_seat(seed=4))
    async with app.run_test(size=(43, 38)) as pilot:
        await settle(pilot, app)
    assert plans == [(4, 3)]


async def test_a_phones_footer_draws_the_keys_that_do_something_now_before_the_dimmed_ones(tmp_path) -> None:
    """40 columns hold four keys of the game's: after a move, Undo (lit) is drawn instead of Cancel (dimmed, nothing
    in hand); with a tower in hand, Cancel is drawn again. The help's key stays last."""
    app = make_app(tmp_path, hot_seat(seed=4))
    async with app.run_test(size=(40, 20)) as pilot:
        await settle(pilot, app)
        screen = game(app)
        footer = screen.query_one(KeyFooter)

        def drawn() -> list[str]:
            return [placed.entry.description for placed in footer.placed]

        await play_by_keys(pilot, app, choose_move("random", screen.match.position, random.Random(4)))
        await pilot.pause()
        offered = {entry.description: entry.enabled for entry in footer.entries}
        assert offered["Undo"] and not offered["Cancel"], offered
        assert "Undo" in drawn() and "Cancel" not in drawn() and drawn()[-1] == "Help", drawn()
        assert "Undo" in screen_text(app).splitlines()[-1]
        await pilot.press("enter")  # a tower in hand
        await pilot.pause()
        assert "Cancel" in drawn() and drawn()[-1] == "Help", drawn()
        assert drawn() == [entry.description for entry in footer.entries if entry.description in drawn()]  # in order
        assert all(placed.end <= 40 for placed in footer.placed)


class ThreeKeys(App[None]):
    """A footer of three keys too long for 40 columns together, lit as ``lit`` says (the others dimmed), each
    pressed kept in ``pressed``."""

    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [Binding(key, f"press('{key}')", f"{key.title()} rather long key")
                                             for key in ("a", "b", "c")]

    def __init__(self) -> None:
        super().__init__()
        self.lit = {"a", "b"}
        self.pressed: list[str] = []

    def compose(self) -> ComposeResult:
        yield KeyFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return True if action != "press" or parameters[0] in self.lit else None  # None: shown dimmed

    def action_press(self, key: str) -> None:
        self.pressed.append(key)


async def test_a_narrow_footer_that_lights_a_key_it_had_left_out_draws_itself_whole() -> None:
    """The same keys, one lit and another dimmed: in a footer too narrow for all of them, which keys are drawn
    changes, so the whole footer is repainted (repainting only the changed keys' old columns would leave the
    dimmed key on the terminal and never draw the lit one)."""
    app = ThreeKeys()
    async with app.run_test(size=(40, 5)) as pilot:
        footer = app.query_one(KeyFooter)
        await pilot.pause()
        assert [placed.entry.description for placed in footer.placed] == ["A rather long key", "B rather long key"]
        repainted: list[tuple[object, ...]] = []
        repaint = footer.repaint

        def spied(*regions) -> None:
            repainted.append(regions)
            repaint(*regions)

        footer.repaint = spied  # type: ignore[method-assign]
        app.lit = {"a", "c"}
        app.refresh_bindings()
        await pilot.pause()
        assert [placed.entry.description for placed in footer.placed] == ["A rather long key", "C rather long key"]
        assert repainted == [()], repainted


async def test_a_tap_on_a_footer_key_presses_it_but_not_just_after_the_keys_moved_under_it(monkeypatch) -> None:
    """A tap on a lit key presses it; on a dimmed one, nothing. Just after a key lit in a narrow footer moved the
    others (a phone, the server's echo lighting Undo), a tap landing on another key than it would have a moment
    before presses nothing: it may have been aimed at the key that was there. Half a second on, it presses."""
    from soluna_tui.widgets import key_footer

    now = [1000.0]
    monkeypatch.setattr(key_footer, "monotonic", lambda: now[0])
    app = ThreeKeys()
    pressed = app.pressed
    async with app.run_test(size=(40, 5)) as pilot:
        footer = app.query_one(KeyFooter)
        await pilot.pause()
        second = footer.placed[1]
        assert second.entry.description == "B rather long key"
        await pilot.click(KeyFooter, offset=(second.start + 2, 0))
        await pilot.pause()
        assert pressed == ["b"]
        app.lit = {"a", "c"}  # b dims: c takes its place
        app.refresh_bindings()
        await pilot.pause()
        assert footer.placed[1].entry.description == "C rather long key" and footer.placed[1].start == second.start
        now[0] += 0.2
        await pilot.click(KeyFooter, offset=(second.start + 2, 0))
        await pilot.pause()
        assert pressed == ["b"]  # aimed at b, a moment ago: nothing
        now[0] += key_footer.TAP_SETTLE
        await pilot.click(KeyFooter, offset=(second.start + 2, 0))
        await pilot.pause()
        assert pressed == ["b", "c"]
        app.lit = {"c"}  # a dims, drawn still (both fit only with it): a tap on it presses nothing
        app.refresh_bindings()
        await pilot.pause()
        now[0] += key_footer.TAP_SETTLE
        dimmed = next(each for each in footer.placed if not each.entry.enabled)
        await pilot.click(KeyFooter, offset=(dimmed.start + 1, 0))
        await pilot.pause()
        assert pressed == ["b", "c"]
