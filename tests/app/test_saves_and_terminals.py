"""Nothing lost (saves, resume, corrupt files) and every terminal (ASCII, small, help, palette)."""

from __future__ import annotations

import json
import random

import pytest

from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.preferences import Preferences
from soluna_tui.local.saves import SaveStore
from soluna_tui.rules import MatchOptions, choose_move
from soluna_tui.rules.clock import PRESETS
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.help import HelpScreen
from soluna_tui.screens.new_match import NewMatchScreen
from soluna_tui.screens.resume import ResumeScreen
from soluna_tui.screens.too_small import TooSmallScreen

from .helpers import (
    game,
    hot_seat,
    make_app,
    play_by_keys,
    play_randomly_until,
    screen_text,
    settle,
    wait_for,
    wait_for_text,
)


async def text_showing(pilot, app, *words: str) -> str:
    """The screen text once it shows every one of ``words`` (waiting up to about five seconds)."""
    for _ in range(100):
        text = screen_text(app)
        if all(word in text for word in words):
            return text
        await pilot.pause(0.05)
    raise AssertionError(f"the screen never showed {words}:\n{text}")


async def play_some_moves(pilot, app, count: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        await play_by_keys(pilot, app, choose_move("random", game(app).match.position, rng))
        await settle(pilot, app)


async def test_the_match_is_saved_after_every_move_and_resumed_exactly(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=7))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_some_moves(pilot, app, 3)
        saved_moves = game(app).match.round.moves
        await pilot.press("u")  # leave a redo behind, it must survive too
        document = json.loads((tmp_path / "current-match.json").read_text())
        assert document["format"] == "soluna-save" and len(document["match"]["rounds"][0]["moves"]) == 2
    resumed = make_app(tmp_path)
    async with resumed.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(resumed.screen, ResumeScreen)
        assert "Ann 0 - 0 Bob" in screen_text(resumed)
        await pilot.press("enter")
        await pilot.pause()
        screen = game(resumed)
        assert screen.match.round.moves == saved_moves[:2]
        await pilot.press("r")
        assert screen.match.round.moves == saved_moves


async def test_resume_against_the_computer_continues_its_turn(tmp_path) -> None:
    setup = MatchSetup.against_computer("perfect", MatchOptions(), seed=3)
    match = setup.new_match()
    match.play(match.position.legal_moves[0])
    from soluna_tui.local.saves import SavedMatch

    SaveStore(tmp_path).save(SavedMatch(setup, match))
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot, app)
        assert game(app).match.round.ply == 2 and game(app).match.to_move == 0


async def test_declining_to_resume_opens_the_new_match_screen(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=7))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_some_moves(pilot, app, 1)
    again = make_app(tmp_path)
    async with again.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(again.screen, NewMatchScreen)
        assert (tmp_path / "current-match.json").exists()  # nothing lost until a new match starts


async def test_starting_a_match_at_once_asks_before_replacing_an_unfinished_one(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=7))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_some_moves(pilot, app, 2)
        kept = game(app).match.round.moves
    again = make_app(tmp_path, hot_seat(seed=99))  # soluna play, with a match unfinished
    async with again.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ResumeScreen)
        assert "Start the new match instead" in screen_text(again)
        await pilot.press("escape")  # Escape keeps the unfinished match
        await pilot.pause()
        assert game(again).match.round.moves == kept
    third = make_app(tmp_path, hot_seat(seed=99))
    async with third.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        await pilot.pause()
        assert game(third).match.seed == 99 and game(third).match.round.ply == 0


async def test_a_new_match_asks_before_abandoning_the_one_in_progress(tmp_path) -> None:
    from soluna_tui.screens.confirm import ConfirmScreen

    app = make_app(tmp_path, hot_seat(seed=7))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_some_moves(pilot, app, 1)
        match = game(app).match
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")  # start
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "will be abandoned" in screen_text(app)
        await pilot.press("escape")  # no
        await pilot.pause()
        assert game(app).match is match
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        await pilot.pause()
        assert game(app).match is not match and game(app).match.round.ply == 0


