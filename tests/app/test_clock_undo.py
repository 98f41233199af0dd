"""The clock cannot be wound up with undo (issue 37): a move taken back takes back the increment it gained, and the
time each player spent thinking stays spent, against the computer and on one terminal; redo gains the increment
again, as the move is played again; a save agrees with the clock it was made from."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.worker import WorkerState

from soluna_tui.app.soluna_app import SolunaApp
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.saves import SavedMatch, SaveStore
from soluna_tui.local.table import LocalTable, UndoTooLateError
from soluna_tui.rules import MatchOptions
from soluna_tui.rules.clock import ClockSetting, MatchClock, clock_turn
from soluna_tui.screens.resume import ResumeScreen
from soluna_tui.widgets.clock_panel import ClockPanel

from .helpers import game, make_app, play_by_keys, screen_text, wait_for

THREE_PLUS_TWO = ClockSetting(180.0, 2.0)
CYCLES = 50


# ---- the clock alone ------------------------------------------------------------------------------------------

times = st.floats(0.0, 50.0, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.floats(60.0, 300.0), st.floats(60.0, 300.0)), st.floats(0.0, 10.0), st.sampled_from([0, 1]),
       times, times, times)
def test_a_move_taken_back_takes_back_its_increment_and_no_time_spent(left, increment, mover, start, thought,
                                                                     waited) -> None:
    setting = ClockSetting(300.0, increment)
    moved_at, undone_at = start + thought, start + thought + waited
    clock = MatchClock(setting, left).run(mover, start)
    moved = clock.after_move(mover, moved_at, 1 - mover)
    undone = moved.after_change(undone_at, mover, taken_back=(mover,))
    # The mover is back where they were when they moved: their thinking stays spent, the increment is gone.
    assert undone.left_at(mover, undone_at) == pytest.approx(left[mover] - thought)
    # The opponent's clock ran until the undo: that time is spent too.
    assert undone.left_at(1 - mover, undone_at) == pytest.approx(left[1 - mover] - waited)
    assert undone.running == mover and undone.since == undone_at
    # Played again, the move gains its increment again (and nothing more).
    again = undone.after_move(mover, undone_at, 1 - mover)
    assert again.left[mover] == pytest.approx(left[mover] - thought + increment)


def test_taking_back_a_move_never_leaves_a_clock_below_zero() -> None:
    clock = MatchClock(THREE_PLUS_TWO, (1.0, 50.0))
    assert clock.after_change(0.0, 1, taken_back=(0,)).left == (0.0, 50.0)
    assert clock.short_of_time((0,), 0.0) == 0 and clock.short_of_time((1,), 0.0) is None
    assert clock.short_of_time((1, 1), 0.0) is None and MatchClock(THREE_PLUS_TWO, (9.0, 3.9)).short_of_time(
        (1, 1), 0.0) == 1


# ---- at a table: a model of the time each player holds ---------------------------------------------------------


class FakeTime:
    """A time source the test moves on by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Kept:
    """A ``MatchKeeper`` in memory: the last match saved, as a file would give it back."""

    saved: SavedMatch | None = None
    finished: list[SavedMatch] = field(default_factory=list)

    def save(self, saved: SavedMatch) -> None:
        self.saved = SavedMatch.from_document(json.loads(saved.to_json()))

    def discard(self) -> None:
        self.saved = None

    def keep_finished(self, saved: SavedMatch, replacing=None):
        self.finished.append(saved)
        return None

    def withdraw_finished(self, path) -> None:
        pass


def moves_made(table: LocalTable, player: int) -> int:
    """The moves ``player`` has on the board, over every round (each gained the increment once)."""
    return sum(round_.mover_at(ply) == player for round_ in table.match.rounds for ply in range(round_.ply))


def held(table: LocalTable, now: float) -> tuple[float, float]:
    clock = table.match_clock
    assert clock is not None
    return clock.left_at(0, now), clock.left_at(1, now)


ACTIONS = ("wait", "play", "play", "undo", "undo", "redo", "pause", "resume", "save", "next round")


