"""Perfect play as a teacher on the game screen: the hint and analysis keys and the solver's answers.

``Teaching`` is a part the game screen owns, wiring its ``Coach`` (which decides) to the keys, the screen's
worker and the table (which counts the hints used and saves them). Nothing here runs while drawing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.message import Message

from ..local.table import LocalTable
from ..play import view
from ..play.coach import Coach, Purpose, Turn
from ..rules import Position
from .solver_work import solve_in_worker

if TYPE_CHECKING:
    from ..rules.solver import Analysis, Budget
    from .game_host import GameHost

#: How long one question to the solver may take (only positions above 18 discs come near it).
CONSULT_SECONDS = 8.0
TEACHING_BINDINGS = [
    Binding("H", "hint", "Hint"),
    Binding("A", "analysis", "Analysis"),
]


class Consulted(Message):
    """The solver answered (or gave up on: ``analysis`` is ``None``) a question about ``position``."""

    def __init__(self, position: Position, analysis: Analysis | None, purpose: Purpose, turn: Turn) -> None:
        super().__init__()
        self.position = position
        self.analysis = analysis
        self.purpose = purpose
        self.turn = turn


class Teaching:
    """Hints (``H``, one step more per press) and analysis mode (``A``) for the game screen."""

    def __init__(self, game: GameHost) -> None:
        self._game = game
        self.coach = Coach()
        #: Analysis mode was turned on and is not yet counted: one hint, for the first player here to
        #: see it on a live turn (and once per position: turning it off and on again adds nothing).
        self._analysis_asked = False

    # ---- permissions and counting ----------------------------------------------------------

    @property
    def analysis_on(self) -> bool:
        """Analysis mode, kept by the table (so a resumed match has it as it was left)."""
        return self.hints_allowed and self._game.table.analysis_on

    @property
    def hints_allowed(self) -> bool:
        table = self._game.table
        return table.setup.hints and table.hints_allowed

    @property
    def side_line_hints(self) -> bool:
        """Whether a side line from this match has hints: as the match while it is in play (a match
        without hints stays without them), always once it is over."""
        return self.hints_allowed or self._game.match.is_over

    def analysis_of(self, position: Position) -> Analysis | None:
        return self.coach.analysis_of(position)

    def count_hint(self, player: int) -> None:
        self._game.table.hints_used[player] += 1
        self._save_table()

    def _save_table(self) -> None:
        """A local table saves its match (hint counts and analysis mode included); others keep nothing."""
        table = self._game.table
        if isinstance(table, LocalTable):
            table.save()

    def _refuse_help(self) -> bool:
        """Say why help is not available now (and return True), or return False."""
        if not self.hints_allowed:
            self._game.say("Hints and analysis are off in this match.")
            return True
        return False

    def _helping_live_player(self) -> bool:
        """Whether help now would help a player on this terminal in the live position."""
        return self._game.flow.live_turn_here(self._game.browsing.viewing is not None)

    # ---- asking the solver -------------------------------------------------------------------

    def consult(self, position: Position, purpose: Purpose) -> None:
        """Ask the solver about ``position`` in the screen's worker, unless that question is already out;
        the answer comes back to the screen as ``Consulted``."""
        if not self.coach.ask(position, purpose):
            return
        turn = self._game.flow.turn

        def consult(budget: Budget) -> Consulted:
            from ..rules.solver import shared_solver

            return Consulted(position, shared_solver.analyse(position, budget), purpose, turn)

        solve_in_worker(self._game, consult, seconds=CONSULT_SECONDS, aborted=Consulted(position, None, purpose, turn),
                        group="oracle", exclusive=False)

    def consulted(self, message: Consulted) -> None:
        """The solver's answer, kept; a hint asked for moves on a step, the analysis shows."""
        self.coach.answered(message.position, message.analysis, message.purpose)
        if message.analysis is None:
            self._game.say("Too many discs to solve in time; ask again in a moment (the work so far is kept).")
            return
        if message.purpose is Purpose.HINT and message.turn == self._game.flow.turn:
            self._next_hint_step()
            return
        self.seek_help()
        self._game.redraw()

    def seek_help(self) -> None:
        """What analysis mode needs at this moment: the solver's answer about the position shown,
        and, the first time it shows on a local player's live turn after being turned on, one hint
        counted (keeping it on costs nothing more)."""
        if not self.analysis_on:
            return
        game = self._game
        position = view.shown_position(game.match, game.browsing.viewing)
        if self.coach.analysis_of(position) is None:
            self.consult(position, Purpose.ANALYSIS)
        elif self._analysis_asked and self._helping_live_player():
            self._analysis_asked = False
            if self.coach.counts_analysis(game.flow.turn):
                self.count_hint(game.match.to_move)

    # ---- the keys ----------------------------------------------------------------------------

    def hint(self) -> None:
        """``H``: one more step of help: the verdict, then the tower to move, then the whole move."""
        if self._refuse_help():
            return
        game = self._game
        if not self._helping_live_player():
            game.say("Hints are for the player to move, in the live position.")
            return
        match, turn = game.match, game.flow.turn
        position = match.position
        hint = self.coach.current_hint(turn, position)
        if self.coach.hints_done(turn) and hint is not None:
            game.say(hint.describe(self.coach.hint_step, match.players[match.to_move]), "info")
            return
        if self.coach.analysis_of(position) is None:
            game.say("Thinking about a hint...", "thinking")
            self.consult(position, Purpose.HINT)
            return
        self._next_hint_step()

    def _next_hint_step(self) -> None:
        if self.coach.step_hint(self._game.flow.turn):
            self.count_hint(self._game.match.to_move)
        self._game.redraw()

    def analysis(self) -> None:
        """``A``: mark every move on the board as a win or a loss, with its plies (toggles)."""
        if self._refuse_help():
            return
        table = self._game.table
        table.analysis_on = not table.analysis_on
        self._analysis_asked = table.analysis_on
        self._save_table()
        self.seek_help()
        self._game.redraw()

    def prompt(self) -> tuple[str, str] | None:
        """The status line while a hint or the analysis is showing, else ``None``."""
        match, viewing = self._game.match, self._game.browsing.viewing
        live = match.position if viewing is None else None
        return self.coach.prompt(self._game.flow.turn, live, view.shown_position(match, viewing), self.analysis_on,
                                 match.players[match.to_move])