async def test_a_corrupt_save_is_moved_aside_with_a_clear_message(tmp_path) -> None:
    (tmp_path / "current-match.json").write_text('{"format": "soluna-save", "version": 1, "match": 17}')
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)
        text = screen_text(app)
        assert "Saved match unreadable" in text and "moved to" in text
    assert not (tmp_path / "current-match.json").exists()
    aside = list(tmp_path.glob("current-match.json.corrupt-*"))
    assert len(aside) == 1 and "17" in aside[0].read_text()


async def test_a_deeply_nested_save_is_moved_aside_not_a_crash(tmp_path) -> None:
    (tmp_path / "current-match.json").write_text("[" * 100_000 + "]" * 100_000)
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)
        assert "nested too deeply" in screen_text(app)
    assert list(tmp_path.glob("current-match.json.corrupt-*"))


async def test_a_save_with_a_byte_order_mark_still_loads(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=7))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_some_moves(pilot, app, 1)
    path = tmp_path / "current-match.json"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    again = make_app(tmp_path)
    async with again.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ResumeScreen)


async def test_a_foreign_file_is_moved_aside_too(tmp_path) -> None:
    (tmp_path / "current-match.json").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "not valid JSON" in screen_text(app)
    assert list(tmp_path.glob("current-match.json.corrupt-*"))


async def test_an_unwritable_data_dir_warns_and_play_goes_on(tmp_path) -> None:
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("x")
    app = make_app(blocked / "sub", hot_seat(seed=1))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await play_some_moves(pilot, app, 1)
        assert game(app).match.round.ply == 1
        assert "Not saved" in screen_text(app)


async def test_new_match_screen_builds_the_chosen_setup(tmp_path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)
        await pilot.press("right")  # mode: against the computer
        await pilot.press("down", "left", "left")  # level: 9 (from Match my strength, the first entry: perfect, then 9)
        await pilot.press("down")  # the computer's pause stays as it is
        await pilot.press("down")
        app.screen.query_one("#name-1").value = "Zoe"
        await pilot.press("down", "right")  # rules: online
        await pilot.press("down", "left", "left")  # stars: 2
        await pilot.press("down", "left")  # discs: 11
        await pilot.press("down", "right")  # the computer opens
        await pilot.press("down", "right", "right")  # clock: 10+5
        await pilot.press("down", "right")  # hints off
        await pilot.press("down")  # round review stays on
        await pilot.press("down", *"1234")  # seed
        await pilot.press("enter")
        await settle(pilot, app)
        screen = game(app)
        setup = screen.table.setup
        assert setup.computer_level == "9" and setup.names == ("Zoe", "Computer")
        assert setup.options.preset_name == "online" and setup.options.stars_to_win == 2
        assert setup.options.discs == 11 and setup.options.first_opener == 1 and setup.seed == 1234
        assert setup.hints is False and setup.review is True and setup.clock == PRESETS[1]
        assert screen.match.round.ply == 1  # the computer opened


async def test_ascii_mode_draws_only_7_bit_characters(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=1), ascii_mode=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_some_moves(pilot, app, 2)
        await pilot.press("enter")  # a tower picked up, targets lit
        texts = {"game": screen_text(app)}
        await pilot.press("tab")  # the history, browsing
        await pilot.press("up")
        texts["history"] = screen_text(app)
        await pilot.press("escape", "question_mark")
        texts["help"] = screen_text(app)
        await pilot.press("escape", "n")
        texts["new match"] = screen_text(app)
        await pilot.press("escape", "ctrl+p")
        await wait_for_text(pilot, app, "Search for commands")
        texts["palette"] = screen_text(app)
        await pilot.press(*"puz")
        await wait_for_text(pilot, app, "Puzzles (easy)")
        texts["palette search"] = screen_text(app)
        assert "Player 2 name     Bob" in texts["new match"]  # the name field shows its value
        for name, text in texts.items():
            bad = sorted({char for char in text if ord(char) > 127})
            assert not bad, f"{name} screen shows non-ASCII {bad}"
        game_text = texts["game"]
        assert "+-" in game_text and ("| S |" in game_text or "| M |" in game_text)


