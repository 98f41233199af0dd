"""Runs in the server process.

Challenges: a player chooses someone in the list of who is online and challenges them on the chosen terms. The
one challenged sees it at once wherever they are in the lobby (a notice, and the list of their challenges); one at
a match is told once back in the lobby. They accept (they create the match, the challenger joins it: as by code)
or decline; the challenger may withdraw it. A player may refuse every challenge (a setting kept with their key):
each is declined at once, with that reason. The limits (``pairs.challenge_refusal``, ``meeting.Meeting.allow``)
keep a flood from many keys and addresses from burying anyone.

The store keeps every challenge; each server tells its own guests what concerns them after every change
(``heard``), and lets lapse those of players gone. A challenge whose target has left lapses on the challenger's
server alone (unless that server is gone too), so the challenger is told, wherever the target was; an answered or
lapsed challenge leaves the lists of every terminal of both players, on every server, at the next reading.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from ...link.messages import (
    AnswerChallenge,
    CancelMatch,
    ChallengeLine,
    ChallengePerson,
    Challenges,
    ChallengeSent,
    CreateMatch,
    Notice,
    WithdrawChallenge,
)
from ..gate import client_key
from ..storage import Storage
from ..storage.pairing import ACCEPTED, CLAIMED, DECLINED, OPEN, ChallengeRecord
from .meeting import Meeting, PairedJoin, checked_terms, terms_document, terms_from_document
from .online import KEY, Attendance
from .pairs import NOT_OPEN, accept_refusal, challenge_refusal
from .two_player import TwoPlayerMatches
from .visitors import Asker, Guest

log = logging.getLogger("soluna.server")

OFF = "This server passes no challenges on: create a match and give its code instead."
REFUSES = "takes no challenges"


@dataclass(frozen=True)
class ChallengeLines:
    """The open challenges as lines: those to each person, and those from each terminal."""

    incoming: dict[str, list[ChallengeLine]]
    outgoing: dict[str, list[ChallengeLine]]


class ChallengeBook:
    """Challenges, as the store keeps them and this server's guests are told them."""

    def __init__(self, store: Storage, meeting: Meeting, matches: TwoPlayerMatches, enabled: bool = True) -> None:
        self.store, self.meeting, self.matches, self.enabled = store, meeting, matches, enabled
        #: This server's guests who refuse every challenge.
        self.refusing: set[Guest] = set()
        #: What each guest in the lobby was last told, and the challenges it has heard of (for ``new``).
        self._told: dict[Guest, tuple[ChallengeLine, ...]] = {}
        self._heard_of: dict[Guest, set[int]] = {}
        #: The challenges as last read, and those answered whose news this server has acted on.
        self.known: list[ChallengeRecord] = []
        self._acted: set[int] = set()

    # ---- requests ------------------------------------------------------------------------------

    async def challenge(self, asker: Asker, request: ChallengePerson) -> None:
        if not self.enabled:
            asker.refuse(OFF)
            return
        listed = self.meeting.roster.person_numbered(request.person)
        if listed is None:
            asker.refuse("That player is not in the list of who is online any more.")
            return
        target, line = listed
        terms = checked_terms(request.terms, asker.guest.fingerprint is not None)
        self.matches.referee.clock_for(terms.clock)
        if not self.meeting.allow(asker, challenge=True):
            return
        sender = self.meeting.someone(asker.guest)
        present, _ = self.meeting.online()
        beside = self._only_at(target, sender.address)
        made = await self.store.pairing.challenge(
            sender, target, line.name, terms_document(terms),
            lambda kept, played: challenge_refusal(sender, target, line.name, target in present, terms.rated,
                                                   target.startswith(KEY), kept, played, beside),
            target.removeprefix(KEY) if target.startswith(KEY) else None)
        if isinstance(made, str):
            asker.refuse(made)
            return
        log.info("a challenge sent (%d)", made.id)
        asker.answer(ChallengeSent(line.name))

    def _only_at(self, person: str, address: str) -> bool:
        """Whether every terminal of ``person`` online is this server's, at ``address`` (another server's are at
        addresses not told here)."""
        here = [client_key(guest.address) for guest, line in self.meeting.roster.lines.items()
                if line.person == person]
        everywhere = sum(1 for line in self.meeting.lines() if line.person == person)
        return bool(here) and len(here) == everywhere and all(each == address for each in here)

    async def answer(self, asker: Asker, request: AnswerChallenge) -> None:
        """Accept (the match is created here, the challenger joins it) or decline."""
        challenge = next((each for each in await self.store.pairing.challenges() if each.id == request.id), None)
        me = self.meeting.someone(asker.guest)
        if challenge is None or challenge.target != me.person or challenge.state != OPEN:
            asker.refuse(NOT_OPEN)
            return
        if not request.accept:
            await self.store.pairing.settle(challenge.id, DECLINED)
            return
        if asker.visitor.code is not None:
            asker.refuse("Leave the match you are at first (n).")
            return
        _, lobby = self.meeting.online()
        refusal = accept_refusal(challenge, me, challenge.sender.person in lobby)
        if refusal is not None:
            asker.refuse(refusal)
            return
        if not await self.store.pairing.settle(challenge.id, ACCEPTED, code=CLAIMED):
            asker.refuse(NOT_OPEN)
            return
        terms = terms_from_document(challenge.terms)
        # The challenger's "Opens round 1" is theirs: they sit in the second seat.
        options = {**terms.options, "first_opener": 1 - int(terms.options.get("first_opener", 0))}
        await self.matches.create(asker, CreateMatch(options, terms.hints, terms.clock))
        code = asker.visitor.code
        if code is None:
            await self.store.pairing.drop([challenge.id])
            return
        if not await self.store.pairing.settle(challenge.id, ACCEPTED, code=code, was=ACCEPTED):
            # Deleted meanwhile by a lapse or a withdrawal that read it open a moment before (its challenger's
            # server took this one for gone, say): nobody would come to this match, so it is not left waiting.
            await self.matches.cancel(asker, CancelMatch())
            asker.refuse(NOT_OPEN)
            return
        log.info("challenge %d accepted: match %s", challenge.id, code)

    async def withdraw(self, asker: Asker, request: WithdrawChallenge) -> None:
        session = self.meeting.session(asker.guest)
        ids = [each.id for each in await self.store.pairing.challenges()
               if each.id == request.id and each.sender.session == session and each.state == OPEN]
        if not ids or await self.store.pairing.lapse(ids):
            return
        # Answered meanwhile: the answer stands. A decline is told as ever; an accepted one seats them, and says why.
        answered = next((each for each in await self.store.pairing.challenges() if each.id in ids), None)
        if answered is not None and answered.state == ACCEPTED:
            self._tell(asker.guest, f"{answered.target_name} accepted your challenge before you withdrew it: you join "
                                    "their match.")

    async def join(self, asker: Asker, step: PairedJoin) -> None:
        """The challenger's turn to join the match its accepted challenge made."""
        if step.challenge is not None:
            await self.store.pairing.drop([step.challenge])
        await self.meeting.join(asker, step)

    def refuse(self, guest: Guest, refusing: bool) -> None:
        """``guest`` refuses every challenge (or no longer does)."""
        if refusing:
            self.refusing.add(guest)
        else:
            self.refusing.discard(guest)

    async def gone(self, guest: Guest) -> None:
        """The terminal has gone: its open challenges go with it."""
        self.refusing.discard(guest)
        self._told.pop(guest, None)
        self._heard_of.pop(guest, None)
        session = self.meeting.session(guest)
        await self.store.pairing.drop([each.id for each in self.known if each.sender.session == session])

    # ---- what the store says ---------------------------------------------------------------------

    async def heard(self, challenges: list[ChallengeRecord]) -> None:
        """Every challenge, read after a change (or a while): each acted on by the server whose guest it concerns,
        and this server's guests in the lobby told their list when it changed."""
        self.known = challenges
        server, live = self.meeting.presence.server_id, self.meeting.presence.live
        present, lobby = self.meeting.online()
        lapsing: list[int] = []  # open as read: they go if they still are (an answer may have come since)
        left: dict[int, tuple[Guest | None, str]] = {}  # of those, the ones whose challenger is told, if it goes
        done: list[int] = []  # answered, and acted on or nobody's to act on
        settled: list[int] = []  # declined here just now: open no more
        for challenge in challenges:
            sender = challenge.sender
            ours = sender.server == server
            guest = self.meeting.guest_at(sender.session) if ours else None
            if challenge.state == OPEN:
                if sender.server not in live or (ours and guest is None):
                    lapsing.append(challenge.id)
                elif challenge.target not in present:
                    if ours:  # the challenger's server lets it lapse, and tells them (another's would not)
                        lapsing.append(challenge.id)
                        left[challenge.id] = (guest, f"{challenge.target_name} has left: your challenge lapsed.")
                    else:
                        settled.append(challenge.id)  # listed no more here, while its own server tells
                elif any(target in self.refusing for target in self.meeting.guests_of(challenge.target)):
                    await self.store.pairing.settle(challenge.id, DECLINED, reason=REFUSES)
                    settled.append(challenge.id)
            elif challenge.id in self._acted:
                continue
            elif not ours:
                # Its challenger's server stopped answering before they came: the server of the match made for them
                # calls it off (nobody else would; another server leaves the challenge to that one while that match
                # waits), and once that match is gone (its accepter left it), nobody waits on it: any server drops it.
                if (challenge.state == ACCEPTED and sender.server not in live and challenge.code not in (None, CLAIMED)
                        and (await self._called_off(challenge) or not await self._match_stands(challenge))):
                    self._acted.add(challenge.id)
                    done.append(challenge.id)
                continue
            elif guest is None:
                done.append(challenge.id)
            elif challenge.state == DECLINED:
                self._acted.add(challenge.id)
                done.append(challenge.id)
                why = f" ({challenge.target_name} {challenge.reason})" if challenge.reason else ""
                self._tell(guest, f"{challenge.target_name} declined your challenge{why}.")
            elif challenge.state == ACCEPTED and challenge.code not in (None, CLAIMED):
                self._acted.add(challenge.id)
                assert challenge.code is not None
                terms = terms_from_document(challenge.terms)
                visitor = self.meeting.visitors.get(guest)
                if visitor is not None:
                    visitor.queue.put_nowait(PairedJoin(challenge.code, challenge.target_name, terms.hints,
                                                        challenge.id))
        lapsed = await self.store.pairing.lapse(lapsing)
        for number in lapsed & left.keys():
            self._tell(*left[number])
        await self.store.pairing.drop(done)
        gone = {*lapsing, *done, *settled}  # open no more, however the lapse went
        lines = self._lines([each for each in challenges if each.state == OPEN and each.id not in gone], lobby,
                            self.meeting.people_now())
        for guest in list(self.meeting.visitors):
            self.tell_list(guest, lines)

    async def _called_off(self, challenge: ChallengeRecord) -> bool:
        """An accepted challenge whose challenger's server stopped answering before they came: the match its accepter
        made here for them, still waiting, is cancelled and they are told (not left waiting for nobody). Whether it
        was (not: the match is another server's, or under way, or gone)."""
        table = self.matches.cache.tables.get(challenge.code or "")
        guest = table.seated.get(0) if table is not None and table.waiting else None
        visitor = self.meeting.visitors.get(guest) if guest is not None else None
        if guest is None or visitor is None:
            return False
        await self.matches.cancel(Asker(guest, visitor), CancelMatch())
        self._tell(guest, f"{challenge.sender.name} cannot come: their server stopped answering. The match is off.")
        return True

    async def _match_stands(self, challenge: ChallengeRecord) -> bool:
        """Whether the match an accepted challenge made is still in the store (waiting, or under way)."""
        return challenge.code is not None and await self.store.matches.get(challenge.code) is not None

    def tell_list(self, guest: Guest, lines: ChallengeLines | None = None) -> None:
        """``guest``'s challenges, to and from them, told when they changed (in the lobby only: one at a match hears
        them once back)."""
        if not self.meeting.in_lobby(guest):
            return
        if lines is None:
            lines = self._lines([each for each in self.known if each.state == OPEN], self.meeting.online()[1],
                                self.meeting.people_now())
        someone = self.meeting.someone(guest)
        told = (*lines.incoming.get(someone.person, ()), *lines.outgoing.get(someone.session, ()))
        if told == self._told.get(guest, ()):
            return
        heard = self._heard_of.setdefault(guest, set())
        new = tuple(line.id for line in told if line.incoming and line.id not in heard)
        heard.update(line.id for line in told)
        self._told[guest] = told
        guest.send(Challenges(told, new))

    @staticmethod
    def _lines(challenges: list[ChallengeRecord], lobby: Collection[str],
               now: Mapping[str, Attendance]) -> ChallengeLines:
        """The open challenges as their players' lines, each read once: to each person, from each terminal; each
        player by their name and rating now (``now``: the lines of who is online, by person), else as when sent."""
        lines = ChallengeLines({}, {})
        for challenge in challenges:
            terms = terms_from_document(challenge.terms)
            sender, target = now.get(challenge.sender.person), now.get(challenge.target)
            lines.incoming.setdefault(challenge.target, []).append(
                ChallengeLine(challenge.id, sender.name if sender is not None else challenge.sender.name, True, terms,
                              challenge.sent_at, sender.rating if sender is not None else challenge.sender.rating))
            lines.outgoing.setdefault(challenge.sender.session, []).append(
                ChallengeLine(challenge.id, target.name if target is not None else challenge.target_name, False,
                              terms, challenge.sent_at, waiting=challenge.target not in lobby))
        return lines

    def back_in_lobby(self, guest: Guest) -> None:
        """Back from a match: the challenges that waited for them."""
        self._told.pop(guest, None)
        self.tell_list(guest)

    @staticmethod
    def _tell(guest: Guest | None, text: str) -> None:
        if guest is not None:
            guest.send(Notice(text))

