"""Runs in the server process.

The listing guests see in the lobby: the matches in play on every server, and their own match
against the computer to resume. Sent whenever it changes, once per turn of the event loop however
much changed, and never twice the same to one guest. Every move in every match asks (a move may end a round,
and the stars are listed), so a listing unchanged costs each guest in the lobby an identity check, not a walk
over the matches: the guests with no seat in play share one object, kept for as long as nothing listed changes.

That shared listing is news, sent at most once every ``SHARED_EVERY`` (at once after a quiet spell, else with
whatever else changed meanwhile): matches that began together end their rounds within moments of each other,
and each round's end sent every lobby the whole listing again (25 of them within two seconds, to 150 lobbies,
held the rounds' last moves behind them). A guest's own listing (a seat of theirs in play, a computer match kept)
is sent at once, as is every listing a guest asks for by coming into the lobby.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, replace

from ...link.messages import ComputerOffer, ListedMatch, LobbyListing
from .decision_values import Moment
from .tables import Table
from .visitors import Guest, Visitor

#: Seconds at least between two sendings of the listing the guests with no seat in play share.
SHARED_EVERY = 0.5


@dataclass(frozen=True)
class InPlay:
    """The matches in play as every guest's listing shows them (``entries``: marked as nobody's), their tables,
    and the listing of a guest with no seat there and no match against the computer kept: one object, so the
    link encodes it once for all of them."""

    tables: tuple[Table, ...]
    entries: tuple[ListedMatch, ...]
    listing: LobbyListing
    #: When they were worked out (a guest's own seat is held from then).
    moment: Moment
    #: Who may have a seat of their own among them: the players of the seats free to take back (by the name they
    #: sat down as), and the keys of every seat. A guest who is neither has the shared ``listing``.
    claimed_by_name: frozenset[str]
    claimed_by_key: frozenset[str]


def in_play(tables: Iterable[Table], watchers: Mapping[str, int], moment: Moment,
            before: InPlay | None = None) -> InPlay:
    """The matches in play, worked out once for all the guests told (a match's stars are counted from its
    rounds: worked out for each guest on each change, they held the server's loop behind fifty lobbies).
    ``before``: the last worked out, whose listing is kept (the same object) if nothing listed has changed."""
    playing, entries, by_name, by_key = [], [], set(), set()
    for table in tables:
        match = table.match
        if match is None or match.is_over:
            continue
        away = [moment.seat_free(seat) for seat in table.seats]
        playing.append(table)
        entries.append(ListedMatch(table.code, match.players, match.round_number, match.stars,
                                   watchers.get(table.code, 0), (away[0], away[1])))
        for seat, free in zip(table.seats, away, strict=True):
            if free:
                by_name.add(seat.identity)
            if seat.fingerprint is not None:
                by_key.add(seat.fingerprint)
    listed = tuple(entries)
    listing = before.listing if before is not None and before.entries == listed else LobbyListing(listed)
    return InPlay(tuple(playing), listing.matches, listing, moment, frozenset(by_name), frozenset(by_key))


def listing_for(names: Collection[str], fingerprint: str | None, address: str, matches: InPlay,
                offer: ComputerOffer | None) -> LobbyListing:
    """What a player known by ``names`` (with the key ``fingerprint``, if any, from ``address``) sees: the
    matches in play, with their own seat marked ("Return to your match") where it is held for them, or taken by
    a session of their key (a connection half dead, another terminal: taking it back closes that one). A name
    alone is no claim: a seat held under it is offered only at an address its player sat down from (from
    another, the player types the code and the secret), so a stranger who knows the name is offered nothing."""
    if (fingerprint is None or fingerprint not in matches.claimed_by_key) and matches.claimed_by_name.isdisjoint(names):
        return matches.listing if offer is None else LobbyListing(matches.entries, offer)
    listed, theirs = [], False
    for table, entry in zip(matches.tables, matches.entries, strict=True):
        mine = [(free and seat.identity in names and address in seat.addresses)
                or (fingerprint is not None and seat.fingerprint == fingerprint)
                for seat, free in zip(table.seats, entry.away, strict=True)]
        if any(mine):
            theirs = True
            held = None if table.adjourned else next(  # adjourned: it waits for them, held for nobody's time
                matches.moment.away(seat) for seat, its in zip(table.seats, mine, strict=True) if its)
            entry = replace(entry, yours=True, held=held)
        listed.append(entry)
    if not theirs and offer is None:
        return matches.listing
    return LobbyListing(tuple(listed), offer)


class Listing:
    """Tells the guests in the lobby (at no match) what is in play."""

    def __init__(self, visitors: dict[Guest, Visitor], matches: Callable[[], InPlay],
                 build: Callable[[Guest, Visitor, InPlay], LobbyListing], shared_every: float = SHARED_EVERY) -> None:
        self._visitors = visitors
        self._shared_every = shared_every
        self._matches = matches
        self._build = build
        self._due = False
        #: When the shared listing was last sent (the loop's time), and the sending held back until it may be.
        self._shared_at = float("-inf")
        self._held: asyncio.TimerHandle | None = None

    def changed(self) -> None:
        """Something listed may have changed: the guests in the lobby hear it at the end of this turn of the loop
        (those who share the listing, once ``SHARED_EVERY`` has passed since they last heard it)."""
        if not self._due:
            self._due = True
            asyncio.get_running_loop().call_soon(self._send)

    def _send(self) -> None:
        self._due = False
        matches, loop = self._matches(), asyncio.get_running_loop()
        wait = self._shared_at + self._shared_every - loop.time()
        for guest, visitor in list(self._visitors.items()):
            if visitor.code is not None:
                continue
            listing = self._build(guest, visitor, matches)
            if listing is matches.listing and listing is not visitor.last_listing and wait > 0:
                if self._held is None:
                    self._held = loop.call_later(wait, self._release)
            elif self._tell(guest, visitor, listing) and listing is matches.listing:
                self._shared_at = loop.time()

    def _release(self) -> None:
        self._held = None
        self.changed()

    def close(self) -> None:
        """The lobby is closing: the listing held back is not sent."""
        if self._held is not None:
            self._held.cancel()
            self._held = None

    def send_to(self, guest: Guest, force: bool = False) -> None:
        """The listing to one guest at once, unless it has just been sent the very same (``force``: even then)."""
        visitor = self._visitors.get(guest)
        if visitor is not None:
            self._tell(guest, visitor, self._build(guest, visitor, self._matches()), force)

    @staticmethod
    def _tell(guest: Guest, visitor: Visitor, listing: LobbyListing, force: bool = False) -> bool:
        """Send ``listing`` unless the guest was last sent the very same (``force``: even then); whether it was."""
        if not force and (listing is visitor.last_listing or listing == visitor.last_listing):
            return False
        visitor.last_listing = listing
        guest.send(listing)
        return True
