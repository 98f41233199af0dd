"""Puzzles: find the only move that wins. A wrong answer is refuted by perfect play."""

from __future__ import annotations

import random

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Static

from ..app.soluna_view import app_view
from ..local.files import SaveError
from ..play.view import tower_looks
from ..rules import DEFAULT_DISCS, Arrangement, Budget, Move, OptionError, PlacedMove
from ..rules.puzzles import ANY, Puzzle, make_puzzle, refutation
from ..rules.wording import plies
from ..terminal.glyphs import glyphs_for
from ..terminal.sizes import NARROW_CLASS
from ..widgets.board import Board
from ..widgets.key_footer import KeyFooter
from ..widgets.move_prompt import MovePrompt
from ..widgets.status_line import StatusLine
from .difficulty import DifficultyScreen
from .picking import PICKING_BINDINGS, TYPING_BINDING, BoardScreen, Picking
from .quiet_focus import QuietFocus
from .solver_work import solve_in_worker
from .styled_as_mounted import StyledAsMounted

MAX_SEED = 10**9


class PuzzleScreen(QuietFocus, StyledAsMounted, BoardScreen[None]):
    """One puzzle at a time; ``n`` for the next, ``r`` to try again, ``D`` to change the difficulty."""

    BINDINGS = [
        *PICKING_BINDINGS,
        TYPING_BINDING,
        Binding("n", "next_puzzle", "Next puzzle"),
        Binding("r", "retry", "Try again"),
        Binding("D", "difficulty", "Difficulty"),
        Binding("q", "leave", "Back"),
    ]

    class Ready(Message):
        def __init__(self, puzzle: Puzzle | None, problem: str = "") -> None:
            super().__init__()
            self.puzzle = puzzle
            self.problem = problem

    class Refuted(Message):
        def __init__(self, puzzle: Puzzle, move: Move, line: list[Move]) -> None:
            super().__init__()
            self.puzzle = puzzle
            self.move = move
            self.line = line

    def __init__(self, seed: int | None = None, difficulty: str = ANY, discs: int = DEFAULT_DISCS, *,
                 leave_quits: bool = False) -> None:
        super().__init__()
        self.seed = seed if seed is not None else random.SystemRandom().randrange(MAX_SEED)
        self.difficulty = difficulty
        self.discs = discs
        self.leave_quits = leave_quits
        self.picking = Picking(self)
        self.puzzle: Puzzle | None = None
        self.answered: Move | None = None
        #: The places the answer was played from and onto.
        self.answered_places: PlacedMove | None = None
        self.solved = False
        #: The perfect continuation after a wrong answer.
        self.line: list[Move] | None = None
        #: Only the first answer to a puzzle counts in the stats.
        self.tried = False
        self.first_answer_solved = False

    def compose(self) -> ComposeResult:
        glyphs = glyphs_for(app_view(self).ascii_mode)
        with Horizontal(id="puzzle-main"):
            with Vertical(id="play-area"):
                yield Board(glyphs, id="board")
                # A box of fixed height: the prompt opens in the status's place, never moving the board.
                with Vertical(id="under-board"):
                    yield MovePrompt(id="move-prompt")
                    yield StatusLine(id="status")
            with Vertical(id="sidebar"):
                yield Static("", id="puzzle-info", markup=False)
                yield Static("", id="puzzle-verdict", markup=False)
        yield KeyFooter()

    @property
    def board(self) -> Board:
        return self.query_one(Board)

    def on_mount(self) -> None:
        self.query_one("#puzzle-info").border_title = "Puzzle"
        self.query_one("#puzzle-verdict").border_title = "Answer"
        self.record = app_view(self).stats_store.load().puzzles
        self.load_puzzle()

    # ---- finding a puzzle --------------------------------------------------------------------

    def load_puzzle(self) -> None:
        if self.is_mounted and self.picking.move_prompt.is_open:
            self.picking.close_prompt()
        self.puzzle = None
        self.answered = self.answered_places = None
        self.solved = False
        self.line = None
        self.tried = False
        self.picking.drop()
        self.say(f"Finding a puzzle (seed {self.seed})...", "thinking")
        self._make(self.seed, self.difficulty, self.discs)

    def _make(self, seed: int, difficulty: str, discs: int) -> None:
        def make(budget: Budget) -> PuzzleScreen.Ready:
            try:
                return self.Ready(make_puzzle(seed, difficulty, discs, budget=budget))
            except OptionError as error:
                return self.Ready(None, str(error))

        solve_in_worker(self, make, group="puzzle")

    def on_puzzle_screen_ready(self, message: Ready) -> None:
        if message.puzzle is None:
            self.say(f"{message.problem}. D changes the difficulty, n tries another seed.", "error")
            return
        self.puzzle = message.puzzle
        self.redraw(cursor=0)

    # ---- answering -----------------------------------------------------------------------

    @property
    def picking_arrangement(self) -> Arrangement:
        assert self.puzzle is not None  # picking is refused until a puzzle is shown
        return Arrangement.opening(self.puzzle.position)

    def may_pick(self) -> bool:
        if self.puzzle is None:
            return False
        if self.answered is not None:
            self.say("Press r to try again, or n for the next puzzle.")
            return False
        return True

    def commit(self, placed: PlacedMove) -> None:
        puzzle = self.puzzle
        assert puzzle is not None  # a move is chosen only on a puzzle shown
        if self.picking.move_prompt.is_open:
            self.picking.close_prompt()  # the answer is played, however it was chosen
        first_try = not self.tried
        self.tried = True
        move = placed.move
        self.answered, self.answered_places = move, placed
        self.solved = puzzle.is_solution(move)
        if first_try:
            self.first_answer_solved = self.solved
            self._count(self.solved)
        if self.solved:
            self.redraw()
            return
        self.say("Not this one: perfect play shows why...", "thinking")
        self._refute(puzzle, move)

    def _refute(self, puzzle: Puzzle, move: Move) -> None:
        solve_in_worker(self, lambda budget: self.Refuted(puzzle, move, refutation(puzzle.position, move)),
                        group="puzzle")

    def on_puzzle_screen_refuted(self, message: Refuted) -> None:
        if message.puzzle is self.puzzle and message.move == self.answered:
            self.line = message.line
            self.redraw()

    def _count(self, solved: bool) -> None:
        """Count the first answer to a puzzle in the streak (kept in the stats file)."""
        try:
            self.record = app_view(self).stats_store.update(
                lambda stats: stats.puzzles.count(solved)).puzzles
        except SaveError as error:
            self.record.count(solved)
            self.notify(str(error), title="Stats not saved", severity="warning")

    # ---- drawing -------------------------------------------------------------------------

    def on_resize(self) -> None:
        self.redraw()  # the puzzle's panel is worded for the width (a line above the board on a phone)

    def redraw(self, cursor: int | None = None) -> None:
        puzzle = self.puzzle
        if puzzle is None:
            return
        table = Arrangement.opening(puzzle.position)
        looks = tower_looks(table, mover_slot=self.picking.picked_slot)
        placed = self.answered_places
        if placed is not None:  # the answer played: the table after it, marked as in a game (r takes a wrong one back)
            looks = tower_looks(table.after(placed), last=placed)
            cursor = placed.target_slot
        self.board.show(looks, cursor)
        stats = self.record
        if self.app.has_class(NARROW_CLASS):  # above the board on a phone: in as few lines as it reads
            info = (f"Find the only move that wins (in {plies(puzzle.plies)}). Seed {puzzle.seed}, {self.difficulty}."
                    f" Streak {stats.streak} (best {stats.best_streak}), {stats.solved} solved, {stats.failed} failed.")
        else:
            info = (f"Find the only move\nthat wins.\n\nSeed {puzzle.seed}, {self.difficulty} difficulty\n"
                    f"It wins in {plies(puzzle.plies)}.\n\n"
                    f"Streak {stats.streak} (best {stats.best_streak})\n{stats.solved} solved, {stats.failed} failed")
        self.query_one("#puzzle-info", Static).update(info)
        verdict = self.verdict_text()
        self.query_one("#puzzle-verdict", Static).update(verdict)
        self.query_one("#puzzle-verdict").set_class(not verdict, "-empty")
        self.say(*self.prompt())
        self.refresh_bindings()

    def verdict_text(self) -> str:
        if self.answered is None:
            return ""
        if self.solved:
            return f"{self.answered} wins. Solved!"
        line = self.line
        if line is None:
            return f"{self.answered} does not win."
        continuation = " ".join(str(move) for move in line)
        return (f"{self.answered} does not win.\nPerfect play goes on: {continuation}, "
                f"and you are left without a move.")

    def prompt(self) -> tuple[str, str]:
        if self.answered is None:
            if self.picking.move_prompt.is_open:
                return ("Type the move, 2S>1S or by the towers' keys 3>6; Enter plays it, Esc closes.", "info")
            if self.picking.picked_slot is not None:
                return (f"Put {self.picking.picked_tower} on a lit tower (Enter), or Esc to put it back.", "info")
            return ("Your move: pick a tower up (arrows, Enter).", "info")
        if self.solved:
            second = "" if self.first_answer_solved else " (the streak counts first answers only)"
            return (f"Solved: {self.answered} wins!{second} n for the next puzzle.", "info")
        return ("Not the winning move. r to try again, n for the next puzzle.", "error")

    def say(self, text: str, kind: str = "warning") -> None:
        self.query_one(StatusLine).say(text, kind)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        answering = self.puzzle is not None and self.answered is None
        if action in ("press_focused", "put_back"):
            return self.picking.key_state(action, answering)
        if action == "open_move_prompt":  # hidden once answered: r and n say what comes next, in 80 columns
            return True if answering else (False if self.answered is not None else None)
        if action == "retry":
            return self.answered is not None and not self.solved
        return True

    # ---- keys ----------------------------------------------------------------------------

    def action_next_puzzle(self) -> None:
        self.seed = (self.seed + 1) % MAX_SEED
        self.load_puzzle()

    def action_retry(self) -> None:
        self.answered = self.answered_places = None
        self.line = None
        self.redraw(cursor=0)

    def action_difficulty(self) -> None:
        """Choose the difficulty from a list, which says first when it would replace an unsolved puzzle."""
        unsolved = self.puzzle is not None and not self.solved
        self.app.push_screen(DifficultyScreen(self.difficulty, unsolved), self._difficulty_chosen)

    def _difficulty_chosen(self, difficulty: str | None) -> None:
        if difficulty is not None and difficulty != self.difficulty:
            self.difficulty = difficulty
            self.load_puzzle()

    def action_leave(self) -> None:
        if self.leave_quits:
            self.app.exit()
        else:
            self.workers.cancel_group(self, "puzzle")
            self.dismiss()
