"""The open seeks board in a lobby of fake guests, on SQLite and on PostgreSQL (there, on two lobbies sharing the
database): listed live as seeks come and go, accepted by one player only, an incompatible one refused in one line."""

from __future__ import annotations

import asyncio

from soluna_tui.link.messages import REQUESTS
from soluna_tui.link.wire import from_wire
from soluna_tui.server.lobby.pairs import seek_refusal
from soluna_tui.server.storage.pairing import SeekRecord, Someone

from .test_lobby import FakeGuest, wait_for
from .test_pairing_lobby import sent, terms, two_lobbies


def board_names(guest: FakeGuest) -> list[str]:
    """The names on the last seeks board ``guest`` was sent."""
    boards = sent(guest, "open_seeks")
    return [line["name"] for line in boards[-1]["seeks"]] if boards else []


async def test_the_board_lists_seeks_as_they_come_and_go_and_a_seek_lapses_when_its_owner_leaves(make_lobby) -> None:
    first, second = await two_lobbies(make_lobby)
    ann, bob, cyd = FakeGuest("ann", "10.0.0.1"), FakeGuest("bob", "10.0.0.2"), FakeGuest("cyd", "10.0.0.3")
    await first.arrive(ann)
    await second.arrive(bob)
    await second.arrive(cyd)
    await first.handle(ann, {"type": "watch_seeks", "watch": True})
    assert sent(ann, "open_seeks")[-1] == {"type": "open_seeks", "seeks": [], "total": 0}
    await second.handle(bob, {"type": "seek", "terms": terms(), "ask": 1})
    await second.handle(cyd, {"type": "seek", "terms": terms(rated=False, stars=3), "ask": 1})
    await wait_for(lambda: board_names(ann) == ["bob", "cyd"])
    line = sent(ann, "open_seeks")[-1]["seeks"][0]
    assert line["terms"]["options"]["stars_to_win"] == 2 and not line["terms"]["rated"] and not line["yours"]
    await second.handle(cyd, {"type": "cancel_seek"})
    await wait_for(lambda: board_names(ann) == ["bob"])
    await second.depart(bob)  # gone: his seek lapses
    await wait_for(lambda: board_names(ann) == [])
    told = len(sent(ann, "open_seeks"))
    await first.handle(ann, {"type": "watch_seeks", "watch": False})
    await second.handle(cyd, {"type": "seek", "terms": terms(), "ask": 2})
    await asyncio.sleep(0.3)
    assert len(sent(ann, "open_seeks")) == told  # the board closed: no more news of it


async def test_a_seek_accepted_from_the_board_pairs_one_acceptor_and_refuses_the_other(make_lobby) -> None:
    first, second = await two_lobbies(make_lobby)
    bob, cyd, dan = FakeGuest("bob", "10.0.0.2"), FakeGuest("cyd", "10.0.0.3"), FakeGuest("dan", "10.0.0.4")
    await first.arrive(bob)
    await second.arrive(cyd)
    await second.arrive(dan)
    await first.handle(bob, {"type": "seek", "terms": terms(), "ask": 1})
    await second.handle(cyd, {"type": "watch_seeks", "watch": True})
    await wait_for(lambda: board_names(cyd) == ["bob"])
    key = sent(cyd, "open_seeks")[-1]["seeks"][0]["key"]
    second.lobby.handle(cyd, from_wire({"type": "accept_seek", "key": key, "ask": 3}, REQUESTS))
    second.lobby.handle(dan, from_wire({"type": "accept_seek", "key": key, "ask": 4}, REQUESTS))
    await second.lobby.settled()
    winners = [guest for guest in (cyd, dan) if sent(guest, "waiting")]
    assert len(winners) == 1  # the store's lock: one acceptor gets it, whichever came first
    winner, loser = winners[0], dan if winners[0] is cyd else cyd
    code = winner.last("waiting")["code"]  # the acceptor created the match, on bob's terms
    assert winner.last("waiting")["answer_to"] == (3 if winner is cyd else 4)
    assert not sent(loser, "waiting") and "not open any more" in loser.last("error")["text"]
    await wait_for(lambda: sent(bob, "match"))
    assert bob.last("paired") == {"type": "paired", "code": code, "opponent": winner.name}
    await wait_for(lambda: sent(winner, "match"))
    assert await first.store.pairing.seeks() == []


def test_an_incompatible_seek_says_why_in_one_line() -> None:
    bob = Someone("key:bob", "s:1", "here", "bob", "SHA256:bob", "10.0.0.2", 1500)
    rated = SeekRecord(bob, terms(rated=True), 1.0)
    guest = Someone("guest:s:2", "s:2", "here", "gus", None, "10.0.0.3")
    beside = Someone("key:ann", "s:3", "here", "ann", "SHA256:ann", "10.0.0.2")
    assert seek_refusal(rated, guest) == (
        "bob asks for a rated match, between players with SSH keys: a guest cannot accept it.")
    assert seek_refusal(rated, beside) == (
        "bob is at your address, and a rated match is never between two players from one address.")
    assert seek_refusal(rated, bob) == "That is your own seek: the others see it on their board."
    assert seek_refusal(SeekRecord(bob, terms(), 1.0, code="ABCD"), guest) == (
        "bob has just been paired: that seek is not open any more.")
    assert seek_refusal(SeekRecord(bob, terms(), 1.0), guest) is None


async def test_someone_hidden_from_the_list_of_who_is_online_is_not_on_the_board_but_to_themselves(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann", "10.0.0.1"), FakeGuest("bob", "10.0.0.2", fingerprint="SHA256:bob")
    await lobby.arrive(ann)
    await lobby.arrive(bob)
    choices = {"level": "5", "rules": "box", "stars": 1, "discs": 8, "opener": 0, "hints": False, "hidden": True}
    await lobby.handle(bob, {"type": "keep_choices", "choices": choices})
    for guest in (ann, bob):
        await lobby.handle(guest, {"type": "watch_seeks", "watch": True})
    await lobby.handle(bob, {"type": "seek", "terms": terms(rated=False), "ask": 1})
    await wait_for(lambda: board_names(bob) == ["bob"])
    await asyncio.sleep(0.3)
    assert board_names(ann) == [] and sent(ann, "open_seeks")[-1]["total"] == 0