async def test_a_terminal_below_the_minimum_gets_a_notice(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat())
    async with app.run_test(size=(36, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert "Terminal too small: 36x20" in screen_text(app) and "at least 40x20" in screen_text(app)
        await pilot.resize_terminal(40, 20)  # a phone's layout, not the notice
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.resize_terminal(80, 19)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_question_mark_opens_help_over_any_dialog_and_closes_back_to_it(tmp_path) -> None:
    from soluna_tui.screens.confirm import ConfirmScreen
    from soluna_tui.screens.new_match import NewMatchScreen

    app = make_app(tmp_path, hot_seat(seed=7))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_some_moves(pilot, app, 1)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)
        for dialog in (NewMatchScreen, ConfirmScreen):
            if dialog is ConfirmScreen:
                await pilot.press("enter")  # start: the match in progress would be abandoned
                await pilot.pause()
            assert isinstance(app.screen, dialog)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen) and "THE RULES IN BRIEF" in screen_text(app)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, dialog)


async def test_help_lists_the_rules_and_every_key(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat())
    async with app.run_test(size=(100, 50)) as pilot:  # every key in view at the end
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        for words in ("THE RULES IN BRIEF", "Box rules", "Online rules", "Symbols: sun"):
            assert words in text
        await pilot.press("end")
        text = screen_text(app)
        for words in ("undo / redo", "Ctrl+P", "hjkl, wasd", "a hint, one step more", "analysis mode",
                      "play on from the position shown"):
            assert words in text
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)


async def test_the_command_palette_holds_the_rarer_actions(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=2))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_some_moves(pilot, app, 1)
        await pilot.press("ctrl+p")
        await pilot.press(*"undo")
        await wait_for_text(pilot, app, "Take back the last move")
        await pilot.press("enter")
        await pilot.pause()
        assert game(app).match.round.ply == 0


async def test_themes_all_work(tmp_path) -> None:
    for theme in ("textual-light", "nord", "gruvbox", "ansi-dark"):
        app = make_app(tmp_path / theme, hot_seat(), theme=theme)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.theme == theme
            assert "Ann to move" in screen_text(app)


async def test_the_theme_and_the_last_setup_are_remembered(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=3, stars_to_win=2))
    async with app.run_test(size=(100, 30)) as pilot:
        app.theme = "nord"
        await pilot.pause()
    again = make_app(tmp_path / "unused-saves", preferences=Preferences(tmp_path))  # a store handed in
    async with again.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert again.theme == "nord"
        assert isinstance(again.screen, NewMatchScreen)
        assert again.screen.query_one("#stars").value == 2
        assert again.screen.query_one("#name-1").value == "Ann"


async def test_a_save_holding_a_4301_digit_number_is_moved_aside(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=7))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_some_moves(pilot, app, 1)
    path = tmp_path / "current-match.json"
    path.write_text(path.read_text().replace('"seed": 7', '"seed": ' + "7" * 4301, 1))
    again = make_app(tmp_path)
    async with again.run_test(size=(100, 30)) as pilot:
        await text_showing(pilot, again, "Saved match unreadable", "number of 4301", "moved to")
        assert isinstance(again.screen, NewMatchScreen)
    assert not path.exists() and len(list(tmp_path.glob("current-match.json.corrupt-*"))) == 1


async def test_unreadable_preferences_are_moved_aside_with_a_notice(tmp_path) -> None:
    (tmp_path / "preferences.json").write_text('{"format": "soluna-preferences", "version": 1, "theme": Infinity}')
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await text_showing(pilot, app, "Preferences unreadable", "Infinity")
        assert isinstance(app.screen, NewMatchScreen)
        app.theme = "nord"
        await pilot.pause()
    assert len(list(tmp_path.glob("preferences.json.corrupt-*"))) == 1
    assert json.loads((tmp_path / "preferences.json").read_text())["theme"] == "nord"


async def test_control_characters_in_saved_names_never_reach_the_terminal(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=7))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_some_moves(pilot, app, 1)
    path = tmp_path / "current-match.json"
    path.write_text(path.read_text().replace('"Ann"', json.dumps("\x1b[2J\x1b[3JAnn\x07")))
    again = make_app(tmp_path)
    async with again.run_test(size=(100, 30)) as pilot:
        await text_showing(pilot, again, "2J3JAnn 0 - 0 Bob")
        await pilot.press("enter")
        text = await text_showing(pilot, again, "1. 2J3JAnn", "Bob to move")
        assert game(again).match.players == ("2J3JAnn", "Bob") and "\x1b" not in text


