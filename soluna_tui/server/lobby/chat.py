"""Runs in the server process.

Table talk, live: a line said (checked against the owner's flags and the limits, cleaned; on a shared database
the room's budget taken from there, ``storage.TalkRooms``, one count for every server), passed to every server on
the database (``Storage.talk``: a notification, the line itself never written), and heard: kept with its room (the
lobby's last ``LOBBY_LINES_KEPT``, a match's for its life) and told to this server's guests in that room who have
not muted its speaker. A guest coming to a room (the lobby, a seat, a match to watch, a match just over for its
players, who then hear its spectators) is told the room's lines so far, once.

Each line heard here is numbered (a player reports a line by its number), and each person who talks is a number
too (a player mutes them by it): never their key or address, which stay on the server. A mute is the listener's
(``mutes.Mutes``: kept with their key, or a guest's address) and names the speaker by key or a guest's address, so
coming back does not escape it. A line is reported once per reporter (a key, or a guest's address), within limits
per reporter and per address.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
from collections import deque
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any

from ...link.messages import Chat, ChatLine, MuteChat, ReportChat, Say
from ...link.safe_talk import LOBBY_LINES_KEPT, MATCH_LINES_KEPT, ChatRefused, Room, chat_line
from ..gate import client_key
from ..storage import ChatRecord, Storage, StorageError
from .mutes import Mutes
from .roster import Roster
from .tables import Table
from .talk import (
    LOBBY_PLACE,
    ROOM_BURST,
    ROOM_EVERY,
    ROOM_TOO_FAST,
    Place,
    Said,
    TalkLimits,
    TalkPolicy,
    mutes_changed,
    mutes_changed_of,
    room_key,
    speaker_of,
)
from .visitors import Asker, Guest, Visitor

log = logging.getLogger("soluna.server")

Where = tuple[Room, str | None]

CANNOT_PASS_ON = "Not sent: the server cannot reach the others right now."
REPORTED = "Reported to the server's owner. Thank you."
NOT_REPORTED = "Not reported: the server cannot save right now."
NO_SUCH_LINE = "That line is no longer kept: it cannot be reported."
MUTE_NOT_KEPT = "For this visit only: the server cannot save your mutes right now."


@dataclass(frozen=True)
class Heard:
    """A line as this server heard it: its number here, and the line."""

    id: int
    said: Said


@dataclass(frozen=True)
class Voice:
    """Who a speaker number stands for, as their last line said: the speaker (``talk.speaker_of``), the name."""

    speaker: str
    name: str


class TalkRooms:
    """Every room's lines as this server heard them, and its guests told."""

    def __init__(self, store: Storage, policy: TalkPolicy, visitors: Mapping[Guest, Visitor],
                 tables: Mapping[str, Table], roster: Roster, limits: TalkLimits | None = None,
                 background: Callable[[Coroutine[Any, Any, Any]], None] | None = None) -> None:
        """``background``: runs work beside the requests (a key's mutes read again when another server changed
        them; without it, they are read on the key's next visit)."""
        self.store = store
        self._background = background
        self.policy = policy
        self._visitors = visitors
        self._tables = tables
        self._roster = roster
        self.limits = limits if limits is not None else TalkLimits()
        self.rooms: dict[Where, deque[Heard]] = {}
        self._numbers = itertools.count(1)
        self._speakers: dict[str, int] = {}
        self._next_speaker = itertools.count(1)
        #: Whom each speaker number stands for (a mute names them so).
        self._voices: dict[int, Voice] = {}
        #: The rooms each guest has been told whole (it hears their new lines).
        self._told: dict[Guest, frozenset[Where]] = {}
        #: Whom each listener has muted, and the guests who hear no talk at all.
        self.mutes = Mutes(store)
        self._deaf: set[Guest] = set()
        #: Guests told that they talk too fast, until a line of theirs passes again (one line, not one a refusal).
        self._slowed: set[Guest] = set()

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
                          if self._hears_from(guest, heard.said))
            guest.send(Chat(where[0], lines, whole=True, code=where[1],
                            closed=self.policy.closed(guest.fingerprint is not None)))

    async def arrive(self, guest: Guest) -> None:
        """A terminal come: whom its player muted (with their key, or at their address), before any line is told."""
        await self.mutes.arrive(guest)

    def leave(self, guest: Guest) -> None:
        self._told.pop(guest, None)
        others = guest.fingerprint is not None and any(
            other is not guest and other.fingerprint == guest.fingerprint for other in self._visitors)
        self.mutes.leave(guest, others)
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
        site = client_key(guest.address)
        said_from = None if guest.fingerprint is not None else site  # a guest is known by their address
        if refusal is None:
            room, speaker = room_key(where), speaker_of(line.person, said_from)
            refusal = self.limits.allow(line.person, site, room, speaker)
            if refusal is None:
                try:
                    refusal = await self._take_from_room(line.person, site, room, speaker)
                except StorageError as error:  # the line stays counted: a flood meanwhile is still held
                    log.warning("a chat line could not be counted against its room: %s", error)
                    guest.send(Chat(where[0], (), code=where[1], refused=CANNOT_PASS_ON))
                    return
            if refusal is not None:
                if guest in self._slowed:
                    return  # told once already: a flood is not answered line by line
                self._slowed.add(guest)
        if refusal is not None:
            guest.send(Chat(where[0], (), code=where[1], refused=refusal))
            return
        self._slowed.discard(guest)
        said = Said(where[0], where[1], line.person, line.name, text, self.store.clock(), said_from)
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

    async def _take_from_room(self, person: str, site: str, room: str, speaker: str) -> str | None:
        """One line of ``room``'s budget, which every server sharing the database takes from (this server's own
        count hears the others' lines a moment late): ``None`` when taken; else why not, and the line ``allow``
        counted for the person and the address given back. A server alone on its database (SQLite) has counted
        every line of the room already."""
        if not self.store.SHARED:
            return None
        need = self.limits.room_need(room, speaker)
        if await self.store.talk_rooms.take(room, need, ROOM_BURST, ROOM_EVERY):
            return None
        self.limits.give_back(person, site)
        return ROOM_TOO_FAST

    async def mute(self, asker: Asker, request: MuteChat) -> None:
        guest = asker.guest
        if request.speaker is None:
            if request.name is None:
                (self._deaf.add if request.muted else self._deaf.discard)(guest)
            elif not request.muted:
                await self._unmute_named(guest, request.name)
            else:
                await self._mute_named(guest, request.name)
            return
        voice = self._voices.get(request.speaker)
        if voice is None:
            return
        try:
            if request.muted:
                await self.mutes.mute(guest, voice.speaker, voice.name)
            else:
                await self.mutes.unmute(guest, [voice.speaker])
        except StorageError as error:
            log.warning("a mute could not be kept: %s", error)
            self.note(guest, MUTE_NOT_KEPT)
            return
        await self._mutes_changed(guest)

    async def _mute_named(self, guest: Guest, name: str) -> None:
        """Someone online called ``name`` who has not talked where ``guest`` heard them (it knows no number for them)
        muted all the same: a key wherever they are, a guest of this server by their address; anyone else is said to
        be not here."""
        own = self._roster.lines.get(guest)
        mine = own.person if own is not None else None
        here = next(((other, line) for other, line in self._roster.lines.items()
                     if line.name.casefold() == name.casefold() and line.person != mine), None)
        if here is not None:
            other, line = here
            speaker = speaker_of(line.person, None if other.fingerprint is not None else client_key(other.address))
        else:
            online = [line for line in self._roster.everyone()
                      if line.name.casefold() == name.casefold() and line.person != mine]
            keyed = next((line for line in online if line.keyed), None)
            if keyed is None:  # a guest of another server is known by an address only that server knows
                self.note(guest, f"{online[0].name} has not talked here yet: mute them once a line of theirs shows."
                          if online else f"Nobody called {name} is online: nobody to mute.")
                return
            line, speaker = keyed, keyed.person
        try:
            await self.mutes.mute(guest, speaker, line.name)
        except StorageError as error:
            log.warning("a mute could not be kept: %s", error)
            self.note(guest, MUTE_NOT_KEPT)
            return
        self.note(guest, f"Muted {line.name}: their lines will not reach you.")
        await self._mutes_changed(guest)

    async def _unmute_named(self, guest: Guest, name: str) -> None:
        """Whoever ``guest`` muted under ``name`` heard again (a mute kept from an earlier visit: this terminal
        never heard their lines, so it knows no number for them)."""
        speakers = self.mutes.named(guest, name)
        if not speakers:
            self.note(guest, f"You had not muted anyone called {name}.")
            return
        shown = self.mutes.of(guest)[speakers[0]].name
        try:
            await self.mutes.unmute(guest, speakers)
        except StorageError as error:
            log.warning("a mute could not be let go: %s", error)
            self.note(guest, MUTE_NOT_KEPT)
            return
        self.note(guest, f"You hear {shown} again.")
        await self._mutes_changed(guest)

    async def _mutes_changed(self, guest: Guest) -> None:
        """A key's mutes changed: its terminals on the other servers read them again (a guest's stay here)."""
        if guest.fingerprint is None:
            return
        try:
            await self.store.talk(mutes_changed(guest.fingerprint))
        except StorageError as error:
            log.warning("the other servers could not be told of a mute: %s", error)

    async def report(self, asker: Asker, request: ReportChat) -> None:
        guest = asker.guest
        heard = next((heard for where in self.place(guest).hears for heard in self.rooms.get(where, ())
                      if heard.id == request.line), None)
        line = self._roster.lines.get(guest)
        if heard is None or line is None:
            self.note(guest, NO_SUCH_LINE)
            return
        said = heard.said
        table = self._tables.get(said.code) if said.code is not None else None
        await self.file_report(guest, self._record(said, table), line_key(said))

    async def file_report(self, guest: Guest, record: ChatRecord, key: str) -> None:
        """``guest``'s report of a line (``key``: the line, however many servers heard it) kept for the owner, within
        the reporters' limits, and what came of it told."""
        line = self._roster.lines.get(guest)
        if line is None:
            self.note(guest, NO_SUCH_LINE)
            return
        site = client_key(guest.address)
        reporter = speaker_of(line.person, None if guest.fingerprint is not None else site)
        refusal = self.limits.report(reporter, site)
        if refusal is not None:
            self.note(guest, refusal)
            return
        visitor = self._visitors.get(guest)
        try:
            new = await self.store.chat.report(record, visitor.name if visitor else guest.name, guest.fingerprint,
                                               key, reporter)
        except StorageError as error:
            log.warning("a chat line reported could not be kept: %s", error)
            self.note(guest, NOT_REPORTED)
            return
        if new:
            log.info("a chat line of %s's was reported", record.name)
        self.note(guest, REPORTED)  # once is enough: a report made again is not written again

    def note(self, guest: Guest, note: str) -> None:
        """A line under ``guest``'s talk: what came of its report or mute."""
        where = self.place(guest).says_in or (Room.LOBBY, None)
        guest.send(Chat(where[0], (), code=where[1], refused=note))

    @staticmethod
    def _record(said: Said, table: Table | None) -> ChatRecord:
        """A line as the owner's records keep it, with its match (when it began: a code is used again)."""
        return ChatRecord(said.code, table.stored.created_at if table is not None else None, said.room.value,
                          said.name, said.fingerprint, said.text, said.at)

    # ---- a line heard (from any server) ---------------------------------------------------

    def heard(self, payload: str) -> None:
        said = Said.from_payload(payload)
        if said is None:
            fingerprint = mutes_changed_of(payload)
            if fingerprint is None:
                log.warning("a chat line from another server could not be read; it is left out")
                return
            keyed = next((guest for guest in self._visitors if guest.fingerprint == fingerprint), None)
            if keyed is not None and self._background is not None:
                self._background(self.mutes.arrive(keyed))  # read again: the one muted meanwhile is not heard
            return
        where = said.where
        self.limits.heard(room_key(where), said.speaker)
        self._voices[self._speaker(said.person)] = Voice(said.speaker, said.name)
        if said.code is not None and said.code not in self._tables:
            return  # a match this server does not know (gone meanwhile)
        kept = self.rooms.get(where)
        if kept is None:
            kept = self.rooms[where] = deque(maxlen=LOBBY_LINES_KEPT if said.code is None else MATCH_LINES_KEPT)
        heard = Heard(next(self._numbers), said)
        kept.append(heard)
        # The line as everyone but its speaker hears it: one object, sent to them all before the speaker's own
        # (the link encodes again only a message other than the last it encoded).
        others: Chat | None = None
        speakers: list[Guest] = []
        for guest, told in self._told.items():
            if where in told and self._hears_from(guest, said):
                if self._is(guest, said.person):
                    speakers.append(guest)
                    continue
                if others is None:
                    others = Chat(where[0], (self._line(guest, heard),), code=where[1])
                guest.send(others)
        for guest in speakers:
            guest.send(Chat(where[0], (self._line(guest, heard),), code=where[1]))

    def _hears_from(self, guest: Guest, said: Said) -> bool:
        return self.hears(guest, said.person, said.speaker)

    def hears(self, guest: Guest, person: str, speaker: str) -> bool:
        """Whether ``guest`` hears ``person`` (``speaker``, as a mute names them): it has muted neither them nor all
        talk; its own lines always."""
        if self._is(guest, person):
            return True
        return guest not in self._deaf and speaker not in self.mutes.of(guest)

    def voice(self, person: str, speaker: str, name: str) -> int:
        """The number ``person`` is told as a speaker, who it stands for (``speaker``, ``name``) kept: a mute by that
        number names them."""
        number = self._speaker(person)
        self._voices[number] = Voice(speaker, name)
        return number

    def next_line(self) -> int:
        """A number for a line heard here (a player reports it by it)."""
        return next(self._numbers)

    def _is(self, guest: Guest, person: str) -> bool:
        """Whether ``guest`` is ``person`` (as its line of who is online says)."""
        own = self._roster.lines.get(guest)
        return own is not None and own.person == person

    def _line(self, guest: Guest, heard: Heard) -> ChatLine:
        said = heard.said
        return ChatLine(heard.id, said.room, self._speaker(said.person), said.name, said.text, said.at,
                        yours=self._is(guest, said.person))

    def _speaker(self, person: str) -> int:
        number = self._speakers.get(person)
        if number is None:
            number = self._speakers[person] = next(self._next_speaker)
        return number


def line_key(said: Said) -> str:
    """A line as a report names it, the same on every server that heard it (it passed between them whole)."""
    return hashlib.sha256(said.to_payload().encode()).hexdigest()[:32]
