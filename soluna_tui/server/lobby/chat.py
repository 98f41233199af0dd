"""Runs in the server process.

Table talk, live: a line said (checked against the owner's flags and the limits, cleaned), passed to every
server on the database (``Storage.talk``: a notification, never written), and heard: kept with its room (the
lobby's last ``LOBBY_LINES_KEPT``, a match's for its life) and told to this server's guests in that room who have
not muted its speaker. A guest coming to a room (the lobby, a seat, a match to watch, a match just over for its
players, who then hear its spectators) is told the room's lines so far, once.

Each line heard here is numbered (a player reports a line by its number), and each person who talks is a number
too (a player mutes them by it): never their key, which stays on the server.
"""

from __future__ import annotations

import itertools
import logging
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass

from ...link.messages import Chat, ChatLine, MuteChat, ReportChat, Say
from ...link.talk import LOBBY_LINES_KEPT, MATCH_LINES_KEPT, ChatRefused, Room, chat_line
from ..gate import client_key
from ..storage import ChatRecord, Storage, StorageError
from .roster import Roster
from .tables import Table
from .talk import LOBBY_PLACE, Place, Said, TalkLimits, TalkPolicy, room_key
from .visitors import Asker, Guest, Visitor

log = logging.getLogger("soluna.server")

Where = tuple[Room, str | None]

CANNOT_PASS_ON = "Not sent: the server cannot reach the others right now."
REPORTED = "Reported to the server's owner. Thank you."
NOT_REPORTED = "Not reported: the server cannot save right now."
NO_SUCH_LINE = "That line is no longer kept: it cannot be reported."


@dataclass(frozen=True)
class Heard:
    """A line as this server heard it: its number here, and the line."""

    id: int
    said: Said


