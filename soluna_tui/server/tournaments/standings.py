"""Runs in the server process: who stands where in a tournament, as a pure function of what the store holds.

- A Swiss scores 1 a win, half a draw, 0 a loss or a match nobody won (``Outcome.NEITHER``), and 1 a bye. Its
  tie-breaks, in order: Buchholz (the sum of the scores of the opponents met: a bye adds nothing), then
  Sonneborn-Berger (the sum of the scores of the opponents beaten, and half those drawn with), then the rating the
  player joined with; players equal on points and both tie-breaks share a rank.
- An arena scores 2 a win, 1 a draw and 0 otherwise, doubled while a player is on fire: after two wins in a row,
  until a match is not won (the third win in a row is worth 4). Ties: more wins first; players equal on both share
  a rank.

Only finished pairings count: a match in play adds nothing until it ends.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from .records import Entrant, Outcome, Pairing, Snapshot, TournamentKind

#: An arena's points: a win, a draw; doubled on fire, which two wins in a row light.
ARENA_WIN, ARENA_DRAW = 2, 1
FIRE_AFTER_WINS = 2


@dataclass(frozen=True)
class Placing:
    """One entrant's line in the standings: rank (shared by equals), points, the Swiss's tie-breaks (0 in an
    arena), matches played (byes not) and won, whether on fire (an arena's streak), and whether paused."""

    rank: int
    fingerprint: str
    name: str
    points: float
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    played: int = 0
    won: int = 0
    on_fire: bool = False
    paused: bool = False


def standings(snapshot: Snapshot) -> list[Placing]:
    """The tournament's standings, best first."""
    finished = [each for each in snapshot.pairings if each.finished]
    if snapshot.tournament.plan.kind is TournamentKind.SWISS:
        return swiss_standings(snapshot.entrants, finished)
    return arena_standings(snapshot.entrants, finished)


def first_place(placings: list[Placing]) -> list[Placing]:
    """Who shares first place in ``placings`` (one: the winner); nobody when nobody scored a point (every pairing
    missed, say)."""
    if not any(placing.points for placing in placings):
        return []
    return [placing for placing in placings if placing.rank == placings[0].rank]


def swiss_scores(pairings: Iterable[Pairing]) -> dict[str, float]:
    """Each player's Swiss score from ``pairings`` (finished ones count)."""
    scores: dict[str, float] = defaultdict(float)
    for pairing in pairings:
        for player in pairing.players:
            scores[player] += pairing.points_of(player)
    return scores


def swiss_standings(entrants: Iterable[Entrant], pairings: Iterable[Pairing]) -> list[Placing]:
    finished = [each for each in pairings if each.finished]
    scores = swiss_scores(finished)
    buchholz: dict[str, float] = defaultdict(float)
    berger: dict[str, float] = defaultdict(float)
    played: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    for pairing in finished:
        if pairing.second is None:
            continue
        for player in pairing.players:
            opponent = pairing.opponent_of(player)
            assert opponent is not None
            made = pairing.points_of(player)
            buchholz[player] += scores[opponent]
            berger[player] += made * scores[opponent]
            played[player] += 1
            won[player] += made == 1.0
    people = list(entrants)
    joined = {each.fingerprint: order for order, each in enumerate(people)}
    people.sort(key=lambda each: (-scores[each.fingerprint], -buchholz[each.fingerprint], -berger[each.fingerprint],
                                  -(each.rating or 0), joined[each.fingerprint]))
    return _ranked([Placing(0, each.fingerprint, each.name, scores[each.fingerprint], buchholz[each.fingerprint],
                            berger[each.fingerprint], played[each.fingerprint], won[each.fingerprint],
                            paused=each.paused) for each in people],
                   lambda placing: (placing.points, placing.buchholz, placing.sonneborn_berger))


@dataclass(frozen=True)
class ArenaRecord:
    """An arena player's points, wins, matches and streak so far."""

    points: int = 0
    won: int = 0
    played: int = 0
    streak: int = 0

    @property
    def on_fire(self) -> bool:
        return self.streak >= FIRE_AFTER_WINS

    def after(self, outcome: Outcome, seat: int) -> ArenaRecord:
        """This record once a match ended ``outcome`` with the player at ``seat``."""
        made = outcome.points(seat)
        if made == 1.0:
            worth = ARENA_WIN
        elif made == 0.5:
            worth = ARENA_DRAW
        else:
            worth = 0
        if self.on_fire:
            worth *= 2
        return ArenaRecord(self.points + worth, self.won + (made == 1.0), self.played + 1,
                           self.streak + 1 if made == 1.0 else 0)


def arena_records(pairings: Iterable[Pairing]) -> dict[str, ArenaRecord]:
    """Each player's arena record from the finished ``pairings``, taken in the order they were made (a player plays
    one match at a time, so that is the order of each player's matches)."""
    records: dict[str, ArenaRecord] = defaultdict(ArenaRecord)
    for pairing in sorted((each for each in pairings if each.outcome is not None), key=lambda each: each.id):
        assert pairing.outcome is not None
        for seat, player in enumerate(pairing.players):
            records[player] = records[player].after(pairing.outcome, seat)
    return records


def arena_standings(entrants: Iterable[Entrant], pairings: Iterable[Pairing]) -> list[Placing]:
    records = arena_records(pairings)
    people = list(entrants)
    joined = {each.fingerprint: order for order, each in enumerate(people)}
    people.sort(key=lambda each: (-records[each.fingerprint].points, -records[each.fingerprint].won,
                                  -(each.rating or 0), joined[each.fingerprint]))
    return _ranked([Placing(0, each.fingerprint, each.name, float(records[each.fingerprint].points),
                            played=records[each.fingerprint].played, won=records[each.fingerprint].won,
                            on_fire=records[each.fingerprint].on_fire, paused=each.paused) for each in people],
                   lambda placing: (placing.points, placing.won))


def _ranked(placings: list[Placing], tied_by: Callable[[Placing], tuple[float, ...]]) -> list[Placing]:
    """``placings`` (in order) with their ranks: equal by ``tied_by`` share the rank of the first of them."""
    ranked: list[Placing] = []
    for position, placing in enumerate(placings):
        tied = ranked and tied_by(ranked[-1]) == tied_by(placing)
        ranked.append(replace(placing, rank=ranked[-1].rank if tied else position + 1))
    return ranked
