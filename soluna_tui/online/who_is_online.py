"""Runs in the child.

Who is online, as the server last said: the whole list as the player came to the lobby, then its changes
(a person is a number the server gave: their key or a guest's session, never a name). The lobby draws from
this book; a change costs a few dictionary steps, and the list is sorted again only when it is read.
"""

from __future__ import annotations

from ..link.messages import ONLINE_LISTED, OnlineChanges, OnlinePeople, OnlinePerson


class OnlineBook:
    """The people online (at most ``ONLINE_LISTED``), how many the server counts, and which is this player."""

    def __init__(self) -> None:
        self._people: dict[int, OnlinePerson] = {}
        self.total = 0
        self.you: int | None = None
        self._sorted: tuple[OnlinePerson, ...] | None = ()

    def take(self, message: OnlinePeople) -> None:
        """The whole list."""
        self._people = {person.id: person for person in message.people[:ONLINE_LISTED]}
        self.total, self.you = message.total, message.you
        self._sorted = None

    def apply(self, message: OnlineChanges) -> None:
        """What changed since: who came (or changed what they do), who went."""
        for number in message.went:
            self._people.pop(number, None)
        for person in message.came:
            if person.id in self._people or len(self._people) < ONLINE_LISTED:
                self._people[person.id] = person
        self.total = message.total
        self._sorted = None

    @property
    def people(self) -> tuple[OnlinePerson, ...]:
        """This player first, then everyone by name (as the lobby lists them)."""
        if self._sorted is None:
            self._sorted = tuple(sorted(self._people.values(),
                                        key=lambda person: (person.id != self.you, person.name.casefold(), person.id)))
        return self._sorted
