"""Runs in the server process.

Player cards, and who sits at each seat of a match. A card is asked by the number the list of who is online tells
a person as (``Roster.number_of``: a key keeps its number while this server runs), never by a name, and answered
from the store, so any server of a fleet answers it: a keyed player's name, rating and its graph, their record,
their record against the player asking, their recent matches (each replayable) and since when they are known; a
guest's name and this visit's matches. The players and spectators of a match are told who sits at each seat
(``SeatPeople``: the number to ask a card by, a keyed player's rating), once a seat's player or the match's end
changes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...link.messages import GRAPH_POINTS, AskCard, PlayerCard, SeatPeople, SeatPerson
from ..storage import Storage
from .online import GUEST, KEY, Attendance, key_person
from .records import GUEST_LOOKS_BACK, RECENT_LISTED, Records, recent_line, seat_of_key
from .roster import Roster
from .tables import Table
from .visitors import Asker, Guest

#: A card asked by a number nobody is told as now (a guest gone, a number made up).
NOBODY = "That player is not known here any more."


@dataclass
class SeatsTold:
    """Who sits at a match's seats as last read (``key``: what it was read for), and the guests told of it."""

    key: tuple[object, ...]
    people: SeatPeople
    told: set[Guest] = field(default_factory=set)


class Cards:
    """Cards asked of this server, and who sits at each seat of its matches, told to their guests."""

    def __init__(self, store: Storage, roster: Roster, records: Records) -> None:
        self.store = store
        self.roster = roster
        self.records = records
        self._seats: dict[str, SeatsTold] = {}

    async def card(self, asker: Asker, request: AskCard) -> None:
        person = self.roster.person_of(request.person)
        if person is None or self._hidden_from(asker, person):
            asker.refuse(NOBODY)
        elif person.startswith(KEY):
            asker.answer(await self._keyed_card(request.person, person.removeprefix(KEY), asker.guest.fingerprint))
        else:
            line = next((each for each in self.roster.everyone() if each.person == person), None)
            if line is None:
                asker.refuse(NOBODY)
            else:
                asker.answer(await self._guest_card(request.person, line))

    def _hidden_from(self, asker: Asker, person: str) -> bool:
        """Whether ``person`` is online hidden from the list of who is online, and the asker is someone else: their card
        is answered as a stranger's would be, so that asking the numbers in turn never finds out who came hidden."""
        asking = self.roster.lines.get(asker.guest)
        if asking is not None and asking.person == person:
            return False
        return any(line.person == person and line.hidden for line in self.roster.everyone())

    async def _keyed_card(self, number: int, fingerprint: str, viewer: str | None) -> PlayerCard:
        card = await self.store.cards.card(fingerprint, viewer, RECENT_LISTED, GRAPH_POINTS, self.records.minimum,
                                           self.records.opponents)
        online = next((each.name for each in self.roster.everyone() if each.person == key_person(fingerprint)), "?")
        name = card.player.name if card.player is not None else online
        standing = card.standing
        recent = tuple(recent_line(finished, seat_of_key(finished, fingerprint)) for finished in card.recent)
        if standing is None:
            return PlayerCard(number, name, True, graph=card.graph, against_you=card.against, recent=recent,
                              member_since=card.player.first_seen if card.player is not None else None)
        return PlayerCard(number, name, True, standing.rating.shown, standing.rank, standing.played, standing.won,
                          standing.lost, card.graph, card.against, recent,
                          card.player.first_seen if card.player is not None else None)

    async def _guest_card(self, number: int, line: Attendance) -> PlayerCard:
        """A guest's card: their name, and the matches they finished at a guest's seat this visit (found by the name
        they sat under: a guest has no key)."""
        mine = [(finished, index) for finished in await self.store.finished.newest(GUEST_LOOKS_BACK)
                if finished.finished_at >= line.since
                for index, seat in enumerate(finished.seats) if seat.fingerprint is None and seat.identity == line.name]
        decided = [(finished, index) for finished, index in mine if finished.winner is not None]
        won = sum(1 for finished, index in decided if finished.winner == index)
        return PlayerCard(number, line.name, False, played=len(decided), won=won, lost=len(decided) - won,
                          recent=tuple(recent_line(finished, index) for finished, index in mine[:RECENT_LISTED]))

    # ---- who sits at each seat -------------------------------------------------------------

    def untold(self, table: Table) -> bool:
        """Whether a guest here at ``table`` has not been told who sits at its seats as they are now (a move changes
        nothing: checked on every change, it costs a comparison)."""
        told = self._seats.get(table.code)
        return table.match is not None and (told is None or told.key != _seats_key(table)
                                            or any(guest not in told.told for guest in table.guests))

    async def tell_seats(self, table: Table, guests: list[Guest] | None = None) -> None:
        """``guests`` at ``table`` (all of this server's there: ``None``) told who sits at each seat, when they have
        not been told it as it is now (read again when a seat's player changed, or the match ended: its ratings)."""
        if table.match is None:
            return
        key = _seats_key(table)
        told = self._seats.get(table.code)
        if told is None or told.key != key:
            told = self._seats[table.code] = SeatsTold(key, await self._seat_people(table))
        for guest in table.guests if guests is None else guests:
            if guest not in told.told and guest in table.guests:
                told.told.add(guest)
                guest.send(told.people)

    async def _seat_people(self, table: Table) -> SeatPeople:
        people = []
        for index, seat in enumerate(table.seats):
            if seat.fingerprint is not None:
                rating = await self.store.ratings.of(seat.fingerprint)
                people.append(SeatPerson(self.roster.number_of(key_person(seat.fingerprint)), True,
                                         rating.shown if rating is not None else None))
                continue
            guest = table.seated.get(index)
            line = self.roster.lines.get(guest) if guest is not None else None
            people.append(SeatPerson(self.roster.number_of(line.person) if line is not None else None))
        return SeatPeople(table.code, tuple(people))

    def forget(self, code: str) -> None:
        """The match ``code`` has gone from play."""
        self._seats.pop(code, None)

    def leave(self, guest: Guest) -> None:
        for told in self._seats.values():
            told.told.discard(guest)


def _seats_key(table: Table) -> tuple[object, ...]:
    """What the seats' people are read again for: the match begun anew, its end (the ratings it moved), a seat's
    player."""
    players = (seat.fingerprint or GUEST + seat.identity for seat in table.seats)
    return (table.stored.created_at, table.finished, *players)
