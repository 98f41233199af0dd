"""Runs in the server process.

Who is online, as pure values. Each session has a line (``Attendance``: who it is, the name shown, what it
is doing); every server's lines merge into people, one a key however many terminals it has and one a guest's
session (a person is an identity, never a name: two guests may look alike). From them: what the lobby's list
shows (those who do not hide, the first ``ONLINE_LISTED`` to come), what changed in it since it was last told,
and who watches each match. A server's lines travel to the others with its heartbeat (``to_document``); read
back, whatever is not a line is left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from ...link.messages import ONLINE_LISTED, SPECTATORS_NAMED, Doing, OnlineChanges, OnlinePerson
from .tables import Table
from .visitors import Guest

#: How a person's identity starts: a key, or a guest's session (on one server).
KEY, GUEST = "key:", "guest:"
#: Of a person's sessions (one key on two terminals), the one that says what they are doing: the busiest.
BUSIEST = (Doing.PLAYING, Doing.WATCHING, Doing.COMPUTER, Doing.WAITING, Doing.LOBBY)
#: The longest name (or other word) and identity a line read from another server may have (longer: not a line).
LONGEST_WORDS, LONGEST_PERSON = 40, 200
_DOINGS = frozenset(each.value for each in Doing)


def key_person(fingerprint: str) -> str:
    """The person a key is, on every server and terminal."""
    return KEY + fingerprint


def guest_person(server: str, session: int) -> str:
    """The person a guest's session is (nobody else, even under the same name)."""
    return f"{GUEST}{server}:{session}"


@dataclass(frozen=True)
class Attendance:
    """One session's line in the list of who is online: the person, the name shown, a keyed player's rating,
    what they are doing and at which match (``code``: never told to a terminal, a code lets players back in)."""

    person: str
    name: str
    rating: int | None = None
    doing: Doing = Doing.LOBBY
    code: str | None = None
    #: Whom: the opponent (playing), both players (watching), the computer's level (playing it).
    others: tuple[str, ...] = ()
    hidden: bool = False
    #: When the session came (seconds since the epoch): the list keeps the first to come.
    since: float = 0.0

    @property
    def keyed(self) -> bool:
        return self.person.startswith(KEY)

    def to_document(self) -> dict[str, Any]:
        """As a server's heartbeat carries it."""
        return {"person": self.person, "name": self.name, "rating": self.rating, "doing": self.doing.value,
                "code": self.code, "others": list(self.others), "hidden": self.hidden, "since": self.since}

    @classmethod
    def from_document(cls, document: Any) -> Attendance | None:
        """A line as another server wrote it; ``None`` for anything that is not one."""
        if not isinstance(document, dict):
            return None
        person, name, rating, doing = (document.get(key) for key in ("person", "name", "rating", "doing"))
        code, others, hidden, since = (document.get(key) for key in ("code", "others", "hidden", "since"))
        if (_text(person, LONGEST_PERSON) and person.startswith((KEY, GUEST)) and _text(name)
                and (rating is None or type(rating) is int) and doing in _DOINGS
                and (code is None or _text(code)) and isinstance(others, list) and len(others) <= 2
                and all(_text(other) for other in others) and type(hidden) is bool
                and isinstance(since, (int, float)) and not isinstance(since, bool)):
            return cls(person, name, rating, Doing(doing), code, tuple(others), hidden, float(since))
        return None


def _text(value: Any, longest: int = LONGEST_WORDS) -> TypeGuard[str]:
    return isinstance(value, str) and 0 < len(value) <= longest


def lines_document(lines: Iterable[Attendance]) -> list[dict[str, Any]]:
    """A server's lines, as its heartbeat carries them."""
    return [line.to_document() for line in lines]


def lines_from_document(document: Any) -> tuple[Attendance, ...]:
    """Another server's lines as its heartbeat carried them (whatever is not a line left out)."""
    if not isinstance(document, list):
        return ()
    return tuple(line for line in map(Attendance.from_document, document) if line is not None)


