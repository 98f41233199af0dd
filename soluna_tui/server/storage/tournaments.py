"""Tournaments as the store keeps them, where every server of a fleet sees them: the ``tournaments``,
``tournament_entrants`` and ``tournament_pairings`` tables.

Everything a tournament needs to go on is here, nothing only in a server's memory: a restart, or another server,
resumes it where it stood. What changes a tournament's course (its state, a round or an arena's pairs) is written
under the tournament's own lock (``soluna-tournament:ID``) and only from the state the caller decided on, so two
servers never pair one round twice; results and seats are written once (the first wins). The engine
(``server/tournaments/engine.py``) decides; the store keeps. Every write tells every server one
``tournament_changed(id)``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from ..rating_model import Rating
from ..tournaments.records import (
    Entrant,
    Outcome,
    Pair,
    Pairing,
    Snapshot,
    Tournament,
    TournamentError,
    TournamentKind,
    TournamentPlan,
    TournamentState,
    terms_document,
    terms_from_document,
)
from .database import Database, Transaction
from .records import Change

#: How a ``Change`` says "this tournament changed" (a match's code is four letters: never this).
TOURNAMENT = "*tournament:"
_TOURNAMENT_COLUMNS = ("id, name, kind, length, starts_at, terms, min_rating, min_rated_matches, created_by, "
                       "state, round, created_at, finished_at, winner")
_PAIRING_COLUMNS = "id, tournament, round, first_player, second_player, paired_at, code, outcome, finished_at"
_OPEN = (TournamentState.UPCOMING, TournamentState.RUNNING)


def tournament_changed(tournament: int) -> Change:
    """The news that the tournament ``tournament`` changed (every server reads it again)."""
    return Change(f"{TOURNAMENT}{tournament}", 0)


def tournament_of(change: Change) -> int | None:
    """The tournament a ``Change`` is news of (``None``: not a tournament's)."""
    if change.code is None or not change.code.startswith(TOURNAMENT):
        return None
    number = change.code.removeprefix(TOURNAMENT)
    return int(number) if number.isdigit() else None


class Tournaments:
    """The ``tournaments``, ``tournament_entrants`` and ``tournament_pairings`` tables."""

    def __init__(self, database: Database) -> None:
        self._db = database

    # ---- announcing and listing ------------------------------------------------------------------

    async def create(self, plan: TournamentPlan) -> Tournament:
        """Announce ``plan``: upcoming, no round yet."""
        now = self._db.clock()
        async with self._db.transaction() as tx:
            rows = await tx.fetch(
                f"INSERT INTO tournaments ({_TOURNAMENT_COLUMNS.removeprefix('id, ')}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (plan.name, plan.kind.value, plan.length, plan.starts_at, json.dumps(terms_document(plan.terms)),
                 plan.min_rating, plan.min_rated_matches, plan.created_by, TournamentState.UPCOMING.value, 0, now,
                 None, None))
            number = int(rows[0][0])
            await tx.announce(tournament_changed(number))
        return Tournament(number, plan, TournamentState.UPCOMING, 0, now)

    async def get(self, tournament: int) -> Tournament | None:
        async with self._db.transaction(write=False) as tx:
            return await _tournament(tx, tournament)

    async def listed(self, states: Collection[TournamentState] | None = None) -> list[Tournament]:
        """Tournaments in ``states`` (every one: ``None``), by when they start, the latest first."""
        where, params = "", tuple[str, ...]()
        if states is not None:
            if not states:
                return []
            where, params = f" WHERE state IN ({', '.join('?' * len(states))})", tuple(each.value for each in states)
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments{where} ORDER BY starts_at DESC, "
                                  "id DESC", params)
        return [_tournament_from(row) for row in rows]

    async def snapshot(self, tournament: int) -> Snapshot | None:
        """The tournament, its entrants and its pairings, read together (``None``: no such tournament)."""
        async with self._db.transaction(write=False) as tx:
            return await _snapshot(tx, tournament)

    # ---- entrants ---------------------------------------------------------------------------------

    async def enter(self, tournament: int, entrant: Entrant) -> Entrant:
        """``entrant`` joins (or, already in, comes back: unpaused, their name as now), while the tournament is
        upcoming or running; ``TournamentError`` otherwise."""
        async with self._db.transaction() as tx:
            await self._db.lock(tx, _lock(tournament))
            await _open_tournament(tx, tournament)
            rows = await tx.fetch("SELECT joined_at, rating FROM tournament_entrants WHERE tournament = ? AND "
                                  "fingerprint = ?", (tournament, entrant.fingerprint))
            if rows:
                await tx.execute("UPDATE tournament_entrants SET name = ?, paused = 0 WHERE tournament = ? AND "
                                 "fingerprint = ?", (entrant.name, tournament, entrant.fingerprint))
                entrant = Entrant(entrant.fingerprint, entrant.name, rows[0][1], float(rows[0][0]))
            else:
                await tx.execute("INSERT INTO tournament_entrants (tournament, fingerprint, name, rating, joined_at, "
                                 "paused) VALUES (?, ?, ?, ?, ?, 0)",
                                 (tournament, entrant.fingerprint, entrant.name, entrant.rating, entrant.joined_at))
                entrant = Entrant(entrant.fingerprint, entrant.name, entrant.rating, entrant.joined_at)
            await tx.announce(tournament_changed(tournament))
        return entrant

    async def leave(self, tournament: int, fingerprint: str) -> bool:
        """The player withdraws: gone from an upcoming tournament, paused in a running one (they stay in its
        standings). Whether they were in it (and it was not over)."""
        async with self._db.transaction() as tx:
            await self._db.lock(tx, _lock(tournament))
            known = await _tournament(tx, tournament)
            if known is None or known.state.over:
                return False
            if known.state is TournamentState.UPCOMING:
                changed = await tx.execute("DELETE FROM tournament_entrants WHERE tournament = ? AND fingerprint = ?",
                                           (tournament, fingerprint))
            else:
                changed = await tx.execute("UPDATE tournament_entrants SET paused = 1 WHERE tournament = ? AND "
                                           "fingerprint = ?", (tournament, fingerprint))
            if changed:
                await tx.announce(tournament_changed(tournament))
        return changed > 0

    async def rating_of(self, fingerprint: str) -> tuple[int | None, int]:
        """The key's shown rating (``None``: no rated match yet) and how many rated matches it played, as entry
        asks them."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch("SELECT mu, sigma, played FROM ratings WHERE fingerprint = ?", (fingerprint,))
        if not rows:
            return None, 0
        return Rating(rows[0][0], rows[0][1]).shown, int(rows[0][2])

    # ---- the tournament's course ------------------------------------------------------------------

    async def move(self, tournament: int, was: Collection[TournamentState], to: TournamentState,
                   winner: str | None = None) -> Tournament | None:
        """The tournament goes ``to`` a state, if it is in one of ``was`` (else ``None``: another server moved it
        first, or it is not there); ending it records when, and its ``winner``."""
        async with self._db.transaction() as tx:
            await self._db.lock(tx, _lock(tournament))
            known = await _tournament(tx, tournament)
            if known is None or known.state not in was:
                return None
            finished_at = self._db.clock() if to.over else None
            await tx.execute("UPDATE tournaments SET state = ?, finished_at = ?, winner = ? WHERE id = ?",
                             (to.value, finished_at, winner, tournament))
            await tx.announce(tournament_changed(tournament))
        return Tournament(known.id, known.plan, to, known.round, known.created_at, finished_at, winner)

    async def pair(self, tournament: int, round_number: int, pairs: Sequence[Pair]) -> list[Pairing] | None:
        """Store ``pairs`` as round ``round_number`` (a bye won at once), if the tournament is running, its last
        round is the one before, every player in them is an entrant not paused and at no match, and (a Swiss)
        every pairing before is finished; else ``None`` (another server paired first, or things changed: decide
        again on a fresh snapshot)."""
        now = self._db.clock()
        async with self._db.transaction() as tx:
            await self._db.lock(tx, _lock(tournament))
            snapshot = await _snapshot(tx, tournament)
            if snapshot is None or not _may_pair(snapshot, round_number, pairs):
                return None
            made = []
            for pair in pairs:
                outcome, finished_at = (Outcome.FIRST_WON, now) if pair.bye else (None, None)
                rows = await tx.fetch(
                    f"INSERT INTO tournament_pairings ({_PAIRING_COLUMNS.removeprefix('id, ')}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (tournament, round_number, pair.first, pair.second, now, None,
                     outcome.value if outcome else None, finished_at))
                made.append(Pairing(int(rows[0][0]), tournament, round_number, pair.first, pair.second, now,
                                    outcome=outcome, finished_at=finished_at))
            await tx.execute("UPDATE tournaments SET round = ? WHERE id = ?", (round_number, tournament))
            await tx.announce(tournament_changed(tournament))
        return made

    # ---- pairings ---------------------------------------------------------------------------------

    async def pairing(self, pairing: int) -> Pairing | None:
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_PAIRING_COLUMNS} FROM tournament_pairings WHERE id = ?", (pairing,))
        return _pairing_from(rows[0]) if rows else None

    async def pairing_of_match(self, code: str) -> Pairing | None:
        """The pairing whose match is ``code`` (``None``: the match is no tournament's)."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_PAIRING_COLUMNS} FROM tournament_pairings WHERE code = ? "
                                  "ORDER BY id DESC LIMIT 1", (code,))
        return _pairing_from(rows[0]) if rows else None

    async def seat(self, pairing: int, code: str) -> bool:
        """The match made for ``pairing`` is ``code``; ``False`` when one was recorded first (or it is over)."""
        async with self._db.transaction() as tx:
            rows = await tx.fetch("UPDATE tournament_pairings SET code = ? WHERE id = ? AND code IS NULL AND "
                                  "outcome IS NULL RETURNING tournament", (code, pairing))
            if rows:
                await tx.announce(tournament_changed(int(rows[0][0])))
        return bool(rows)

    async def record(self, pairing: int, outcome: Outcome, pause: Collection[str] = ()) -> Pairing | None:
        """``pairing`` ended ``outcome``, and the players in ``pause`` are paused (they missed it), once: ``None``
        when its outcome was recorded already (or there is no such pairing)."""
        now = self._db.clock()
        async with self._db.transaction() as tx:
            rows = await tx.fetch("UPDATE tournament_pairings SET outcome = ?, finished_at = ? WHERE id = ? AND "
                                  f"outcome IS NULL RETURNING {_PAIRING_COLUMNS}", (outcome.value, now, pairing))
            if not rows:
                return None
            ended = _pairing_from(rows[0])
            for player in pause:
                await tx.execute("UPDATE tournament_entrants SET paused = 1 WHERE tournament = ? AND fingerprint = ?",
                                 (ended.tournament, player))
            await tx.announce(tournament_changed(ended.tournament))
        return ended


