"""The lobby's listing of the matches in play: one object for every guest with no seat in it, kept while nothing
listed changes (every move asks for the listing; a guest is then sent nothing, found by an identity check), and
a guest's own seat still marked whichever way it is theirs."""

from __future__ import annotations

from dataclasses import replace

from soluna_tui.link.messages import ComputerOffer
from soluna_tui.server.lobby.decision_values import Moment
from soluna_tui.server.lobby.listing import in_play, listing_for
from soluna_tui.server.lobby.tables import Table
from soluna_tui.server.storage import StoredMatch

from .test_decisions import HERE, NOW, THERE, played, seat

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
