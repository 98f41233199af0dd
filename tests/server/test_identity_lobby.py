"""Issue 39: a key's player as every list shows it, in a lobby of fake guests on SQLite and PostgreSQL (there, on
two lobbies sharing the database: the news goes through the store's notifications). A rated match's new ratings
reach every terminal of both keys, on every server, and the challenges they sent; a name changed reaches the key's
other terminals; a name given up is reserved against guests too, and free after 30 days.
"""

from __future__ import annotations

from soluna_tui.server.storage.players import NAME_RESERVED_FOR

from .test_fair_ratings import keyed, play_out
from .test_lobby import FakeGuest, wait_for
from .test_pairing_lobby import number_of, terms, two_lobbies


def told_of(guest: FakeGuest, name: str) -> dict | None:
    """``name``'s line as ``guest``'s list of who is online last told it."""
    found = None
    for message in guest.online:
        for person in message.get("people", []) + message.get("came", []):
            if person["name"] == name:
                found = person
    return found


async def test_a_rated_match_s_ratings_reach_every_terminal_of_both_keys_on_every_server_and_their_challenges(
        make_lobby) -> None:
    first, second = await two_lobbies(make_lobby)
    also_ann, cyd = keyed("ann", "10.0.0.1"), keyed("cyd", "10.0.0.3")
    await second.arrive(also_ann)  # ann's other terminal, on the other server
    await first.arrive(cyd)
    await wait_for(lambda: number_of(also_ann, "cyd") is not None and told_of(cyd, "ann") is not None)
    assert told_of(cyd, "ann")["rating"] is None
    await second.handle(also_ann, {"type": "challenge", "person": number_of(also_ann, "cyd"), "terms": terms(),
                                   "ask": 1})
    await wait_for(lambda: any(message["type"] == "challenges" and message["challenges"] for message in cyd.inbox))
    assert cyd.last("challenges")["challenges"][0]["rating"] is None
    await play_out(first, keyed("ann", "10.0.0.1"), keyed("bob", "10.0.0.2"))
    (finished,) = await first.store.finished.newest()
    ann_rating = finished.rating_changes[0].after.shown
    await wait_for(lambda: (told_of(also_ann, "ann") or {}).get("rating") == ann_rating)  # its own line
    await wait_for(lambda: (told_of(cyd, "ann") or {}).get("rating") == ann_rating)
    await wait_for(lambda: cyd.last("challenges")["challenges"][0]["rating"] == ann_rating)


async def test_a_name_chosen_on_one_terminal_is_the_name_of_the_key_s_others(make_lobby) -> None:
    first, second = await two_lobbies(make_lobby)
    bob, also_bob, cyd = keyed("bob", "10.0.0.2"), keyed("bob", "10.0.0.2"), keyed("cyd", "10.0.0.3")
    await first.arrive(bob)
    await first.handle(bob, {"type": "choose_name", "name": "bob", "ask": 1})
    await second.arrive(also_bob)
    await second.arrive(cyd)
    await wait_for(lambda: told_of(cyd, "bob") is not None)
    await first.handle(bob, {"type": "choose_name", "name": "robert", "ask": 2})
    assert bob.last("welcome")["name"] == "robert"
    await wait_for(lambda: any(message["type"] == "welcome" and message["name"] == "robert"
                               for message in also_bob.inbox))
    await wait_for(lambda: told_of(cyd, "robert") is not None)
    assert second.visitors[also_bob].name == "robert"


async def test_a_name_given_up_is_a_guest_s_no_more_than_another_key_s_until_thirty_days_have_passed(
        make_lobby) -> None:
    lobby = await make_lobby()
    now = lobby.store.clock()
    bob = keyed("bob", "10.0.0.2")
    await lobby.arrive(bob)
    await lobby.handle(bob, {"type": "choose_name", "name": "bob", "ask": 1})
    await lobby.handle(bob, {"type": "choose_name", "name": "robert", "ask": 2})
    await lobby.depart(bob)
    guest = FakeGuest("Bob", "10.0.0.4")
    await lobby.arrive(guest)
    assert guest.last("welcome")["name"] == "Bob (guest)"
    mallory = FakeGuest("mallory", "10.0.0.5", fingerprint="SHA256:mallory")
    await lobby.arrive(mallory)
    await lobby.handle(mallory, {"type": "choose_name", "name": "b o b", "ask": 1})
    assert mallory.last("error")["text"] == "That name looks like bob, another player's name: choose another."
    lobby.store.clock = lambda: now + NAME_RESERVED_FOR + 60
    await lobby.handle(mallory, {"type": "choose_name", "name": "bob", "ask": 2})
    assert mallory.last("welcome")["name"] == "bob"
