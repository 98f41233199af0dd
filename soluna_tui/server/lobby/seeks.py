"""Runs in the server process.

Quick matches: "find me an opponent" on the chosen terms. The newcomer is paired at once with a waiting player
whose terms agree (``pairs.partner_for``: nobody with themselves, the nearest rating where there is a choice),
under the store's lock, so two servers never pair one player twice; else the newcomer waits (``Seeking``) until
paired, cancelled, gone, or off to another match. A player waits in one queue at a time (one seek a person).

The newcomer creates the match (``Waiting`` answers their question); the one who waited hears its code from the
store (``PAIRING`` changes) and joins it in their turn (``meeting.PairedJoin``).

A player waiting is listed as waiting for an opponent, and told (once for each) of anyone waiting on the same
settings whom they are not paired with, and why (``pairs.why_not_paired``: rated or not, one address).
"""

from __future__ import annotations

import logging
from dataclasses import replace

from ...link.messages import (
    SEEKS_LISTED,
    AcceptSeek,
    CancelSeek,
    CreateMatch,
    MatchTerms,
    Notice,
    OpenSeeks,
    Seek,
    Seeking,
    SeekLine,
    WatchSeeks,
)
from ...rules import SolunaError
from ..storage import Storage
from ..storage.pairing import CLAIMED, SeekRecord, Someone
from .meeting import Meeting, PairedJoin, checked_terms, terms_document, terms_from_document
from .pairs import partner_for, seek_refusal, why_not_paired
from .two_player import TwoPlayerMatches
from .visitors import Asker, Guest

log = logging.getLogger("soluna.server")

OFF = "This server does not pair players for quick matches: create a match and give its code instead."


