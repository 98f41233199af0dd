"""The solver's help in a match in lines, as on the game screen (``screens/teaching.py``, ``screens/review.py``):
``hint`` one step more each time (the verdict, the tower, the move), ``analysis`` every move marked as a win or a
loss, and ``review`` a finished round judged move by move; each hint counted where the match keeps its count.

``HintsAndReviews`` is a part the line game owns, seeing it as a ``LineHost`` (``line_host.py``); between
rounds, ``hint`` asks the advice on who opens (``between_rounds.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..play.coach import Purpose
from ..play.match_text import accuracy_words, move_annotation, review_or_none, turning_point_words
from ..rules.teaching import ACCURACY_MEANING
from ..rules.wording import plies, plural
from .line_host import Busy
from .speech import numbers, round_move_line

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..rules import Round
    from ..rules.solver import Analysis, Budget
    from ..rules.teaching import Hint, RoundReview
    from .line_host import LineHost

#: How long a hint's or an analysis' question to the solver may take, as on the game screen
#: (``screens/teaching.py``).
CONSULT_SECONDS = 8.0
#: How long a round's review may search, as in the review dialog (``screens/review.py``).
REVIEW_SECONDS = 15.0


class HintsAndReviews:
    """Hints, analysis and the review of a round, each worked out by the solver on the runner."""

    def __init__(self, game: LineHost) -> None:
        self._game = game

    @property
    def commands(self) -> dict[str, Callable[[str], None]]:
        """The commands of this part, by their words."""
        return {"hint": self._hint, "analysis": self._analysis, "review": self._review}

    def helps(self) -> bool:
        """Whether this match allows hints and analysis."""
        return self._game.table.setup.hints and self._game.table.hints_allowed

    def count_hint(self, player: int) -> None:
        """One more hint used by ``player``, kept."""
        table = self._game.table
        table.hints_used[player] += 1
        save = getattr(table, "save", None)  # a local table keeps the count with its match
        if callable(save):
            save()

    def _consult(self, why: Busy, purpose: Purpose, then: Callable[[], None]) -> None:
        """Ask the solver about the live position (once at a time), then ``then``."""
        game = self._game
        position, turn = game.table.match.position, game.flow.turn
        if not game.coach.ask(position, purpose):
            return
        game.busy.add(why)

        def answered(analysis: object | None) -> None:
            game.busy.discard(why)
            found: Analysis | None = analysis  # type: ignore[assignment]  # the job below answers an Analysis
            game.coach.answered(position, found, purpose)
            if found is None:
                game.say("Too many discs to solve in time; ask again in a moment (the work so far is kept).")
            elif turn == game.flow.turn:
                then()

        def consult(budget: Budget) -> Analysis:
            from ..rules.solver import shared_solver

            return shared_solver.analyse(position, budget)

        game.solve(consult, CONSULT_SECONDS, answered)

    def _hint(self, argument: str) -> None:
        game = self._game
        match, coach = game.table.match, game.coach
        if not self.helps():
            game.say("Hints and analysis are off in this match.")
            return
        if match.round.is_over and not match.is_over:
            game.between_rounds.advise()
            return
        if not game.flow.live_turn_here():
            game.say(game.flow.why_not("hint", True))
            return
        turn, position = game.flow.turn, match.position
        hint = coach.current_hint(turn, position)
        if coach.hints_done(turn) and hint is not None:
            game.say(self._hint_words(hint, coach.hint_step))
            return
        if coach.analysis_of(position) is None:
            self._consult(Busy.HINT, Purpose.HINT, self._next_hint_step)
            return
        self._next_hint_step()

    def _next_hint_step(self) -> None:
        game = self._game
        match, turn = game.table.match, game.flow.turn
        if game.coach.step_hint(turn):
            self.count_hint(match.to_move)
        hint = game.coach.current_hint(turn, match.position)
        if hint is not None:
            game.say(self._hint_words(hint, game.coach.hint_step))

    def _hint_words(self, hint: Hint, step: int) -> str:
        match = self._game.table.match
        text = hint.describe(step, match.players[match.to_move])
        placed = match.round.table.resolve(hint.move)
        mover, target = placed.places
        if step == 2:
            return f"{text} It is tower {mover}. Type hint again for the whole move."
        if step == 3:
            return f"{text} Type {mover}>{target}."
        return f"{text} Type hint again for the tower to move."

    def _analysis(self, argument: str) -> None:
        game = self._game
        if not self.helps():
            game.say("Hints and analysis are off in this match.")
            return
        match = game.table.match
        if match.round.is_over:
            game.say("The round is over: no move is left to judge. Type review for the round's moves.")
            return
        if game.coach.analysis_of(match.position) is None:
            self._consult(Busy.ANALYSIS, Purpose.ANALYSIS, self._say_analysis)
            return
        self._say_analysis()

    def _say_analysis(self) -> None:
        game = self._game
        match = game.table.match
        analysis = game.coach.analysis_of(match.position)
        if analysis is None:
            return
        if game.flow.live_turn_here() and game.coach.counts_analysis(game.flow.turn):
            self.count_hint(match.to_move)
        table = match.round.table
        verdicts = {(item.move.mover, item.move.target): item.verdict for item in analysis.moves}
        verdict = analysis.verdict
        wins = len(analysis.winning_moves)
        state = (f"the player to move wins in {plies(verdict.plies)}" if verdict.wins
                 else f"the player to move loses, holding out {plies(verdict.plies)}")
        game.say(f"Analysis: {state}; {wins} of {plural(len(analysis.moves), 'move')} "
                 f"{'wins' if wins == 1 else 'win'}.")
        by_mover: dict[int, dict[tuple[bool, int], list[int]]] = {}
        for slot in table.occupied:
            for target_slot in table.occupied:
                tower, target = table[slot], table[target_slot]
                found = verdicts.get((tower, target)) if target_slot != slot and tower and target else None
                if found is not None:
                    by_mover.setdefault(slot, {}).setdefault((found.wins, found.plies), []).append(target_slot + 1)
        winning = [f"{slot + 1} onto {numbers(targets)} wins in {plies(count)}"
                   for slot, outcomes in by_mover.items() for (wins, count), targets in sorted(outcomes.items())
                   if wins]
        if winning:
            game.say(f"Winning: {'; '.join(winning)}.")
        for slot, outcomes in by_mover.items():
            losing = [f"onto {numbers(targets)} loses in {count}"
                      for (wins, count), targets in sorted(outcomes.items(), reverse=True) if not wins]
            if losing:
                game.say(f"{slot + 1} {'; '.join(losing)}.")

    def _review(self, argument: str) -> None:
        game = self._game
        match = game.table.match
        finished = [number for number, played in enumerate(match.rounds, start=1) if played.outcome is not None]
        if not finished:
            game.say("No round is over yet: a review judges a finished round.")
            return
        number = finished[-1]
        if argument:
            if not (argument.isascii() and argument.isdigit()) or int(argument) not in finished:
                game.say(f"Round {argument[:8]} is not a finished round: the finished rounds are "
                         f"{', '.join(map(str, finished))}.")
                return
            number = int(argument)
        played = match.rounds[number - 1]
        if not played.moves:
            game.say(f"Round {number} had no moves.")
            return
        game.busy.add(Busy.REVIEW)

        def reviewed(review: object | None) -> None:
            game.busy.discard(Busy.REVIEW)
            if review is None:
                game.say("This round is too large to judge in time.")
                return
            game.say(*self._review_lines(number, played, review))  # type: ignore[arg-type]  # a RoundReview

        game.solve(lambda budget: review_or_none(played, seconds=REVIEW_SECONDS,
                                                 cancelled=lambda: budget.is_cancelled), None, reviewed)

    def _review_lines(self, number: int, played: Round, review: RoundReview) -> list[str]:
        names, you = self._game.table.match.players, self._game.flow.you
        lines = [f"Review of round {number}, each move with its result for its player under perfect play:"]
        for item in review.moves:
            lines.append(f"{item.ply + 1}. {round_move_line(played, names, item.ply)} "
                         f"{move_annotation(item).replace('  ', ' ').strip()}.")
        lines.append(turning_point_words(review, names, you))
        lines.extend(accuracy_words(review, names))
        lines.append(ACCURACY_MEANING)
        return lines