def _lock(tournament: int) -> str:
    return f"soluna-tournament:{tournament}"


def _may_pair(snapshot: Snapshot, round_number: int, pairs: Sequence[Pair]) -> bool:
    """Whether ``pairs`` may be round ``round_number`` of the tournament as it stands in ``snapshot``."""
    known = snapshot.tournament
    if known.state is not TournamentState.RUNNING or round_number != known.round + 1 or not pairs:
        return False
    if known.plan.kind is TournamentKind.SWISS and not all(each.finished for each in snapshot.pairings):
        return False
    ready = {each.fingerprint for each in snapshot.entrants if not each.paused} - snapshot.playing()
    players = [player for pair in pairs for player in pair.players]
    return len(players) == len(set(players)) and set(players) <= ready


async def _open_tournament(tx: Transaction, tournament: int) -> Tournament:
    known = await _tournament(tx, tournament)
    if known is None:
        raise TournamentError("there is no such tournament")
    if known.state.over:
        raise TournamentError(f"that tournament is {known.state.value}")
    return known


async def _tournament(tx: Transaction, tournament: int) -> Tournament | None:
    rows = await tx.fetch(f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament,))
    return _tournament_from(rows[0]) if rows else None


async def _snapshot(tx: Transaction, tournament: int) -> Snapshot | None:
    known = await _tournament(tx, tournament)
    if known is None:
        return None
    entrants = await tx.fetch("SELECT fingerprint, name, rating, joined_at, paused FROM tournament_entrants "
                              "WHERE tournament = ? ORDER BY joined_at, fingerprint", (tournament,))
    pairings = await tx.fetch(f"SELECT {_PAIRING_COLUMNS} FROM tournament_pairings WHERE tournament = ? ORDER BY id",
                              (tournament,))
    return Snapshot(known, tuple(Entrant(fingerprint, name, rating, float(joined_at), bool(paused))
                                 for fingerprint, name, rating, joined_at, paused in entrants),
                    tuple(_pairing_from(row) for row in pairings))


def _tournament_from(row: Sequence[Any]) -> Tournament:
    (number, name, kind, length, starts_at, terms, min_rating, min_rated_matches, created_by, state, round_number,
     created_at, finished_at, winner) = row
    plan = TournamentPlan(name, TournamentKind(kind), int(length), float(starts_at),
                          terms_from_document(json.loads(terms)), min_rating, min_rated_matches, created_by)
    return Tournament(int(number), plan, TournamentState(state), int(round_number), float(created_at),
                      None if finished_at is None else float(finished_at), winner)


def _pairing_from(row: Sequence[Any]) -> Pairing:
    number, tournament, round_number, first, second, paired_at, code, outcome, finished_at = row
    return Pairing(int(number), int(tournament), int(round_number), first, second, float(paired_at), code,
                   None if outcome is None else Outcome(outcome), None if finished_at is None else float(finished_at))