async def test_a_match_ending_over_a_damaged_stats_file_is_counted_in_a_fresh_one(tmp_path) -> None:
    from soluna_tui.local.player_stats import StatsStore
    from soluna_tui.screens.match_over import MatchOverScreen

    from .helpers import set_position, skip_review

    (tmp_path / "stats.json").write_text('{"format": "soluna-stats", "version": 1, "matches": [], '
                                         '"puzzles": {"solved": NaN}}')
    app = make_app(tmp_path, hot_seat(seed=7, stars_to_win=1))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        set_position(game(app), "3S 1M 1M")
        await play_some_moves(pilot, app, 1)  # 1M>1M: Bob has no move left
        await skip_review(pilot, app)
        await settle(pilot, app)
        await pilot.pause()
        await text_showing(pilot, app, "Stats file unreadable")
        assert isinstance(app.screen, MatchOverScreen)
    assert [record.names for record in StatsStore(tmp_path).load().matches] == [("Ann", "Bob")]
    assert len(list(tmp_path.glob("stats.json.corrupt-*"))) == 1


# ---- a saved match that stops the game is not offered again ---------------------------------------

def write_save(folder, first_opener: str = "0") -> str:
    """A save of a match with one move played, its first opener written as ``first_opener``."""
    from soluna_tui.local.saves import SavedMatch

    setup = hot_seat(seed=4)
    match = setup.new_match()
    match.play(match.position.legal_moves[0])
    text = SavedMatch(setup, match).to_json().replace('"first_opener": 0', f'"first_opener": {first_opener}')
    (folder / "current-match.json").write_text(text)
    return text


async def test_a_save_whose_opener_is_a_float_is_set_aside_not_a_crash(tmp_path) -> None:
    text = write_save(tmp_path, "0.0")  # once: TypeError in the history, on every start
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await text_showing(pilot, app, "Saved match unreadable", "first opener", "moved to")
        assert isinstance(app.screen, NewMatchScreen)
    assert [path.read_text() for path in tmp_path.glob("current-match.json.corrupt-*")] == [text]


async def test_a_save_that_stopped_the_game_when_resumed_is_set_aside_at_the_next_start(tmp_path,
                                                                                       monkeypatch) -> None:
    text = write_save(tmp_path)
    resumed = make_app(tmp_path)
    async with resumed.run_test(size=(100, 30)) as pilot:  # a sound save resumes, and leaves no marker
        await text_showing(pilot, resumed, "Welcome back")
        await pilot.press("enter")
        await text_showing(pilot, resumed, "Bob to move")
        await pilot.pause()
        assert not list(tmp_path.glob("*.resuming"))

    class ShowingItCrashes(RuntimeError):
        """Stands for any bug the saved match trips when it is put on the screen."""

    def crash(screen) -> None:
        raise ShowingItCrashes("the history cannot be drawn")

    monkeypatch.setattr(GameScreen, "on_mount", crash)
    crashing = make_app(tmp_path)
    with pytest.raises(ShowingItCrashes):
        async with crashing.run_test(size=(100, 30)) as pilot:
            await text_showing(pilot, crashing, "Welcome back")
            await pilot.press("enter")
            for _ in range(20):
                await pilot.pause()
    monkeypatch.undo()
    again = make_app(tmp_path)
    async with again.run_test(size=(100, 30)) as pilot:
        shown = await text_showing(pilot, again, "Saved match set aside", "internal error", "moved to")
        assert isinstance(again.screen, NewMatchScreen) and "Welcome back" not in shown
    assert [path.read_text() for path in tmp_path.glob("current-match.json.corrupt-*")] == [text]
    assert not list(tmp_path.glob("*.resuming"))


async def test_an_unknown_theme_in_the_preferences_is_said(tmp_path) -> None:
    (tmp_path / "preferences.json").write_text(
        '{"format": "soluna-preferences", "version": 1, "theme": "solarized-purple"}')
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await text_showing(pilot, app, "unknown theme 'solarized-purple'", "default theme")
        assert app.theme == "textual-dark"


# ---- a match taken back is not finished -----------------------------------------------------------

