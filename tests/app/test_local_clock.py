"""A clock for a match on this terminal (issue 30): chosen on the new-match form or with ``--clock``, stopped while a
dialog is up or the game is closed, saved and resumed with the match, and a match lost on time."""

from __future__ import annotations

import json
import time
from dataclasses import replace

import pytest

from soluna_tui.cli import main
from soluna_tui.local.files import SaveError
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.saves import FinishedStore, SavedMatch, SaveStore, read_save
from soluna_tui.local.table import LocalTable
from soluna_tui.rules import MatchOptions, OptionError
from soluna_tui.rules.clock import PRESETS, ClockSetting, MatchClock
from soluna_tui.rules.end_reason import EndReason
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.match_over import MatchOverScreen
from soluna_tui.screens.new_match import NewMatchScreen
from soluna_tui.screens.resume import ResumeScreen
from soluna_tui.widgets.choice import Choice
from soluna_tui.widgets.clock_panel import ClockPanel

from .helpers import game, make_app, play_by_keys, screen_text, wait_for, wait_for_text

ONE_MINUTE = ClockSetting(60.0, 2.0)


def clocked(clock: ClockSetting = ONE_MINUTE, seed: int = 3) -> MatchSetup:
    return MatchSetup(MatchOptions(), ("Ann", "Bob"), None, seed, clock=clock)


def first_move(table: LocalTable):
    return table.match.position.legal_moves[0]


# ---- the clock at the table ----------------------------------------------------------------------------------


def test_a_table_s_clock_runs_only_while_shown_and_charges_the_mover() -> None:
    table = LocalTable(clocked())
    assert table.clock is not None and table.clock.running is None  # stopped until a screen shows the match
    table.pause_clock(False)
    assert table.clock.running == 0
    time.sleep(0.2)
    table.play(table.match.round.table.resolve(first_move(table)), 0)
    ann, bob = table.match_clock.left  # type: ignore[union-attr]
    assert 60 + 2 - 1 < ann <= 60 + 2 - 0.2  # charged the time used, given the increment
    assert bob == 60 and table.clock.running == 1
    table.pause_clock(True)
    stopped = table.match_clock
    time.sleep(0.2)
    assert table.time_runs_out_at() is None and table.match_clock == stopped
    table.pause_clock(False)
    table.undo()  # time used is not given back, and the increment is taken back: Ann runs again from what she had
    assert table.match_clock.left[0] == pytest.approx(ann - 2, abs=1e-6) and table.clock.running == 0  # type: ignore[union-attr]


def test_a_table_without_a_clock_shows_none() -> None:
    table = LocalTable(MatchSetup(seed=1))
    table.pause_clock(False)
    assert table.clock is None and table.time_runs_out_at() is None and not table.time_is_up()


def test_the_player_whose_time_runs_out_loses_the_match_and_the_move_after_it_is_not_played() -> None:
    setup = clocked(ClockSetting(1.0, 0.0))
    table = LocalTable(setup)
    table.pause_clock(False)
    deadline = table.time_runs_out_at()
    assert deadline is not None
    time.sleep(max(0.0, deadline - time.monotonic()) + 0.05)
    table.play(table.match.round.table.resolve(first_move(table)), 0)  # too late
    match = table.match
    assert match.round.ply == 0 and match.is_over and match.forfeited_by == 0 and match.winner == 1
    assert table.ended is EndReason.TIME and table.clock.left[0] == 0 and table.clock.running is None  # type: ignore[union-attr]


# ---- kept in a save ------------------------------------------------------------------------------------------


def test_a_setup_and_a_save_keep_their_clock_and_how_the_match_ended() -> None:
    setup = clocked(ClockSetting(30.0, 1.0))
    assert MatchSetup.from_dict(json.loads(json.dumps(setup.to_dict()))) == setup
    assert "clock" not in MatchSetup(seed=1).to_dict()  # saves without a clock read as before
    clock = MatchClock(setup.clock, (12.5, 29.0))  # type: ignore[arg-type]
    saved = SavedMatch(setup, setup.new_match(), clock=clock, ended=EndReason.TIME)
    again = SavedMatch.from_document(json.loads(saved.to_json()))
    assert again.clock == clock and again.ended is EndReason.TIME


