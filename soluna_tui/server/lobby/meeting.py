"""Runs in the server process.

What quick matches (``seeks.py``) and challenges (``challenges.py``) share: who a guest is to pairing (its
person, its terminal, its address and rating), the terms as the store keeps them, the limits a cheat with many
keys meets, and the one way a pair sits down. A pair lands in a match as if one had created it and the other
joined it by code: the one acting now creates it (``TwoPlayerMatches.create``, its answer ``Waiting``); the other,
on whichever server, hears the code through the store and joins it in its own turn (a ``PairedJoin`` step queued
with its requests, ``TwoPlayerMatches.join_paired``).
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

from ...link.messages import MatchTerms, Paired, ProtocolError, Request
from ...link.wire import terms_document as terms_document  # the terms as the store keeps them: seeks, challenges
from ...link.wire import terms_from_document as terms_from_document
from ...rules import SolunaError
from ..gate import RateWindow, client_key
from ..storage.pairing import Someone
from .decision_values import match_options
from .online import Attendance, at_the_lobby, key_person
from .presence import Presence
from .roster import Roster
from .two_player import TwoPlayerMatches
from .visitors import Asker, Guest, Visitor

log = logging.getLogger("soluna.server")

#: Quick matches asked for, and challenges sent, a minute from one address and from one person.
PAIRINGS_PER_MINUTE = 10
CHALLENGES_PER_MINUTE = 6


@dataclass(frozen=True)
class PairedJoin(Request):
    """The lobby's own step for a guest paired into the match ``code`` (never sent by a child: no ``REQUESTS``
    entry reads it): it joins in its turn, after what it asked before."""

    TYPE: ClassVar[str] = "paired_join"
    code: str
    opponent: str
    hints: bool
    #: The challenge that made the pair (``None``: a quick match).
    challenge: int | None = None


class Meeting:
    """Who a guest is to pairing, the limits, and a paired guest's join."""

    def __init__(self, visitors: Mapping[Guest, Visitor], roster: Roster, presence: Presence,
                 matches: TwoPlayerMatches) -> None:
        self.visitors, self.roster, self.presence, self.matches = visitors, roster, presence, matches
        self._sessions: dict[Guest, str] = {}
        self._numbers = itertools.count(1)
        self._per_address = RateWindow(PAIRINGS_PER_MINUTE)
        self._per_person = RateWindow(PAIRINGS_PER_MINUTE)
        self._challenges_per_address = RateWindow(CHALLENGES_PER_MINUTE)
        self._challenges_per_person = RateWindow(CHALLENGES_PER_MINUTE)

    # ---- who ----------------------------------------------------------------------------------

    def session(self, guest: Guest) -> str:
        """This terminal, named for every server (this server's id and a number)."""
        session = self._sessions.get(guest)
        if session is None:
            session = self._sessions[guest] = f"{self.presence.server_id}:{next(self._numbers)}"
        return session

    def someone(self, guest: Guest) -> Someone:
        line = self.roster.lines.get(guest)
        fingerprint = guest.fingerprint
        person = line.person if line is not None else (key_person(fingerprint) if fingerprint is not None
                                                       else f"guest:{self.session(guest)}")
        visitor = self.visitors.get(guest)
        return Someone(person, self.session(guest), self.presence.server_id,
                       visitor.name if visitor is not None else guest.name, fingerprint, client_key(guest.address),
                       line.rating if line is not None else None)

    def guest_at(self, session: str) -> Guest | None:
        """This server's guest at the terminal ``session`` (``None``: gone, or another server's)."""
        return next((guest for guest, each in self._sessions.items() if each == session and guest in self.visitors),
                    None)

    def in_lobby(self, guest: Guest) -> bool:
        """At the lobby: not at a match, not playing the computer."""
        visitor = self.visitors.get(guest)
        return visitor is not None and visitor.code is None and visitor.computer is None

    def guests_of(self, person: str) -> Iterator[Guest]:
        """This server's terminals of ``person``."""
        return (guest for guest, line in self.roster.lines.items() if line.person == person)

    def lines(self) -> Iterator[Attendance]:
        """Every session's line in the list of who is online, on every server alive."""
        live = self.presence.live
        yield from self.roster.lines.values()
        for server, (_, theirs) in self.roster.others.items():
            if server in live:
                yield from theirs

    def people_now(self) -> dict[str, Attendance]:
        """Each person online (on any server alive) as one of their lines shows them now: their name and rating."""
        return {line.person: line for line in self.lines()}

    def online(self) -> tuple[Collection[str], Collection[str]]:
        """The persons online (on any server alive), and those of them at the lobby now."""
        present, lobby = set(), set()
        for line in self.lines():
            present.add(line.person)
            if at_the_lobby(line):
                lobby.add(line.person)
        return present, lobby

    def forget(self, guest: Guest) -> None:
        self._sessions.pop(guest, None)

    # ---- limits --------------------------------------------------------------------------------

    def allow(self, asker: Asker, challenge: bool = False) -> bool:
        """Within the limits a minute, per address and per person (a cheat with many keys or many addresses meets
        one of them); refused with one line when not."""
        someone = self.someone(asker.guest)
        windows = ((self._challenges_per_address, self._challenges_per_person) if challenge
                   else (self._per_address, self._per_person))
        if windows[0].allow(someone.address) and windows[1].allow(someone.person):
            return True
        asker.refuse("Too many tries: wait a minute before trying again.")
        return False

    # ---- a pair sits down ---------------------------------------------------------------------------

    async def join(self, asker: Asker, step: PairedJoin) -> bool:
        """A paired guest joins the match made for them (told first, so its screen follows that match)."""
        if not self.in_lobby(asker.guest):
            log.info("a paired player was no longer in the lobby: match %s waits for nobody", step.code)
            return False
        asker.guest.send(Paired(step.code, step.opponent))
        return await self.matches.join_paired(asker, step.code, step.hints)


def checked_terms(terms: MatchTerms, keyed: bool) -> MatchTerms:
    """The terms a request asked for, as they are played: a guest's are never rated; options read by the rules'
    own check (``ProtocolError`` when they are not options of this game)."""
    try:
        match_options(terms.options)
    except SolunaError as error:
        raise ProtocolError(str(error)) from None
    return replace(terms, rated=terms.rated and keyed)
