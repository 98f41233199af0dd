"""Runs in the server process.

Tournaments in the lobby: the list and a tournament's page asked for (by anyone: spectators too), a keyed player's
join, withdrawal and, where the owner allows it (``--player-tournaments``), their own tournament announced; and the
running of every tournament, by whichever server of a fleet gets there first (``tend``: on every heartbeat, and on
every change a server announces), its decisions the engine's, under the store's lock (``tournaments/engine.py``).

At each pairing the players are seated as a quick match seats a pair: one of them creates the match on the
tournament's terms (``TwoPlayerMatches.create``, the pairing's ``first`` opening its first round), the match's code is
recorded with the pairing (the first server to record one wins: another's match is cancelled and its player joins
the one recorded), and the other joins it in their turn (``meeting.PairedJoin``). Each is told in one notice, with
``Paired`` (the terminal's bell). A player at a finished match leaves it (their screen shows it until the next
one's state takes its place); a player at a match in play is told, once, to leave it. A player who has not sat down
``grace`` seconds after the pairing (gone, at another match) missed it: the opponent who came wins, and whoever
missed it is paused until they join again.

A match over is recorded for its pairing by whichever server sees it first (the match as filed: its winner by key);
a tournament over is announced to everyone in the lobby, and to its players wherever they are, on every server.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ...link.messages import (
    AskTournament,
    AskTournaments,
    CancelMatch,
    CreateMatch,
    CreateTournament,
    JoinTournament,
    Notice,
    Paired,
    Request,
    Tournaments,
    WithdrawTournament,
)
from ...rules.clock import MatchClock
from ..storage import Storage, StorageError
from ..tournaments.engine import TournamentEngine
from ..tournaments.records import (
    Pairing,
    Snapshot,
    TournamentError,
    TournamentKind,
    TournamentPlan,
    TournamentState,
)
from .decision_values import TAKEBACKS_TERM, TOURNAMENT_TERM, match_options
from .meeting import Meeting, PairedJoin, checked_terms
from .tables import MatchCache
from .tournament_view import line_of, listed, outcome_of, page_of, pairing_words, winner_words
from .two_player import TwoPlayerMatches
from .visitors import Asker, Guest, Visitor

log = logging.getLogger("soluna.server")

#: Seconds a paired player has to sit down before they miss the pairing (and are paused).
GRACE = 60.0
#: The most minutes ahead a player may announce a tournament for.
PLAYER_NOTICE_MINUTES = 7 * 24 * 60
NEEDS_A_KEY = "Tournaments are for players with an SSH key: connect with one to enter."


@dataclass(frozen=True)
class TournamentSeat(Request):
    """The lobby's own step for a guest paired in a tournament (never sent by a child: no ``REQUESTS`` entry reads
    it): in its turn, it creates the pairing's match or joins the one made."""

    TYPE: ClassVar[str] = "tournament_seat"
    tournament: int
    pairing: int