@pytest.mark.parametrize("clock, problem", [
    ({"seconds": "1", "increment": 0}, "clock is malformed"),
    ({"seconds": 1e300, "increment": 0}, "a clock gives 1 second"),
    ({"seconds": True, "increment": 0}, "clock is malformed"),
    ({"increment": 0}, "clock is malformed"),
])
def test_a_setup_with_a_damaged_clock_is_refused_in_one_line(clock, problem) -> None:
    document = clocked().to_dict() | {"clock": clock}
    with pytest.raises(OptionError, match=problem):
        MatchSetup.from_dict(document)


@pytest.mark.parametrize("change", [
    lambda clock: clock | {"left": [float("nan"), 3]},
    lambda clock: clock | {"left": [-1, 3]},
    lambda clock: clock | {"seconds": 99},  # not the setup's clock
    lambda clock: "3+2",
])
def test_a_save_with_a_damaged_clock_is_refused_in_one_line(change) -> None:
    setup = clocked()
    document = SavedMatch(setup, setup.new_match()).to_document()
    document["clock"] = change(MatchClock.fresh(ONE_MINUTE).to_document())
    with pytest.raises(SaveError, match="its clock is malformed"):
        SavedMatch.from_document(document)


# ---- played: saved, paused, resumed, lost on time ---------------------------------------------------------------


async def test_a_local_clock_is_stopped_under_a_dialog_and_saved_when_the_game_closes(tmp_path) -> None:
    app = make_app(tmp_path, clocked())
    started = time.monotonic()  # no clock runs before this
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game(app)
        await wait_for(pilot, app, lambda: screen.table.clock is not None and screen.table.clock.running == 0,
                       "Ann's clock running")
        await play_by_keys(pilot, app, first_move(screen.table))  # type: ignore[arg-type]
        assert screen.table.clock.running == 1  # type: ignore[union-attr]
        assert "Bob" in screen_text(app) and "1:00" in screen_text(app)
        await pilot.press("question_mark")  # the help: a dialog over the match
        await wait_for(pilot, app, lambda: not isinstance(app.screen, GameScreen)
                       and screen.table.clock.running is None, "the help, and the clock stopped under it")  # type: ignore[union-attr]
        before = screen.table.match_clock.left  # type: ignore[union-attr]
        under_help = time.monotonic()
        time.sleep(0.6)
        await pilot.pause(0.3)
        assert screen.table.clock.running is None and screen.table.match_clock.left == before  # type: ignore[union-attr]
        under_help = time.monotonic() - under_help  # stopped all along: stopped before and after
        await pilot.press("escape")
        await wait_for(pilot, app, lambda: app.screen is screen and screen.table.clock.running == 1,  # type: ignore[union-attr]
                       "Bob's clock running again")
        panel = screen.query_one(ClockPanel)
        used = time.monotonic() - started
        assert panel.display and 60 - used < panel.left(1) < 60
    saved = read_save(tmp_path / "current-match.json")
    assert saved.clock is not None and saved.clock.running is None  # stopped while the game is closed
    ann, bob = saved.clock.left
    used = time.monotonic() - started
    # Each clock charged no more than the time that passed; Bob's time was used, but not under the help.
    assert 62 - used <= ann < 62 and 60 - (used - under_help) <= bob < 60


