"""Quick matches and challenges in a lobby of fake guests, on SQLite and on PostgreSQL (there, each pair on two
lobbies sharing the database: seeks and challenges meet through the store): what each is sent."""

from __future__ import annotations

import pytest

from soluna_tui.rules import MatchOptions

from .test_lobby import FakeGuest, wait_for

BOX = MatchOptions.preset("box", stars_to_win=2, discs=4).to_dict()


def terms(rated: bool = False, stars: int = 2, clock: dict | None = None) -> dict:
    return {"options": {**BOX, "stars_to_win": stars}, "clock": clock, "rated": rated, "hints": False}


async def two_lobbies(make_lobby):
    first = await make_lobby()
    return first, (await make_lobby() if first.store.SHARED else first)


async def ann_challenges_bob(make_lobby):
    """ann (on the first lobby) challenges bob (on the second, the same one on SQLite), each listed on both servers
    first (bob may accept only someone his server has in its lobby): the lobbies, the two, and the challenge's id."""
    first, second = await two_lobbies(make_lobby)
    ann, bob = FakeGuest("ann", "10.0.0.1"), FakeGuest("bob", "10.0.0.2")
    await first.arrive(ann)
    await second.arrive(bob)
    await wait_for(lambda: number_of(ann, "bob") is not None and number_of(bob, "ann") is not None)
    await first.handle(ann, {"type": "challenge", "person": number_of(ann, "bob"), "terms": terms(), "ask": 1})
    await wait_for(lambda: sent(bob, "challenges") and bob.last("challenges")["challenges"])
    return first, second, ann, bob, bob.last("challenges")["challenges"][0]["id"]


async def heard_with_live(book, challenges, live: set[str]) -> None:
    """``book`` (a server's challenges) reads ``challenges`` with only the servers ``live`` alive, for this reading."""
    presence = book.meeting.presence
    alive, presence.live = presence.live, live
    try:
        await book.heard(challenges)
    finally:
        presence.live = alive


async def deaf(challenges) -> None:
    """A server's reading of the challenges, put in place of its own: it acts on nothing."""


def sent(guest: FakeGuest, kind: str) -> list[dict]:
    return [message for message in guest.inbox if message["type"] == kind]


def number_of(guest: FakeGuest, name: str) -> int | None:
    """The number ``guest``'s list of who is online tells ``name`` by (the last it heard)."""
    found = None
    for message in guest.online:
        for person in message.get("people", []) + message.get("came", []):
            if person["name"] == name:
                found = person["id"]
    return found


async def test_two_seekers_on_the_same_terms_are_paired_and_a_third_on_other_terms_waits_and_cancels(
        make_lobby) -> None:
    first, second = await two_lobbies(make_lobby)
    ann = FakeGuest("ann", "10.0.0.1")
    bob = FakeGuest("bob", "10.0.0.2")
    cyd = FakeGuest("cyd", "10.0.0.3")
    await first.arrive(ann)
    await second.arrive(bob)
    await second.arrive(cyd)
    await first.handle(ann, {"type": "seek", "terms": terms(), "ask": 1})
    assert ann.last("seeking")["answer_to"] == 1
    await second.handle(cyd, {"type": "seek", "terms": terms(stars=3), "ask": 1})
    assert cyd.last("seeking")
    await second.handle(bob, {"type": "seek", "terms": terms(), "ask": 2})
    code = bob.last("waiting")["code"]  # the newcomer created the match
    await wait_for(lambda: any(message["type"] == "match" for message in ann.inbox))
    assert ann.last("paired") == {"type": "paired", "code": code, "opponent": "bob"}
    assert ann.last("match")["code"] == code and ann.last("match")["seat"] == 1
    await wait_for(lambda: any(message["type"] == "match" for message in bob.inbox))
    assert sent(cyd, "match") == [] and sent(cyd, "paired") == []
    assert [each.seeker.name for each in await first.store.pairing.seeks()] == ["cyd"]
    await second.handle(cyd, {"type": "cancel_seek"})
    assert await first.store.pairing.seeks() == []