class TournamentDesk:
    """Tournaments on this server: the players' requests, and the tending of every tournament in play."""

    def __init__(self, store: Storage, meeting: Meeting, matches: TwoPlayerMatches, cache: MatchCache,
                 settling: Callable[[], bool], player_tournaments: bool = False, grace: float = GRACE) -> None:
        self.store, self.meeting, self.matches, self.cache = store, meeting, matches, cache
        self.engine = TournamentEngine(store)
        self.player_tournaments, self.grace = player_tournaments, grace
        self._settling = settling
        #: The seat steps queued and not yet taken (by pairing and key), the pairings each key was told of, the
        #: players told to leave their match for a pairing, and the tournaments seen running (their end is news).
        self._queued: set[tuple[int, str]] = set()
        self._told: set[tuple[int, str]] = set()
        self._told_busy: set[tuple[int, str]] = set()
        self._running: set[int] | None = None
        #: The pairings whose match a player here is creating (until the pairing records it, or it fails).
        self._creating: set[int] = set()
        self._tending: asyncio.Task[None] | None = None
        self._again = False

    @property
    def visitors(self) -> Mapping[Guest, Visitor]:
        return self.meeting.visitors

    @property
    def handlers(self) -> dict[type[Any], Callable[[Asker, Any], Awaitable[None]]]:
        return {AskTournaments: self.listing, AskTournament: self.page, JoinTournament: self.join,
                WithdrawTournament: self.withdraw, CreateTournament: self.create, TournamentSeat: self.seat}

    # ---- what players ask ------------------------------------------------------------------------------

    async def listing(self, asker: Asker, request: AskTournaments) -> None:
        fingerprint = asker.guest.fingerprint
        lines = []
        for tournament in listed(await self.engine.tournaments()):
            snapshot = await self.engine.snapshot(tournament.id)
            if snapshot is not None:
                lines.append(line_of(snapshot, fingerprint))
        asker.answer(Tournaments(tuple(lines), self.player_tournaments and fingerprint is not None, self.store.clock()))

    async def page(self, asker: Asker, request: AskTournament | JoinTournament | WithdrawTournament) -> None:
        snapshot = await self.engine.snapshot(request.id)
        if snapshot is None:
            asker.refuse("There is no such tournament.")
            return
        asker.answer(page_of(snapshot, asker.guest.fingerprint, self.store.clock()))

    async def join(self, asker: Asker, request: JoinTournament) -> None:
        """Enter, or come back once paused (or withdrawn from a tournament running)."""
        fingerprint = asker.guest.fingerprint
        if fingerprint is None:
            asker.refuse(NEEDS_A_KEY)
            return
        try:
            await self.engine.join(request.id, fingerprint, asker.visitor.name)
        except TournamentError as error:
            asker.refuse(_sentence(str(error)))
            return
        await self.page(asker, request)
        self.stir()  # a running arena pairs a free player at once

    async def withdraw(self, asker: Asker, request: WithdrawTournament) -> None:
        fingerprint = asker.guest.fingerprint
        if fingerprint is None:
            asker.refuse(NEEDS_A_KEY)
            return
        try:
            await self.engine.withdraw(request.id, fingerprint)
        except TournamentError as error:
            asker.refuse(_sentence(str(error)))
            return
        await self.page(asker, request)

    async def create(self, asker: Asker, request: CreateTournament) -> None:
        """A keyed player's own tournament, where the owner lets players announce them."""
        fingerprint = asker.guest.fingerprint
        if not self.player_tournaments:
            asker.refuse("On this server only its owner announces tournaments.")
            return
        if fingerprint is None:
            asker.refuse(NEEDS_A_KEY)
            return
        if not 0 < request.starts_in <= PLAYER_NOTICE_MINUTES:
            asker.refuse("A tournament starts in 1 minute to 7 days.")
            return
        terms = checked_terms(request.terms, keyed=True)
        self.matches.referee.clock_for(terms.clock)  # a clock this server does not offer is refused now
        try:
            plan = TournamentPlan(request.name, TournamentKind(request.kind), request.length,
                                  self.store.clock() + request.starts_in * 60, terms, created_by=fingerprint)
            tournament = await self.engine.announce(plan)
        except TournamentError as error:
            asker.refuse(_sentence(str(error)))
            return
        log.info("a player announced tournament %d", tournament.id)
        await self.page(asker, AskTournament(tournament.id))

    # ---- a paired player sits down ---------------------------------------------------------------------

    async def seat(self, asker: Asker, step: TournamentSeat) -> None:
        """In the guest's turn: create the pairing's match (none yet) or join it."""
        fingerprint = asker.guest.fingerprint
        assert fingerprint is not None
        try:
            await self._seat(asker, step, fingerprint)
        finally:  # queued again by the next tending if still not seated
            self._queued.discard((step.pairing, fingerprint))

    async def _seat(self, asker: Asker, step: TournamentSeat, fingerprint: str) -> None:
        snapshot = await self.engine.snapshot(step.tournament)
        pairing = _pairing(snapshot, step.pairing)
        if snapshot is None or pairing is None or pairing.finished or pairing.second is None:
            return
        if pairing.code is not None and asker.visitor.code == pairing.code:
            return  # seated already
        opponent = snapshot.entrant(pairing.opponent_of(fingerprint) or "")
        opponent_name = opponent.name if opponent is not None else "your opponent"
        if not await self._free(asker, snapshot, pairing):
            return
        if pairing.code is None:
            # Created and recorded before the other is queued again: seated at the match before the pairing records
            # it, this player no longer looks free, and the other would create a second one (cancelled, Paired twice).
            if pairing.id in self._creating:
                return  # the other is creating it: this one joins it once recorded (queued again by the next tending)
            self._creating.add(pairing.id)
            try:
                code = await self._create(asker, snapshot, pairing, opponent_name)
                if code is None:
                    return
                recorded = await self.engine.seated(pairing.id, code)
            finally:
                self._creating.discard(pairing.id)
            if recorded:
                self._tell(asker.guest, snapshot, pairing, fingerprint)
                return
            await self.matches.cancel(asker, CancelMatch())  # another server made it first: that one is played
            pairing = _pairing(await self.engine.snapshot(step.tournament), step.pairing)
            if pairing is None or pairing.code is None:
                return
        terms = snapshot.tournament.plan.terms
        if await self.meeting.join(asker, PairedJoin(pairing.code, opponent_name, terms.hints)):
            self._tell(asker.guest, snapshot, pairing, fingerprint)

    async def _free(self, asker: Asker, snapshot: Snapshot, pairing: Pairing) -> bool:
        """Whether the guest may sit down now: at the lobby, or at a finished match (taken back to the lobby
        first); a player at a match in play is told once to leave it."""
        visitor = asker.visitor
        if visitor.code is None and visitor.computer is None:
            return True
        table = self.cache.tables.get(visitor.code) if visitor.code is not None else None
        if visitor.code is not None and (table is None or table.finished):
            # Its screen keeps the match over until the next one's state comes and takes its place (a terminal sent
            # back to the lobby now would leave, as it goes, whatever match it sits at by then: the next one).
            await self.matches.leave(asker)
            return True
        key = (pairing.id, asker.guest.fingerprint or "")
        if key not in self._told_busy:
            self._told_busy.add(key)
            asker.guest.send(Notice(f"{pairing_words(snapshot, pairing, key[1])} Leave this match (n) within "
                                    f"{self.grace:.0f} s to play it, or you miss it and are paused."))
        return False

    async def _create(self, asker: Asker, snapshot: Snapshot, pairing: Pairing, opponent: str) -> str | None:
        """The pairing's match, created by this player on the tournament's terms (its ``first`` opens the first
        round); its code (``None``: refused, and told)."""
        terms = snapshot.tournament.plan.terms
        options = replace(match_options(terms.options),
                          first_opener=0 if asker.guest.fingerprint == pairing.first else 1)
        # Any clock its owner set, offered in the lobby or not; no takebacks in a tournament's match.
        clock = MatchClock.fresh(terms.clock) if terms.clock is not None else None
        await self.matches.open(asker, CreateMatch(options.to_dict(), terms.hints, terms.clock), clock,
                                {TAKEBACKS_TERM: False, TOURNAMENT_TERM: snapshot.tournament.plan.name})
        code = asker.visitor.code
        if code is not None:
            asker.guest.send(Paired(code, opponent))  # its screen follows the match once the opponent sits down
        return code

    def _tell(self, guest: Guest, snapshot: Snapshot, pairing: Pairing, fingerprint: str) -> None:
        key = (pairing.id, fingerprint)
        if key not in self._told:
            self._told.add(key)
            guest.send(Notice(pairing_words(snapshot, pairing, fingerprint)))

    # ---- tending every tournament (any server; the engine decides once) ----------------------------------

    def stir(self) -> None:
        """A tournament changed (on any server), or a match ended: tend them soon, once for however many came."""
        if self._tending is not None and not self._tending.done():
            self._again = True
            return
        self._tending = asyncio.get_running_loop().create_task(self._tend_again(), name="soluna-tournaments")

    async def _tend_again(self) -> None:
        self._again = True
        while self._again:
            self._again = False
            try:
                await self.tend()
            except StorageError as error:
                log.warning("cannot tend the tournaments: %s", error)
            except Exception:  # noqa: BLE001 - one bad row must not stop the next tending
                log.exception("tending the tournaments failed")

    async def tend(self) -> None:
        """Whatever is due in every tournament (started, paired, finished), then each pairing in play: its players
        seated, its match's end recorded, or missed."""
        for tournament_id in await self.engine.due():
            await self.engine.advance(tournament_id)
        running: set[int] = set()
        for tournament in await self.engine.tournaments():
            if tournament.state is TournamentState.RUNNING:
                running.add(tournament.id)
            elif tournament.state.over and self._running is not None and tournament.id in self._running:
                snapshot = await self.engine.snapshot(tournament.id)
                if snapshot is not None:
                    self._announce(winner_words(snapshot), {entrant.fingerprint for entrant in snapshot.entrants})
                    self._forget(snapshot)
        self._running = running
        for tournament_id in running:
            snapshot = await self.engine.snapshot(tournament_id)
            if snapshot is None or snapshot.tournament.state is not TournamentState.RUNNING:
                continue
            for pairing in snapshot.pairings:
                if pairing.bye:
                    self._tell_bye(snapshot, pairing)
                elif not pairing.finished:
                    await self._tend_pairing(snapshot, pairing)

    async def _tend_pairing(self, snapshot: Snapshot, pairing: Pairing) -> None:
        table = None
        if pairing.code is not None:
            table = self.cache.tables.get(pairing.code) or await self.cache.table_for(pairing.code)
            if table is None or table.finished:
                finished = await self.store.finished.latest_under(pairing.code)
                if finished is not None and finished.started_at < pairing.paired_at:
                    finished = None  # an older match under the same code
                if table is None or finished is not None:
                    await self.engine.result(pairing.id, outcome_of(finished, pairing))
                return
        seated = {seat.fingerprint for seat in table.seats} if table is not None else set()
        for fingerprint in pairing.players:
            if fingerprint not in seated:
                self._queue_seat(snapshot, pairing, fingerprint, creating=pairing.code is None)
        absent = [fingerprint for fingerprint in pairing.players if fingerprint not in seated]
        if absent and self._settling() and self.store.clock() >= pairing.paired_at + self.grace:
            missed = await self.engine.missed(pairing.id, absent)
            if missed is not None:
                log.info("tournament %d: a pairing was missed", snapshot.tournament.id)
                self._after_missed(snapshot, missed, absent)

    def _queue_seat(self, snapshot: Snapshot, pairing: Pairing, fingerprint: str, creating: bool) -> None:
        """This server's terminal of ``fingerprint`` sits down in its turn (once queued; while the match is made,
        only the pairing's ``first`` creates it where both are here, and never one while another is being created
        here)."""
        if (pairing.id, fingerprint) in self._queued:
            return
        if creating and (pairing.id in self._creating
                         or (fingerprint != pairing.first and self._free_here(pairing.first))):
            return  # one of the pair creates it here (or is free to), then the other joins it
        guest = self._guest_of(fingerprint)
        visitor = self.visitors.get(guest) if guest is not None else None
        if guest is None or visitor is None:
            return
        self._queued.add((pairing.id, fingerprint))
        visitor.queue.put_nowait(TournamentSeat(snapshot.tournament.id, pairing.id))

    def _free_here(self, fingerprint: str) -> bool:
        """Whether the key ``fingerprint`` has a terminal here that may sit down now: at the lobby, or at a match
        over."""
        guest = self._guest_of(fingerprint)
        visitor = self.visitors.get(guest) if guest is not None else None
        if visitor is None or visitor.computer is not None:
            return False
        table = self.cache.tables.get(visitor.code) if visitor.code is not None else None
        return visitor.code is None or table is None or table.finished

    def _guest_of(self, fingerprint: str) -> Guest | None:
        """This server's terminal of the key ``fingerprint``: one at the lobby first."""
        guests = [guest for guest in self.visitors if guest.fingerprint == fingerprint]
        return next((guest for guest in guests if self.meeting.in_lobby(guest)), guests[0] if guests else None)

    def _after_missed(self, snapshot: Snapshot, pairing: Pairing, absent: list[str]) -> None:
        """Whoever came is told they win, and their match waiting for nobody goes; whoever missed it, if here, is
        told they are paused."""
        name = snapshot.tournament.plan.name
        for fingerprint in pairing.players:
            guest = self._guest_of(fingerprint)
            visitor = self.visitors.get(guest) if guest is not None else None
            if guest is None or visitor is None:
                continue
            if fingerprint in absent:
                guest.send(Notice(f"{name}: you missed your pairing, so you are paused: join the tournament again "
                                  "(t) to play on."))
            else:
                guest.send(Notice(f"{name}: your opponent did not come to the table, so you win this pairing."))
                if pairing.code is not None and visitor.code == pairing.code:
                    visitor.queue.put_nowait(CancelMatch())

    def _tell_bye(self, snapshot: Snapshot, pairing: Pairing) -> None:
        guest = self._guest_of(pairing.first)
        if guest is not None:
            self._tell(guest, snapshot, pairing, pairing.first)

    def _announce(self, text: str, entrants: set[str]) -> None:
        """News for everyone at this server's lobby, and for the tournament's players wherever they are."""
        for guest in list(self.visitors):
            if self.meeting.in_lobby(guest) or guest.fingerprint in entrants:
                guest.send(Notice(text))

    def _forget(self, snapshot: Snapshot) -> None:
        """A tournament over: its pairings told of no longer need remembering."""
        pairings = {pairing.id for pairing in snapshot.pairings}
        self._told = {key for key in self._told if key[0] not in pairings}
        self._told_busy = {key for key in self._told_busy if key[0] not in pairings}

    async def close(self) -> None:
        if self._tending is not None:
            self._tending.cancel()
            await asyncio.gather(self._tending, return_exceptions=True)


def _pairing(snapshot: Snapshot | None, pairing_id: int) -> Pairing | None:
    if snapshot is None:
        return None
    return next((each for each in snapshot.pairings if each.id == pairing_id), None)


def _sentence(text: str) -> str:
    """The engine's words as a sentence the player reads."""
    text = text.strip()
    return (text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")) if text else text
