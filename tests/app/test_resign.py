"""Resigning (issue 19): asked first, the opponent wins the match, it counts as a loss, not taken back."""

from __future__ import annotations

from soluna_tui.match_setup import MatchSetup
from soluna_tui.rules import MatchOptions
from soluna_tui.screens.confirm import ConfirmScreen
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.match_over import MatchOverScreen

from .helpers import game, hot_seat, make_app, screen_text, settle


async def test_resigning_is_asked_first_and_keep_playing_changes_nothing(tmp_path) -> None:
    app = make_app(tmp_path, hot_seat(seed=4))
    async with app.run_test(size=(80, 24)) as pilot:
        match = game(app).match
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert f"{match.players[match.to_move]} gives the match to" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and not match.is_over


async def test_resigning_against_the_computer_gives_it_the_match_and_counts_as_a_loss(tmp_path) -> None:
    setup = MatchSetup.against_computer("random", MatchOptions(stars_to_win=2), seed=4)
    app = make_app(tmp_path, setup)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = game(app)
        you = screen.you
        assert you is not None
        await pilot.press("R")
        await pilot.pause()
        assert "You give the match to Computer. It counts as a loss." in screen_text(app)
        await pilot.press("y")
        await settle(pilot, app)
        for _ in range(50):
            if isinstance(app.screen, MatchOverScreen):
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, MatchOverScreen)
        match = screen.match
        assert match.forfeited_by == you and match.winner == 1 - you
        assert "You resigned: Computer wins the match" in screen_text(app)
        assert "Rematch" in screen_text(app)  # both are still at the table
        assert not screen.table.can_undo  # a resignation is final
        for _ in range(50):  # the stats are written once the match is judged
            records = app.stats_store.load().matches
            if records:
                break
            await pilot.pause(0.05)
        assert [(record.names, record.winner) for record in records] == [(match.players, 1 - you)]
