"""Runs in the server process.

What the lobby tells of tournaments, as pure functions of what the store holds (tested without a server): a
tournament's line in the list, its page (the standings, every pairing and its result, the countdown), the words of
a pairing's notice, and how a finished match scores for the pairing it was played for.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...link.messages import TournamentGame, TournamentLine, TournamentPage, TournamentStanding
from ...rules.end_reason import EndReason
from ...rules.wording import points as points_of
from ..storage import FinishedMatch
from ..tournaments.records import Outcome, Pairing, Snapshot, Tournament, TournamentKind, TournamentState
from ..tournaments.standings import Placing, first_place, standings

#: Finished tournaments the list shows (the latest), after every upcoming and running one.
FINISHED_LISTED = 10


def names_of(snapshot: Snapshot) -> dict[str, str]:
    """Each entrant's name, by key."""
    return {entrant.fingerprint: entrant.name for entrant in snapshot.entrants}


def line_of(snapshot: Snapshot, fingerprint: str | None) -> TournamentLine:
    """The tournament's line in the list, for the player with the key ``fingerprint`` (``None``: a guest)."""
    tournament, plan = snapshot.tournament, snapshot.tournament.plan
    entrant = snapshot.entrant(fingerprint) if fingerprint is not None else None
    winner = names_of(snapshot).get(tournament.winner) if tournament.winner is not None else None
    return TournamentLine(tournament.id, plan.name, plan.kind.value, tournament.state.value, plan.length,
                          plan.starts_at, plan.terms, len(snapshot.entrants), entrant is not None, plan.min_rating,
                          plan.min_rated_matches or 0, winner)


def listed(tournaments: Iterable[Tournament]) -> list[Tournament]:
    """The tournaments the list shows, in its order: upcoming (the soonest first), running, then the latest
    finished (a cancelled one is not: its players were told, ``winner_words``)."""
    every = list(tournaments)
    upcoming = sorted((each for each in every if each.state is TournamentState.UPCOMING),
                      key=lambda each: each.plan.starts_at)
    running = sorted((each for each in every if each.state is TournamentState.RUNNING),
                     key=lambda each: each.plan.starts_at)
    over = sorted((each for each in every if each.state is TournamentState.FINISHED),
                  key=lambda each: -(each.finished_at or each.plan.starts_at))
    return upcoming + running + over[:FINISHED_LISTED]


def _name(names: dict[str, str], fingerprint: str | None) -> str | None:
    return None if fingerprint is None else names.get(fingerprint, "?")


def result_words(pairing: Pairing, names: dict[str, str]) -> str:
    """A pairing's result as the page shows it: ``""`` while in play."""
    if pairing.second is None:
        return "bye"
    outcome = pairing.outcome
    if outcome is None:
        return ""
    if outcome is Outcome.FIRST_WON:
        return f"{names.get(pairing.first, '?')} won"
    if outcome is Outcome.SECOND_WON:
        return f"{names.get(pairing.second, '?')} won"
    return "draw" if outcome is Outcome.DRAW else "nobody scored"


def standing_of(placing: Placing, kind: TournamentKind, fingerprint: str | None) -> TournamentStanding:
    tie_breaks = (placing.buchholz, placing.sonneborn_berger) if kind is TournamentKind.SWISS else ()
    return TournamentStanding(placing.rank, placing.name, placing.points, placing.played, tie_breaks, placing.paused,
                              placing.fingerprint == fingerprint)


def next_moment(snapshot: Snapshot) -> float | None:
    """What the page counts down to: the start of an upcoming tournament, the end of a running arena."""
    tournament = snapshot.tournament
    if tournament.state is TournamentState.UPCOMING:
        return tournament.plan.starts_at
    if tournament.state is TournamentState.RUNNING:
        return tournament.plan.ends_at
    return None


def page_of(snapshot: Snapshot, fingerprint: str | None, now: float) -> TournamentPage:
    """The tournament's page for the player with the key ``fingerprint`` (``None``: a guest, a spectator)."""
    kind = snapshot.tournament.plan.kind
    names = names_of(snapshot)
    games = tuple(TournamentGame(pairing.round, (names.get(pairing.first, "?"), _name(names, pairing.second)),
                                 result_words(pairing, names))
                  for pairing in snapshot.pairings)
    entrant = snapshot.entrant(fingerprint) if fingerprint is not None else None
    return TournamentPage(line_of(snapshot, fingerprint),
                          tuple(standing_of(placing, kind, fingerprint) for placing in standings(snapshot)),
                          games, snapshot.tournament.round, next_moment(snapshot), now,
                          entrant is not None and entrant.paused)


def pairing_words(snapshot: Snapshot, pairing: Pairing, fingerprint: str) -> str:
    """What the player with the key ``fingerprint`` is told as they are paired: the tournament, the round, whom they
    play (or their bye)."""
    tournament = snapshot.tournament
    name = tournament.plan.name
    where = f"round {pairing.round}" if tournament.plan.kind is TournamentKind.SWISS else "the arena"
    opponent = pairing.opponent_of(fingerprint)
    if opponent is None:
        return f"{name}, {where}: you have a bye (a point) and wait for the next round."
    return f"{name}, {where}: you play {names_of(snapshot).get(opponent, 'your opponent')}. The match begins."


def winner_words(snapshot: Snapshot) -> str:
    """The lobby's news of a tournament over: who won it, with how many points."""
    tournament = snapshot.tournament
    if tournament.state is TournamentState.CANCELLED:
        return f"Tournament {tournament.plan.name} is cancelled."
    firsts = first_place(standings(snapshot))
    if not firsts:
        return f"Tournament {tournament.plan.name} is over: nobody scored a point."
    winners = [placing.name for placing in firsts]
    points = points_of(firsts[0].points)
    if len(winners) > 1:
        return f"Tournament {tournament.plan.name} is over: {' and '.join(winners)} share first place, {points}."
    return f"Tournament {tournament.plan.name} is over: {winners[0]} wins with {points}."


def outcome_of(finished: FinishedMatch | None, pairing: Pairing) -> Outcome:
    """How the match played for ``pairing`` scores: its winner's seat by key (the seats' order is the match's,
    whoever created it); nobody's when it was abandoned, aborted, or not filed at all."""
    if finished is None or finished.winner is None or EndReason(finished.result) in (EndReason.ABANDONED,
                                                                                     EndReason.ABORTED):
        return Outcome.NEITHER
    winner = finished.seats[finished.winner].fingerprint
    if winner == pairing.first:
        return Outcome.FIRST_WON
    if winner == pairing.second:
        return Outcome.SECOND_WON
    return Outcome.NEITHER
