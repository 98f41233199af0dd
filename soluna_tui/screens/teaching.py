"""Perfect play as a teacher on the game screen: the hint and analysis keys and the solver's worker.

A mixin for ``GameScreen`` wiring its ``Coach`` (which decides) to keys, a worker and the
table (which counts the hints used and saves them). Nothing here runs while drawing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.dom import DOMNode
from textual.message import Message

from ..local.table import LocalTable, Table
from ..play.coach import Coach, Purpose, Turn
from ..play.looks import HistoryEntry
from ..play.match_flow import MatchFlow
from ..rules import Match, Position
from .solver_work import solve_in_worker

if TYPE_CHECKING:
    from ..rules.solver import Analysis, Budget

#: How long one question to the solver may take (only positions above 18 discs come near it).
CONSULT_SECONDS = 8.0
TEACHING_BINDINGS = [
    Binding("H", "hint", "Hint"),
    Binding("A", "analysis", "Analysis"),
]


class TeachingMixin:
    """Hints (``H``, one step more per press) and analysis mode (``A``) for the game screen."""

    coach: Coach
    flow: MatchFlow
    table: Table
    viewing: HistoryEntry | None
    #: Analysis mode was turned on and is not yet counted: one hint, for the first player here to
    #: see it on a live turn (and once per position: turning it off and on again adds nothing).
    _analysis_asked = False

    if TYPE_CHECKING:  # provided by the screen (declared here only for the type checker)

        @property
        def match(self) -> Match: ...

        @property
        def turn(self) -> Turn: ...

        @property
        def shown_position(self) -> Position: ...

        def post_message(self, message: Message) -> bool: ...

    class Consulted(Message):
        """The solver answered (or gave up on: ``analysis`` is ``None``) a question about ``position``."""

        def __init__(self, position: Position, analysis: Analysis | None, purpose: Purpose, turn: Turn) -> None:
            super().__init__()
            self.position = position
            self.analysis = analysis
            self.purpose = purpose
            self.turn = turn

    # ---- permissions and counting ----------------------------------------------------------

    @property
    def analysis_on(self) -> bool:
        """Analysis mode, kept by the table (so a resumed match has it as it was left)."""
        return self.hints_allowed and self.table.analysis_on

    @property
    def hints_allowed(self) -> bool:
        return self.table.setup.hints and self.table.hints_allowed

    def analysis_of(self, position: Position) -> Analysis | None:
        return self.coach.analysis_of(position)

    def count_hint(self, player: int) -> None:
        self.table.hints_used[player] += 1
        self._save_table()

    def _save_table(self) -> None:
        """A local table saves its match (hint counts and analysis mode included); others keep nothing."""
        if isinstance(self.table, LocalTable):
            self.table.save()

    def _refuse_help(self) -> bool:
        """Say why help is not available now (and return True), or return False."""
        if not self.hints_allowed:
            self.say("Hints and analysis are off in this match.")
            return True
        return False

    def _helping_live_player(self) -> bool:
        """Whether help now would help a player on this terminal in the live position."""
        return self.flow.live_turn_here(self.viewing is not None)

    # ---- asking the solver -------------------------------------------------------------------

    def consult(self, position: Position, purpose: Purpose) -> None:
        """Ask the solver about ``position`` in a worker, unless that question is already out."""
        if not self.coach.ask(position, purpose):
            return
        assert isinstance(self, DOMNode)  # the mixin's screen runs the worker
        turn = self.turn

        def consult(budget: Budget) -> TeachingMixin.Consulted:
            from ..rules.solver import shared_solver

            return self.Consulted(position, shared_solver.analyse(position, budget), purpose, turn)

        solve_in_worker(self, consult, seconds=CONSULT_SECONDS, aborted=self.Consulted(position, None, purpose, turn),
                        group="oracle", exclusive=False)

    def on_teaching_mixin_consulted(self, message: Consulted) -> None:
        self.coach.answered(message.position, message.analysis, message.purpose)
        if message.analysis is None:
            self.say("Too many discs to solve in time; ask again in a moment (the work so far is kept).")
            return
        if message.purpose is Purpose.HINT and message.turn == self.turn:
            self._next_hint_step()
            return
        self.seek_help()
        self.refresh_view()

    def seek_help(self) -> None:
        """What analysis mode needs at this moment: the solver's answer about the position shown,
        and, the first time it shows on a local player's live turn after being turned on, one hint
        counted (keeping it on costs nothing more)."""
        if not self.analysis_on:
            return
        position = self.shown_position
        if self.coach.analysis_of(position) is None:
            self.consult(position, Purpose.ANALYSIS)
        elif self._analysis_asked and self._helping_live_player():
            self._analysis_asked = False
            if self.coach.counts_analysis(self.turn):
                self.count_hint(self.match.to_move)

    # ---- the keys ----------------------------------------------------------------------------

    def action_hint(self) -> None:
        """One more step of help: the verdict, then the tower to move, then the whole move."""
        if self._refuse_help():
            return
        if not self._helping_live_player():
            self.say("Hints are for the player to move, in the live position.")
            return
        position = self.match.position
        hint = self.coach.current_hint(self.turn, position)
        if self.coach.hints_done(self.turn) and hint is not None:
            self.say(hint.describe(self.coach.hint_step, self.match.players[self.match.to_move]), "info")
            return
        if self.coach.analysis_of(position) is None:
            self.say("Thinking about a hint...", "thinking")
            self.consult(position, Purpose.HINT)
            return
        self._next_hint_step()

    def _next_hint_step(self) -> None:
        if self.coach.step_hint(self.turn):
            self.count_hint(self.match.to_move)
        self.refresh_view()

    def action_analysis(self) -> None:
        """Mark every move on the board as a win or a loss, with its plies (toggles)."""
        if self._refuse_help():
            return
        self.table.analysis_on = not self.table.analysis_on
        self._analysis_asked = self.table.analysis_on
        self._save_table()
        self.seek_help()
        self.refresh_view()

    def teaching_prompt(self) -> tuple[str, str] | None:
        """The status line while a hint or the analysis is showing, else ``None``."""
        live = self.match.position if self.viewing is None else None
        return self.coach.prompt(self.turn, live, self.shown_position, self.analysis_on,
                                 self.match.players[self.match.to_move])

    # Provided by the screen.
    def say(self, text: str, kind: str = "warning") -> None:
        raise NotImplementedError

    def refresh_view(self, cursor: int | None = None) -> None:
        raise NotImplementedError
