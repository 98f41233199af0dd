"""Runs in the server process.

Table talk's rules, pure (tested without a server): who may talk (the owner's flags), where a line is said
and who hears it, how fast one may talk, and a line as it travels between servers.

- Where: in the lobby, everyone in the lobby; at a match, its two players; watching, the spectators, whom the
  players hear only once the match is over (never while it is in play).
- How fast: a few lines at once, then one every few seconds, per person (a key, or a guest's session) and per
  address (``gate.client_key``: one site's worth), and a room in all however many people talk in it (each server
  counts every line it hears; a fleet's servers also take each line from one budget a room in their database,
  ``storage.TalkRooms``, so a fleet holds one room to one limit).
  The room's budget is shared fairly
  (``FairShares``): a speaker past their share of it lately may spend it only while some is left over for the
  quieter ones, so many flooders, each within its own limits, cannot keep one honest line out.
- Who a speaker is, for a mute and the room's share: their key, or a guest's address (a new session, the same
  speaker); never a name.
- Between servers: a line is a small JSON document (and so is word that a key's mutes changed); read back,
  anything that is not one is left out.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard

from ...link.safe_talk import CHAT_LONGEST, Room
from ..gate import TokenBucket
from .online import GUEST, KEY, LONGEST_PERSON, LONGEST_WORDS

#: One person: a burst of lines, then one every few seconds.
PERSON_BURST, PERSON_EVERY = 5, 3.0
#: One address (several terminals): a little more.
ADDRESS_BURST, ADDRESS_EVERY = 8, 2.0
#: One room, whoever talks in it: enough for a lively lobby, never a wall of text.
ROOM_BURST, ROOM_EVERY = 20, 0.5
#: The room's fair share: each speaker's lines over the last ``FAIR_WINDOW`` seconds, against the room's lines in
#: that time split among those who talked and one more (someone yet to talk). A speaker who said their share may
#: take the room's budget only while ``ROOM_RESERVE`` lines more are left in it, kept for the others; one who said
#: half of it, while half as many are left; one who said nothing, whenever a line is.
FAIR_WINDOW, ROOM_RESERVE = 30.0, 8
#: Reports one reporter (a key, or a guest's address) may make (each is written for the owner): a few, then one
#: every so often; and one address, however many keys or sessions report from it.
REPORT_BURST, REPORT_EVERY = 3, 20.0
ADDRESS_REPORT_BURST, ADDRESS_REPORT_EVERY = 5, 60.0
#: The longest match code a line names (``tables.CODE_PATTERN``: four letters), and address (an IPv6 /64).
LONGEST_CODE, LONGEST_SITE = 8, 64

#: How a guest is named as a speaker or a reporter: by their address (``gate.client_key``), not their session.
SITE = "site:"

CHAT_OFF = "Chat is off on this server."
ROOM_TOO_FAST = "Not sent: this room talks too fast just now."
GUESTS_SILENT = "Only players with an SSH key may talk here."


@dataclass(frozen=True)
class TalkPolicy:
    """The owner's flags: chat on at all, guests (no SSH key) allowed to talk, a match's talk kept with it."""

    chat: bool = True
    guests: bool = True
    keep: bool = False

    def closed(self, keyed: bool) -> str | None:
        """Why a player (``keyed``: with a key) may not talk here, in one line; ``None`` when they may."""
        if not self.chat:
            return CHAT_OFF
        if not keyed and not self.guests:
            return GUESTS_SILENT
        return None


@dataclass(frozen=True)
class Place:
    """Where a terminal is, as talk sees it: the lobby (``code`` ``None``), a seat at match ``code`` or watching
    it, and whether that match is over."""

    code: str | None = None
    seated: bool = False
    watching: bool = False
    over: bool = False

    @property
    def says_in(self) -> tuple[Room, str | None] | None:
        """The room a line this terminal says goes to (``None``: nowhere, such as at a match it neither sits at
        nor watches)."""
        if self.code is None:
            return Room.LOBBY, None
        if self.seated:
            return Room.PLAYERS, self.code
        if self.watching:
            return Room.SPECTATORS, self.code
        return None

    @property
    def hears(self) -> frozenset[tuple[Room, str | None]]:
        """The rooms this terminal hears: where it says, and a match's spectators once the match is over."""
        said = self.says_in
        rooms = {said} if said is not None else set()
        if self.seated and self.over:
            rooms.add((Room.SPECTATORS, self.code))
        return frozenset(rooms)


LOBBY_PLACE = Place()


