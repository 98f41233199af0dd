"""Runs in the server process.

Tells: a private line to one person online, on any server of the fleet. A tell is checked as a line of table talk
is (the owner's flags, the cleaning of ``link.safe_talk``, the limits per person and per address, and a limit on
the lines one person is told in all, counted on every server), named by the person told (``online.key_person`` or a
guest's session: never a name) and passed to every server as table talk is (``Storage.talk``: a notification,
never written). The servers where that person has a terminal show it there, in the talk of wherever they are,
unless they muted the teller (or all talk): a muted teller's tells are dropped without a word. The teller sees
their own line at once. A tell heard is numbered as a line of talk is, so it is reported, and its teller muted, as
any line.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass

from ...link.messages import Chat, ChatLine, ReportChat, TellPerson
from ...link.safe_talk import CHAT_LONGEST, ChatRefused, Room, chat_line
from ..gate import client_key
from ..storage import ChatRecord, Storage, StorageError, name_key
from .chat import CANNOT_PASS_ON, TalkRooms
from .online import KEY, LONGEST_WORDS, Attendance
from .roster import Roster
from .talk import LONGEST_SITE, moment, payload_document, person_text, short_text, speaker_of
from .visitors import Asker, Guest, Visitor

log = logging.getLogger("soluna.server")

#: The tells each terminal keeps to be reported (the newest).
TELLS_KEPT = 50
#: How a tell names its room in the owner's list of lines reported.
TELL_ROOM = "tell"
#: How a guest is shown when a key holds their name (``names.guest_variant``): a tell may name them without it.
GUEST_MARK = " (guest)"


@dataclass(frozen=True)
class Told:
    """A tell as it travels between servers: to whom (the person, and the name they were told by), from whom (the
    person, the name shown, a guest's address), what (cleaned) and when."""

    to: str
    to_name: str
    person: str
    name: str
    text: str
    at: float
    site: str | None = None

    @property
    def speaker(self) -> str:
        """Who told it, as a mute names them (``talk.speaker_of``)."""
        return speaker_of(self.person, self.site)

    @property
    def fingerprint(self) -> str | None:
        return self.person.removeprefix(KEY) if self.person.startswith(KEY) else None

    def to_payload(self) -> str:
        return json.dumps({"tell": self.to, "to_name": self.to_name, "person": self.person, "name": self.name,
                           "text": self.text, "at": self.at, "site": self.site}, ensure_ascii=False)

    @classmethod
    def from_payload(cls, payload: str) -> Told | None:
        """A tell as a server passed it on; ``None`` for anything that is not one."""
        document = payload_document(payload)
        if document is None or "tell" not in document:
            return None
        to, to_name, person, name, text, at, site = (
            document.get(key) for key in ("tell", "to_name", "person", "name", "text", "at", "site"))
        if (person_text(to) and short_text(to_name, LONGEST_WORDS) and person_text(person)
                and short_text(name, LONGEST_WORDS) and short_text(text, CHAT_LONGEST) and moment(at)
                and (site is None or short_text(site, LONGEST_SITE))):
            return cls(to, to_name, person, name, text, float(at), site)
        return None


def tell_room(person: str) -> str:
    """The lines told to ``person``, as the limits count them (a room of their own, however many tell them)."""
    return f"{TELL_ROOM}:{person}"


def named(people: list[Attendance], name: str) -> Attendance | None:
    """The person online called ``name`` (compared as names are, ``storage.name_key``; a guest shown with
    `` (guest)`` also without it): a key's first, else the first to come."""
    wanted = name_key(name)
    if not wanted:
        return None
    found = [person for person in people
             if wanted in (name_key(person.name), name_key(person.name.removesuffix(GUEST_MARK)))]
    return next((person for person in found if person.keyed), found[0] if found else None)


class Tells:
    """Tells said here, and those heard from any server told to this server's guests."""

    def __init__(self, store: Storage, talk: TalkRooms, roster: Roster, visitors: Mapping[Guest, Visitor]) -> None:
        self.store = store
        self.talk = talk
        self.roster = roster
        self._visitors = visitors
        #: The tells each guest here was shown, by line number (to report one).
        self._shown: dict[Guest, deque[tuple[int, Told]]] = {}

    def _where(self, guest: Guest) -> tuple[Room, str | None]:
        """Where ``guest``'s talk is shown: a tell to or from them is shown there."""
        return self.talk.place(guest).says_in or (Room.LOBBY, None)

    def _refuse(self, guest: Guest, text: str) -> None:
        room, code = self._where(guest)
        guest.send(Chat(room, (), code=code, refused=text))

    async def tell(self, asker: Asker, request: TellPerson) -> None:
        guest = asker.guest
        line = self.roster.lines.get(guest)
        if line is None:
            return  # not in the list of who is online yet: nobody to tell it from
        closed = self.talk.policy.closed(guest.fingerprint is not None)
        if closed is not None:
            self._refuse(guest, closed)
            return
        try:
            text = chat_line(request.text)
        except ChatRefused as error:
            self._refuse(guest, str(error))
            return
        # Someone hidden from the list of who is online is not told: a tell must not find them out.
        target = named([person for person in self.roster.everyone() if not person.hidden], request.name)
        if target is None:
            self._refuse(guest, await self._not_online(request.name))
            return
        if target.person == line.person:
            self._refuse(guest, "That is you: a tell goes to someone else.")
            return
        site = client_key(guest.address)
        said_from = None if guest.fingerprint is not None else site
        speaker = speaker_of(line.person, said_from)
        refusal = self.talk.limits.allow(line.person, site, tell_room(target.person), speaker)
        if refusal is not None:
            self._refuse(guest, refusal)
            return
        told = Told(target.person, target.name, line.person, line.name, text, self.store.clock(), said_from)
        try:
            await self.store.talk(told.to_payload())
        except StorageError as error:
            log.warning("a tell could not be passed on: %s", error)
            self._refuse(guest, CANNOT_PASS_ON)
            return
        room, code = self._where(guest)
        number = self.talk.voice(line.person, told.speaker, line.name)
        guest.send(Chat(room, (ChatLine(self.talk.next_line(), room, number, target.name, text, told.at, yours=True,
                                        tell=True),), code=code))

    async def _not_online(self, name: str) -> str:
        """Why a tell to ``name`` went nowhere, in one line."""
        try:
            holder = await self.store.players.name_holder(name)
        except StorageError:
            holder = None
        if holder is not None:
            return f"{holder.name} is not online: a tell reaches only someone online."
        return f"No one called {name[:LONGEST_WORDS]} is online."

    def heard(self, payload: str) -> bool:
        """A tell passed on by any server (this one too): shown to this server's terminals of the person told, but
        those who muted the teller. Whether ``payload`` was a tell."""
        told = Told.from_payload(payload)
        if told is None:
            return False
        self.talk.limits.heard(tell_room(told.to), told.speaker)
        for guest in [guest for guest, line in self.roster.lines.items() if line.person == told.to]:
            if guest in self._visitors and self.talk.hears(guest, told.person, told.speaker):
                number = self.talk.next_line()
                self._shown.setdefault(guest, deque(maxlen=TELLS_KEPT)).append((number, told))
                room, code = self._where(guest)
                speaker = self.talk.voice(told.person, told.speaker, told.name)
                guest.send(Chat(room, (ChatLine(number, room, speaker, told.name, told.text, told.at, tell=True),),
                                code=code))
        return True

    async def report(self, asker: Asker, request: ReportChat) -> bool:
        """A tell shown to the asker, reported to the server's owner as a line of talk is; whether the line reported
        was a tell."""
        told = next((told for number, told in self._shown.get(asker.guest, ()) if number == request.line), None)
        if told is None:
            return False
        record = ChatRecord(None, None, TELL_ROOM, told.name, told.fingerprint, told.text, told.at)
        await self.talk.file_report(asker.guest, record, _line_key(told))
        return True

    def leave(self, guest: Guest) -> None:
        self._shown.pop(guest, None)


def _line_key(told: Told) -> str:
    """A tell as a report names it (the same on every server: it passed between them whole)."""
    return hashlib.sha256(told.to_payload().encode()).hexdigest()[:32]