async def finish_by_moves(pilot, app, *moves: str) -> None:
    """Play ``moves`` (notation) by keys, then go through the review to the Match over dialog."""
    from soluna_tui.screens.match_over import MatchOverScreen

    from .helpers import play_by_keys, skip_review

    for text in moves:
        move = next(move for move in game(app).match.position.legal_moves if str(move) == text)
        await play_by_keys(pilot, app, move)
        await settle(pilot, app)
    await skip_review(pilot, app)
    await settle(pilot, app)
    for _ in range(100):
        if isinstance(app.screen, MatchOverScreen):
            return
        await pilot.pause(0.05)
    raise AssertionError("the Match over dialog never came")


def counted(folder) -> tuple[list[int], int]:
    """The winners the stats hold, and how many finished matches are kept for replay."""
    from soluna_tui.local.player_stats import StatsStore
    from soluna_tui.local.saves import FinishedStore

    return [record.winner for record in StatsStore(folder).load().matches], len(FinishedStore(folder).paths())


async def test_a_match_taken_back_and_abandoned_counts_nowhere(tmp_path) -> None:
    from soluna_tui.screens.confirm import ConfirmScreen

    from .helpers import set_position

    app = make_app(tmp_path, hot_seat(seed=7, stars_to_win=1))
    async with app.run_test(size=(100, 30)) as pilot:
        set_position(game(app), "1S 1S 1M")
        await finish_by_moves(pilot, app, "1S>1M", "1S>2S")  # Ann is left without a move: Bob wins
        assert counted(tmp_path) == ([1], 1)
        await pilot.press("u")  # take back Bob's last move
        await text_showing(pilot, app, "Took back 1S>2S")
        assert counted(tmp_path) == ([], 0)
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")  # start a new match...
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "will not be saved or counted" in screen_text(app)
        await pilot.press("y")  # ...abandoning this one
        await text_showing(pilot, app, "Ann to move", "seed")
        assert game(app).match.round.ply == 0
    assert counted(tmp_path) == ([], 0)


async def test_a_match_taken_back_and_won_by_the_other_counts_once_as_it_ended(tmp_path) -> None:
    from .helpers import set_position

    app = make_app(tmp_path, hot_seat(seed=7, stars_to_win=1))
    async with app.run_test(size=(100, 30)) as pilot:
        set_position(game(app), "1S 1S 1M")
        await finish_by_moves(pilot, app, "1S>1S")  # Ann wins...
        await pilot.press("u")
        await text_showing(pilot, app, "Took back 1S>1S")
        await finish_by_moves(pilot, app, "1S>1M", "1S>2S")  # ...no: Bob does
        assert game(app).match.winner == 1
    assert counted(tmp_path) == ([1], 1)


async def test_a_finished_match_is_kept_with_the_verdicts_its_review_found(tmp_path) -> None:
    from soluna_tui.export import judge_match
    from soluna_tui.local.saves import FinishedStore
    from soluna_tui.rules import Solver
    from soluna_tui.rules.teaching import review_round
    from soluna_tui.screens.match_over import MatchOverScreen

    from .helpers import play_randomly_until

    app = make_app(tmp_path, hot_seat(seed=3, stars_to_win=1, discs=8))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_randomly_until(pilot, app, random.Random(2), MatchOverScreen)
    assert len(FinishedStore(tmp_path).paths()) == 1
    saved = FinishedStore(tmp_path).last()
    assert saved.verdicts and all(all(round_verdicts) for round_verdicts in saved.verdicts)
    fresh = Solver()
    assert judge_match(saved.match, saved.verdicts, fresh) == [review_round(played) for played in saved.match.rounds]
    assert fresh.positions_solved == 0  # soluna export --last solves nothing again


