"""Perfect play as a teacher on the game screen: step-by-step hints and analysis mode.

A mixin for ``GameScreen``: it asks the solver off the event loop, remembers the
answers per position, counts the hints each player uses, and tells the screen
what to draw (notes under towers, hinted towers, the status text).
"""

from __future__ import annotations

from textual import work
from textual.binding import Binding
from textual.message import Message
from textual.worker import get_current_worker

from ..rules import Analysis, Budget, Position, SearchAborted, shared_solver
from ..rules.teaching import Hint
from ..rules.wording import plies, plural
from ..table import HUMAN

#: How long one question to the solver may take (only positions above 18 discs come near it).
CONSULT_SECONDS = 8.0
HINT_STEPS = 3
TEACHING_BINDINGS = [
    Binding("H", "hint", "Hint"),
    Binding("A", "analysis", "Analysis"),
]


def verdict_note(wins: bool, count: int) -> tuple[str, str]:
    """The mark under a tower: ``W3`` (a win in 3 plies) or ``L5``, and its kind."""
    return (f"W{count}", "win") if wins else (f"L{count}", "loss")


class TeachingMixin:
    """Hints (``H``, one step more per press) and analysis mode (``A``) for the game screen."""

    class Consulted(Message):
        """The solver answered (or gave up on: ``analysis`` is ``None``) a question about ``position``."""

        def __init__(self, position: Position, analysis: Analysis | None, purpose: str, turn: object) -> None:
            super().__init__()
            self.position = position
            self.analysis = analysis
            self.purpose = purpose
            self.turn = turn

    def reset_teaching(self) -> None:
        self.hint_turn: object | None = None
        self.hint_step = 0
        self._analyses: dict[Position, Analysis] = {}
        self._asked: set[tuple[Position, str]] = set()
        self._analysis_counted: set[object] = set()

    # ---- permissions and counting ----------------------------------------------------------

    @property
    def analysis_on(self) -> bool:
        """Analysis mode, kept by the table (so a resumed match has it as it was left)."""
        return self.hints_allowed and self.table.analysis_on

    @property
    def hints_allowed(self) -> bool:
        return self.table.setup.hints and self.table.hints_allowed

    def count_hint(self, player: int) -> None:
        self.table.hints_used[player] += 1
        self._save_table()

    def _save_table(self) -> None:
        """A local table saves its match (hint counts and analysis mode included); others keep nothing."""
        save = getattr(self.table, "save", None)
        if save is not None:
            save()

    def _refuse_help(self) -> bool:
        """Say why help is not available now (and return True), or return False."""
        if not self.hints_allowed:
            self.say("Hints and analysis are off in this match.")
            return True
        return False

    def _helping_live_player(self) -> bool:
        """Whether help now would help a player on this terminal in the live position."""
        match = self.match
        return (self.viewing is None and not match.round.is_over and not match.is_over
                and self.table.seat(match.to_move) == HUMAN)

    # ---- asking the solver -------------------------------------------------------------------

    def analysis_of(self, position: Position) -> Analysis | None:
        return self._analyses.get(position)

    def consult(self, position: Position, purpose: str) -> None:
        """Ask the solver about ``position`` in a worker, once per position and purpose."""
        if (position, purpose) in self._asked:
            return
        self._asked.add((position, purpose))
        self._consult(position, purpose, self.turn)

    @work(thread=True, group="oracle")
    def _consult(self, position: Position, purpose: str, turn: object) -> None:
        worker = get_current_worker()
        try:
            analysis = shared_solver.analyse(position, Budget(CONSULT_SECONDS, cancelled=lambda: worker.is_cancelled))
        except SearchAborted:
            analysis = None
        if not worker.is_cancelled:
            self.post_message(self.Consulted(position, analysis, purpose, turn))

    def on_teaching_mixin_consulted(self, message: Consulted) -> None:
        self._asked.discard((message.position, message.purpose))
        if message.analysis is None:
            self.say("Too many discs to solve in time; ask again in a moment (the work so far is kept).")
            return
        self._analyses[message.position] = message.analysis
        if message.purpose == "hint" and message.turn == self.turn:
            self._next_hint_step()
        else:
            self.refresh_view()

    # ---- hints -------------------------------------------------------------------------------

    def action_hint(self) -> None:
        """One more step of help: the verdict, then the tower to move, then the whole move."""
        if self._refuse_help():
            return
        if not self._helping_live_player():
            self.say("Hints are for the player to move, in the live position.")
            return
        if self.hint_turn == self.turn and self.hint_step >= HINT_STEPS:
            self.say(self.current_hint().describe(HINT_STEPS, self.match.players[self.match.to_move]), "info")
            return
        if self.analysis_of(self.match.position) is None:
            self.say("Thinking about a hint...", "thinking")
            self.consult(self.match.position, "hint")
            return
        self._next_hint_step()

    def _next_hint_step(self) -> None:
        if self.hint_turn != self.turn:
            self.hint_turn, self.hint_step = self.turn, 0
        if self.hint_step < HINT_STEPS:
            self.hint_step += 1
            self.count_hint(self.match.to_move)
        self.refresh_view()

    def current_hint(self) -> Hint | None:
        """The hint shown for the live position, if a hint has been asked for it."""
        if self.hint_turn != self.turn or self.viewing is not None:
            return None
        analysis = self.analysis_of(self.match.position)
        return Hint(analysis) if analysis is not None and analysis.moves else None

    def hint_marks(self, position: Position) -> dict[int, tuple[str, str]]:
        """The towers the hint points at, with their marks: the one to ``move`` (step 2), and
        where it goes, ``onto`` (step 3). Words, so they read without colour too."""
        hint = self.current_hint()
        if hint is None or self.hint_step < 2:
            return {}
        mover = position.towers.index(hint.move.mover)
        marks = {mover: ("move", "hint")}
        if self.hint_step >= 3:
            target = next(slot for slot, tower in enumerate(position.towers)
                          if tower == hint.move.target and slot != mover)
            marks[target] = ("onto", "hint")
        return marks

    # ---- analysis mode -----------------------------------------------------------------------

    def action_analysis(self) -> None:
        """Mark every move on the board as a win or a loss, with its plies (toggles)."""
        if self._refuse_help():
            return
        self.table.analysis_on = not self.table.analysis_on
        self._save_table()
        self.refresh_view()

    def analysis_notes(self, position: Position, picked_slot: int | None) -> dict[int, tuple[str, str]]:
        """The marks under the towers in analysis mode (asks the solver when it does not know yet).

        Each tower shows its best move's outcome; with a tower picked up, each target shows
        the outcome of putting it there.
        """
        if not self.analysis_on:
            return {}
        analysis = self.analysis_of(position)
        if analysis is None:
            self.consult(position, "analysis")
            return {}
        self._count_analysis()
        verdicts = {(item.move.mover, item.move.target): item.verdict for item in analysis.moves}
        notes: dict[int, tuple[str, str]] = {}
        picked = position.towers[picked_slot] if picked_slot is not None else None
        for slot, tower in enumerate(position.towers):
            if picked is not None and slot != picked_slot:
                verdict = verdicts.get((picked, tower))
                notes[slot] = verdict_note(verdict.wins, verdict.plies) if verdict else ("", "")
                continue
            own = [item.verdict for item in analysis.moves if item.move.mover == tower]
            if own:
                best = max(own, key=lambda verdict: (verdict.wins, -verdict.plies if verdict.wins else verdict.plies))
                notes[slot] = verdict_note(best.wins, best.plies)
            else:
                notes[slot] = ("-", "none")
        return notes

    def _count_analysis(self) -> None:
        """Analysis of the live position on a local player's turn counts as one hint per turn."""
        if self._helping_live_player() and self.turn not in self._analysis_counted:
            self._analysis_counted.add(self.turn)
            self.count_hint(self.match.to_move)

    def teaching_prompt(self) -> tuple[str, str] | None:
        """The status line while a hint or the analysis is showing, else ``None``."""
        hint = self.current_hint()
        name = self.match.players[self.match.to_move]
        if hint is not None and self.hint_step:
            return (hint.describe(self.hint_step, name), "info")
        if self.analysis_on:
            analysis = self.analysis_of(self.shown_position)
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
                    "Marks: best move, W win / L loss in plies.", "info")
        return None
