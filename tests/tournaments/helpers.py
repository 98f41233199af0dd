"""What the tournament tests share: match terms, and tournaments built by hand."""

from __future__ import annotations

from soluna_tui.link.messages import MatchTerms
from soluna_tui.server.tournaments.records import (
    Entrant,
    Outcome,
    Pairing,
    Snapshot,
    Tournament,
    TournamentKind,
    TournamentPlan,
    TournamentState,
)

#: One-star matches on the online rules with few discs: the cheapest real match.
PLAN_TERMS = MatchTerms({"stars_to_win": 1, "discs": 6, "next_layout": "new", "next_opener": "loser-opens"})


def swiss_snapshot(rounds: int, entrants: tuple[Entrant, ...], games: list[tuple[int, str, str | None, Outcome]],
                   kind: TournamentKind = TournamentKind.SWISS) -> Snapshot:
    """A running tournament with ``games`` played: (round, first, second or ``None`` for a bye, outcome)."""
    plan = TournamentPlan("Weekly", kind, rounds, 1000.0, PLAN_TERMS)
    pairings = tuple(Pairing(number, 1, round_number, first, second, 1000.0 + number, None, outcome, 1001.0 + number)
                     for number, (round_number, first, second, outcome) in enumerate(games, start=1))
    last = max((each.round for each in pairings), default=0)
    return Snapshot(Tournament(1, plan, TournamentState.RUNNING, last, 900.0), entrants, pairings)


def entrants(*names: str, ratings: dict[str, int] | None = None) -> tuple[Entrant, ...]:
    """Entrants by name (their key is the name), joined in this order."""
    return tuple(Entrant(name, name, (ratings or {}).get(name), 10.0 + index) for index, name in enumerate(names))