async def test_a_seeker_told_of_someone_not_paired_with_them_is_told_too_when_that_one_waits_no_more(
        make_lobby) -> None:
    """Tried over SSH: bob waited rated, told "gus, a guest, waits on the same settings, unrated: ... (Escape, set
    Rated to no, and ask again)"; gus was paired with cora, and bob's dialog kept the advice, for nobody. He is now
    told that gus waits no more."""
    first, second = await two_lobbies(make_lobby)
    bob = FakeGuest("bob", "10.0.0.2", fingerprint="SHA256:bob")
    gus, cora = FakeGuest("gus", "10.0.0.3"), FakeGuest("cora", "10.0.0.4")
    await first.arrive(bob)
    await second.arrive(gus)
    await second.arrive(cora)
    await first.handle(bob, {"type": "seek", "terms": terms(rated=True), "ask": 1})
    await second.handle(gus, {"type": "seek", "terms": terms(), "ask": 1})
    await wait_for(lambda: "gus, a guest, waits on the same settings" in bob.texts())
    assert "not waiting any more" not in bob.texts()
    await second.handle(cora, {"type": "seek", "terms": terms(), "ask": 1})  # gus and cora: a pair
    await wait_for(lambda: sent(gus, "match"))
    await wait_for(lambda: "gus is not waiting any more." in bob.texts())
    assert bob.texts().count("gus is not waiting any more.") == 1 and not sent(bob, "match")


async def test_nobody_is_paired_with_themselves_nor_rated_from_one_address(make_lobby) -> None:
    first, second = await two_lobbies(make_lobby)
    ann = FakeGuest("ann", "10.0.0.1", fingerprint="SHA256:ann")
    ann_again = FakeGuest("ann", "10.0.0.9", fingerprint="SHA256:ann")
    dan = FakeGuest("dan", "10.0.0.1", fingerprint="SHA256:dan")
    await first.arrive(ann)
    await second.arrive(ann_again)
    await second.arrive(dan)
    await first.handle(ann, {"type": "seek", "terms": terms(rated=True), "ask": 1})
    await second.handle(ann_again, {"type": "seek", "terms": terms(rated=True), "ask": 1})
    assert "another terminal" in ann_again.last("error")["text"]  # one queue at a time, and never themselves
    await second.handle(dan, {"type": "seek", "terms": terms(rated=True), "ask": 1})
    assert dan.last("seeking")  # rated, one address: no pair; both wait
    assert sorted(each.seeker.name for each in await first.store.pairing.seeks()) == ["ann", "dan"]
    assert sent(ann, "match") == sent(dan, "match") == []


async def test_a_rated_challenge_to_a_key_only_at_the_sender_s_address_is_refused_as_it_is_asked(make_lobby) -> None:
    """Tried over SSH: ann and bob, two keys from one address (Rated is yes by default for keys): ann's challenge was
    "sent: bob sees it now", and bob's accepting it was refused (a rated match is never between two players from one
    address), the challenge left open for nobody. It is now refused as it is asked, saying what to set; bob on a
    terminal elsewhere too may still be challenged (he may accept there)."""
    lobby = await make_lobby()
    ann = FakeGuest("ann", "10.0.0.1", fingerprint="SHA256:ann")
    bob = FakeGuest("bob", "10.0.0.1", fingerprint="SHA256:bob")
    await lobby.arrive(ann)
    await lobby.arrive(bob)
    await wait_for(lambda: number_of(ann, "bob") is not None)
    await lobby.handle(ann, {"type": "challenge", "person": number_of(ann, "bob"), "terms": terms(rated=True),
                             "ask": 3})
    assert ann.last("error")["text"] == ("bob is at your address, and a rated match is never between two players "
                                         "from one address: set Rated to no to challenge bob.")
    assert await lobby.store.pairing.challenges() == [] and not sent(ann, "challenge_sent")
    bob_away = FakeGuest("bob", "10.0.0.7", fingerprint="SHA256:bob")
    await lobby.arrive(bob_away)
    await lobby.handle(ann, {"type": "challenge", "person": number_of(ann, "bob"), "terms": terms(rated=True),
                             "ask": 4})
    assert ann.last("challenge_sent")["name"] == "bob"