class Seeks:
    """Quick matches asked for on this server, and the pairs the store tells of."""

    def __init__(self, store: Storage, meeting: Meeting, matches: TwoPlayerMatches, enabled: bool = True) -> None:
        self.store, self.meeting, self.matches, self.enabled = store, meeting, matches, enabled
        #: This server's terminals waiting, and the joins queued already (by terminal: the match's code).
        self.waiting: set[Guest] = set()
        self._queued: dict[str, str] = {}
        #: Those each waiting terminal was told it is not paired with (by terminal: the others' terminals, with
        #: their names).
        self._told_apart: dict[Guest, dict[str, str]] = {}
        #: The terminals with the seeks board open, and the seeks each was last told.
        self.board: dict[Guest, OpenSeeks | None] = {}

    def _wait(self, guest: Guest, waiting: bool) -> None:
        """``guest`` waits for a quick match now (or no longer does): listed so."""
        if waiting:
            self.waiting.add(guest)
        else:
            self.waiting.discard(guest)
            self._told_apart.pop(guest, None)
        self.meeting.roster.seeking(guest, waiting)

    async def seek(self, asker: Asker, request: Seek) -> None:
        if not self.enabled:
            asker.refuse(OFF)
            return
        if asker.visitor.code is not None:
            asker.refuse("Leave the match you are at first (n).")
            return
        terms = checked_terms(request.terms, asker.guest.fingerprint is not None)
        self.matches.referee.clock_for(terms.clock)  # a clock this server does not offer is refused now
        if not self.meeting.allow(asker):
            return
        record = SeekRecord(self.meeting.someone(asker.guest), terms_document(terms), self.store.clock())
        seen: list[SeekRecord] = []

        def choose(waiting: list[SeekRecord]) -> SeekRecord | str | None:
            seen[:] = waiting
            return partner_for(record, waiting)

        outcome = await self.store.pairing.seek(record, choose, self.meeting.presence.live)
        if isinstance(outcome, str):
            asker.refuse(outcome)
        elif outcome is None:
            self._wait(asker.guest, True)
            asker.answer(Seeking(record.since))
            self._tell_apart(asker.guest, record, seen)  # the others hear of this one when the store says
        else:
            self._wait(asker.guest, False)
            await self._create(asker, outcome, terms)

    async def _create(self, asker: Asker, partner: SeekRecord, terms: MatchTerms) -> None:
        """Paired: the match is created here on this player's terms (as "Create a match" does), and the partner
        told its code."""
        await self.matches.create(asker, CreateMatch(terms.options, terms.hints, terms.clock))
        code = asker.visitor.code
        if code is None:
            return  # not created (refused, told): the partner is claimed for nothing, and waits no more
        if not await self.store.pairing.paired(partner.seeker.session, code, asker.visitor.name):
            log.info("a quick match's partner left before the match %s was made: it waits for a join by code", code)
        else:
            log.info("quick match %s: two players paired", code)

    async def cancel(self, asker: Asker, request: CancelSeek) -> None:
        """Stop waiting (too late once paired: the join follows)."""
        self._wait(asker.guest, False)
        await self.store.pairing.unseek(self.meeting.session(asker.guest))

    async def gone(self, guest: Guest) -> None:
        """The terminal has gone (or went to another match): it waits no more, paired or not."""
        self.board.pop(guest, None)
        if guest in self.waiting:
            self._wait(guest, False)
            await self.store.pairing.unseek(self.meeting.session(guest), paired_too=True)

    async def heard(self, seeks: list[SeekRecord]) -> None:
        """The store's seeks, read after a change: this server's waiting terminals paired by another's newcomer
        join their match in their turn; those still waiting are told of anyone they are not paired with, and
        why."""
        server = self.meeting.presence.server_id
        self._tell_everyone_apart(seeks)
        self._tell_board(seeks)
        for record in seeks:
            seeker, code = record.seeker, record.code
            if seeker.server != server or code in (None, CLAIMED) or self._queued.get(seeker.session) == code:
                continue
            guest = self.meeting.guest_at(seeker.session)
            visitor = self.meeting.visitors.get(guest) if guest is not None else None
            if guest is None or visitor is None:
                continue
            assert code is not None
            self._queued[seeker.session] = code
            terms = terms_from_document(record.terms)
            visitor.queue.put_nowait(PairedJoin(code, record.partner or "an opponent", terms.hints))

    def _tell_everyone_apart(self, seeks: list[SeekRecord]) -> None:
        """Each of this server's terminals waiting hears, once, of each other player waiting on the same settings
        whom it is not paired with, and why."""
        for mine in seeks:
            guest = self.meeting.guest_at(mine.seeker.session) if mine.code is None else None
            if guest is not None:
                self._tell_apart(guest, mine, seeks)

    def _tell_apart(self, guest: Guest, mine: SeekRecord, others: list[SeekRecord]) -> None:
        """``guest``, waiting on ``mine``, hears (once for each) of those of ``others`` it is not paired with; and
        of each of those that waits no more (paired with someone else, gone, or stopped), lest it change its
        settings for someone who is not there."""
        if guest not in self.waiting:
            return
        live = self.meeting.presence.live
        told = self._told_apart.setdefault(guest, {})
        for other in others:
            if other.seeker.session in told or other.seeker.server not in live:
                continue
            why = why_not_paired(mine, other)
            if why is not None:
                told[other.seeker.session] = other.seeker.name
                guest.send(Notice(why))
        waiting = {other.seeker.session for other in others if other.code is None and other.seeker.server in live}
        for session in [session for session in told if session not in waiting]:
            guest.send(Notice(f"{told.pop(session)} is not waiting any more."))

    # ---- the open seeks board ------------------------------------------------------------------

    async def watch(self, asker: Asker, request: WatchSeeks) -> None:
        """The seeks board opened (the open seeks now, then each time they change) or closed."""
        if not request.watch:
            self.board.pop(asker.guest, None)
            return
        self.board[asker.guest] = None
        self._tell_board(await self.store.pairing.seeks(), only=asker.guest)

    def _tell_board(self, seeks: list[SeekRecord], only: Guest | None = None) -> None:
        """Each terminal with the board open hears the open seeks, when they changed since it was last told."""
        live = self.meeting.presence.live
        # Someone hidden from the list of who is online is not on the board either (but to themselves): the quick
        # match still pairs them.
        hidden = {line.person for line in self.meeting.roster.everyone() if line.hidden}
        open_seeks = sorted((each for each in seeks if each.code is None and each.seeker.server in live),
                            key=lambda each: each.since)
        for guest, told in list(self.board.items()):
            if only not in (None, guest):
                continue
            person = self.meeting.someone(guest).person
            shown = [each for each in open_seeks if each.seeker.person == person or each.seeker.person not in hidden]
            lines = tuple(SeekLine(each.seeker.session, each.seeker.name, terms_from_document(each.terms), each.since,
                                   each.seeker.rating, yours=each.seeker.person == person,
                                   keyed=each.seeker.fingerprint is not None)
                          for each in shown[:SEEKS_LISTED])
            board = OpenSeeks(lines, len(shown))
            if board != told:
                self.board[guest] = board
                guest.send(board)

    async def accept(self, asker: Asker, request: AcceptSeek) -> None:
        """An open seek accepted from the board: claimed under the store's lock (two acceptors never both get it),
        then the match made as a quick match's is, on the seek's terms; refused in one line when it is gone or not a
        match these two may play."""
        if not self.enabled:
            asker.refuse(OFF)
            return
        if asker.visitor.code is not None:
            asker.refuse("Leave the match you are at first (n).")
            return
        if not self.meeting.allow(asker):
            return
        accepter = self.meeting.someone(asker.guest)
        chosen = await self.store.pairing.claim(lambda waiting: self._acceptable(waiting, request.key, accepter),
                                                self.meeting.presence.live)
        if isinstance(chosen, str):
            asker.refuse(chosen)
            return
        await self.gone(asker.guest)  # this player's own seek, if any, waits no more
        await self._create(asker, chosen, replace(terms_from_document(chosen.terms), hints=request.hints))

    def _acceptable(self, waiting: list[SeekRecord], key: str, accepter: Someone) -> SeekRecord | str:
        """The seek ``key`` among those ``waiting``, if ``accepter`` may accept it; else why not, in one line."""
        seek = next((each for each in waiting if each.seeker.session == key), None)
        if seek is None:
            return "That seek is not open any more: its player was paired, stopped looking or left."
        refusal = seek_refusal(seek, accepter)
        if refusal is not None:
            return refusal
        try:
            self.matches.referee.clock_for(terms_from_document(seek.terms).clock)
        except SolunaError:
            return "That seek's clock is not one this server offers."
        return seek

    async def join(self, asker: Asker, step: PairedJoin) -> None:
        """A waiting terminal's turn to join the match it was paired into."""
        session = self.meeting.session(asker.guest)
        self._wait(asker.guest, False)
        self._queued.pop(session, None)
        await self.store.pairing.unseek(session, paired_too=True)
        await self.meeting.join(asker, step)
