"""Every key the end-of-round and end-of-match dialogs show does what it says; q and Escape too."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

from textual.pilot import Pilot

from soluna_tui.app.soluna_app import SolunaApp
from soluna_tui.rules import Match, MatchOptions, Move
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.match_over import MatchOverScreen
from soluna_tui.screens.new_match import NewMatchScreen
from soluna_tui.screens.round_over import RoundOverScreen
from soluna_tui.terminal.glyphs import glyphs_for

from ..rules.test_match import finish_round
from .helpers import (
    footer_keys,
    game,
    hot_seat,
    make_app,
    play_by_keys,
    play_randomly_until,
    screen_text,
    set_position,
    wait_for,
)


@asynccontextmanager
async def at_the(dialog: type, data_dir, **options) -> AsyncIterator[tuple[SolunaApp, Pilot]]:
    """A hot-seat match (seed 7) played by random keys until ``dialog`` shows, at 80x24."""
    app = make_app(data_dir, hot_seat(seed=7, **options))
    async with app.run_test(size=(80, 24)) as pilot:
        await play_randomly_until(pilot, app, random.Random(7), dialog)
        await app.workers.wait_for_complete()
        await pilot.pause()
        yield app, pilot


async def test_match_over_n_opens_the_new_match_screen(tmp_path) -> None:
    async with at_the(MatchOverScreen, tmp_path, stars_to_win=1) as (app, pilot):
        assert "Press n for a new match" in screen_text(app)
        assert {"Rematch", "New match", "Take back", "Close", "Quit"} <= set(footer_keys(app))
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)


async def test_match_over_r_starts_the_rematch(tmp_path) -> None:
    async with at_the(MatchOverScreen, tmp_path, stars_to_win=1) as (app, pilot):
        loser = 1 - game(app).match.winner
        await pilot.press("r")
        await pilot.pause()
        match = game(app).match
        assert isinstance(app.screen, GameScreen) and not match.is_over and match.stars == (0, 0)
        assert match.round.opener == loser


async def test_match_over_q_quits_as_the_games_q_does(tmp_path) -> None:
    async with at_the(MatchOverScreen, tmp_path, stars_to_win=1) as (app, pilot):
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_match_over_escape_closes_and_n_on_the_board_still_works(tmp_path) -> None:
    async with at_the(MatchOverScreen, tmp_path, stars_to_win=1) as (app, pilot):
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)


async def test_match_over_escape_then_r_on_the_board_starts_the_rematch(tmp_path) -> None:
    async with at_the(MatchOverScreen, tmp_path, stars_to_win=1) as (app, pilot):
        loser = 1 - game(app).match.winner
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and "Rematch" in footer_keys(app)
        assert "Redo" not in footer_keys(app)  # nothing to redo once the match is over: r is the rematch
        await pilot.press("r")
        await pilot.pause()
        match = game(app).match
        assert isinstance(app.screen, GameScreen) and not match.is_over and match.stars == (0, 0)
        assert match.round.opener == loser and "Rematch" not in footer_keys(app)


async def test_round_over_q_quits(tmp_path) -> None:
    async with at_the(RoundOverScreen, tmp_path) as (app, pilot):
        assert "Quit" in footer_keys(app)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_round_over_escape_never_chooses_who_opens_it_says_how_to(tmp_path) -> None:
    """Escape used to take the first choice (the loser opens) without a word on the screen but a line of keys:
    it now chooses nothing, and says so; Enter then takes the choice lit."""
    async with at_the(RoundOverScreen, tmp_path) as (app, pilot):
        dialog = app.screen
        loser = game(app).match.round.outcome.loser
        assert "Esc:" not in screen_text(app) and "Next round" not in footer_keys(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is dialog and game(app).match.round_number == 1  # nothing chosen
        whose = f"{game(app).match.players[loser]}'s"
        assert f"Escape chooses nothing: who opens round 2 is {whose} choice." in screen_text(app)
        await pilot.press("down", "enter")  # the second choice: the winner opens
        await pilot.pause()
        match = game(app).match
        assert isinstance(app.screen, GameScreen)
        assert match.round_number == 2 and match.round.opener == 1 - loser


async def test_round_over_escape_under_online_rules_starts_the_next_round(tmp_path) -> None:
    async with at_the(RoundOverScreen, tmp_path, next_opener="loser-opens", next_layout="new") as (app, pilot):
        assert "Esc:" not in screen_text(app)  # one choice: Enter or Esc, nothing to explain
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and game(app).match.round_number == 2


def test_round_over_speaks_to_you_plainly() -> None:
    """Not ``Computer opens round 2 (You move second)``: "you" in the middle of a sentence, no brackets."""
    match = Match(MatchOptions(), ("Ann", "Computer"), 3)
    finish_round(match, random.Random(3), loser=0)
    dialog = RoundOverScreen(match, glyphs_for(False), local_players=(0,), you=0)
    assert [label for label, _ in dialog.choices()] == ["You open round 2", "Computer opens round 2, you move second"]
    assert dialog.keys_line() == "u takes back the last move."
    advised = RoundOverScreen(match, glyphs_for(False), local_players=(0,), you=0, count_hint=lambda player: None)
    assert advised.keys_line().endswith("u takes back the last move. H says which choice wins; it counts as a hint.")
    online = Match(MatchOptions.preset("online"), ("Ann", "Computer"), 3)
    finish_round(online, random.Random(3), loser=0)
    dialog = RoundOverScreen(online, glyphs_for(False), local_players=(0,), you=0)
    assert [label for label, _ in dialog.choices()] == ["Start round 2: you open"]


async def test_q_quits_the_new_match_form_opened_with_n_and_types_a_q_in_a_name(tmp_path) -> None:
    from textual.widgets import Input

    app = make_app(tmp_path, hot_seat(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen) and footer_keys(app).get("Quit")
        name = app.screen.query_one("#name-1", Input)
        name.focus()
        await pilot.press("end", "q")
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen) and name.value == "Annq"
        await pilot.press("down", "down")  # out of the names: q is the game's q again
        await pilot.pause()
        assert not isinstance(app.focused, Input)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0
    assert (tmp_path / "current-match.json").exists()  # the match under the form is kept


async def test_the_move_that_decides_a_round_is_drawn_before_its_dialog_comes_over_it(tmp_path) -> None:
    """The round's last move lands on the board in a frame of its own, and the round's dialogs (its review, then
    who opens the next) come over it in the next: a player sees the move that decided the round, and the dialog's
    frame (a screen laid out and drawn whole, 70-100 ms of CPU) does not hold the move back (over SSH, each
    opponent's screen waited for it)."""
    app = make_app(tmp_path, hot_seat(seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        frames: list[tuple[str, bool]] = []  # what was on top at each frame, and whether the round was decided
        display = app._display

        def noted(screen, renderable) -> None:
            if renderable is not None:
                frames.append((type(app.screen).__name__, game(app).match.round.is_over))
            display(screen, renderable)

        app._display = noted  # type: ignore[method-assign]
        await play_randomly_until(pilot, app, random.Random(7), RoundOverScreen)
        decided = [name for name, over in frames if over]
        assert decided[:2] == ["GameScreen", "ReviewScreen"] and "RoundOverScreen" in decided  # the review first


async def test_a_decided_round_taken_back_before_its_dialog_came_is_announced_when_decided_again(tmp_path) -> None:
    """The round's dialog comes a frame after the move that decided it. Should the match go back meanwhile (over SSH:
    the server's word that the move was not kept, a take-back agreed), no dialog comes; and when the same move
    decides the round again, at the same turn, its dialog does come (the end was not counted as announced)."""
    app = make_app(tmp_path, replace(hot_seat(seed=1), review=False))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        set_position(screen, "1S 1S 1M")
        await pilot.pause()
        move = Move.parse("1S>1S")  # wins the round
        screen.table.play(move, screen.match.to_move)
        screen.after_change()  # the end decided: its dialog a frame later
        screen.table.undo()  # the match goes back before that frame (as a remote table's state can)
        screen.after_change()
        for _ in range(3):
            await pilot.pause()
        assert app.screen is screen and not screen.match.round.is_over
        await play_by_keys(pilot, app, move)
        await wait_for(pilot, app, lambda: isinstance(app.screen, RoundOverScreen), "the round-over dialog")
