"""The line mode on this computer: ``soluna play --screen-reader`` and ``soluna puzzle --screen-reader``.

What the full-screen game does as it starts, said in lines: an unfinished saved match is offered first
(``resume`` or ``new``), a save that cannot be read is set aside and said, a new match is written at once and
its setup remembered, a rematch is a new match at a new table, and the data directory's stats count every
finished match and puzzle answer; ``replays`` lists the finished matches kept here and ``replay 2`` replays one move
by move (``line_replay.py``), as the palette's "Replay a finished match" does. Whether to play in lines at all:
``wanted``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from ..local.files import SaveError
from ..local.match_setup import MatchSetup
from ..local.player_stats import StatsStore
from ..local.preferences import Preferences
from ..local.saves import (
    FinishedFile,
    FinishedStore,
    ResumeFailed,
    SavedMatch,
    SaveStore,
    describe_finished,
    describe_saved,
)
from ..local.table import LocalTable, Table
from ..rules import Match
from .line_game import LineGame
from .line_puzzle import LinePuzzle
from .line_replay import LineReplay
from .runner import ThreadRunner
from .terminal_door import LineCore, run_lines

#: How long a reply waits for the computer's move (or a hint) on its way, so that it comes before the prompt.
QUICK_ANSWER = 0.6
#: The finished matches ``replays`` lists, the last first.
REPLAYS_LISTED = 10
#: What leaves a replay, back to the match (or the offer) it was asked from.
LEAVE_REPLAY = frozenset({"done", "match", "q", "quit", "exit"})
class LocalLines:
    """The offer of an unfinished saved match, then the match chosen, in lines (a ``LineCore``)."""

    def __init__(self, say: Callable[[list[str]], None], setup: MatchSetup, data_dir: Path | None, *,
                 notice: str = "", quick_answer: float = QUICK_ANSWER, preferences: Preferences | None = None) -> None:
        """``preferences``: as already read (a file found unreadable was set aside then: its problem is in it)."""
        self._say = say
        self.setup = setup
        self.preferences = preferences if preferences is not None else Preferences(data_dir)
        self.store = SaveStore(data_dir)
        self.stats_store = StatsStore(data_dir)
        self._notices = [each for each in (self.preferences.problem, notice) if each]
        self._quick_answer = quick_answer
        self._saved: SavedMatch | None = None
        self.game: LineGame | None = None
        self.finished = False
        self._data_dir = data_dir
        #: The finished matches ``replays`` listed, by their numbers; the one replayed.
        self.listed: list[FinishedFile] = []
        self.replay: LineReplay | None = None

    @property
    def prompt(self) -> str:
        if self.replay is not None:
            return self.replay.prompt
        if self.game is not None:
            return self.game.prompt
        return "" if self.finished else "Type resume or new> "

    def start(self) -> None:
        self._saved = self._read_save()
        if self._saved is None:
            self._play(self._new_table(self.setup))
            return
        self._say([*self._notices, *describe_saved(self._saved).splitlines(),
                   "Type resume to go on with it, or new to start the new match instead (the unfinished one "
                   "is then lost)."])
        self._notices = []

    def take(self, line: str) -> None:
        if self._replays(line.strip()):
            return
        if self.game is not None:
            self.game.take(line)
            self.finished = self.game.finished
            if line.strip().casefold() in ("help", "?"):
                self._say(["Also: replays lists the finished matches kept here, replay 1 replays the first."])
            return
        answer = line.strip().casefold()
        saved = self._saved
        if answer in ("q", "quit", "exit"):
            self.finished = True
            self._say(["Goodbye: the unfinished match stays saved."])
        elif answer in ("r", "resume", "yes", "y", "") and saved is not None:
            self.store.resuming()  # cleared once the match is told: if telling it stops the game, it is set aside
            self._play(LocalTable.from_saved(saved, self.store))
            self.store.resumed()
        elif answer in ("n", "new"):
            self._play(self._new_table(self.setup))
        else:
            self._say(["Type resume to go on with the unfinished match, new to start the new match instead, "
                       "or quit."])

    def _replays(self, text: str) -> bool:
        """A replay's line, ``replays`` or ``replay N``: taken here (``True``), else the match's or the offer's."""
        if self.replay is not None:
            if text.casefold() in LEAVE_REPLAY:
                self.replay = None
                self._say(["Replay closed." + (" Back to the match." if self.game is not None else "")])
            else:
                self.replay.take(text)
            return True
        word, _, argument = text.partition(" ")
        if word.casefold() == "replays":
            self.listed = FinishedStore(self._data_dir).newest_first()[:REPLAYS_LISTED]
            self._say(["Your finished matches, the last first (replay 1 replays it, move by move):",
                       *(f"{number}. {describe_finished(kept)}." for number, kept in enumerate(self.listed, 1))]
                      if self.listed else ["No finished match is kept here yet."])
            return True
        if word.casefold() != "replay":
            return False
        argument = argument.strip()
        chosen = int(argument) if argument.isascii() and argument.isdigit() else 0
        saved = self.listed[chosen - 1].saved if 1 <= chosen <= len(self.listed) else None
        if saved is None:
            self._say(["Type replays for the list of finished matches, then replay and a number from it, like "
                       "replay 1."])
            return True
        self.replay = LineReplay(saved.match, self._say, f"Replaying a match played on this computer: "
                                 f"{saved.setup.mode_label}.", "done goes back")
        self.replay.start()
        return True

    def stop(self) -> None:
        if self.game is not None:
            self.game.stop()
        self.finished = True
        self.store.release()

    def _read_save(self) -> SavedMatch | None:
        """The unfinished saved match, if any (a save that cannot be read is set aside, and said)."""
        try:
            saved = self.store.load()
        except SaveError as error:
            try:
                where = f"it was moved to {self.store.move_aside()}"
            except OSError as move_error:
                where = f"it could not be moved aside either ({move_error.strerror})"
            what = "Saved match set aside" if isinstance(error, ResumeFailed) else "Saved match unreadable"
            self._notices.append(f"{what}: {error}; {where}.")
            return None
        if self.store.elsewhere:
            self._notices.append("Another copy of Soluna has the saved match; this one saves apart.")
        return saved if saved is not None and not saved.match.is_over else None

    def _new_table(self, setup: MatchSetup, rematch_of: Match | None = None) -> LocalTable:
        """A new match, written at once, its setup remembered for next time."""
        match = rematch_of.rematch(setup.seed) if rematch_of is not None else setup.new_match()
        table = LocalTable(setup, match, self.store)
        self.preferences.remember(setup=setup)
        table.save()
        return table

    def _play(self, table: LocalTable) -> None:
        self.game = LineGame(table, ThreadRunner(), self._say, stats_store=self.stats_store,
                             rematch=self._rematch, notice=" ".join(self._notices),
                             quick_answer=self._quick_answer)
        self._notices = []
        self.game.start()

    def _rematch(self, match: Match) -> Table:
        assert self.game is not None  # a rematch is asked for by the game
        return self._new_table(self.game.table.setup.with_seed(None), rematch_of=match)


def play_in_lines(setup: MatchSetup, data_dir: Path | None, *, notice: str = "", ascii_only: bool = False,
                  preferences: Preferences | None = None) -> int:
    """``soluna play --screen-reader``: the match (or the unfinished one) in lines on this terminal."""
    return run_lines(lambda say: LocalLines(say, setup, data_dir, notice=notice, preferences=preferences),
                     sys.stdin.buffer,
                     sys.stdout.buffer, encoding=sys.stdout.encoding or "utf-8", ascii_only=ascii_only)


def puzzles_in_lines(seed: int | None, difficulty: str, discs: int, data_dir: Path | None, *,
                     ascii_only: bool = False) -> int:
    """``soluna puzzle --screen-reader``: puzzles in lines on this terminal."""

    def make(say: Callable[[list[str]], None]) -> LineCore:
        return LinePuzzle(ThreadRunner(), say, seed=seed, difficulty=difficulty, discs=discs,
                          stats_store=StatsStore(data_dir), quick_answer=QUICK_ANSWER)

    return run_lines(make, sys.stdin.buffer, sys.stdout.buffer, encoding=sys.stdout.encoding or "utf-8",
                     ascii_only=ascii_only)