@dataclass(frozen=True)
class Said:
    """A chat line as it travels between servers: the room (and match), who (the person, as the list of who is
    online knows them, and the name shown; a guest's address, as ``gate.client_key`` names it), what (cleaned),
    when."""

    room: Room
    code: str | None
    person: str
    name: str
    text: str
    at: float
    #: A guest's address (``None``: a key, or a guest's line from a server that did not say it).
    site: str | None = None

    @property
    def where(self) -> tuple[Room, str | None]:
        return self.room, self.code

    @property
    def fingerprint(self) -> str | None:
        """The speaker's key (``None``: a guest), as the owner's records name them."""
        return self.person.removeprefix(KEY) if self.person.startswith(KEY) else None

    @property
    def speaker(self) -> str:
        """Who said it, as a mute and the room's fair share name them (``speaker_of``)."""
        return speaker_of(self.person, self.site)

    def to_payload(self) -> str:
        return json.dumps({"room": self.room.value, "code": self.code, "person": self.person, "name": self.name,
                           "text": self.text, "at": self.at, "site": self.site}, ensure_ascii=False)

    @classmethod
    def from_payload(cls, payload: str) -> Said | None:
        """A line as another server (or this one) passed it on; ``None`` for anything that is not one."""
        document = payload_document(payload)
        if document is None:
            return None
        room, code, person, name, text, at = (document.get(key)
                                              for key in ("room", "code", "person", "name", "text", "at"))
        site = document.get("site")
        if (room in set(Room) and (code is None) == (room == Room.LOBBY)
                and (code is None or short_text(code, LONGEST_CODE)) and person_text(person)
                and short_text(name, LONGEST_WORDS) and short_text(text, CHAT_LONGEST) and moment(at)
                and (site is None or short_text(site, LONGEST_SITE))):
            return cls(Room(room), code, person, name, text, float(at), site)
        return None


def mutes_changed(fingerprint: str) -> str:
    """What passes between servers when a key's mutes change (its terminals on the others read them again)."""
    return json.dumps({"mutes_of": fingerprint})


def mutes_changed_of(payload: str) -> str | None:
    """The key whose mutes changed, if ``payload`` says so (``mutes_changed``); ``None`` for anything else."""
    try:
        document = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    fingerprint = document.get("mutes_of") if isinstance(document, dict) else None
    return fingerprint if short_text(fingerprint, LONGEST_PERSON) else None


def speaker_of(person: str, site: str | None) -> str:
    """Who a person is as a speaker (or a reporter): a key, whatever its address; a guest, by their address
    (``SITE`` and ``gate.client_key``), so a new session from it is the same speaker; without one, the session."""
    if person.startswith(KEY) or site is None:
        return person
    return SITE + site


def payload_document(payload: str) -> dict[str, Any] | None:
    """What passes between servers, as a JSON object; ``None`` for anything that is not one (talk and tells)."""
    try:
        document = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    return document if isinstance(document, dict) else None


def short_text(value: Any, longest: int) -> TypeGuard[str]:
    """Whether ``value`` is a string of 1 to ``longest`` characters."""
    return isinstance(value, str) and 0 < len(value) <= longest


def person_text(value: Any) -> TypeGuard[str]:
    """Whether ``value`` names a person as the lobby does (a key's or a guest's)."""
    return short_text(value, LONGEST_PERSON) and value.startswith((KEY, GUEST))


def moment(value: Any) -> TypeGuard[float]:
    """Whether ``value`` is a time as a payload carries it (a number, not a boolean)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Buckets:
    """A token bucket a key (``burst`` at once, one every ``every`` seconds), forgetting keys whose bucket is full
    again (bounded memory however many keys come)."""

    def __init__(self, burst: int, every: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.every, self.clock = burst, every, clock
        self._buckets: dict[str, TokenBucket] = {}
        self._next_sweep = 0.0

    def take(self, key: str) -> bool:
        """One line for ``key``: whether it is within the limit (a refused line costs nothing)."""
        self._sweep()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(1 / self.every, self.burst, self.clock)
        if bucket.take():
            return True
        bucket.tokens += 1  # refused: not spent (holding the key down does not lengthen the wait)
        return False

    def give_back(self, key: str) -> None:
        """A line ``take`` counted for ``key`` given back (never past a full bucket)."""
        bucket = self._buckets.get(key)
        if bucket is not None:
            bucket.tokens = min(bucket.burst, bucket.tokens + 1)

    def ready(self, key: str, lines: float = 1) -> bool:
        """Whether ``key`` holds ``lines`` now (nothing taken)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            return lines <= self.burst
        return bucket.available() >= lines

    def force(self, key: str) -> None:
        """Count a line for ``key`` whatever its balance (a room counts every line said in it)."""
        if not self.take(key):
            self._buckets[key].tokens -= 1

    def __len__(self) -> int:
        return len(self._buckets)

    def _sweep(self) -> None:
        now = self.clock()
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.every * self.burst
        full = [key for key, bucket in self._buckets.items() if bucket.available() >= bucket.burst]
        for key in full:
            del self._buckets[key]