@pytest.mark.parametrize("size", [(30, 15), (39, 22), (79, 19)])
async def test_the_too_small_notice_covers_the_first_dialog_and_the_offer_to_resume(tmp_path, size) -> None:
    """The first command in a small terminal crashed (two notices with one id): the new-match form, then
    "Welcome back" with a match saved; each is covered, and shown once the terminal is large enough."""
    from soluna_tui.screens.new_match import NewMatchScreen

    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, app, lambda: isinstance(app.screen, TooSmallScreen), "the notice")
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen) and any(
            isinstance(screen, NewMatchScreen) for screen in app.screen_stack)
        assert f"Terminal too small: {size[0]}x{size[1]}" in screen_text(app)
        await pilot.resize_terminal(100, 30)
        await wait_for(pilot, app, lambda: isinstance(app.screen, NewMatchScreen), "the form")
        assert not any(isinstance(screen, TooSmallScreen) for screen in app.screen_stack)
    saved = make_app(tmp_path, hot_seat(seed=7))
    async with saved.run_test(size=(100, 30)) as pilot:
        await play_some_moves(pilot, saved, 1)
    resumed = make_app(tmp_path)
    async with resumed.run_test(size=size) as pilot:
        await wait_for(pilot, resumed, lambda: any(isinstance(screen, ResumeScreen)
                                                   for screen in resumed.screen_stack), "the offer")
        await pilot.pause()
        assert isinstance(resumed.screen, TooSmallScreen)
        await pilot.resize_terminal(100, 30)
        await wait_for(pilot, resumed, lambda: isinstance(resumed.screen, ResumeScreen), "the offer")
        await pilot.press("enter")
        await wait_for(pilot, resumed, lambda: isinstance(resumed.screen, GameScreen), "the match")


@pytest.mark.parametrize("size", [(30, 15), (39, 22), (79, 19)])
async def test_the_too_small_notice_covers_every_dialog_and_keeps_them_working(tmp_path, size) -> None:
    """Shrunk under the round-over dialog, the help and a confirmation: a notice over each, no crash; a
    dialog that closes itself under the notice takes itself away, not the notice; grown again, the
    dialog is back as it was."""
    from soluna_tui.screens.confirm import ConfirmScreen
    from soluna_tui.screens.round_over import RoundOverScreen

    app = make_app(tmp_path, hot_seat(seed=2, discs=4))
    async with app.run_test(size=(100, 30)) as pilot:
        await play_randomly_until(pilot, app, random.Random(1), RoundOverScreen)
        await pilot.resize_terminal(*size)
        await wait_for(pilot, app, lambda: isinstance(app.screen, TooSmallScreen), "the notice")
        await pilot.press("question_mark", "enter")  # keys go to the notice alone: nothing opens, nothing is chosen
        assert [type(screen) for screen in app.screen_stack][-2:] == [RoundOverScreen, TooSmallScreen]
        question = ConfirmScreen("Really?", "Yes", "No", "Ask")
        app.push_screen(question)  # opened by the app meanwhile: under the notice
        await pilot.pause()
        assert [type(screen) for screen in app.screen_stack][-3:] == [RoundOverScreen, ConfirmScreen, TooSmallScreen]
        question.dismiss(None)  # it closes itself (as a dialog the match moved past does): itself, not the notice
        await pilot.pause()
        assert [type(screen) for screen in app.screen_stack][-2:] == [RoundOverScreen, TooSmallScreen]
        await pilot.resize_terminal(100, 30)
        await wait_for(pilot, app, lambda: isinstance(app.screen, RoundOverScreen), "the round-over dialog")
        assert not any(isinstance(screen, TooSmallScreen) for screen in app.screen_stack)
        app.push_screen(ConfirmScreen("Really?", "Yes", "No", "Ask"))
        await pilot.resize_terminal(*size)
        await wait_for(pilot, app, lambda: isinstance(app.screen, TooSmallScreen), "the notice")
        await pilot.resize_terminal(100, 30)
        await wait_for(pilot, app, lambda: isinstance(app.screen, ConfirmScreen), "the question")


@pytest.mark.parametrize("size", [(39, 20), (60, 19)])
async def test_the_lines_under_the_board_are_back_once_the_too_small_notice_goes(tmp_path, size) -> None:
    """The status and the last move, drawn again at the width they come back at (they were blank until the next move:
    the screen under the notice is laid out again as it comes back, and their lines were not drawn again)."""
    app = make_app(tmp_path, hot_seat(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Ann to move: pick a tower up" in screen_text(app)
        await pilot.resize_terminal(*size)
        await wait_for(pilot, app, lambda: isinstance(app.screen, TooSmallScreen), "the notice")
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, app, lambda: isinstance(app.screen, GameScreen), "the match")
        await pilot.pause()
        text = screen_text(app)
        assert "No move yet in round 1." in text and "Ann to move: pick a tower up" in text