async def test_a_challenge_accepted_makes_a_match_and_one_declined_is_told(make_lobby) -> None:
    first, second = await two_lobbies(make_lobby)
    ann = FakeGuest("ann", "10.0.0.1")
    bob = FakeGuest("bob", "10.0.0.2")
    await first.arrive(ann)
    await second.arrive(bob)
    await wait_for(lambda: number_of(ann, "bob") is not None and number_of(bob, "ann") is not None)
    await first.handle(ann, {"type": "challenge", "person": number_of(ann, "bob"), "terms": terms(), "ask": 3})
    assert ann.last("challenge_sent") == {"type": "challenge_sent", "name": "bob", "answer_to": 3}
    await wait_for(lambda: sent(bob, "challenges"))
    told = bob.last("challenges")
    assert [line["name"] for line in told["challenges"]] == ["ann"] and told["new"] == [told["challenges"][0]["id"]]
    await wait_for(lambda: sent(ann, "challenges"))
    assert ann.last("challenges")["challenges"][0]["incoming"] is False
    await second.handle(bob, {"type": "answer_challenge", "id": told["challenges"][0]["id"], "accept": False,
                              "ask": 4})
    await wait_for(lambda: "bob declined your challenge." in ann.texts())
    await wait_for(lambda: ann.last("challenges")["challenges"] == [])
    await first.handle(ann, {"type": "challenge", "person": number_of(ann, "bob"), "terms": terms(), "ask": 5})
    await wait_for(lambda: bob.last("challenges")["challenges"])
    challenge = bob.last("challenges")["challenges"][0]
    await second.handle(bob, {"type": "answer_challenge", "id": challenge["id"], "accept": True, "ask": 6})
    code = bob.last("waiting")["code"]
    await wait_for(lambda: sent(ann, "match"))
    assert ann.last("match")["code"] == code and ann.last("paired")["opponent"] == "bob"
    await wait_for(lambda: sent(bob, "match"))
    assert await first.store.pairing.challenges() == []


async def test_a_challenge_gone_while_its_match_is_made_leaves_no_one_waiting_for_nobody(make_lobby) -> None:
    """The challenge is deleted while bob accepts it (its challenger's terminal gone, which takes every challenge
    of theirs, whatever its state). The last word on it finds nothing to settle, and bob waited in a match nobody
    would join. Now his match is cancelled and he is told, in one line."""
    first, second, ann, bob, challenge = await ann_challenges_bob(make_lobby)
    matches = second.lobby.pairing.book.matches
    create = matches.create

    async def gone_meanwhile(asker, request) -> None:  # as ann's server drops it between the two settles
        await second.store.pairing.drop([challenge])
        await create(asker, request)

    matches.create = gone_meanwhile
    await second.handle(bob, {"type": "answer_challenge", "id": challenge, "accept": True, "ask": 2})
    assert "That challenge is not open any more." in bob.texts()
    assert not any(table.waiting for table in second.tables.values())
    assert second.visitors[bob].code is None


async def test_a_lapse_that_read_a_challenge_open_leaves_it_once_accepted(make_lobby) -> None:
    """The challenger's server takes bob's for gone a moment and lets lapse the challenge it read open, while bob
    accepts it (a CI failure, reproduced by forcing the interleaving). The lapse deleted the accepted challenge and
    bob waited for nobody; now it goes only while still open, so bob's match is made and ann is seated there."""
    first, second, ann, bob, challenge = await ann_challenges_bob(make_lobby)
    read_open = await first.store.pairing.challenges()
    challengers = first.lobby.pairing.book
    matches = second.lobby.pairing.book.matches
    create = matches.create

    async def lapsed_meanwhile(asker, request) -> None:  # ann's server, reading what it read before bob answered
        await heard_with_live(challengers, read_open, set())  # every server taken for gone
        await create(asker, request)

    matches.create = lapsed_meanwhile
    await second.handle(bob, {"type": "answer_challenge", "id": challenge, "accept": True, "ask": 2})
    assert "That challenge is not open any more." not in bob.texts()
    code = second.visitors[bob].code
    assert code is not None
    await wait_for(lambda: first.visitors[ann].code == code)
    await wait_for(lambda: sent(ann, "match") and ann.last("match")["code"] == code)
    assert not [each for each in await first.store.pairing.challenges() if each.id == challenge]  # done with


async def test_a_challenge_withdrawn_just_after_it_was_accepted_seats_its_challenger_and_says_why(make_lobby) -> None:
    """ann withdraws a challenge she read open, a moment after bob accepted it (forced: her server reads it as it was
    before his answer). The acceptance stands, so bob is not left waiting for nobody, and ann is told why she is
    joining his match rather than seeing her withdrawal ignored."""
    first, second, ann, bob, challenge = await ann_challenges_bob(make_lobby)
    read_open = await first.store.pairing.challenges()
    book, pairing = first.lobby.pairing.book, first.store.pairing

    real, reads = pairing.challenges, []

    async def as_read_before() -> list:  # the withdrawal's reading, before bob's answer; any later one, as it is
        reads.append(None)
        return read_open if len(reads) == 1 else await real()

    book.heard = deaf  # ann's server hears the acceptance only once she has withdrawn
    await second.handle(bob, {"type": "answer_challenge", "id": challenge, "accept": True, "ask": 2})
    code = second.visitors[bob].code
    assert code is not None, bob.texts()
    pairing.challenges = as_read_before
    try:
        await first.handle(ann, {"type": "withdraw_challenge", "id": challenge})
    finally:
        del pairing.challenges
    assert "bob accepted your challenge before you withdrew it: you join their match." in ann.texts()
    del book.heard
    await book.heard(await pairing.challenges())
    await wait_for(lambda: first.visitors[ann].code == code)