@settings(max_examples=150, deadline=None)
@given(st.booleans(), st.integers(0, 2**16), st.data())
def test_each_player_holds_the_time_given_plus_increments_on_the_board_minus_time_spent(computer, seed, data) -> None:
    """Whatever the players do (moves, undo, redo, pauses, saves, rounds), each holds exactly the clock's time,
    plus the increment of each of their moves on the board, minus the time their clock has run: undo gains nothing."""
    options = MatchOptions.preset("online", discs=5, stars_to_win=2)
    setup = (MatchSetup.against_computer("1", options, "Ann", seed, THREE_PLUS_TWO) if computer
             else MatchSetup(options, ("Ann", "Bob"), None, seed, clock=THREE_PLUS_TWO))
    now, kept = FakeTime(), Kept()
    table = LocalTable(setup, store=kept)
    table.time_source = now
    table.pause_clock(False)
    paused, spent = False, [0.0, 0.0]
    for _ in range(data.draw(st.integers(1, 40))):
        action = data.draw(st.sampled_from(ACTIONS))
        match = table.match
        if action == "wait":
            seconds = data.draw(st.floats(0.0, 2.0))
            running = None if paused else clock_turn(match)
            if running is not None:
                spent[running] += seconds
            now.now += seconds
        elif action == "play" and not (match.is_over or match.round.is_over):
            move = data.draw(st.sampled_from(match.position.legal_moves))
            table.play(match.round.table.resolve(move), match.to_move)
        elif action == "undo" and table.can_undo:
            table.undo()
        elif action == "redo" and table.can_redo:
            table.redo()
        elif action in ("pause", "resume"):
            paused = action == "pause"
            table.pause_clock(paused)
        elif action == "next round" and match.round.is_over and not match.is_over:
            table.start_next_round(None, None)
        elif action == "save" and not match.is_over:
            table.save()
            assert kept.saved is not None and kept.saved.clock is not None
            assert kept.saved.clock.left == pytest.approx(held(table, now.now), abs=1e-6)
            table = LocalTable.from_saved(kept.saved, kept)  # the match resumed from its save
            table.time_source = now
            table.pause_clock(paused)
        expected = tuple(THREE_PLUS_TWO.seconds + THREE_PLUS_TWO.increment * moves_made(table, player) - spent[player]
                         for player in (0, 1))
        assert held(table, now.now) == pytest.approx(expected, abs=1e-6), action


def hot_seat_table(clock: ClockSetting = THREE_PLUS_TWO) -> tuple[LocalTable, FakeTime]:
    now = FakeTime()
    table = LocalTable(MatchSetup(MatchOptions(), ("Ann", "Bob"), None, 3, clock=clock))
    table.time_source = now
    table.pause_clock(False)
    return table, now


def play_first(table: LocalTable) -> None:
    match = table.match
    table.play(match.round.table.resolve(match.position.legal_moves[0]), match.to_move)


def test_a_take_back_that_would_need_time_already_spent_is_refused() -> None:
    """Ann moved with a second left (three with the increment) and has spent two of them since Bob's reply:
    without her move's increment she would have run out, so her move cannot be taken back."""
    table, now = hot_seat_table(ClockSetting(180.0, 2.0))
    now.now += 179.0
    play_first(table)  # Ann: 1 s + 2 s
    now.now += 5.0
    play_first(table)  # Bob
    now.now += 2.0  # Ann: 1 s left
    table.undo()  # Bob's move: his increment goes, Ann's clock stops with 1 s left
    assert held(table, now.now) == pytest.approx((1.0, 175.0))
    with pytest.raises(UndoTooLateError, match="Too late to undo: Ann has spent that move's 2 s."):
        table.undo()
    assert table.match.round.ply == 1 and held(table, now.now) == pytest.approx((1.0, 175.0))
    assert table.match_clock is not None and table.match_clock.running == 1


def test_a_take_back_after_the_time_ran_out_loses_on_time_and_takes_nothing_back() -> None:
    table, now = hot_seat_table()
    play_first(table)
    now.now += 181.0  # Bob's time is up, and nobody has looked yet
    assert table.undo() == []
    assert table.match.forfeited_by == 1 and table.match.round.ply == 1


# ---- played by keys: fifty moves taken back at 3+2 ---------------------------------------------------------------

CLOCK_LINE = re.compile(r"(Ann|You|Bob|Computer) +(\d+):(\d\d(?:\.\d)?)")


def shown_faces(app) -> dict[str, float]:
    """Each player's clock as the screen shows it, in seconds."""
    return {name: int(minutes) * 60 + float(seconds) for name, minutes, seconds in CLOCK_LINE.findall(screen_text(app))}


async def cycles_gain_nothing(pilot, app, play_one_cycle) -> None:
    """``CYCLES`` times, a move (and the computer's reply) taken back: no clock held or shown ever gains time."""
    screen = game(app)
    await wait_for(pilot, app, lambda: screen.table.clock is not None and screen.table.clock.running == 0
                   and not screen.flow.thinking, "the first player's clock running")
    table = screen.table
    assert isinstance(table, LocalTable)
    panel = screen.query_one(ClockPanel)
    started = time.monotonic()
    first = held(table, started)
    before, shown_before = first, (panel.left(0), panel.left(1))
    faces_before = shown_faces(app)
    # The waiting clock reads 3:00; the running one, rounded up, no less than it holds by now (however loaded).
    waiting_face, running_face = max(faces_before.values()), min(faces_before.values())
    assert len(faces_before) == 2 and waiting_face == 180.0 and running_face >= held(table, time.monotonic())[0]
    for _ in range(CYCLES):
        await play_one_cycle(screen)
        now = time.monotonic()
        after = held(table, now)
        shown = (panel.left(0), panel.left(1))
        faces = shown_faces(app)
        assert after[0] <= before[0] and after[1] <= before[1], (before, after)
        assert shown[0] <= shown_before[0] and shown[1] <= shown_before[1], (shown_before, shown)
        assert all(faces[name] <= faces_before[name] for name in faces_before), (faces_before, faces)
        before, shown_before, faces_before = after, shown, faces
    ended = time.monotonic()
    # One clock ran all along: together the players hold what they had, less the time that passed.
    assert sum(held(table, ended)) <= sum(first) - (ended - started) + 1e-6


