"""Perfect play as a teacher: step-by-step hints and analysis mode, without the solver.

The coach remembers what the solver said about each position, which questions are out,
the hint step of the turn and whether analysis has been counted for it. It never asks
the solver itself: ``ask`` says whether a question should go out, the screen runs it in a
worker and hands the answer to ``answered``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from ..rules import Arrangement, Position, Tower
from ..rules.wording import plies, plural
from .looks import NO_NOTE, Note, NoteKind

if TYPE_CHECKING:
    from ..rules.solver import Analysis, Verdict
    from ..rules.teaching import Hint

#: Hint steps per turn: the verdict, the tower to move, the whole move.
HINT_STEPS = 3


@dataclass(frozen=True)
class Turn:
    """Identifies one moment of one match, so late answers from a worker are recognised as stale."""

    match_serial: int
    round_number: int
    ply: int


class Purpose(Enum):
    """Why the solver was asked about a position."""

    HINT = "hint"
    ANALYSIS = "analysis"


def verdict_note(wins: bool, count: int) -> Note:
    """The mark under a tower: ``W3`` (a win in 3 plies) or ``L5``, and its kind."""
    return (f"W{count}", NoteKind.WIN) if wins else (f"L{count}", NoteKind.LOSS)


def best_verdicts(analysis: Analysis) -> dict[Tower, Verdict]:
    """Each tower's best move's outcome, as analysis mode marks it under the tower: the quickest win, else
    the longest loss."""
    best: dict[Tower, Verdict] = {}
    for item in analysis.moves:
        known = best.get(item.move.mover)
        if known is None or _rank(item.verdict) > _rank(known):
            best[item.move.mover] = item.verdict
    return best


def _rank(verdict: Verdict) -> tuple[bool, int]:
    """The better outcome ranks higher: a win over a loss, a quicker win, a longer loss."""
    return (verdict.wins, -verdict.plies if verdict.wins else verdict.plies)


def marks_legend(analysis: Analysis) -> str:
    """What the marks under the towers mean, by marks the position shown has (never one it has not):
    ``W1 wins in 1 ply, L4 loses in 4``."""
    verdicts = best_verdicts(analysis).values()
    win = min((verdict.plies for verdict in verdicts if verdict.wins), default=None)
    loss = max((verdict.plies for verdict in verdicts if not verdict.wins), default=None)
    if win is None or loss is None:
        return f"W{win} wins in {plies(win)}" if win is not None else f"L{loss} loses in {plies(loss or 0)}"
    return f"W{win} wins in {plies(win)}, L{loss} loses in {loss}"


class Coach:
    """The hints and analyses of one match on one screen."""

    def __init__(self) -> None:
        self.hint_turn: Turn | None = None
        self.hint_step = 0
        self._analyses: dict[Position, Analysis] = {}
        self._asked: set[tuple[Position, Purpose]] = set()
        self._analysis_counted: set[Turn] = set()

    # ---- the solver's answers ------------------------------------------------------------

    def analysis_of(self, position: Position) -> Analysis | None:
        return self._analyses.get(position)

    def ask(self, position: Position, purpose: Purpose) -> bool:
        """Whether to ask the solver about ``position`` now: once per position and purpose at a time."""
        if (position, purpose) in self._asked:
            return False
        self._asked.add((position, purpose))
        return True

    def answered(self, position: Position, analysis: Analysis | None, purpose: Purpose) -> None:
        """The solver's answer (``None``: it gave up in time; the question may be asked again)."""
        self._asked.discard((position, purpose))
        if analysis is not None:
            self._analyses[position] = analysis

    # ---- hints -----------------------------------------------------------------------------

    def hints_done(self, turn: Turn) -> bool:
        """Whether every step of help has been given on this turn."""
        return self.hint_turn == turn and self.hint_step >= HINT_STEPS

    def step_hint(self, turn: Turn) -> bool:
        """One step more on this turn; True when it is a new step (a hint used, to be counted)."""
        if self.hint_turn != turn:
            self.hint_turn, self.hint_step = turn, 0
        if self.hint_step >= HINT_STEPS:
            return False
        self.hint_step += 1
        return True

    def current_hint(self, turn: Turn, live: Position | None) -> Hint | None:
        """The hint shown for the live position (``None`` while an earlier one is shown), if asked for."""
        if self.hint_turn != turn or live is None:
            return None
        analysis = self.analysis_of(live)
        from ..rules.teaching import Hint

        return Hint(analysis) if analysis is not None and analysis.moves else None

    def hint_marks(self, turn: Turn, live: Arrangement | None) -> dict[int, Note]:
        """The places the hint points at on the live table, with their marks: the tower to ``move``
        (step 2), and where it goes, ``onto`` (step 3). Words, so they read without colour too."""
        if live is None or self.hint_step < 2:
            return {}
        hint = self.current_hint(turn, live.position)
        if hint is None:
            return {}
        placed = live.resolve(hint.move)
        marks: dict[int, Note] = {placed.mover_slot: ("move", NoteKind.HINT)}
        if self.hint_step >= 3:
            marks[placed.target_slot] = ("onto", NoteKind.HINT)
        return marks

    # ---- analysis mode ---------------------------------------------------------------------

    def counts_analysis(self, turn: Turn) -> bool:
        """Analysis shown on a player's live turn counts as one hint per turn: True the first time."""
        if turn in self._analysis_counted:
            return False
        self._analysis_counted.add(turn)
        return True

    def analysis_notes(self, table: Arrangement, picked_slot: int | None) -> dict[int, Note]:
        """The marks under the towers in analysis mode, by place (none while the solver has not answered).

        Each tower shows its best move's outcome; with a tower picked up, each target shows
        the outcome of putting it there.
        """
        analysis = self.analysis_of(table.position)
        if analysis is None:
            return {}
        verdicts = {(item.move.mover, item.move.target): item.verdict for item in analysis.moves}
        notes: dict[int, Note] = {}
        picked = table[picked_slot] if picked_slot is not None else None
        bests = best_verdicts(analysis)
        for slot, tower in enumerate(table):
            if tower is None:
                continue
            if picked is not None and slot != picked_slot:
                verdict = verdicts.get((picked, tower))
                notes[slot] = verdict_note(verdict.wins, verdict.plies) if verdict else NO_NOTE
                continue
            best = bests.get(tower)
            notes[slot] = verdict_note(best.wins, best.plies) if best is not None else ("-", NoteKind.NONE)
        return notes

    def prompt(self, turn: Turn, live: Position | None, shown: Position, analysis_on: bool,
               name: str) -> tuple[str, str] | None:
        """The status line while a hint (for ``name``, to move) or the analysis is showing, else ``None``."""
        hint = self.current_hint(turn, live)
        if hint is not None and self.hint_step:
            return (hint.describe(self.hint_step, name), "info")
        if not analysis_on:
            return None
        analysis = self.analysis_of(shown)
        if analysis is None:
            return ("Analysis: solving...", "thinking")
        if not analysis.moves:
            return ("Analysis: no move is left; the player to move has lost.", "info")
        verdict = analysis.verdict
        wins = len(analysis.winning_moves)
        state = (f"a win in {plies(verdict.plies)}" if verdict.wins
                 else f"lost, holding out {plies(verdict.plies)}")
        return (f"Analysis: {state}; {wins} of {plural(len(analysis.moves), 'move')} "
                f"{'wins' if wins == 1 else 'win'}. "
                f"Under each tower, its best move: {marks_legend(analysis)}.", "info")
