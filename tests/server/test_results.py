"""What a finished match tells later, without SSH: the ratings it moved, to everyone at it; how it ended, to a
player who was away (on arrival with their key, or by its code); and the watchers a lobby lists, as they come
and go. Guests are fakes that keep what they are told; every test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest

from soluna_tui.rules.end_reason import EndReason
from soluna_tui.server.lobby.results import how_it_ended
from soluna_tui.server.rating_model import Rating
from soluna_tui.server.storage import FinishedMatch, RatingChange, SeatRecord

from .test_lobby import FakeGuest, both_move, create, finish_round, heartbeats, pair, wait_for


async def test_everyone_at_a_rated_match_hears_each_rating_change(make_lobby) -> None:
    lobby = await make_lobby()
    # Keys seen from two addresses: a match between one address's keys is unrated.
    ann = FakeGuest("ann", fingerprint="SHA256:ann", address="10.0.0.1")
    bob = FakeGuest("bob", fingerprint="SHA256:bob", address="10.0.0.2")
    code = await pair(lobby, ann, bob, discs=3, stars_to_win=1)
    eve = FakeGuest("eve")
    await lobby.arrive(eve)
    await lobby.handle(eve, {"type": "watch", "code": code})
    await finish_round(lobby, {0: ann, 1: bob})
    winner = ann.match().winner
    for guest in (ann, bob, eve):
        await wait_for(lambda guest=guest: any(message.get("ratings") for message in guest.inbox))
        ratings = next(message for message in guest.inbox if message.get("ratings"))["ratings"]
        assert [shift["name"] for shift in ratings] == ["ann", "bob"]
        assert ratings[winner]["after"] > ratings[winner]["before"] == 1000
        assert ratings[1 - winner]["after"] < ratings[1 - winner]["before"] == 1000
    (finished,) = await lobby.store.finished.newest()
    assert [change.after.shown for change in finished.rating_changes] == [shift["after"] for shift in ratings]


async def test_guests_matches_move_no_rating(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    await pair(lobby, ann, bob, discs=3, stars_to_win=1)
    await finish_round(lobby, {0: ann, 1: bob})
    await heartbeats(lobby, 3)  # a rated match's news would have come by now (see the test above)
    assert not any(message.get("ratings") for message in ann.inbox + bob.inbox)


async def test_a_keyed_player_who_forfeited_is_told_on_arrival_once(make_lobby) -> None:
    lobby = await make_lobby(hold_time=1)
    ann, bob = FakeGuest("ann", fingerprint="SHA256:ann"), FakeGuest("bob", fingerprint="SHA256:bob")
    code = await create(lobby, ann)
    await lobby.arrive(bob)
    await lobby.handle(bob, {"type": "choose_name", "name": "bob"})  # a key whose visits are kept
    await lobby.handle(bob, {"type": "join", "code": code, "hints": False})
    await both_move(lobby, ann, bob)  # real play: leaving is a forfeit, not an aborted match
    await lobby.depart(bob)
    await wait_for(lambda: ann.match().is_over)
    back = FakeGuest("bob", fingerprint="SHA256:bob")
    await lobby.arrive(back)
    assert back.last("notice")["text"] == ("While you were away, your match against ann ended: you did not come "
                                           "back within 1 second, so ann won by forfeit.")
    again = FakeGuest("bob", fingerprint="SHA256:bob")
    await lobby.arrive(again)  # told already: the next visit says nothing of it
    assert [message for message in again.inbox if message["type"] == "notice"] == []


async def test_a_guest_who_forfeited_is_told_by_the_code(make_lobby) -> None:
    lobby = await make_lobby(hold_time=1)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = await pair(lobby, ann, bob)
    await both_move(lobby, ann, bob)  # real play: leaving is a forfeit, not an aborted match
    await lobby.depart(bob)
    await wait_for(lambda: ann.match().is_over)
    back = FakeGuest("bob", address="10.0.0.7")
    await lobby.arrive(back)
    await lobby.handle(back, {"type": "join", "code": code, "hints": False})
    assert back.last("error")["text"] == (f"Match {code} is over: you did not come back within 1 second, so ann "
                                          "won by forfeit.")
    stranger = FakeGuest("cyd", address="10.0.0.8")
    await lobby.arrive(stranger)
    await lobby.handle(stranger, {"type": "join", "code": code, "hints": False})
    assert stranger.last("error")["text"] == f"Match {code} is over."  # not a seat of theirs: nothing more


async def test_the_lobby_lists_the_watchers_as_they_come_and_go(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob, eve, cyd = FakeGuest("ann"), FakeGuest("bob"), FakeGuest("eve"), FakeGuest("cyd")
    code = await pair(lobby, ann, bob)
    await lobby.arrive(cyd)
    await lobby.arrive(eve)
    await lobby.handle(eve, {"type": "watch", "code": code})
    await wait_for(lambda: cyd.last("lobby")["matches"][0]["watchers"] == 1)
    await lobby.handle(eve, {"type": "leave"})
    await wait_for(lambda: cyd.last("lobby")["matches"][0]["watchers"] == 0)


def filed(result: EndReason, winner: int | None, rated: bool = False) -> FinishedMatch:
    """ann (seat 0) and bob's match, filed as ``result``; rated: ann 1000 to 963."""
    changes = (RatingChange("SHA256:ann", Rating(), Rating(24.0, 8.0)), RatingChange("SHA256:bob", Rating(), Rating()))
    return FinishedMatch(1, "ABCD", result.value, winner, {}, (SeatRecord("ann", "ann", None, False),
                                                              SeatRecord("bob", "bob", None, False)),
                         {}, 0.0, 1.0, changes if rated else ())


@pytest.mark.parametrize(("result", "winner", "told"), [
    (EndReason.TIME, 1, "your time ran out, so bob won on time."),
    (EndReason.TIME, 0, "bob's time ran out, so you won on time."),
    (EndReason.FORFEIT, 1, "you did not come back within 1 min 30 s, so bob won by forfeit."),
    (EndReason.FORFEIT, 0, "bob did not come back, so you won by forfeit."),
    (EndReason.RESIGNED, 0, "bob resigned, so you won."),
    (EndReason.WON, 1, "bob won it on the board."),
    (EndReason.ABORTED, None, "it was aborted before both players had moved, and not rated."),
    (EndReason.ABANDONED, None, "both players had left, so it was abandoned."),
])
def test_a_player_back_is_told_how_the_match_ended_from_their_side(result, winner, told) -> None:
    assert how_it_ended(filed(result, winner), 0, hold_time=90) == told


def test_a_player_back_is_told_what_a_rated_match_did_to_their_rating() -> None:
    shown = Rating(24.0, 8.0).shown
    assert how_it_ended(filed(EndReason.TIME, 1, rated=True), 0, hold_time=90) == (
        f"your time ran out, so bob won on time. ann: rating 1000 to {shown} ({shown - 1000:+d}).")