async def bob_accepts_as_anns_server_stops(make_lobby):
    """ann (first server) challenges bob (second), her server stops (it acts on nothing it reads), and bob accepts:
    the second lobby, bob, the challenge's id and the code of the match made for ann."""
    first, second, _, bob, challenge = await ann_challenges_bob(make_lobby)
    assert first.store.SHARED and first is not second
    first.lobby.pairing.book.heard = deaf
    await second.handle(bob, {"type": "answer_challenge", "id": challenge, "accept": True, "ask": 2})
    code = second.visitors[bob].code
    assert code is not None
    return second, bob, challenge, code


async def read_with_anns_server_gone(second, challenge: int, code: str) -> None:
    """The second server reads the accepted challenge (its code the match's) with ann's server taken for gone."""
    accepted = [each for each in await second.store.pairing.challenges() if each.id == challenge]
    assert accepted and accepted[0].code == code
    await heard_with_live(second.lobby.pairing.book, accepted, {second.server_id})


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # a server stopping, another going on
async def test_an_accepted_challenge_whose_challenger_server_stops_answering_calls_the_match_off(make_lobby) -> None:
    """bob accepted ann's challenge and waits in the match made for her, but her server stops answering before she
    comes (it hears nothing more here): only her server seats her, so bob's server calls the match off and tells
    him, rather than leaving him waiting for nobody."""
    second, bob, challenge, code = await bob_accepts_as_anns_server_stops(make_lobby)
    await read_with_anns_server_gone(second, challenge, code)
    assert "ann cannot come: their server stopped answering. The match is off." in bob.texts()
    assert second.visitors[bob].code is None and not any(table.waiting for table in second.tables.values())
    assert not [each for each in await second.store.pairing.challenges() if each.id == challenge]


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # a server stopping, another going on
async def test_an_accepted_challenge_whose_match_is_gone_and_whose_challenger_server_stopped_is_dropped(
        make_lobby) -> None:
    """bob accepted ann's challenge, then left the match made for her before her server (now stopped) seated her:
    nobody waits on it, and only her server would have dropped it, so any server that reads it drops it."""
    second, bob, challenge, code = await bob_accepts_as_anns_server_stops(make_lobby)
    await second.handle(bob, {"type": "cancel"})
    assert await second.store.matches.get(code) is None
    await read_with_anns_server_gone(second, challenge, code)
    assert not [each for each in await second.store.pairing.challenges() if each.id == challenge]
    assert "cannot come" not in " ".join(bob.texts())  # nothing to call off: he had left


async def test_a_player_who_refuses_challenges_declines_them_at_once(make_lobby) -> None:
    first, second = await two_lobbies(make_lobby)
    ann, bob = FakeGuest("ann", "10.0.0.1"), FakeGuest("bob", "10.0.0.2")
    await first.arrive(ann)
    await second.arrive(bob)
    await second.handle(bob, {"type": "keep_choices", "choices": {
        "level": "5", "rules": "box", "stars": 4, "discs": 12, "opener": 0, "hints": False, "refuse_challenges": True}})
    await wait_for(lambda: number_of(ann, "bob") is not None)
    await first.handle(ann, {"type": "challenge", "person": number_of(ann, "bob"), "terms": terms(), "ask": 1})
    await wait_for(lambda: "bob declined your challenge (bob takes no challenges)." in ann.texts())
    assert not any(message["challenges"] for message in sent(bob, "challenges"))