def activity(guest: Guest, table: Table | None, computer_level: str | None,
             seeking: bool = False) -> tuple[Doing, str | None, tuple[str, ...]]:
    """What ``guest`` is doing, at which match and with whom: seated at ``table`` (the match it is at), watching
    it, playing the computer at ``computer_level``, waiting for a quick match (``seeking``: waiting for an
    opponent, at no match), or in the lobby."""
    if table is not None:
        seat = table.seat_of(guest)
        match = table.match
        if seat is not None:
            if match is None:
                return Doing.WAITING, table.code, ()
            return Doing.PLAYING, table.code, (match.players[1 - seat],)
        if guest in table.spectators and match is not None:
            return Doing.WATCHING, table.code, match.players
    if computer_level is not None:
        return Doing.COMPUTER, None, (computer_level,)
    return (Doing.WAITING if seeking else Doing.LOBBY), None, ()


def at_the_lobby(line: Attendance) -> bool:
    """Whether the line's session is at the lobby (where challenges are answered): in it, or waiting there for a
    quick match (waiting at a match of its own is at that match)."""
    return line.doing is Doing.LOBBY or (line.doing is Doing.WAITING and line.code is None)


def people(lines: Iterable[Attendance]) -> list[Attendance]:
    """Each person once, in the order they came: as their busiest session says, hidden if any of their sessions
    hides, there since the first came."""
    by_person: dict[str, Attendance] = {}
    for line in lines:
        known = by_person.get(line.person)
        if known is None:
            by_person[line.person] = line
            continue
        busier = line if BUSIEST.index(line.doing) < BUSIEST.index(known.doing) else known
        by_person[line.person] = replace(busier, hidden=known.hidden or line.hidden,
                                         since=min(known.since, line.since))
    return sorted(by_person.values(), key=lambda person: (person.since, person.person))


def listed(persons: Iterable[Attendance], number: Callable[[str], int]) -> tuple[dict[int, OnlinePerson], int]:
    """What the lobby's list shows of ``persons`` (as ``people`` gives them): those who do not hide, the first
    ``ONLINE_LISTED`` to come, by the number ``number`` gives each person; and how many do not hide in all."""
    shown = [person for person in persons if not person.hidden]
    return ({number(person.person): OnlinePerson(number(person.person), person.name, person.keyed, person.rating,
                                                 person.doing, person.others)
             for person in shown[:ONLINE_LISTED]}, len(shown))


def changes(before: Mapping[int, OnlinePerson], after: Mapping[int, OnlinePerson], total: int,
            total_before: int) -> OnlineChanges | None:
    """What changed between two of the lobby's lists (``None``: nothing, not even the count)."""
    came = tuple(person for number, person in after.items() if before.get(number) != person)
    went = tuple(number for number in before if number not in after)
    if not came and not went and total == total_before:
        return None
    return OnlineChanges(came, went, total)


@dataclass(frozen=True)
class Watching:
    """Who watches a match: how many people, and the names of those who do not hide (alphabetical, the first
    ``SPECTATORS_NAMED``)."""

    count: int = 0
    names: tuple[str, ...] = ()


NOBODY = Watching()


def spectators(lines: Iterable[Attendance]) -> dict[str, Watching]:
    """Who watches each match (by code; matches nobody watches are left out), each person once."""
    watching: dict[str, dict[str, Attendance]] = {}
    for line in lines:
        if line.doing is Doing.WATCHING and line.code is not None:
            persons = watching.setdefault(line.code, {})
            known = persons.get(line.person)
            persons[line.person] = line if known is None else replace(known, hidden=known.hidden or line.hidden)
    return {code: Watching(len(persons), tuple(sorted((each.name for each in persons.values() if not each.hidden),
                                                      key=str.casefold)[:SPECTATORS_NAMED]))
            for code, persons in watching.items()}
