"""The match-over dialog's lines that come after it opened (over SSH, a rated match's ratings): shown whenever
they come, even while the dialog is still being put on the screen."""

from __future__ import annotations

from soluna_tui.screens.match_over import MatchOverScreen

from .helpers import screen_text
from .test_dialog_keys import at_the

RATINGS = ("ann: rating 1000 to 1069 (+69)", "bob: rating 1000 to 963 (-37)")


class RatingsWhileMounting(MatchOverScreen):
    """The ratings arrive as the last mover's dialog mounts: composed, not yet mounted."""

    def on_mount(self) -> None:
        assert not self.is_mounted
        self.show_notes(RATINGS)


async def test_ratings_that_come_while_the_dialog_mounts_are_shown(tmp_path) -> None:
    async with at_the(MatchOverScreen, tmp_path, stars_to_win=1) as (app, pilot):
        shown = app.screen
        assert isinstance(shown, MatchOverScreen)
        shown.dismiss(None)
        await pilot.pause()
        app.push_screen(RatingsWhileMounting(shown.match, shown.glyphs))
        await pilot.pause()
        assert all(line in screen_text(app) for line in RATINGS), screen_text(app)


async def test_ratings_that_come_later_are_added_to_the_summary(tmp_path) -> None:
    async with at_the(MatchOverScreen, tmp_path, stars_to_win=1) as (app, pilot):
        shown = app.screen
        assert isinstance(shown, MatchOverScreen) and RATINGS[0] not in screen_text(app)
        shown.show_notes(RATINGS)
        await pilot.pause()
        assert all(line in screen_text(app) for line in RATINGS)
