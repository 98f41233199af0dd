"""Puzzles in lines: find the only move that wins, typed as a move is in a match.

``LinePuzzle`` speaks to a door as ``LineGame`` does (``start``, ``take``, ``prompt``, ``stop``, ``finished``):
the puzzle's table, then each answer judged; a wrong one is refuted by perfect play, as on the puzzle
screen (``screens/puzzle.py``), and the first answer to each puzzle counts in the streak kept in the stats.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..local.files import SaveError
from ..rules import Arrangement, OptionError, PlacedMove, SolunaError
from ..rules.puzzles import DIFFICULTIES, Puzzle, make_puzzle, refutation
from ..rules.wording import plies
from .reply import Reply
from .runner import CallOff, Runner
from .speech import error_sentence, legal_moves_lines, table_line, tower_line
from .typed_lines import MoveRefused, looks_like_a_move, not_understood, read_command, read_move, read_place

if TYPE_CHECKING:
    from ..local.player_stats import PuzzleRecord, StatsStore
    from ..rules.solver import Budget

MAX_SEED = 10**9
COMMANDS = {
    "board": "board: the towers again.",
    "tower": "tower 7: tower 7, where it can go and what can come onto it.",
    "moves": "moves: the legal moves, by the tower that moves.",
    "hint": "hint: the tower to move, then the whole move (the puzzle then counts as not solved in your streak).",
    "retry": "retry: try the same puzzle again.",
    "next": "next: the next puzzle (next hard: the next hard one; easy, medium, hard or any).",
    "stats": "stats: your puzzle streak.",
    "help": "help: these lines.",
    "quit": "quit: leave.",
}
ALIASES = {"b": "board", "t": "tower", "m": "moves", "h": "hint", "r": "retry", "n": "next", "s": "stats", "?": "help",
           "q": "quit", "exit": "quit", "bye": "quit", "again": "retry", "legal": "moves"}
WORDS = frozenset(COMMANDS)


class LinePuzzle:
    """One puzzle at a time, from ``seed`` on (each ``next`` the following seed)."""

    def __init__(self, runner: Runner, say: Callable[[list[str]], None], *, seed: int | None = None,
                 difficulty: str = "any", discs: int = 12, stats_store: StatsStore | None = None,
                 quick_answer: float = 0.0) -> None:
        self.runner = runner
        self.seed = seed if seed is not None else random.SystemRandom().randrange(MAX_SEED)
        self.difficulty = difficulty
        self.discs = discs
        self._stats_store = stats_store
        self._quick_answer = quick_answer
        self._lock = threading.RLock()
        self._settled = threading.Condition(self._lock)
        self.reply = Reply(say)
        self._calls: list[CallOff] = []
        self._waiting = False
        self.puzzle: Puzzle | None = None
        self.answered: PlacedMove | None = None
        self.solved = False
        self.tried = False
        #: The hints given on this puzzle: 1 the tower to move, 2 the whole move.
        self.hints = 0
        self.finished = False

    # ---- the door's side ---------------------------------------------------------------------------

    def start(self) -> None:
        with self._lock, self.reply.held(self._state_line):
            self._load()
            self._settle()

    def take(self, line: str) -> None:
        with self._lock:
            if self.finished:
                return
            with self.reply.held(self._state_line):
                self._take(line.strip())
                self._settle()

    def stop(self) -> None:
        with self._lock:
            self.finished = True
            for call_off in self._calls:
                call_off()
            self._calls.clear()

    @property
    def prompt(self) -> str:
        with self._lock:
            if self.finished:
                return ""
            if self.puzzle is None:
                return "Puzzle> "
            if self.answered is None:
                return "Your answer> "
            return "Type next or retry> " if not self.solved else "Type next> "

    # ---- saying ------------------------------------------------------------------------------------

    def _say(self, *lines: str) -> None:
        self.reply.say(*lines)

    def _settle(self) -> None:
        if self._quick_answer > 0:
            self._settled.wait_for(lambda: not self._waiting, timeout=self._quick_answer)
        if self._waiting:
            self._say("Perfect play is working it out.")

    def _solve(self, job: Callable[[Budget], object], done: Callable[[object], None]) -> None:
        self._waiting = True

        def answered(answer: object | None) -> None:
            with self._lock:
                self._waiting = False
                if not self.finished:
                    done(answer)
                self._settled.notify_all()
                self.reply.flush()

        self._calls.append(self.runner.solve(job, None, answered))

    # ---- a puzzle ------------------------------------------------------------------------------------

    def _load(self) -> None:
        self.puzzle, self.answered, self.solved, self.tried, self.hints = None, None, False, False, 0
        seed, difficulty, discs = self.seed, self.difficulty, self.discs

        def make(budget: Budget) -> Puzzle | str:
            try:
                return make_puzzle(seed, difficulty, discs, budget=budget)
            except OptionError as error:
                return str(error)

        self._solve(make, self._ready)

    def _ready(self, found: object) -> None:
        if not isinstance(found, Puzzle):
            self._say(f"{found}. Type next hard, next easy or next any for another.")
            return
        self.puzzle = found
        self._say(f"Puzzle {found.seed}, {found.difficulty} difficulty: find the only move that wins, "
                  f"in {plies(found.plies)}. You move first.", table_line(self._table()))

    def _table(self) -> Arrangement:
        assert self.puzzle is not None  # asked only once a puzzle is shown
        return Arrangement.opening(self.puzzle.position)

    def _state_line(self) -> str:
        if self.puzzle is None:
            return "Finding a puzzle."
        if self.answered is None:
            return "Type your answer, like 3>7, or help."
        if self.solved:
            return "Solved. Type next for another puzzle."
        return "Not the winning move. Type retry, or next for another puzzle."

    def _take(self, text: str) -> None:
        if not text:
            self._say(self._state_line())
            return
        command = read_command(text, WORDS, ALIASES)
        if command is not None:
            getattr(self, f"_cmd_{command.word}")(command.argument)
        elif not looks_like_a_move(text):
            self._say(not_understood(text))
        elif self.puzzle is None:
            self._say("There is no puzzle yet: wait a moment.")
        elif self.answered is not None:
            self._say(self._state_line())
        else:
            self._answer(text)

    def _answer(self, text: str) -> None:
        puzzle = self.puzzle
        assert puzzle is not None  # answers are taken only once a puzzle is shown
        try:
            placed = read_move(text, self._table())
        except MoveRefused as refusal:
            self._say(str(refusal))
            return
        first = not self.tried
        self.tried = True
        self.answered = placed
        self.solved = puzzle.is_solution(placed.move)
        record = self._count(self.solved) if first else None
        mover, target = placed.places
        if self.solved:
            second = "" if first else " The streak counts first answers only."
            streak = f" Streak {record.streak} (best {record.best_streak})." if record is not None else ""
            self._say(f"Solved: {mover} onto {target}, {placed.move}, wins!{streak}{second} Type next for another.")
            return
        self._say(f"Not this one: {mover} onto {target}, {placed.move}, does not win.")
        position, move = puzzle.position, placed.move
        self._solve(lambda budget: refutation(position, move), self._refuted)

    def _refuted(self, line: object) -> None:
        moves = " ".join(str(move) for move in line) if isinstance(line, list) else ""
        self._say(f"Perfect play goes on: {moves}, and you are left without a move. "
                  "Type retry, or next for another puzzle.")

    def _count(self, solved: bool) -> PuzzleRecord | None:
        """Count the first answer to a puzzle in the streak (kept in the stats file)."""
        if self._stats_store is None:
            return None
        try:
            return self._stats_store.update(lambda stats: stats.puzzles.count(solved)).puzzles
        except SaveError as error:
            self._say(f"Stats not saved: {error}")
            return None

    # ---- commands ------------------------------------------------------------------------------------

    def _cmd_help(self, argument: str) -> None:
        self._say("Type the move that wins as two tower numbers, like 3>7 (tower 3 onto tower 7), or in notation, "
                  "1M>1M.", "Commands: " + " ".join(COMMANDS.values()))

    def _cmd_board(self, argument: str) -> None:
        if self.puzzle is not None:
            self._say(table_line(self._table()))

    def _cmd_tower(self, argument: str) -> None:
        if self.puzzle is None:
            return
        table = self._table()
        try:
            self._say(tower_line(table, read_place(argument or "?", table)))
        except SolunaError as error:
            self._say(error_sentence(error) + " Type tower and its number, like tower 3.")

    def _cmd_moves(self, argument: str) -> None:
        if self.puzzle is not None:
            self._say(*legal_moves_lines(self._table()))

    def _cmd_hint(self, argument: str) -> None:
        """One step more each time, as the game's hint goes on from its verdict (a puzzle says that already):
        the tower to move, then the whole move. A first hint counts the puzzle as not solved in the streak, as a
        wrong first answer would; after a wrong answer, the hint is for trying again."""
        puzzle = self.puzzle
        if puzzle is None:
            self._say("There is no puzzle yet: wait a moment.")
            return
        if self.solved:
            self._say(self._state_line())
            return
        counted = ""
        if not self.tried:
            self.tried = True
            record = self._count(False)
            counted = " This puzzle now counts as not solved in your streak." if record is not None else ""
        self.answered = None
        self.hints = min(2, self.hints + 1)
        placed = self._table().resolve(puzzle.solution)
        mover, target = placed.places
        if self.hints == 1:
            self._say(f"Hint: move the {puzzle.solution.mover} tower. It is tower {mover}. Type hint again for the "
                      f"whole move.{counted}")
        else:
            self._say(f"Hint: play {puzzle.solution} (win in {plies(puzzle.plies)}). Type {mover}>{target}.")

    def _cmd_retry(self, argument: str) -> None:
        if self.puzzle is None or self.answered is None:
            self._say("Nothing to try again: type your answer.")
            return
        self.answered, self.solved = None, False
        self._say("Again.", table_line(self._table()))

    def _cmd_next(self, argument: str) -> None:
        wanted = argument.casefold() or self.difficulty
        if wanted != "any" and wanted not in DIFFICULTIES:
            self._say(f"No difficulty {argument[:12]!r}: type next easy, next medium, next hard or next any.")
            return
        self.difficulty = wanted
        self.seed = (self.seed + 1) % MAX_SEED
        for call_off in self._calls:
            call_off()
        self._calls.clear()
        self._load()

    def _cmd_stats(self, argument: str) -> None:
        if self._stats_store is None:
            self._say("No statistics are kept here.")
            return
        record = self._stats_store.load().puzzles
        self._say(f"Puzzles: {record.solved} solved, {record.failed} failed; streak {record.streak} "
                  f"(best {record.best_streak}).")

    def _cmd_quit(self, argument: str) -> None:
        self.stop()
        self._say("Goodbye.")
