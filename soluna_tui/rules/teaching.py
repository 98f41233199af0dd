"""What perfect play teaches: hints, opener advice, round reviews and refutations.

Pure functions of positions and rounds over a solver; the screens only show them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .position import Move, Position
from .round import Round
from .solver import Analysis, Budget, Solver, Verdict, shared_solver
from .wording import plies, plural

#: The one number shown beside every judged move (the review, the replay, the export), said once above
#: the moves: the move's own result, not the value of the position it was played from.
RESULT_CONVENTION = ("Each move is shown with its result for the player who made it, with perfect play "
                     "after it: a win or a loss, in plies counted from that move.")
#: What the marks after a judged move mean, as chess annotators write them.
MARKS_MEANING = "?? threw a win away; ? gave in sooner than perfect play would."
#: What the accuracy of a round or match counts.
ACCURACY_MEANING = ("Accuracy: the share of moves that kept the best outcome, a win kept or a loss held "
                    "out as long as possible.")


class Judgement(Enum):
    """What a move did to the mover's prospects under perfect play."""

    KEPT = "kept the win"
    THREW = "threw the win away"
    BEST_RESISTANCE = "best resistance"
    GAVE_IN = "gave in sooner"

    @property
    def kept_best_outcome(self) -> bool:
        """Whether the move kept the best outcome the position offered: a win stayed a win, or a
        loss was held out as long as possible (giving in sooner is an error too, if a smaller one)."""
        return self in (Judgement.KEPT, Judgement.BEST_RESISTANCE)

    @property
    def mark(self) -> str:
        """``??`` for a win thrown away, ``?`` for giving in sooner, else nothing."""
        return {Judgement.THREW: "??", Judgement.GAVE_IN: "?"}.get(self, "")


def judge(before: Verdict, after: Verdict) -> Judgement:
    """Judge a move from the mover's verdict before it and the move's own verdict."""
    if before.wins:
        return Judgement.KEPT if after.wins else Judgement.THREW
    return Judgement.BEST_RESISTANCE if after.plies >= before.plies else Judgement.GAVE_IN


@dataclass(frozen=True)
class MoveReview:
    """One move of a round with its verdicts and judgement."""

    ply: int
    player: int
    move: Move
    before: Verdict
    after: Verdict

    @property
    def judgement(self) -> Judgement:
        return judge(self.before, self.after)

    @property
    def annotation(self) -> str:
        """The move's result for its player and what it did: ``loss in 10, threw the win away ??``."""
        mark = self.judgement.mark
        return f"{self.after}, {self.judgement.value}{f' {mark}' if mark else ''}"


@dataclass(frozen=True)
class RoundReview:
    """A whole round judged move by move."""

    moves: tuple[MoveReview, ...]

    @property
    def first_blunder(self) -> MoveReview | None:
        """The first move that turned a won position into a lost one."""
        return next((item for item in self.moves if item.judgement is Judgement.THREW), None)

    def first_blunder_by(self, player: int | None) -> MoveReview | None:
        """``player``'s first move that turned a won position into a lost one (``None``: anyone's)."""
        return next((item for item in self.moves if item.judgement is Judgement.THREW
                     and player in (None, item.player)), None)

    def accuracy(self, player: int) -> float | None:
        """The share of the player's moves that kept the best outcome (``None`` if they made none)."""
        theirs = [item for item in self.moves if item.player == player]
        if not theirs:
            return None
        return sum(item.judgement.kept_best_outcome for item in theirs) / len(theirs)

    def kept_and_made(self, player: int) -> tuple[int, int]:
        theirs = [item for item in self.moves if item.player == player]
        return sum(item.judgement.kept_best_outcome for item in theirs), len(theirs)


def review_round(played: Round, solver: Solver = shared_solver, budget: Budget | None = None) -> RoundReview:
    """Judge every move of ``played`` with perfect play (``SearchAborted`` if the budget runs out)."""
    reviews = []
    for ply, move in enumerate(played.moves):
        analysis = solver.analyse(played.position_at(ply), budget)
        after = next(item.verdict for item in analysis.moves if item.move == move)
        reviews.append(MoveReview(ply, played.mover_at(ply), move, analysis.verdict, after))
    return RoundReview(tuple(reviews))


def accuracy_over_rounds(reviews: list[RoundReview], player: int) -> float | None:
    """The player's share of best-outcome moves over several rounds (a match)."""
    kept = made = 0
    for review in reviews:
        k, m = review.kept_and_made(player)
        kept, made = kept + k, made + m
    return kept / made if made else None


def best_line(position: Position, solver: Solver = shared_solver, budget: Budget | None = None) -> list[Move]:
    """The perfect-play continuation from ``position`` to the end (fastest wins, longest losses)."""
    line = []
    while not position.is_blocked:
        move = solver.analyse(position, budget).moves[0].move
        line.append(move)
        position = position.after(move)
    return line


@dataclass(frozen=True)
class Hint:
    """Three steps of help for one position: the verdict, the tower to move, the whole move."""

    analysis: Analysis

    @property
    def verdict(self) -> Verdict:
        return self.analysis.verdict

    @property
    def move(self) -> Move:
        """The move perfect play makes: the fastest win, or the longest resistance."""
        return self.analysis.moves[0].move

    def describe(self, step: int, name: str) -> str:
        """The text of hint ``step`` (1, 2 or 3) for the player called ``name``."""
        verdict = self.verdict
        wins = len(self.analysis.winning_moves)
        total = len(self.analysis.moves)
        if step == 1:
            if verdict.wins:
                return (f"Hint: {name} can win, in {plies(verdict.plies)} with perfect play "
                        f"({wins} of {plural(total, 'move')} {'wins' if wins == 1 else 'win'}).")
            return (f"Hint: this position is lost with perfect play; the best defence holds out "
                    f"{plies(verdict.plies)}.")
        if step == 2:
            return f"Hint: move the {self.move.mover} tower."
        return f"Hint: play {self.move} ({'win' if verdict.wins else 'loss'} in {plies(verdict.plies)})."


def opener_advice(start: Position, solver: Solver = shared_solver, budget: Budget | None = None) -> str:
    """Which choice wins at the start of a round: to open, or to move second."""
    verdict = solver.verdict(start, budget)
    if verdict.wins:
        return f"With perfect play the opener wins (in {plies(verdict.plies)}): choose to open."
    return f"With perfect play the opener loses (in {plies(verdict.plies)}): choose to move second."
