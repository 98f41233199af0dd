"""The screens the app opens over whatever shows, from a key or the palette: the help, the guided round,
puzzles, statistics, and the finished matches kept on this computer with their replays.

Imported when one is first opened; each screen's module too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..terminal.glyphs import glyphs_for

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..local.saves import FinishedFile
    from .host import AppHost


class OtherScreens:
    """Opens the app's other screens."""

    def __init__(self, app: AppHost) -> None:
        self._app = app

    def help(self) -> None:
        """The rules in brief and the keys that work where the player is (not over the help itself)."""
        from ..screens.help import HelpScreen

        app = self._app
        if not isinstance(app.screen, HelpScreen):
            side_line = app.side_line
            game = side_line or app.game
            hints = game is None or game.teaching.hints_allowed
            app.push_screen(HelpScreen(glyphs_for(app.ascii_mode), app.server_rules(), app.where, hints,
                                       side_line=side_line is not None))

    def guided_round(self, then: Callable[[bool], None] | None = None) -> None:
        """The guided round (not over itself); once played or skipped it is not offered at start-up again,
        and ``then`` is told which (``True``: played to the end)."""
        from ..screens.guided_round import GuidedRoundScreen

        app = self._app

        def done(played: bool | None) -> None:
            app.remember(guided_round_done=True)
            if then is not None:
                then(bool(played))

        if not isinstance(app.screen, GuidedRoundScreen):
            app.push_screen(GuidedRoundScreen(), done)

    def puzzles(self, difficulty: str = "any") -> None:
        """Puzzles of ``difficulty`` (not over a puzzle)."""
        from ..screens.puzzle import PuzzleScreen

        if not isinstance(self._app.screen, PuzzleScreen):
            self._app.push_screen(PuzzleScreen(difficulty=difficulty))

    def stats(self) -> None:
        """The player's statistics."""
        from ..screens.stats import StatsScreen

        app = self._app
        stats = app.stats_store.load()
        app.push_screen(StatsScreen(stats, app.stats_store.problem, ascii_mode=app.ascii_mode))

    def finished_matches(self) -> None:
        """The matches finished on this computer, to replay one: read in a worker (reading 50 long
        matches takes a quarter of a second, not on the screen's time)."""
        self._app.run_worker(self._read_finished, group="finished", exclusive=True, thread=True)

    def _read_finished(self) -> None:
        from ..local.saves import FinishedStore
        from ..screens.finished import FinishedListScreen

        app = self._app
        assert app.store is not None  # the command is offered only where matches are kept
        kept = FinishedStore(app.store.data_dir).newest_first()
        app.call_from_thread(app.push_screen, FinishedListScreen(kept), self._replay_kept)

    def _replay_kept(self, kept: FinishedFile | None) -> None:
        if kept is not None and kept.saved is not None:
            from ..screens.replay import ReplayScreen

            self._app.push_screen(ReplayScreen(kept.saved.match,
                                               [f"Played on this computer: {kept.saved.setup.mode_label}"],
                                               ascii_mode=self._app.ascii_mode, ended=kept.saved.ended,
                                               you=kept.saved.setup.human_seat))
