"""Player cards, tells and who sits at each seat (issue 42), in lobbies of fake guests: a card asked by the number
the list of who is online gives (a key's, a guest's), a tell told across two servers, dropped for one who muted its
teller and reported as any line, and the seats' people with a keyed player's rating; on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from soluna_tui.server.lobby.online import Attendance, guest_person, key_person
from soluna_tui.server.lobby.tells import Told, named
from soluna_tui.server.storage import SeatRecord

from ..storage.conftest import finished_match, match_in_play
from .test_lobby import FakeGuest, pair, wait_for
from .test_online import online_now
from .test_talk import chats, refusals


def told(guest: FakeGuest) -> list[str]:
    """The tells ``guest`` was shown, as the talk panel words them."""
    return [f"{line['name']} tells you: {line['text']}" if not line["yours"] else f"you tell {line['name']}: "
            f"{line['text']}" for message in chats(guest) for line in message["lines"] if line.get("tell")]


async def tell(lobby, guest: FakeGuest, name: str, text: str) -> None:
    await lobby.handle(guest, {"type": "tell", "name": name, "text": text})


def number_of(guest: FakeGuest, name: str) -> int:
    return next(number for number, person in online_now(guest).items() if person["name"] == name)


def test_a_tell_travels_between_servers_and_anything_else_is_left_out() -> None:
    one = Told(key_person("SHA256:bob"), "bob", guest_person("s1", 3), "ann", "hi", 12.5, "10.0.0.1")
    assert Told.from_payload(one.to_payload()) == one and one.speaker == "site:10.0.0.1"
    for payload in ("{}", "[]", "not json", '{"tell": "nobody", "text": "x"}', '{"room": "lobby"}',
                    one.to_payload().replace('"hi"', '"' + "x" * 400 + '"')):
        assert Told.from_payload(payload) is None


def test_a_tell_names_whom_by_their_name_as_names_compare_a_key_first() -> None:
    people = [Attendance(guest_person("s1", 1), "Bob (guest)"), Attendance(key_person("SHA256:bob"), "bob"),
              Attendance(guest_person("s1", 2), "cyd")]
    assert named(people, "BOB").person == key_person("SHA256:bob")
    assert named(people, "cyd").person == guest_person("s1", 2) and named(people, "dan") is None
    assert named(people[:1], "bob").name == "Bob (guest)"


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # two servers: SQLite serves one
async def test_a_tell_reaches_its_one_listener_on_another_server_unless_muted_and_is_reported_as_a_line(
        make_lobby) -> None:
    first, second = await make_lobby(), await make_lobby()
    ann, cyd = FakeGuest("ann", fingerprint="SHA256:ann"), FakeGuest("cyd", "10.0.0.3")
    bob = FakeGuest("bob", "10.0.0.2", fingerprint="SHA256:bob")
    await first.arrive(ann)
    await first.arrive(cyd)
    await second.arrive(bob)
    await wait_for(lambda: {"ann", "bob", "cyd"} <= {person.name for person in first.roster.everyone()})
    await tell(first, ann, "BOB", "\x1b[2Jfancy a match at eight?")
    await wait_for(lambda: told(bob) == ["ann tells you: fancy a match at eight?"])
    assert told(ann) == ["you tell bob: fancy a match at eight?"] and told(cyd) == []
    await tell(first, cyd, "bob", "psst")
    await wait_for(lambda: "cyd tells you: psst" in told(bob))
    line = next(line for message in chats(bob) for line in message["lines"] if line["name"] == "cyd")
    await second.handle(bob, {"type": "mute", "speaker": line["speaker"]})  # as /mute cyd would
    await tell(first, cyd, "bob", "are you there?")
    await tell(first, ann, "bob", "still on?")
    await wait_for(lambda: "ann tells you: still on?" in told(bob))
    assert "cyd tells you: are you there?" not in told(bob) and not refusals(cyd)  # dropped without a word
    await second.handle(bob, {"type": "report", "line": line["id"]})
    await wait_for(lambda: refusals(bob) == ["Reported to the server's owner. Thank you."])
    (report,) = await second.store.chat.reports()
    assert (report.line.room, report.line.name, report.line.text, report.reporter) == ("tell", "cyd", "psst", "bob")
    await tell(first, ann, "ann", "me?")
    await tell(first, ann, "nobody", "hello?")
    await second.handle(bob, {"type": "leave"})
    await wait_for(lambda: len(refusals(ann)) == 2)
    assert refusals(ann) == ["That is you: a tell goes to someone else.", "No one called nobody is online."]


async def test_a_tell_to_a_key_s_player_who_is_away_or_hidden_says_they_are_not_online(make_lobby) -> None:
    lobby = await make_lobby()
    await lobby.store.players.see("SHA256:bob", "bob")
    ann, bob = FakeGuest("ann"), FakeGuest("bob", "10.0.0.2", fingerprint="SHA256:bob")
    await lobby.arrive(ann)
    await tell(lobby, ann, "Bob", "hi")
    await wait_for(lambda: refusals(ann) == ["bob is not online: a tell reaches only someone online."])
    await lobby.arrive(bob)
    choices = {"level": "5", "rules": "box", "stars": 1, "discs": 8, "opener": 0, "hints": False, "hidden": True}
    await lobby.handle(bob, {"type": "keep_choices", "choices": choices})
    await tell(lobby, ann, "bob", "are you hiding?")
    await wait_for(lambda: len(refusals(ann)) == 2)
    assert refusals(ann)[1] == refusals(ann)[0] and told(bob) == []  # a tell does not find out the hidden


async def _filed(store, code: str, seats, winner: int) -> None:
    match = match_in_play()
    await store.matches.create(code, match.options.to_dict(), seats, match.to_dict())
    await store.matches.finish(code, 1, finished_match(winner=winner).to_dict(), "won")


async def test_a_card_is_asked_by_the_number_the_list_gives_and_a_guest_has_a_short_one(make_lobby) -> None:
    lobby = await make_lobby(ranked_after=1, ranked_opponents=0)
    store = lobby.store
    for fingerprint, name in (("SHA256:ann", "ann"), ("SHA256:bob", "bob")):
        await store.players.see(fingerprint, name)
    seats = (SeatRecord("ann", "ann", "SHA256:ann", False), SeatRecord("bob", "bob", "SHA256:bob", False))
    await _filed(store, "ABCD", seats, winner=1)
    ann, bob = FakeGuest("ann", fingerprint="SHA256:ann"), FakeGuest("bob", "10.0.0.2", fingerprint="SHA256:bob")
    zed = FakeGuest("zed", "10.0.0.9")
    for guest in (ann, bob, zed):
        await lobby.arrive(guest)
    await wait_for(lambda: len(online_now(ann)) == 3)
    await lobby.handle(ann, {"type": "card", "person": number_of(ann, "bob"), "ask": 4})
    card = ann.last("card")
    rating = (await store.ratings.of("SHA256:bob")).shown
    assert (card["answer_to"], card["name"], card["keyed"], card["rating"], card["rank"]) == (4, "bob", True,
                                                                                             rating, 1)
    assert (card["played"], card["won"], card["lost"], card["against_you"]) == (1, 1, 0, [1, 0])
    assert card["graph"][-1] == rating and len(card["graph"]) == 2 and card["member_since"] is not None
    assert [(each["opponent"], each["result"]) for each in card["recent"]] == [("ann", "won")]
    await lobby.handle(zed, {"type": "card", "person": number_of(zed, "ann"), "ask": 5})
    assert zed.last("card")["against_you"] is None and zed.last("card")["recent"][0]["result"] == "lost"
    await lobby.handle(ann, {"type": "card", "person": number_of(ann, "zed"), "ask": 6})
    assert (ann.last("card")["name"], ann.last("card")["keyed"], ann.last("card")["recent"]) == ("zed", False, [])
    await lobby.handle(ann, {"type": "card", "person": 999, "ask": 7})
    assert ann.last("error") == {"type": "error", "text": "That player is not known here any more.", "answer_to": 7}
    page_asked = {"type": "leaderboard", "offset": 0, "ask": 8}
    await lobby.handle(ann, page_asked)
    assert [row["person"] for row in ann.last("leaderboard")["rows"]] == [number_of(ann, "bob"),
                                                                           number_of(ann, "ann")]


async def test_the_players_at_a_match_are_told_who_sits_at_each_seat_and_a_key_s_rating(make_lobby) -> None:
    lobby = await make_lobby()
    await lobby.store.players.see("SHA256:bob", "bob")
    await _filed(lobby.store, "WXYZ", (SeatRecord("bob", "bob", "SHA256:bob", False),
                                       SeatRecord("cyd", "cyd", "SHA256:cyd", False)), winner=0)
    rating = (await lobby.store.ratings.of("SHA256:bob")).shown
    ann, bob = FakeGuest("ann"), FakeGuest("bob", "10.0.0.2", fingerprint="SHA256:bob")
    watcher = FakeGuest("eve", "10.0.0.5")
    code = await pair(lobby, ann, bob)
    await lobby.arrive(watcher)
    await lobby.handle(watcher, {"type": "watch", "code": code})

    def seats(guest: FakeGuest) -> list:
        return guest.seats[-1]["seats"] if guest.seats else []

    for guest in (ann, bob, watcher):
        await wait_for(lambda guest=guest: len(seats(guest)) == 2)
    first, second = seats(watcher)
    assert (first["keyed"], first["rating"], second["keyed"], second["rating"]) == (False, None, True, rating)
    roster = lobby.roster
    assert second["person"] == roster.number_of(key_person("SHA256:bob"))
    assert first["person"] == roster.number_of(next(line.person for guest, line in roster.lines.items()
                                                    if guest is ann))


async def test_a_card_never_finds_out_someone_online_hidden_but_for_themselves(make_lobby) -> None:
    lobby = await make_lobby()
    await lobby.store.players.see("SHA256:bob", "bob")
    ann, bob = FakeGuest("ann", fingerprint="SHA256:ann"), FakeGuest("bob", "10.0.0.2", fingerprint="SHA256:bob")
    await lobby.arrive(ann)
    await lobby.arrive(bob)
    choices = {"level": "5", "rules": "box", "stars": 1, "discs": 8, "opener": 0, "hints": False, "hidden": True}
    await lobby.handle(bob, {"type": "keep_choices", "choices": choices})
    number = lobby.roster.number_of("key:SHA256:bob")  # what a cheat asking the numbers in turn would reach
    await lobby.handle(ann, {"type": "card", "person": number, "ask": 3})
    assert ann.last("error") == {"type": "error", "text": "That player is not known here any more.", "answer_to": 3}
    await lobby.handle(bob, {"type": "card", "person": number, "ask": 4})
    assert bob.last("card")["name"] == "bob"  # their own card, hidden or not
    choices["hidden"] = False
    await lobby.handle(bob, {"type": "keep_choices", "choices": choices})
    await lobby.handle(ann, {"type": "card", "person": number, "ask": 5})
    assert ann.last("card")["name"] == "bob"