async def test_fifty_moves_taken_back_on_one_terminal_gain_no_time(tmp_path) -> None:
    setup = MatchSetup(MatchOptions(), ("Ann", "Bob"), None, 3, clock=THREE_PLUS_TWO, review=False)
    app = make_app(tmp_path, setup)
    async with app.run_test(size=(80, 24)) as pilot:
        async def move_and_take_back(screen) -> None:
            match = screen.match
            await play_by_keys(pilot, app, match.position.legal_moves[0])
            await wait_for(pilot, app, lambda: match.round.ply == 1 and screen.table.clock.running == 1, "the move")
            await pilot.press("u")
            await wait_for(pilot, app, lambda: match.round.ply == 0 and screen.table.clock.running == 0, "the undo")

        await cycles_gain_nothing(pilot, app, move_and_take_back)


async def test_fifty_moves_and_replies_taken_back_against_the_computer_gain_no_time(tmp_path) -> None:
    setup = MatchSetup.against_computer("1", name="Ann", seed=3, clock=THREE_PLUS_TWO, review=False)
    app = make_app(tmp_path, setup)
    async with app.run_test(size=(80, 24)) as pilot:
        async def move_and_take_back(screen) -> None:
            match = screen.match
            await play_by_keys(pilot, app, match.position.legal_moves[0])
            await wait_for(pilot, app, lambda: match.round.ply == 2 and not screen.flow.thinking
                           and screen.table.clock.running == 0, "the computer's reply")
            await pilot.press("u")
            await wait_for(pilot, app, lambda: match.round.ply == 0 and screen.table.clock.running == 0, "the undo")

        await cycles_gain_nothing(pilot, app, move_and_take_back)


#: Ann's move gains five minutes: she holds less after it, and has minutes to spare, however loaded the machine.
SPENT_INCREMENT = ClockSetting(600.0, 300.0)
REFUSAL = "Too late to undo: Ann has spent that move's 300 s."


def resumable_after(tmp_path, plies: int, ann_holds: float, computer_pause: float = 0) -> SolunaApp:
    """An app offering to resume a match against level 1 after ``plies`` moves (Ann's first), her clock holding
    ``ann_holds``, less than the increment her move gained."""
    setup = MatchSetup.against_computer("1", name="Ann", seed=3, clock=SPENT_INCREMENT, review=False)
    match = setup.new_match()
    for _ in range(plies):
        match.play(match.position.legal_moves[0])
    SaveStore(tmp_path).save(SavedMatch(setup, match, clock=MatchClock(SPENT_INCREMENT, (ann_holds, 500.0))))
    return make_app(tmp_path, computer_pause=computer_pause)


async def test_a_take_back_the_clock_cannot_pay_for_is_refused_in_a_line(tmp_path) -> None:
    """Ann holds 200 s after the computer's reply, less than the 300 s her move gained: u says why it does
    nothing, the moves stay and her clock runs on."""
    app = resumable_after(tmp_path, 2, 200.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: isinstance(app.screen, ResumeScreen), "the offer to resume")
        await pilot.press("enter")
        await wait_for(pilot, app, lambda: app.game is not None and app.screen is app.game
                       and app.game.table.clock is not None and app.game.table.clock.running == 0, "the match")
        await pilot.press("u")
        await wait_for(pilot, app, lambda: REFUSAL in " ".join(screen_text(app).split()), "the refusal")
        table = game(app).table
        assert table.match.round.ply == 2 and table.match.forfeited_by is None
        assert table.clock is not None and table.clock.running == 0
        assert 0 < table.clock.left[0] <= 200.0 and table.clock.left[1] == 500.0


async def test_a_refused_take_back_leaves_the_computer_thinking_as_it_was(tmp_path) -> None:
    """u while the computer thinks about its reply to Ann's move, a move she cannot take back (she holds less
    than it gained): the refusal is said, and the computer's thinking, its pause and its clock go on untouched,
    not called off and started again."""
    app = resumable_after(tmp_path, 1, 200.0, computer_pause=600)  # a long pause: it is still thinking after u
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: isinstance(app.screen, ResumeScreen), "the offer to resume")
        await pilot.press("enter")
        await wait_for(pilot, app, lambda: app.game is not None and app.screen is app.game and app.game.flow.thinking
                       and app.game.table.clock is not None and app.game.table.clock.running == 1, "its thinking")
        screen = game(app)
        thinking = [worker for worker in app.workers if worker.group == "computer"]
        assert len(thinking) == 1 and thinking[0].state is WorkerState.RUNNING
        clock = screen.table.match_clock
        await pilot.press("u")
        await wait_for(pilot, app, lambda: REFUSAL in " ".join(screen_text(app).split()), "the refusal")
        assert [worker for worker in app.workers if worker.group == "computer"] == thinking
        assert thinking[0].state is WorkerState.RUNNING and screen.flow.thinking
        assert screen.table.match_clock == clock and screen.match.round.ply == 1
