"""Resigning (issue 19): asked first, the opponent wins the match, it counts as a loss, not taken back."""

from __future__ import annotations

from soluna_tui.local.match_setup import MatchSetup
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
        you = screen.flow.you
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


async def test_a_resigned_match_says_resigned_in_the_export_the_replay_list_the_replay_and_the_stats(
        tmp_path) -> None:
    """One word for it everywhere: the match-over dialog's "You resigned" is what the kept match's export, the
    list of finished matches, the replay and the stats say too (the export said "forfeited", the list nothing)."""
    from soluna_tui.export import last_finished_match
    from soluna_tui.local.player_stats import describe
    from soluna_tui.local.saves import FinishedStore
    from soluna_tui.play.match_text import export_match
    from soluna_tui.screens.finished import FinishedListScreen, describe_finished
    from soluna_tui.screens.replay import ReplayScreen

    from .helpers import wait_for, wait_for_text

    setup = MatchSetup.against_computer("random", MatchOptions(stars_to_win=2, discs=6), seed=4)
    app = make_app(tmp_path, setup)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("R", "y")
        await wait_for(pilot, app, lambda: isinstance(app.screen, MatchOverScreen), "the match over")
        assert "You resigned: Computer wins the match" in screen_text(app)
        await wait_for(pilot, app, lambda: bool(app.stats_store.load().matches), "the stats")
        stats_text = "\n".join(describe(app.stats_store.load()))
        assert "  resigned: You 1" in stats_text
        found = last_finished_match(tmp_path)
        text = export_match(found.match, found.details, ended=found.ended)
        assert "Result: You resigned; Computer won the match" in text and "forfeit" not in text
        assert "You resigned during this round." in text
        assert found.details[0].startswith("Finished match: ")
        kept = FinishedStore(tmp_path).newest_first()
        assert ", You resigned (" in describe_finished(kept[0])
        await pilot.press("q")  # the app quits from the dialog: the list and the replay come next, alone
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.push_screen(FinishedListScreen(FinishedStore(tmp_path).newest_first()))
        await wait_for_text(pilot, app, "You resigned")
        await app.push_screen(ReplayScreen(found.match, ended=found.ended))
        await wait_for_text(pilot, app, "You resigned; Computer won the match")
        await pilot.press("end")
        await wait_for_text(pilot, app, "You resigned here.")
