"""Runs in the server process: ``TournamentEngine``, tournaments run against the store.

Every server of a fleet may call any method at any time: the engine reads a tournament (``Snapshot``), decides by
the pure rules (``swiss.py``, ``arena.py``, ``standings.py``), and writes through the store, which takes the
decision only if the tournament still stands where it was read (``store.tournaments.pair``, ``move``) or only once
(``seat``, ``record``). Nothing is kept in memory: after a restart, or on another server, ``advance`` goes on from
what the store holds. The lobby calls ``advance`` for each tournament ``due`` about once a second and on news of a
change, seats the players of the pairings made, and tells the engine each match's end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from dataclasses import dataclass

from ...rules import SolunaError
from ..storage import Storage
from .arena import REMATCH_WAIT, ArenaPlayer, arena_pairs
from .records import (
    LONGEST_NOTICE_MINUTES,
    Entrant,
    Outcome,
    Pairing,
    Snapshot,
    Tournament,
    TournamentError,
    TournamentKind,
    TournamentPlan,
    TournamentState,
)
from .standings import Placing, first_place, standings, swiss_scores
from .swiss import SwissPlayer, swiss_pairs

#: Seconds in the past a tournament may be announced to start (a command's "now" reaching the store a moment late).
STARTS_LATE_BY = 60.0
#: The fewest entrants a tournament starts with; with fewer at its start it is cancelled.
FEWEST_ENTRANTS = 2
#: Tournaments a player (``--player-tournaments``) may have announced and not yet ended, at once.
OPEN_PER_PLAYER = 2


@dataclass(frozen=True)
class Openings:
    """How many more matches a player opened than not, and whether they opened their last (``None``: none yet)."""

    balance: int = 0
    opened_last: bool | None = None


class TournamentEngine:
    """Tournaments announced, joined, paired, scored and ended, all through the store."""

    def __init__(self, store: Storage, rematch_wait: float = REMATCH_WAIT) -> None:
        self.store = store
        #: Seconds two arena players who just met, alone free, wait before meeting again (``arena.REMATCH_WAIT``).
        self.rematch_wait = rematch_wait

    # ---- announcing and reading ---------------------------------------------------------------------

    async def announce(self, plan: TournamentPlan) -> Tournament:
        """Announce ``plan`` (``TournamentError``: options that are not this game's, a start in the past or too far
        ahead, or a player's ``OPEN_PER_PLAYER`` tournaments not yet ended)."""
        check_terms(plan)
        now = self.store.clock()
        if plan.starts_at < now - STARTS_LATE_BY:
            raise TournamentError("a tournament starts now or later, not in the past")
        if plan.starts_at > now + LONGEST_NOTICE_MINUTES * 60:
            raise TournamentError(f"a tournament starts within {LONGEST_NOTICE_MINUTES // (24 * 60)} days")
        if plan.created_by is not None:
            open_ones = await self.tournaments((TournamentState.UPCOMING, TournamentState.RUNNING))
            if sum(each.plan.created_by == plan.created_by for each in open_ones) >= OPEN_PER_PLAYER:
                raise TournamentError(f"you have {OPEN_PER_PLAYER} tournaments announced already: wait for one to "
                                      "end, or cancel one")
        return await self.store.tournaments.create(plan)

    async def tournaments(self, states: Collection[TournamentState] | None = None) -> list[Tournament]:
        """The tournaments in ``states`` (all: ``None``), by when they start, the latest first."""
        return await self.store.tournaments.listed(states)

    async def snapshot(self, tournament: int) -> Snapshot | None:
        return await self.store.tournaments.snapshot(tournament)

    async def standings(self, tournament: int) -> list[Placing]:
        snapshot = await self.snapshot(tournament)
        return [] if snapshot is None else standings(snapshot)

    async def due(self) -> list[int]:
        """The tournaments ``advance`` has work for now or soon: running, or upcoming and past their start."""
        now = self.store.clock()
        listed = await self.tournaments((TournamentState.UPCOMING, TournamentState.RUNNING))
        return [each.id for each in listed if each.state is TournamentState.RUNNING or each.plan.starts_at <= now]

    # ---- players ----------------------------------------------------------------------------------

    async def join(self, tournament: int, fingerprint: str, name: str) -> Entrant:
        """The key ``fingerprint``'s player (shown as ``name``) enters, or comes back if already in; a newcomer
        must meet the minimum rating and rated matches (``TournamentError`` says what is missing)."""
        snapshot = await self.snapshot(tournament)
        if snapshot is None:
            raise TournamentError("there is no such tournament")
        known = snapshot.entrant(fingerprint)
        rating, rated_matches = await self.store.tournaments.rating_of(fingerprint)
        if known is None:
            refusal = entry_refusal(snapshot.tournament.plan, rating, rated_matches)
            if refusal is not None:
                raise TournamentError(refusal)
        entrant = Entrant(fingerprint, name, rating, self.store.clock())
        return await self.store.tournaments.enter(tournament, entrant)

    async def come_back(self, tournament: int, fingerprint: str, name: str | None = None) -> Entrant:
        """A paused player plays on from the next pairing (as ``join`` for one already in; ``name``: the name they
        are shown by now, else the one they entered with)."""
        snapshot = await self.snapshot(tournament)
        known = snapshot.entrant(fingerprint) if snapshot is not None else None
        if known is None:
            raise TournamentError("you are not in that tournament")
        return await self.join(tournament, fingerprint, name if name is not None else known.name)

    async def withdraw(self, tournament: int, fingerprint: str) -> None:
        """Before the start the player leaves; once running they are paused (in the standings, not paired);
        ``TournamentError`` for a tournament over, or one they are not in."""
        if await self.store.tournaments.leave(tournament, fingerprint):
            return
        snapshot = await self.snapshot(tournament)
        if snapshot is None:
            raise TournamentError("there is no such tournament")
        if snapshot.tournament.state.over:
            raise TournamentError(f"that tournament is {snapshot.tournament.state.value}")
        raise TournamentError("you are not in that tournament")

    async def cancel(self, tournament: int) -> bool:
        """Cancel an upcoming or running tournament (matches in play go on, unscored by it)."""
        moved = await self.store.tournaments.move(tournament, (TournamentState.UPCOMING, TournamentState.RUNNING),
                                                  TournamentState.CANCELLED)
        return moved is not None

    # ---- matches ----------------------------------------------------------------------------------

    async def seated(self, pairing: int, code: str) -> bool:
        """The match made for ``pairing`` is ``code``; ``False``: another was recorded first (use that one)."""
        return await self.store.tournaments.seat(pairing, code)

    async def result(self, pairing: int, outcome: Outcome) -> Pairing | None:
        """``pairing``'s match ended ``outcome`` (``None``: its outcome was recorded already)."""
        return await self.store.tournaments.record(pairing, outcome)

    async def missed(self, pairing: int, absent: Collection[str]) -> Pairing | None:
        """The players ``absent`` did not come to ``pairing``'s table in time: the other wins (both absent: nobody),
        and each absent player is paused until they come back."""
        known = await self.store.tournaments.pairing(pairing)
        if known is None:
            return None
        gone = [player for player in known.players if player in absent]
        if not gone:
            return None
        if len(gone) == len(known.players):
            outcome = Outcome.NEITHER
        else:
            outcome = Outcome.SECOND_WON if known.first in gone else Outcome.FIRST_WON
        return await self.store.tournaments.record(pairing, outcome, pause=gone)

    # ---- the course of a tournament -----------------------------------------------------------------

    async def advance(self, tournament: int) -> list[Pairing]:
        """Whatever is due now: the start (cancelled with fewer than ``FEWEST_ENTRANTS``), a Swiss's next round once
        the last is over, an arena's free players paired, the end. The pairings this call made (empty: nothing
        was due, or another server did it first)."""
        snapshot = await self.snapshot(tournament)
        if snapshot is None:
            return []
        now = self.store.clock()
        known = snapshot.tournament
        if known.state is TournamentState.UPCOMING:
            if now < known.plan.starts_at:
                return []
            if len(snapshot.entrants) < FEWEST_ENTRANTS:
                await self.store.tournaments.move(tournament, (TournamentState.UPCOMING,), TournamentState.CANCELLED)
                return []
            await self.store.tournaments.move(tournament, (TournamentState.UPCOMING,), TournamentState.RUNNING)
            snapshot = await self.snapshot(tournament)
            if snapshot is None:
                return []
        if snapshot.tournament.state is not TournamentState.RUNNING:
            return []
        if snapshot.tournament.plan.kind is TournamentKind.SWISS:
            return await self._advance_swiss(snapshot)
        return await self._advance_arena(snapshot, now)

    async def _advance_swiss(self, snapshot: Snapshot) -> list[Pairing]:
        known = snapshot.tournament
        if not all(each.finished for each in snapshot.pairings):
            return []
        active = [each for each in snapshot.entrants if not each.paused]
        if known.round >= known.plan.length or len(active) < FEWEST_ENTRANTS:
            await self._finish(snapshot)
            return []
        pairs = await asyncio.to_thread(swiss_pairs, swiss_players(snapshot))
        return await self.store.tournaments.pair(known.id, known.round + 1, pairs) or []

    async def _advance_arena(self, snapshot: Snapshot, now: float) -> list[Pairing]:
        known = snapshot.tournament
        ends_at = known.plan.ends_at
        assert ends_at is not None
        if now >= ends_at:
            if all(each.finished for each in snapshot.pairings):
                await self._finish(snapshot)
            return []
        if len(free_players(snapshot)) < 2:
            return []
        free = arena_players(snapshot)
        pairs = await asyncio.to_thread(arena_pairs, free, now, self.rematch_wait)
        if not pairs:
            return []
        return await self.store.tournaments.pair(known.id, known.round + 1, pairs) or []

    async def _finish(self, snapshot: Snapshot) -> None:
        await self.store.tournaments.move(snapshot.tournament.id, (TournamentState.RUNNING,),
                                          TournamentState.FINISHED, winner_of(snapshot))


def winner_of(snapshot: Snapshot) -> str | None:
    """The key of the tournament's winner as filed once it is over: first alone (``None`` when first place is
    shared, or nobody scored)."""
    firsts = first_place(standings(snapshot))
    return firsts[0].fingerprint if len(firsts) == 1 else None


def check_terms(plan: TournamentPlan) -> None:
    """``TournamentError`` unless the plan's match options are this game's."""
    from ..lobby.decision_values import match_options

    try:
        match_options(plan.terms.options)
    except SolunaError as error:
        raise TournamentError(str(error)) from None


def entry_refusal(plan: TournamentPlan, rating: int | None, rated_matches: int) -> str | None:
    """Why a player with this shown ``rating`` (``None``: none yet) and ``rated_matches`` may not enter, if so."""
    if plan.min_rating is not None and (rating is None or rating < plan.min_rating):
        have = "no rating yet" if rating is None else f"a rating of {rating}"
        return f"this tournament is for ratings of {plan.min_rating} or more; you have {have}"
    if plan.min_rated_matches is not None and rated_matches < plan.min_rated_matches:
        return (f"this tournament is for players with {plan.min_rated_matches} rated matches or more; you have "
                f"{rated_matches}")
    return None


def openings(pairings: Collection[Pairing]) -> dict[str, Openings]:
    """Each player's openings over ``pairings`` (byes aside), in the order they were made."""
    found: dict[str, Openings] = {}
    for pairing in sorted(pairings, key=lambda each: each.id):
        if pairing.second is None:
            continue
        for player, opened in ((pairing.first, True), (pairing.second, False)):
            before = found.get(player, Openings())
            found[player] = Openings(before.balance + (1 if opened else -1), opened)
    return found


def swiss_players(snapshot: Snapshot) -> list[SwissPlayer]:
    """The players a Swiss pairs next (not paused), as the pairing knows them, in standings order."""
    scores = swiss_scores(each for each in snapshot.pairings if each.finished)
    opened = openings(snapshot.pairings)
    paused = {each.fingerprint for each in snapshot.entrants if each.paused}
    ranked = [placing.fingerprint for placing in standings(snapshot) if placing.fingerprint not in paused]
    players = []
    for rank, player in enumerate(ranked):
        met = frozenset(opponent for each in snapshot.pairings if (opponent := each.opponent_of(player)) is not None)
        byes = sum(1 for each in snapshot.pairings if each.bye and each.first == player)
        history = opened.get(player, Openings())
        players.append(SwissPlayer(player, scores.get(player, 0.0), rank, met, byes, history.balance,
                                   history.opened_last))
    return players


def arena_players(snapshot: Snapshot) -> list[ArenaPlayer]:
    """An arena's free players (not paused, at no match), as its pairing knows them, in standings order."""
    free = free_players(snapshot)
    if not free:
        return []
    joined = {each.fingerprint: each.joined_at for each in snapshot.entrants}
    start = snapshot.tournament.plan.starts_at
    last: dict[str, Pairing] = {}
    for pairing in snapshot.pairings:  # in the order they were made: each player's last stays
        for player in pairing.players:
            last[player] = pairing
    opened = openings(snapshot.pairings)
    players = []
    for rank, placing in enumerate(standings(snapshot)):
        player = placing.fingerprint
        if player not in free:
            continue
        previous = last.get(player)
        since = max(joined[player], start, previous.finished_at or 0.0 if previous is not None else 0.0)
        history = opened.get(player, Openings())
        players.append(ArenaPlayer(player, rank, previous.opponent_of(player) if previous is not None else None,
                                   since, history.balance, history.opened_last))
    return players


def free_players(snapshot: Snapshot) -> set[str]:
    """The entrants neither paused nor at a match."""
    return {each.fingerprint for each in snapshot.entrants if not each.paused} - snapshot.playing()
