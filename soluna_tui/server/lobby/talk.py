"""Runs in the server process.

Table talk's rules, pure (tested without a server): who may talk (the owner's flags), where a line is said
and who hears it, how fast one may talk, and a line as it travels between servers.

- Where: in the lobby, everyone in the lobby; at a match, its two players; watching, the spectators, whom the
  players hear only once the match is over (never while it is in play).
- How fast: a few lines at once, then one every few seconds, per person (a key, or a guest's session) and per
  address (``gate.client_key``: one site's worth), and a room in all however many people talk in it (counted
  as every server hears its lines, so a fleet holds one room to one limit).
- Between servers: a line is a small JSON document; read back, anything that is not one is left out.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard

from ...link.talk import CHAT_LONGEST, Room
from ..gate import TokenBucket
from .online import GUEST, KEY, LONGEST_PERSON, LONGEST_WORDS

#: One person: a burst of lines, then one every few seconds.
PERSON_BURST, PERSON_EVERY = 5, 3.0
#: One address (several terminals): a little more.
ADDRESS_BURST, ADDRESS_EVERY = 8, 2.0
#: One room, whoever talks in it: enough for a lively lobby, never a wall of text.
ROOM_BURST, ROOM_EVERY = 20, 0.5
#: Reports one person may make (each is written for the owner): a few, then one every so often.
REPORT_BURST, REPORT_EVERY = 3, 20.0
#: The longest match code a line names (``tables.CODE_PATTERN``: four letters).
LONGEST_CODE = 8

CHAT_OFF = "Chat is off on this server."
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
    online knows them, and the name shown), what (cleaned), when."""

    room: Room
    code: str | None
    person: str
    name: str
    text: str
    at: float

    @property
    def where(self) -> tuple[Room, str | None]:
        return self.room, self.code

    @property
    def fingerprint(self) -> str | None:
        """The speaker's key (``None``: a guest), as the owner's records name them."""
        return self.person.removeprefix(KEY) if self.person.startswith(KEY) else None

    def to_payload(self) -> str:
        return json.dumps({"room": self.room.value, "code": self.code, "person": self.person, "name": self.name,
                           "text": self.text, "at": self.at}, ensure_ascii=False)

    @classmethod
    def from_payload(cls, payload: str) -> Said | None:
        """A line as another server (or this one) passed it on; ``None`` for anything that is not one."""
        try:
            document = json.loads(payload)
        except (ValueError, RecursionError):
            return None
        if not isinstance(document, dict):
            return None
        room, code, person, name, text, at = (document.get(key)
                                              for key in ("room", "code", "person", "name", "text", "at"))
        if (room in set(Room) and (code is None) == (room == Room.LOBBY)
                and (code is None or _text(code, LONGEST_CODE)) and _text(person, LONGEST_PERSON)
                and person.startswith((KEY, GUEST)) and _text(name, LONGEST_WORDS) and _text(text, CHAT_LONGEST)
                and isinstance(at, (int, float)) and not isinstance(at, bool)):
            return cls(Room(room), code, person, name, text, float(at))
        return None


def _text(value: Any, longest: int) -> TypeGuard[str]:
    return isinstance(value, str) and 0 < len(value) <= longest


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

    def ready(self, key: str) -> bool:
        """Whether ``key`` may say a line now (nothing taken)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            return True
        return bucket.available() >= 1

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


class TalkLimits:
    """How fast one may talk: per person, per address, and per room in all."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.people = Buckets(PERSON_BURST, PERSON_EVERY, clock)
        self.addresses = Buckets(ADDRESS_BURST, ADDRESS_EVERY, clock)
        self.rooms = Buckets(ROOM_BURST, ROOM_EVERY, clock)
        self.reports = Buckets(REPORT_BURST, REPORT_EVERY, clock)

    def allow(self, person: str, address: str, room: str) -> str | None:
        """Whether ``person`` at ``address`` may say a line in ``room`` now: ``None``, and it is counted; else why
        not, in one line (nothing counted)."""
        if not self.rooms.ready(room):
            return "Not sent: this room talks too fast just now."
        if not self.addresses.ready(address) or not self.people.take(person):
            return f"Slow down: not sent (a line every {PERSON_EVERY:g} s)."
        self.addresses.take(address)
        return None

    def report(self, person: str) -> str | None:
        """Whether ``person`` may report a line now: ``None``, and it is counted; else why not, in one line."""
        if self.reports.take(person):
            return None
        return f"Not reported: {REPORT_BURST} reports at once, then one every {REPORT_EVERY:g} s."

    def heard(self, room: str) -> None:
        """A line was said in ``room`` (on any server): the room's limit counts it."""
        self.rooms.force(room)


def room_key(where: tuple[Room, str | None]) -> str:
    """A room as the limits name it."""
    room, code = where
    return room.value if code is None else f"{room.value}:{code}"