async def test_a_local_clock_saved_resumed_and_lost_on_time(tmp_path) -> None:
    setup = clocked()
    match = setup.new_match()
    match.play(match.position.legal_moves[0])  # Bob to move, with a second and a half left
    SaveStore(tmp_path).save(SavedMatch(setup, match, clock=MatchClock(ONE_MINUTE, (41.0, 1.5))))
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: isinstance(app.screen, ResumeScreen), "the offer to resume")
        assert "Clock 1+2, stopped: Ann 0:41, Bob 0:01.5." in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, app, lambda: app.game is not None and app.game.table.clock is not None, "the match")
        table = game(app).table
        assert table.clock.running == 1 and table.clock.left[0] == 41.0  # type: ignore[union-attr]
        await wait_for(pilot, app, lambda: isinstance(app.screen, MatchOverScreen), "the match lost on time")
        await wait_for_text(pilot, app, "Bob ran out of time: Ann wins on time")
        assert table.match.forfeited_by == 1 and table.match.winner == 0
    assert not (tmp_path / "current-match.json").exists()  # over: nothing to resume
    kept = FinishedStore(tmp_path).last()
    assert kept is not None and kept.ended is EndReason.TIME and kept.clock is not None and kept.clock.left[1] == 0


def test_export_says_who_ran_out_of_time(tmp_path, capsys) -> None:
    setup = clocked()
    match = setup.new_match()
    match.forfeit(0)
    FinishedStore(tmp_path).keep(SavedMatch(setup, match, clock=MatchClock(ONE_MINUTE, (0.0, 55.0)),
                                            ended=EndReason.TIME))
    assert main(["export", "--last", "--data-dir", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "Clock 1+2: Ann 0:00.0, Bob 0:55 left" in text
    assert "Result: Ann ran out of time; Bob won the match on time (stars 0-0)." in text


# ---- chosen --------------------------------------------------------------------------------------------------


async def test_the_new_match_form_offers_no_clock_and_the_presets(tmp_path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, app, lambda: isinstance(app.screen, NewMatchScreen), "the new-match form")
        form = app.screen
        choice = form.query_one("#clock", Choice)
        assert choice.value is None and "Clock" in screen_text(app)
        assert [value for _, value in choice.values] == [None, *PRESETS]
        choice.focus()
        await pilot.press("right")
        assert choice.value == PRESETS[0] and "3 min + 2 s a move" in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, app, lambda: app.game is not None, "the match")
        assert game(app).table.setup.clock == PRESETS[0]
        await wait_for(pilot, app, lambda: "3:00" in screen_text(app), "the clocks beside the board")


def test_soluna_play_takes_a_clock_and_refuses_a_wrong_one_in_one_line(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--clock", "3-2"])
    assert exit_.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "'3-2' is not a clock: write MINUTES+SECONDS, such as 3+2" in error


def test_a_match_s_own_clock_is_offered_beside_the_presets() -> None:
    from soluna_tui.screens.new_match import clock_choices

    own = ClockSetting(300.0, 0.0)
    assert [value for _, value in clock_choices(own)] == [None, *PRESETS, own]
    assert [value for _, value in clock_choices(replace(PRESETS[1]))] == [None, *PRESETS]


async def test_the_time_used_is_saved_as_the_clock_runs(tmp_path, monkeypatch) -> None:
    """A terminal shut without quitting (the window closed, the SSH connection gone) saves nothing more: the
    time used is saved every few seconds while a clock runs (here every 0.2 s)."""
    import soluna_tui.screens.clock_watch as clock_watch_module

    monkeypatch.setattr(clock_watch_module, "TIME_KEPT_EVERY", 0.2)
    app = make_app(tmp_path, clocked())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game(app)
        await wait_for(pilot, app, lambda: screen.table.clock is not None and screen.table.clock.running == 0,
                       "Ann's clock running")
        path = tmp_path / "current-match.json"
        used = lambda: path.exists() and read_save(path).clock.left[0] < 60 - 0.3  # type: ignore[union-attr]  # noqa: E731
        await wait_for(pilot, app, used, "Ann's time used, saved while her clock runs")
        assert screen.table.clock.running == 0  # type: ignore[union-attr]