class FairShares:
    """Who said how many lines in each room over the last ``window`` seconds (every server's lines, as heard), and
    whether a speaker is past their fair share of the room: its lines in that time (``capacity``) split among those
    who talked and one more, so a newcomer's share is always kept. Forgets the lines older than the window."""

    def __init__(self, window: float = FAIR_WINDOW, clock: Callable[[], float] = time.monotonic) -> None:
        self.window, self.clock = window, clock
        self._said: dict[str, dict[str, deque[float]]] = {}
        self._next_sweep = 0.0

    def heard(self, room: str, speaker: str) -> None:
        self._sweep()
        self._said.setdefault(room, {}).setdefault(speaker, deque()).append(self.clock())

    def used(self, room: str, speaker: str, capacity: float) -> float:
        """How much of their share of ``room``'s ``capacity`` lines ``speaker`` said within the window (0: nothing,
        1: all of it, or more)."""
        said = self._forget(room)
        talkers = len(said) + (speaker not in said) + 1
        return len(said.get(speaker, ())) * talkers / capacity

    def __len__(self) -> int:
        return sum(len(said) for said in self._said.values())

    def _forget(self, room: str) -> dict[str, deque[float]]:
        """``room``'s speakers, with only their lines within the window (those without any, gone)."""
        said = self._said.get(room, {})
        since = self.clock() - self.window
        for speaker in list(said):
            times = said[speaker]
            while times and times[0] <= since:
                times.popleft()
            if not times:
                del said[speaker]
        if not said:
            self._said.pop(room, None)
        return said

    def _sweep(self) -> None:
        now = self.clock()
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.window
        for room in list(self._said):
            self._forget(room)


class TalkLimits:
    """How fast one may talk: per person, per address, and per room in all, its budget shared fairly."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.people = Buckets(PERSON_BURST, PERSON_EVERY, clock)
        self.addresses = Buckets(ADDRESS_BURST, ADDRESS_EVERY, clock)
        self.rooms = Buckets(ROOM_BURST, ROOM_EVERY, clock)
        self.shares = FairShares(FAIR_WINDOW, clock)
        self.reporters = Buckets(REPORT_BURST, REPORT_EVERY, clock)
        self.reporting_addresses = Buckets(ADDRESS_REPORT_BURST, ADDRESS_REPORT_EVERY, clock)

    def allow(self, person: str, address: str, room: str, speaker: str | None = None) -> str | None:
        """Whether ``person`` at ``address`` may say a line in ``room`` now: ``None``, and it is counted; else why
        not, in one line (nothing counted). ``speaker``: who they are for the room's fair share (``speaker_of``;
        ``None``: the person)."""
        if not self.rooms.ready(room, self.room_need(room, speaker or person)):  # the quietest first
            return ROOM_TOO_FAST
        if not self.addresses.ready(address) or not self.people.take(person):
            return f"Slow down: not sent (a line every {PERSON_EVERY:g} s)."
        self.addresses.take(address)
        return None

    def room_need(self, room: str, speaker: str) -> float:
        """How many lines must be left in ``room``'s budget for ``speaker`` to take one: one for a speaker within
        their fair share of it lately, up to ``1 + ROOM_RESERVE`` for one past it."""
        used = self.shares.used(room, speaker, FAIR_WINDOW / ROOM_EVERY)
        return 1 + ROOM_RESERVE * min(1.0, used)

    def give_back(self, person: str, address: str) -> None:
        """A line ``allow`` counted was not said after all (the room's budget, shared by every server, was spent):
        the person's and the address's line given back."""
        self.people.give_back(person)
        self.addresses.give_back(address)

    def report(self, reporter: str, address: str) -> str | None:
        """Whether ``reporter`` (a key, or a guest's address: ``speaker_of``) at ``address`` may report a line now:
        ``None``, and it is counted; else why not, in one line (nothing counted)."""
        if self.reporting_addresses.ready(address) and self.reporters.take(reporter):
            self.reporting_addresses.take(address)
            return None
        return f"Not reported: {REPORT_BURST} reports at once, then one every {REPORT_EVERY:g} s."

    def heard(self, room: str, speaker: str) -> None:
        """A line of ``speaker``'s was said in ``room`` (on any server): the room's limit and shares count it."""
        self.rooms.force(room)
        self.shares.heard(room, speaker)


def room_key(where: tuple[Room, str | None]) -> str:
    """A room as the limits name it."""
    room, code = where
    return room.value if code is None else f"{room.value}:{code}"
