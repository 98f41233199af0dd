"""The perfect-play verdicts of the positions a match went through, kept with the finished match.

The game solves them as it reviews each round; kept beside the match (one short text per
position, ``win in 5``), they let ``soluna export`` judge every move at once instead of
solving a large round again. A move's judgement needs only two of them: the position's
before the move, and the one after it, seen from the mover.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from ..rules.match import Match
from ..rules.round import Round

if TYPE_CHECKING:
    from ..rules.solver import Solver, Verdict
    from ..rules.teaching import RoundReview

#: One round's verdicts: one per position, from the layout to the last move's (``None``: not solved).
#: (The solver, which a save is read without, is imported by what judges.)
RoundVerdicts: TypeAlias = "tuple[Verdict | None, ...]"
_VERDICT = re.compile(r"(win|loss) in (\d{1,2})")


def known_verdicts(match: Match, solver: Solver | None = None) -> tuple[RoundVerdicts, ...]:
    """What ``solver`` (the shared one by default) has already solved of ``match``'s positions (it solves
    nothing new)."""
    if solver is None:
        from ..rules.solver import shared_solver

        solver = shared_solver
    return tuple(tuple(solver.verdict(position) if solver.is_solved(position) else None
                       for position in (played.position_at(ply) for ply in range(played.ply + 1)))
                 for played in match.rounds)


def review_from_verdicts(played: Round, verdicts: Sequence[Verdict]) -> RoundReview:
    """The round judged from the verdicts of its positions (one more than its moves)."""
    from ..rules.teaching import MoveReview, RoundReview

    return RoundReview(tuple(MoveReview(ply, played.mover_at(ply), move, verdicts[ply], verdicts[ply + 1].after_move())
                             for ply, move in enumerate(played.moves)))


def verdicts_to_document(verdicts: Sequence[RoundVerdicts]) -> list[list[str | None]]:
    return [[None if verdict is None else str(verdict) for verdict in round_verdicts] for round_verdicts in verdicts]


def verdicts_from_document(document: Any, match: Match) -> tuple[RoundVerdicts, ...]:
    """The verdicts kept for ``match``; ``ValueError`` if they do not fit its rounds and positions."""
    if not isinstance(document, list) or len(document) > len(match.rounds):
        raise ValueError("the kept verdicts do not fit the match's rounds")
    from ..rules.solver import Verdict

    rounds = []
    for played, texts in zip(match.rounds, document, strict=False):
        if not isinstance(texts, list) or len(texts) != played.ply + 1:
            raise ValueError("the kept verdicts do not fit the match's moves")
        round_verdicts = tuple(_verdict(text, played.start.disc_count) for text in texts)
        if played.outcome is not None and round_verdicts[-1] not in (None, Verdict(False, 0)):
            raise ValueError("a kept verdict says a finished round goes on")
        rounds.append(round_verdicts)
    return tuple(rounds)


def _verdict(text: Any, discs: int) -> Verdict | None:
    if text is None:
        return None
    found = _VERDICT.fullmatch(text) if isinstance(text, str) else None
    if found is None or int(found[2]) >= discs:
        raise ValueError("a kept verdict is not a win or a loss in a number of plies")
    from ..rules.solver import Verdict

    return Verdict(found[1] == "win", int(found[2]))