async def test_a_flood_of_challenges_from_many_keys_and_addresses_stops_at_eight_waiting_for_one_person(
        make_lobby) -> None:
    # Five places for anyone, three more kept for keys (issue 39): eight keys fill them.
    first, second = await two_lobbies(make_lobby)
    bob = FakeGuest("bob", "10.0.0.2")
    await second.arrive(bob)
    cheats = [FakeGuest(f"k{number}", f"10.6.{number}.1", fingerprint=f"SHA256:k{number}") for number in range(10)]
    for cheat in cheats:
        await first.arrive(cheat)
    await wait_for(lambda: all(number_of(cheat, "bob") is not None for cheat in cheats))
    for ask, cheat in enumerate(cheats, start=1):
        await first.handle(cheat, {"type": "challenge", "person": number_of(cheat, "bob"), "terms": terms(),
                                   "ask": ask})
    assert [bool(sent(cheat, "challenge_sent")) for cheat in cheats] == [True] * 8 + [False] * 2
    assert "bob has too many challenges to answer already" in cheats[8].last("error")["text"]
    await wait_for(lambda: len(bob.last("challenges")["challenges"]) == 8 if sent(bob, "challenges") else False)
    one_place = FakeGuest("zed", "10.6.0.1", fingerprint="SHA256:zed")  # k0's address: its own limit a minute
    await first.arrive(one_place)
    # The list it is given as it comes is the one last told; who came since is told at the next moment.
    await wait_for(lambda: all(number_of(one_place, f"k{number}") is not None for number in range(7)))
    for ask in range(8):
        await first.handle(one_place, {"type": "challenge", "person": number_of(one_place, f"k{ask % 7}"),
                                       "terms": terms(), "ask": ask})
    assert "Too many tries: wait a minute" in one_place.texts()


async def test_someone_played_before_reaches_a_full_inbox_and_a_stranger_does_not(make_lobby) -> None:
    # Issue 39: a player can always be reached by someone they have played (two keys, a finished match).
    from .test_fair_ratings import keyed, play_out

    lobby = await make_lobby()
    await play_out(lobby, keyed("kim", "10.5.0.1"), keyed("bob", "10.5.0.2"))
    bob = keyed("bob", "10.5.0.2")
    await lobby.arrive(bob)
    crowd = [keyed(f"k{number}", f"10.6.{number}.1") for number in range(8)]
    kim, stranger = keyed("kim", "10.5.0.1"), keyed("sam", "10.5.0.3")
    for guest in (*crowd, kim, stranger):
        await lobby.arrive(guest)
    await wait_for(lambda: all(number_of(guest, "bob") is not None for guest in (*crowd, kim, stranger)))
    for ask, guest in enumerate((*crowd, stranger, kim), start=1):
        await lobby.handle(guest, {"type": "challenge", "person": number_of(guest, "bob"), "terms": terms(),
                                   "ask": ask})
    assert all(sent(guest, "challenge_sent") for guest in crowd)
    assert "bob has too many challenges to answer already" in stranger.last("error")["text"]
    assert sent(kim, "challenge_sent")  # kim played bob: his full inbox is no bar
    await wait_for(lambda: len(bob.last("challenges")["challenges"]) == 9 if sent(bob, "challenges") else False)


async def test_a_seeker_is_listed_as_waiting_on_every_server_and_may_still_challenge_and_be_accepted(
        make_lobby) -> None:
    # Issue 39: every other screen listed a seeker "in the lobby"; a seeker still counts as in the lobby for
    # challenges (its challenge may be accepted).
    from .test_online import online_now

    first, second = await two_lobbies(make_lobby)
    ann, bob, cyd = FakeGuest("ann", "10.0.0.1"), FakeGuest("bob", "10.0.0.2"), FakeGuest("cyd", "10.0.0.3")
    await first.arrive(ann)
    await first.arrive(cyd)
    await second.arrive(bob)
    await wait_for(lambda: number_of(ann, "bob") is not None and number_of(bob, "ann") is not None
                   and number_of(cyd, "bob") is not None)

    def bob_doing() -> str | None:
        """What cyd's list says bob is doing (``None``: not listed this moment: on a loaded machine bob's server
        may fall silent past ``DEAD_AFTER``, and his line leaves the others' lists until it beats again)."""
        return next((person["doing"] for person in online_now(cyd).values() if person["name"] == "bob"), None)

    await second.handle(bob, {"type": "seek", "terms": terms(stars=3), "ask": 1})
    await wait_for(lambda: bob_doing() == "waiting")
    await second.handle(bob, {"type": "challenge", "person": number_of(bob, "ann"), "terms": terms(), "ask": 2})
    await wait_for(lambda: sent(ann, "challenges") and ann.last("challenges")["challenges"])
    await first.handle(ann, {"type": "answer_challenge", "id": ann.last("challenges")["challenges"][0]["id"],
                             "accept": True, "ask": 3})
    await wait_for(lambda: sent(bob, "paired"))
    await wait_for(lambda: bob_doing() == "playing")
    assert await second.store.pairing.seeks() == []  # off to the match: it waits no more
