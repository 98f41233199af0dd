"""A match as text: every move in notation, round by round, judged by perfect play.

``export_match`` is pure (no Textual, no disk): the moves of each round with, for each, its
outcome for the player who made it (``win in 5``, ``loss in 4``) and the judgement of
``rules.teaching`` (kept the win, threw the win away ``??``, best resistance, gave in sooner ``?``),
then who won the round, each player's accuracy and the first blunder. ``soluna export`` prints it
(``export.py`` finds the match), and the replay screen shows it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..rules import Budget, Match, SearchAborted, shared_solver
from ..rules.end_reason import EndReason, gave_up_words
from ..rules.round import Round
from ..rules.solver import Solver
from ..rules.teaching import ACCURACY_MEANING, MARKS_MEANING, RESULT_CONVENTION, MoveReview, RoundReview, review_round
from ..rules.wording import plies, plural
from .looks import move_words
from .you_wording import possessive

RULES_WORDS = {"box": "box (the same layout every round, the loser chooses who opens)",
               "online": "online (a new layout every round, the loser opens)"}


def export_match(match: Match, details: Sequence[str] = (), solver: Solver = shared_solver,
                 seconds_per_round: float | None = None,
                 reviews: Sequence[RoundReview | None] | None = None, ended: EndReason | None = None) -> str:
    """The whole match as text; ``details`` are lines of context put under the title (where it was played);
    ``ended``, how it ended when the board does not say (on time).

    ``reviews`` (one per round, ``None`` where judging gave up) are used when already made, as the replay
    screen makes them round by round."""
    names = match.players
    if reviews is None:
        reviews = [review_or_none(played, solver, seconds_per_round) for played in match.rounds]
    lines = [f"Soluna: {names[0]} vs {names[1]}", *details, _rules_line(match), result_line(match, ended), "",
             RESULT_CONVENTION, MARKS_MEANING, ACCURACY_MEANING]
    for number, (played, review) in enumerate(zip(match.rounds, reviews, strict=True), start=1):
        lines.append("")
        lines.extend(_round_lines(number, played, match, review, ended))
    return "\n".join(lines) + "\n"


def review_or_none(played: Round, solver: Solver = shared_solver, seconds: float | None = None,
                   cancelled: Callable[[], bool] | None = None) -> RoundReview | None:
    """The round judged by perfect play, or ``None`` when that takes longer than ``seconds`` (or is cancelled)."""
    budget = Budget(seconds=seconds, cancelled=cancelled) if (seconds, cancelled) != (None, None) else None
    try:
        return review_round(played, solver, budget)
    except SearchAborted:
        return None


def move_annotation(judged: MoveReview) -> str:
    """One move's judgement in the export's table: ``win in 5    kept the win``, ``loss in 2  threw ... ??``."""
    text = f"{judged.after!s:<11} {judged.judgement.value}"
    mark = judged.judgement.mark
    return f"{text} {mark}" if mark else text


def turning_point_words(review: RoundReview, names: tuple[str, str], you: int | None = None) -> str:
    """The round's first blunder, as the review says it (``you``: the player spoken to as "you", if any)."""
    blunder = review.first_blunder
    if blunder is None:
        return "No blunder: the player who could win from the start kept the win."
    whose = possessive(names[blunder.player], you=blunder.player == you)
    return (f"The turning point: move {blunder.ply + 1}, {whose} {blunder.move}, "
            f"threw away a win in {plies(blunder.before.plies)}.")


def accuracy_words(review: RoundReview, names: tuple[str, str]) -> list[str]:
    """Each player's share of moves that kept the best outcome in the round, as the review says it."""
    lines = []
    for player, name in enumerate(names):
        kept, made = review.kept_and_made(player)
        if made:
            lines.append(f"{name}: {kept} of {made} moves kept the best outcome ({kept / made:.0%}).")
    return lines


def _rules_line(match: Match) -> str:
    options = match.options
    rules = RULES_WORDS.get(options.preset_name, f"custom (next layout {options.next_layout.value}, "
                                                 f"next opener {options.next_opener.value})")
    return (f"Rules: {rules}; {plural(options.stars_to_win, 'star')} to win; "
            f"{plural(options.discs, 'disc')}; seed {match.seed}")


def result_line(match: Match, ended: EndReason | None = None) -> str:
    """Who won the match and how (or where it stands, unfinished). In the past tense, which reads
    right for every name, "You" (a match against the computer) too; the winner's stars first, as the
    match-over dialog says it ("Computer won the match 4-2"); ``ended``: a match lost on time says so."""
    winner = match.winner
    if winner is None:
        return f"Result: not over (round {match.round_number}, stars {match.stars[0]}-{match.stars[1]})."
    stars = f"{match.stars[winner]}-{match.stars[1 - winner]}"
    if match.forfeited_by is not None:
        on_time = ended is EndReason.TIME
        return (f"Result: {match.players[match.forfeited_by]} {gave_up_words(ended)}; "
                f"{match.players[winner]} won the match{' on time' if on_time else ''} (stars {stars}).")
    return f"Result: {match.players[winner]} won the match {stars}."


def _round_lines(number: int, played: Round, match: Match, review: RoundReview | None,
                 ended: EndReason | None) -> list[str]:
    names = match.players
    lines = [f"Round {number}: {names[played.opener]} opened; layout {played.start}"]
    if review is None:
        lines.append("  (not judged: perfect play took too long to find for this many discs)")
    width = max((len(name) for name in names), default=0)
    written = [move_words(played, ply) for ply in range(played.ply)]
    move_width = max((len(text) for text in written), default=0)
    for ply, move in enumerate(written):
        line = f"  {ply + 1:>2}. {names[played.mover_at(ply)]:<{width}}  {move:<{move_width}}"
        if review is not None:
            line += f"  {move_annotation(review.moves[ply])}"
        lines.append(line.rstrip())
    lines.extend(_round_end(number, played, match, review, ended))
    return lines


def _round_end(number: int, played: Round, match: Match, review: RoundReview | None,
               ended: EndReason | None) -> list[str]:
    names = match.players
    if played.outcome is None:
        if match.forfeited_by is not None:
            return [f"  {names[match.forfeited_by]} {gave_up_words(ended)} during this round."]
        return [f"  In play: {names[played.to_move]} to move."]
    winner = played.outcome.winner
    stars = [outcome.winner for outcome in match.outcomes[:number]]
    lines = [f"  {names[played.to_move]} cannot move: {names[winner]} won the round "
             f"(stars {stars.count(0)}-{stars.count(1)})."]
    if review is not None:
        shares = []
        for player in (0, 1):
            kept, made = review.kept_and_made(player)
            if made:
                shares.append(f"{names[player]} {kept}/{made} ({round(100 * kept / made)}%)")
        blunder = review.first_blunder
        text = f"  Accuracy: {', '.join(shares)}." if shares else "  Accuracy: no moves."
        if blunder is not None:
            text += f" First blunder: move {blunder.ply + 1}, {names[blunder.player]} ({blunder.move})."
        lines.append(text)
    return lines