class TalkRooms:
    """Every room's lines as this server heard them, and its guests told."""

    def __init__(self, store: Storage, policy: TalkPolicy, visitors: Mapping[Guest, Visitor],
                 tables: Mapping[str, Table], roster: Roster, limits: TalkLimits | None = None) -> None:
        self.store = store
        self.policy = policy
        self._visitors = visitors
        self._tables = tables
        self._roster = roster
        self.limits = limits if limits is not None else TalkLimits()
        self.rooms: dict[Where, deque[Heard]] = {}
        self._numbers = itertools.count(1)
        self._speakers: dict[str, int] = {}
        self._next_speaker = itertools.count(1)
        #: The rooms each guest has been told whole (it hears their new lines).
        self._told: dict[Guest, frozenset[Where]] = {}
        #: Who each guest has muted (persons), and the guests who hear no talk at all.
        self._muted: dict[Guest, set[str]] = {}
        self._deaf: set[Guest] = set()
        #: Guests told that they talk too fast, until a line of theirs passes again (one line, not one a refusal).
        self._slowed: set[Guest] = set()
        #: The lines each guest has reported (once each).
        self._reported: dict[Guest, set[int]] = {}

    # ---- where a guest is ------------------------------------------------------------------

    def place(self, guest: Guest) -> Place:
        visitor = self._visitors.get(guest)
        if visitor is None or visitor.code is None:
            return LOBBY_PLACE
        table = self._tables.get(visitor.code)
        if table is None:
            return Place(visitor.code)
        return Place(table.code, seated=table.seat_of(guest) is not None, watching=guest in table.spectators,
                     over=table.finished)

    def follow(self, guest: Guest) -> None:
        """After a step of ``guest``'s or a change to its match: each room it has come to, told whole."""
        if guest not in self._visitors:
            return
        hears = self.place(guest).hears
        told = self._told.get(guest, frozenset())
        if hears == told:
            return
        self._told[guest] = hears
        for where in sorted(hears - told, key=lambda each: each[0].value):
            lines = tuple(self._line(guest, heard) for heard in self.rooms.get(where, ())
                          if self._hears_from(guest, heard.said.person))
            guest.send(Chat(where[0], lines, whole=True, code=where[1],
                            closed=self.policy.closed(guest.fingerprint is not None)))

    def leave(self, guest: Guest) -> None:
        for kept in (self._told, self._muted, self._reported):
            kept.pop(guest, None)
        self._deaf.discard(guest)
        self._slowed.discard(guest)

    def match_gone(self, code: str) -> None:
        for where in [where for where in self.rooms if where[1] == code]:
            del self.rooms[where]

    # ---- a guest talks ----------------------------------------------------------------------

    async def say(self, asker: Asker, request: Say) -> None:
        guest = asker.guest
        where = self.place(guest).says_in
        closed = self.policy.closed(guest.fingerprint is not None)
        line = self._roster.lines.get(guest)
        if where is None or line is None:
            return  # nowhere to talk (between a match and the lobby): nothing to say
        refusal = closed
        if refusal is None:
            try:
                text = chat_line(request.text)
            except ChatRefused as error:
                refusal = str(error)
        if refusal is None:
            refusal = self.limits.allow(line.person, client_key(guest.address), room_key(where))
            if refusal is not None:
                if guest in self._slowed:
                    return  # told once already: a flood is not answered line by line
                self._slowed.add(guest)
        if refusal is not None:
            guest.send(Chat(where[0], (), code=where[1], refused=refusal))
            return
        self._slowed.discard(guest)
        said = Said(where[0], where[1], line.person, line.name, text, self.store.clock())
        try:
            await self.store.talk(said.to_payload())
        except StorageError as error:
            log.warning("a chat line could not be passed on: %s", error)
            guest.send(Chat(where[0], (), code=where[1], refused=CANNOT_PASS_ON))
            return
        table = self._tables.get(said.code) if said.code is not None else None
        if self.policy.keep and table is not None:  # the owner keeps a match's talk with the match
            try:
                await self.store.chat.keep(self._record(said, table))
            except StorageError as error:
                log.warning("a chat line could not be kept with its match: %s", error)

    async def mute(self, asker: Asker, request: MuteChat) -> None:
        guest = asker.guest
        if request.speaker is None:
            (self._deaf.add if request.muted else self._deaf.discard)(guest)
            return
        person = next((person for person, number in self._speakers.items() if number == request.speaker), None)
        if person is None:
            return
        muted = self._muted.setdefault(guest, set())
        (muted.add if request.muted else muted.discard)(person)

    async def report(self, asker: Asker, request: ReportChat) -> None:
        guest = asker.guest
        heard = next((heard for where in self.place(guest).hears for heard in self.rooms.get(where, ())
                      if heard.id == request.line), None)
        where = self.place(guest).says_in or (Room.LOBBY, None)
        if heard is None:
            guest.send(Chat(where[0], (), code=where[1], refused=NO_SUCH_LINE))
            return
        reported = self._reported.setdefault(guest, set())
        line = self._roster.lines.get(guest)
        if heard.id in reported or line is None:
            guest.send(Chat(where[0], (), code=where[1], refused=REPORTED))  # once is enough
            return
        refusal = self.limits.report(line.person)
        if refusal is not None:
            guest.send(Chat(where[0], (), code=where[1], refused=refusal))
            return
        reported.add(heard.id)
        said = heard.said
        table = self._tables.get(said.code) if said.code is not None else None
        visitor = self._visitors.get(guest)
        try:
            await self.store.chat.report(self._record(said, table), visitor.name if visitor else guest.name,
                                         guest.fingerprint)
        except StorageError as error:
            log.warning("a chat line reported could not be kept: %s", error)
            guest.send(Chat(where[0], (), code=where[1], refused=NOT_REPORTED))
            return
        log.info("a chat line of %s's was reported", said.name)
        guest.send(Chat(where[0], (), code=where[1], refused=REPORTED))

    @staticmethod
    def _record(said: Said, table: Table | None) -> ChatRecord:
        """A line as the owner's records keep it, with its match (when it began: a code is used again)."""
        return ChatRecord(said.code, table.stored.created_at if table is not None else None, said.room.value,
                          said.name, said.fingerprint, said.text, said.at)

    # ---- a line heard (from any server) ---------------------------------------------------

    def heard(self, payload: str) -> None:
        said = Said.from_payload(payload)
        if said is None:
            log.warning("a chat line from another server could not be read; it is left out")
            return
        where = said.where
        self.limits.heard(room_key(where))
        if said.code is not None and said.code not in self._tables:
            return  # a match this server does not know (gone meanwhile)
        kept = self.rooms.get(where)
        if kept is None:
            kept = self.rooms[where] = deque(maxlen=LOBBY_LINES_KEPT if said.code is None else MATCH_LINES_KEPT)
        heard = Heard(next(self._numbers), said)
        kept.append(heard)
        for guest, told in self._told.items():
            if where in told and self._hears_from(guest, said.person):
                guest.send(Chat(where[0], (self._line(guest, heard),), code=where[1]))

    def _hears_from(self, guest: Guest, person: str) -> bool:
        """Whether ``guest`` hears ``person`` (it has muted neither them nor all talk; its own lines always)."""
        own = self._roster.lines.get(guest)
        if own is not None and own.person == person:
            return True
        return guest not in self._deaf and person not in self._muted.get(guest, ())

    def _line(self, guest: Guest, heard: Heard) -> ChatLine:
        said = heard.said
        own = self._roster.lines.get(guest)
        return ChatLine(heard.id, said.room, self._speaker(said.person), said.name, said.text, said.at,
                        yours=own is not None and own.person == said.person)

    def _speaker(self, person: str) -> int:
        number = self._speakers.get(person)
        if number is None:
            number = self._speakers[person] = next(self._next_speaker)
        return number
