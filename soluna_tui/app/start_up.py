"""Starting up: the first screen (the match ``soluna play`` asked for, a puzzle, the guided round at a
first start, or the new-match form), the Welcome back offer of an unfinished saved match, and a damaged
save set aside."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..local.files import SaveError
from ..local.match_setup import MatchSetup
from ..local.saves import FINISHED_DIR, SAVE_SLOTS, ResumeFailed, SavedMatch, slot_file
from ..local.table import LocalTable
from ..play.where import Where
from ..rules.strengths import FIRST_MATCHED
from ..screens.game import GameScreen

if TYPE_CHECKING:
    from textual.screen import Screen

    from .host import AppHost
    from .matches_begun import Matches

#: One line on the screen of a second copy of the game started on the same data directory.
ELSEWHERE_NOTICE = "Another copy of Soluna has the saved match; this one saves apart."


def is_first_start(data_dir: Path) -> bool:
    """Nothing in the data directory says the game was ever played here: no save, no finished match, no stats."""
    from ..local.player_stats import STATS_FILE

    names = [*(slot_file(slot) for slot in range(1, SAVE_SLOTS + 1)), FINISHED_DIR, STATS_FILE]
    return not any(os.path.lexists(data_dir / name) for name in names)


class StartUp:
    """What the app shows first, and what it says as it does."""

    def __init__(self, app: AppHost, matches: Matches, *, setup: MatchSetup | None,
                 puzzle: tuple[int | None, str, int] | None, notice: str, offer_guided_round: bool = True) -> None:
        """``setup``: the match to start (``soluna play``); ``puzzle``: the puzzle to show instead;
        ``notice``: said once the first screen shows (the level ``--vs match`` chose, and why);
        ``offer_guided_round``: at a first start (``guides_first``), the guided round before the new-match form."""
        self._app = app
        self._matches = matches
        self.setup = setup
        self.puzzle = puzzle
        self.notice = notice
        self.offer_guided_round = offer_guided_round
        self._unfinished: SavedMatch | None = None
        self._first_table: LocalTable | None = None  # the match ``soluna play`` starts with, kept once drawn
        self._save_notice = ""

    def first_screen(self) -> Screen[Any] | None:
        """With a setup given (``soluna play``), the match is the first screen: no blank one before it
        (unless an unfinished match must be asked about first). Likewise the puzzle screen. None: Textual's
        default screen."""
        if self.puzzle is not None:
            from ..screens.puzzle import PuzzleScreen

            seed, difficulty, discs = self.puzzle
            return PuzzleScreen(seed, difficulty, discs, leave_quits=True)
        if self.setup is not None:
            self._unfinished, self._save_notice = self._read_save()
            if self._unfinished is None:
                # Written once it is on the screen (``keep_first_match``): a new match has nothing to lose
                # yet, and its first frame does not wait for the disk (a first write takes 5-20 ms).
                self._first_table = self._matches.new_table(self.setup, keep=False)
                return GameScreen(self._first_table)
        return None

    def keep_first_match(self) -> None:
        """As the app mounts: write the first match once it is drawn."""
        if self._first_table is not None:
            self._app.call_after_refresh(self._matches.keep_new_table, self._first_table)

    def greet(self) -> None:
        """As the app mounts: say the start-up notices; with no match on the screen, offer the unfinished
        saved match (Welcome back) or the new-match form."""
        app = self._app
        if self.notice:
            app.call_after_refresh(app.notify, self.notice, timeout=10)
        if isinstance(app.screen_stack[0], GameScreen) or self.puzzle is not None:
            if self._save_notice:
                app.call_after_refresh(app.notify, self._save_notice, severity="warning", timeout=10)
            return
        if self.setup is None:
            self._unfinished, self._save_notice = self._read_save()
        saved = self._unfinished
        if saved is None and self.guides_first():
            from .other_screens import OtherScreens

            OtherScreens(app).guided_round(then=self._guided_round_done)
            return
        if saved is None:
            app.action_new_match(notice=self._save_notice)
            return
        from ..screens.resume import ResumeScreen

        new_label = "Start the new match instead" if self.setup is not None else "Start a new match"
        app.push_screen(ResumeScreen(saved, new_label, notice=self._save_notice),
                        lambda resume: self._resume_chosen(saved, resume))

    def guides_first(self) -> bool:
        """A newcomer on this terminal: the guided round comes first (not over SSH, never twice, never once
        there is a save, a finished match or stats to say the game was played here)."""
        app, store = self._app, self._app.store
        return (self.offer_guided_round and store is not None and app.where is Where.TERMINAL
                and not app.preferences.guided_round_done and is_first_start(store.data_dir))

    def _guided_round_done(self, played: bool) -> None:
        """The new-match form: after the guided round, set for a match against the computer at your strength."""
        previous = MatchSetup.against_computer(FIRST_MATCHED.level, matched=True) if played else None
        self._app.action_new_match(previous=previous, notice=self._save_notice)

    def _read_save(self) -> tuple[SavedMatch | None, str]:
        """The unfinished saved match, if any, and a notice if the save had to be set aside, another
        copy of the game is playing the saved match, or the preferences were unreadable."""
        notices = [self._app.preferences.problem or ""]
        store = self._app.store
        if store is None:  # a terminal that keeps no save
            return None, " ".join(filter(None, notices))
        try:
            saved = store.load()
        except SaveError as error:
            saved = None
            notices.append(self._set_aside(error))
        if store.elsewhere:
            notices.append(ELSEWHERE_NOTICE)
        notice = " ".join(filter(None, notices))
        return (saved if saved is not None and not saved.match.is_over else None), notice

    def _set_aside(self, error: SaveError) -> str:
        """Move an unreadable save out of the way (never delete it); the notice to show."""
        store = self._app.store
        assert store is not None  # only a store that read a save sets one aside
        try:
            where = f"it was moved to {store.move_aside()}"
        except OSError as move_error:
            where = f"it could not be moved aside either ({move_error.strerror})"
        what = "Saved match set aside" if isinstance(error, ResumeFailed) else "Saved match unreadable"
        return f"{what}: {error}; {where}."

    def _resume_chosen(self, saved: SavedMatch, resume: bool | None) -> None:
        app = self._app
        if resume:
            store = app.store
            assert store is not None  # only a store that read a save offers it
            store.resuming()  # cleared once the match is on the screen: if it stops the game, it is set aside
            self._matches.show(LocalTable.from_saved(saved, store), shown=store.resumed)
        elif self.setup is not None:
            app.start_match(self.setup)
        else:
            app.action_new_match(previous=saved.setup)
