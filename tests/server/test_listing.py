"""The lobby's listing of the matches in play: one object for every guest with no seat in it, kept while nothing
listed changes (every move asks for the listing; a guest is then sent nothing, found by an identity check), sent
to them at most once every ``SHARED_EVERY``, and a guest's own seat still marked whichever way it is theirs, and
sent at once."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

from soluna_tui.link.messages import ComputerOffer, LobbyListing
from soluna_tui.server.lobby.decision_values import Moment
from soluna_tui.server.lobby.listing import InPlay, Listing, in_play, listing_for
from soluna_tui.server.lobby.tables import Table
from soluna_tui.server.lobby.visitors import Visitor
from soluna_tui.server.storage import StoredMatch

from .test_decisions import HERE, NOW, THERE, played, seat
from .test_lobby import KeepingGuest

MOMENT = Moment(NOW, HERE, frozenset({HERE, THERE}))


def table(code: str, *seats, moves: int = 2) -> Table:
    match = played(moves)
    return Table(StoredMatch(code, 5, match.options.to_dict(), seats, match.to_dict(), 1.0, 2.0))


def test_the_listing_is_the_same_object_while_nothing_listed_changes_and_a_new_one_when_something_does() -> None:
    tables = [table("ABCD", seat("ann"), seat("bob")), table("EFGH", seat("cyd"), seat("dan"), moves=0)]
    first = in_play(tables, {}, MOMENT)
    again = in_play(tables, {}, Moment(NOW + 5, HERE, MOMENT.live), first)  # a move in the middle of a round
    assert again.listing is first.listing and again.entries is first.listing.matches

    watched = in_play(tables, {"EFGH": 1}, MOMENT, again)
    assert watched.listing is not again.listing and watched.listing.matches[1].watchers == 1

    tables[0].seats = (seat("ann"), seat("bob", None, held_until=NOW + 60))  # bob left
    away = in_play(tables, {"EFGH": 1}, MOMENT, watched)
    assert away.listing is not watched.listing and away.listing.matches[0].away == (False, True)

    match = tables[1].match
    match.play(match.position.legal_moves[0], match.to_move)  # a move in the round: nothing listed changes
    assert not match.round.is_over and in_play(tables, {"EFGH": 1}, MOMENT, away).listing is away.listing


def test_a_guest_is_offered_their_own_seat_by_name_from_where_they_sat_or_by_key_and_no_one_else_is() -> None:
    keyed = replace(seat("eve"), fingerprint="SHA256:eve")
    renamed = replace(seat("bob", None, held_until=NOW + 60, addresses=("10.0.0.1",)), name="Bobby")  # shown so
    tables = [table("ABCD", seat("ann"), renamed), table("EFGH", keyed, seat("fay"))]
    matches = in_play(tables, {}, MOMENT)
    offer = ComputerOffer("5", 1, (0, 0), needs_secret=False)

    bob = listing_for({"bob"}, None, "10.0.0.1", matches, None)  # the seat is under the name he sat down as
    assert [entry.yours for entry in bob.matches] == [True, False] and bob.matches[0].held == 60.0
    eve = listing_for({"eve-elsewhere"}, "SHA256:eve", "10.9.9.9", matches, offer)  # her key, another terminal
    assert [entry.yours for entry in eve.matches] == [False, True] and eve.computer == offer

    for names, key, address in (({"bob"}, None, "10.7.7.7"),  # bob's name, from an address he never sat at
                                ({"Bobby"}, None, "10.0.0.1"),  # the name shown is no claim
                                ({"ann"}, None, "10.0.0.1"),  # ann sits at her seat: nothing to take back
                                ({"zed"}, "SHA256:zed", "10.0.0.1")):
        assert listing_for(names, key, address, matches, None) is matches.listing
        with_offer = listing_for(names, key, address, matches, offer)
        assert with_offer.matches == matches.entries and not any(entry.yours for entry in with_offer.matches)
        assert with_offer.computer == offer


async def test_the_shared_listing_is_sent_at_once_after_a_quiet_spell_then_at_most_once_a_spell_and_ones_own_at_once(
        ) -> None:
    """Matches that began together end their rounds within moments of each other: each round's end sent every lobby
    the whole listing again. Those who share the listing hear it at most once every ``shared_every`` (at once after
    a quiet spell, else the latest, once the spell is over); a guest whose seat is held hears each change at once."""
    every = 1.0  # long enough that a busy machine's pause between two changes stays within it
    tables = [table("ABCD", seat("ann"), seat("bob", None, held_until=NOW + 60, addresses=("10.0.0.1",))),
              table("EFGH", seat("cyd"), seat("dan"))]
    watchers: dict[str, int] = {}
    crowd, bob = KeepingGuest("eve"), KeepingGuest("bob")
    visitors = {guest: Visitor(guest.name, rated=True, name_chosen=True, secret="KQXPMR") for guest in (crowd, bob)}
    last: list[InPlay] = []

    def matches() -> InPlay:
        last[:] = [in_play(tables, watchers, MOMENT, *last)]
        return last[0]

    listing = Listing(visitors, matches, lambda guest, visitor, matches: listing_for(  # type: ignore[arg-type]
        {visitor.name}, guest.fingerprint, guest.address, matches, None), shared_every=every)

    async def a_change(change) -> float:
        change()
        listing.changed()
        await asyncio.sleep(0)  # the turn of the loop the listing is sent at
        return time.monotonic()

    quiet = await a_change(lambda: None)
    assert len(crowd.kept_of(LobbyListing)) == 1 and bob.kept_of(LobbyListing)[-1].matches[0].yours
    await a_change(lambda: watchers.update(EFGH=1))  # within the spell: the crowd waits, bob is told at once
    await a_change(lambda: watchers.update(EFGH=2))
    assert len(crowd.kept_of(LobbyListing)) == 1
    assert [each.matches[1].watchers for each in bob.kept_of(LobbyListing)] == [0, 1, 2]
    while len(crowd.kept_of(LobbyListing)) < 2 and time.monotonic() < quiet + 5:
        await asyncio.sleep(0.01)
    told = crowd.kept_of(LobbyListing)
    assert time.monotonic() >= quiet + every * 0.9 and [each.matches[1].watchers for each in told] == [0, 2]
    assert told[-1] is last[0].listing  # the latest, one object for all who share it
    await asyncio.sleep(every * 1.5)
    await a_change(lambda: watchers.update(EFGH=3))  # a quiet spell over: at once
    assert crowd.kept_of(LobbyListing)[-1].matches[1].watchers == 3 and len(crowd.kept_of(LobbyListing)) == 3
    await a_change(lambda: watchers.update(EFGH=4))  # held back; then the lobby closes: never sent
    listing.close()
    await asyncio.sleep(every * 1.2)
    assert len(crowd.kept_of(LobbyListing)) == 3
