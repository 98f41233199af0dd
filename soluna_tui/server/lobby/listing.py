"""Runs in the server process.

The listing guests see in the lobby: the matches in play on every server, and their own match
against the computer to resume. Sent whenever it changes, once per turn of the event loop however
much changed, and never twice the same to one guest.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Iterable, Mapping

from ...link.messages import ComputerOffer, ListedMatch, LobbyListing
from .decisions import Moment
from .tables import Table
from .visitors import Guest, Visitor


def listing_for(names: Collection[str], fingerprint: str | None, tables: Iterable[Table],
                watchers: Mapping[str, int], moment: Moment, offer: ComputerOffer | None) -> LobbyListing:
    """What a player known by ``names`` (with the key ``fingerprint``, if any) sees: the matches in play, with
    their own seat marked where it is held for them, or taken by a session of their key (a connection half
    dead, another terminal: taking it back closes that one)."""
    matches = []
    for table in tables:
        match = table.match
        if match is None or match.is_over:
            continue
        away = [moment.seat_free(seat) for seat in table.seats]
        mine = [(moment.seat_free(seat) and seat.identity in names)
                or (fingerprint is not None and seat.fingerprint == fingerprint) for seat in table.seats]
        held = next((moment.away(seat) for seat, its in zip(table.seats, mine, strict=True) if its), None)
        matches.append(ListedMatch(table.code, match.players, match.round_number, match.stars,
                                   watchers.get(table.code, 0), (away[0], away[1]), any(mine), held))
    return LobbyListing(tuple(matches), offer)


class Listing:
    """Tells the guests in the lobby (at no match) what is in play."""

    def __init__(self, visitors: dict[Guest, Visitor], build: Callable[[Guest, Visitor], LobbyListing]) -> None:
        self._visitors = visitors
        self._build = build
        self._due = False

    def changed(self) -> None:
        """Something listed may have changed: the guests in the lobby hear it at the end of this turn of the loop."""
        if not self._due:
            self._due = True
            asyncio.get_running_loop().call_soon(self._send)

    def _send(self) -> None:
        self._due = False
        for guest, visitor in list(self._visitors.items()):
            if visitor.code is None:
                self.send_to(guest)

    def send_to(self, guest: Guest, force: bool = False) -> None:
        """The listing to one guest, unless it has just been sent the very same (``force``: even then)."""
        visitor = self._visitors.get(guest)
        if visitor is None:
            return
        listing = self._build(guest, visitor)
        if force or listing != visitor.last_listing:
            visitor.last_listing = listing
            guest.send(listing)
