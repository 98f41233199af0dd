"""The server's authority on two-player matches, without SSH: guests are fakes that keep what they are told.

Every test runs on SQLite and on a real PostgreSQL (the ``database`` fixture).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from typing import TypeVar

import pytest

from soluna_tui.link.messages import REPLIES, REQUESTS, LobbyListing, PlayMove, Reply
from soluna_tui.link.protocol import decode, encode
from soluna_tui.link.wire import from_wire
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.rules import Match, MatchOptions, PlacedMove, parse_move_record
from soluna_tui.server.lobby import CODE_PATTERN, Lobby, player_name
from soluna_tui.server.lobby.upkeep import CANCEL_AGAIN_AFTER, Background

from ..storage.test_players import ANN_LOOK_ALIKES

#: Who is online, and who watches: told a moment after a change, whatever else happens meanwhile.
ONLINE_KINDS = frozenset({"online", "online_changes", "spectators"})


class FakeGuest:
    def __init__(self, name: str, address: str = "10.0.0.1", fingerprint: str | None = None) -> None:
        self.name = name
        self.address = address
        self.fingerprint = fingerprint
        self.inbox: list[dict] = []
        #: What it was told of who is online and who watches (kept apart: it comes a moment after a change).
        self.online: list[dict] = []
        #: Who sits at each seat of its match, as it was told (kept apart too: it comes a moment after a change).
        self.seats: list[dict] = []

    def send(self, message: Reply) -> None:
        wire = json.loads(encode(message))  # as it travels, and as the child reads it
        kind = wire["type"]
        (self.seats if kind == "seat_people" else self.online if kind in ONLINE_KINDS else self.inbox).append(wire)
        decode(encode(message), REPLIES)

    def send_away(self, farewell: str) -> None:
        """The session ends (its player took the seat back elsewhere): kept as the last thing it was told."""
        self.inbox.append({"type": "sent_away", "text": farewell})

    def last(self, kind: str) -> dict:
        found = [message for message in self.inbox if message["type"] == kind]
        assert found, f"{self.name} was never sent a {kind!r} message; it was sent {self.inbox}"
        return found[-1]

    def match(self) -> Match:
        """The last whole state, with the moves sent since applied in order (versions without gaps)."""
        shown = [i for i, message in enumerate(self.inbox) if message["type"] == "match"]
        assert shown, f"{self.name} was never shown a match; it was sent {self.inbox}"
        index = shown[-1]
        state = self.inbox[index]
        match, version = Match.from_dict(state["match"]), state["version"]
        for message in self.inbox[index + 1:]:
            if message["type"] == "moved":
                assert message["version"] == version + 1, "a gap in the versions"
                assert (message["round"], message["ply"]) == (match.round_number, match.round.ply)
                match.play(parse_move_record(message["move"]), match.to_move)
                version += 1
        return match

    def version(self) -> int:
        return max(message["version"] for message in self.inbox if message["type"] in ("match", "moved"))

    def texts(self) -> str:
        return " | ".join(str(message.get("text") or message.get("notice") or "") for message in self.inbox)


class SettledLobby:
    """The lobby, each call waiting until the request has been acted on (it queues them per guest)."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    def __getattr__(self, name: str):
        return getattr(self.lobby, name)

    async def arrive(self, guest) -> None:
        self.lobby.arrive(guest)
        await self.lobby.settled()

    async def handle(self, guest, message: dict) -> None:
        """``message`` as the child writes it on the wire, read as the server reads it."""
        self.lobby.handle(guest, from_wire(message, REQUESTS))
        await self.lobby.settled()

    async def depart(self, guest) -> None:
        self.lobby.depart(guest)
        await self.lobby.settled()


async def wait_for(condition, timeout: float = 30.0, step: float = 0.02) -> None:
    """Until ``condition()`` (a value, or an awaitable of one: a store's answer) is true: another lobby hears
    of a change through the store's notifications a moment later, a held seat's timer fires a moment later.
    Waited for up to 30 s: what takes a few heartbeats (a tournament paired, then its missed seat decided) took
    over 10 s on a loaded CI runner once, with PostgreSQL; and a request that waits past ``REQUEST_WAIT`` (3 s)
    for a connection takes the store for away, after which nothing comes due for ``DEAD_AFTER`` (6 s), as it
    must."""
    for _ in range(int(timeout / step)):
        if await _value(condition()):
            return
        await asyncio.sleep(step)
    assert await _value(condition())


async def heartbeats(lobby: Lobby, count: int) -> None:
    """Until ``lobby`` has said ``count`` times that it is alive from now on (each but the last followed by its sweep
    of the matches): a moment long enough for something to happen, or not, on a loaded machine too."""
    since, heard = lobby.store.clock(), set()

    def beaten() -> bool:
        seen_at = lobby.presence.heard.get(lobby.server_id, since)
        if seen_at > since:
            heard.add(seen_at)
        return len(heard) >= count

    await wait_for(beaten)


async def _value(value):
    return await value if inspect.isawaitable(value) else value


async def create(lobby: Lobby, guest: FakeGuest, hints: bool = False, **options) -> str:
    await lobby.arrive(guest)
    await lobby.handle(guest, {"type": "create", "options": MatchOptions(**options).to_dict(), "hints": hints})
    return guest.last("waiting")["code"]


async def pair(lobby: Lobby, first: FakeGuest, second: FakeGuest, **options) -> str:
    code = await create(lobby, first, **options)
    await lobby.arrive(second)
    await lobby.handle(second, {"type": "join", "code": code.lower(), "hints": False})
    return code


def move_message(guest: FakeGuest, index: int = 0) -> dict:
    """A move as a session's child sends it: with its places (the first holding its towers)."""
    match = guest.match()
    placed = match.round.table.resolve(match.position.legal_moves[index])
    return {"type": "move", "move": str(placed), "round": match.round_number, "ply": match.round.ply}


async def test_a_created_match_has_a_code_and_starts_when_someone_joins(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = await pair(lobby, ann, bob)
    assert CODE_PATTERN.fullmatch(code)
    assert ann.last("match")["seat"] == 0 and bob.last("match")["seat"] == 1
    assert ann.match().players == ("ann", "bob")
    assert ann.last("match")["notice"] == "bob has joined: the match begins."
    assert ann.last("match")["hints"] is False


async def test_a_joiner_is_shown_the_match_when_the_server_hears_of_the_join_before_seating_them(
        make_lobby, monkeypatch) -> None:
    """The match can be read again (a reading that takes no lock) before the write itself returns: the joiner, not
    seated yet then, was never shown the match. (The store's news of it now waits for the write to finish.)"""
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = await create(lobby, ann)
    write = lobby.store.matches.update

    async def write_and_hear_of_it_first(*args, **kwargs) -> int:
        version = await write(*args, **kwargs)
        await lobby.cache.reload(code)  # read again, and its guests here told, before the write returns
        assert lobby.tables[code].version >= version
        return version

    monkeypatch.setattr(lobby.store.matches, "update", write_and_hear_of_it_first)
    await lobby.arrive(bob)
    await lobby.handle(bob, {"type": "join", "code": code, "hints": False})
    assert [message["seat"] for message in bob.inbox if message["type"] == "match"] == [1]  # once
    assert bob.match().players == ("ann", "bob") and bob.version() == lobby.tables[code].version
    assert ann.last("match")["notice"] == "bob has joined: the match begins."


async def test_a_match_cancelled_while_every_match_is_read_again_does_not_come_back(make_lobby) -> None:
    """Every match read again waits for a write under way here to a match it did not find; a match cancelled
    meanwhile was then installed again from the read made before (a waiting match nobody sat at, listed)."""
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob", "10.0.0.2")
    ending, cancelled = await create(lobby, ann), await create(lobby, bob)
    table = lobby.tables[ending]
    async with table.lock:  # a write here ending the first match, held open
        await lobby.store.matches.drop(ending, table.version)
        rereading = asyncio.create_task(lobby.cache.reload_all())
        await asyncio.sleep(0.2)  # the read is made, and waits for the write
        await lobby.handle(bob, {"type": "cancel"})
        assert cancelled not in lobby.tables
    await rereading
    assert ending not in lobby.tables and cancelled not in lobby.tables


async def test_a_match_created_while_every_match_is_read_again_is_not_taken_for_gone(make_lobby, monkeypatch) -> None:
    """The server reads every match again when it may have missed news (the store back, its listener reconnected).
    A match created while that read was under way was not in what it got, and was taken for gone: its creator was
    sent to the lobby, and the joiner then sat down at a match whose creator was not seated (seen once in CI, on
    PostgreSQL under load: the creator never shown the match)."""
    lobby = await make_lobby()
    read_all = lobby.store.matches.active
    read, go_on = asyncio.Event(), asyncio.Event()

    async def read_then_wait() -> list:
        matches = await read_all()
        read.set()
        await go_on.wait()
        return matches

    monkeypatch.setattr(lobby.store.matches, "active", read_then_wait)
    rereading = asyncio.create_task(lobby.cache.reload_all())
    await asyncio.wait_for(read.wait(), 10)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = await pair(lobby, ann, bob)  # after the read, before it is acted on
    go_on.set()
    await asyncio.wait_for(rereading, 10)
    assert [message["type"] for message in ann.inbox if message["type"] == "match_gone"] == []
    assert lobby.tables[code].seated == {0: ann, 1: bob}
    await lobby.handle(ann, move_message(ann))
    assert bob.match().round.ply == 1  # the creator still plays, and the joiner sees it


async def test_hints_need_both_players(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = await create(lobby, ann, hints=True)
    await lobby.arrive(bob)
    await lobby.handle(bob, {"type": "join", "code": code, "hints": True})
    assert ann.last("match")["hints"] is True
    cyd, dan = FakeGuest("cyd"), FakeGuest("dan")
    code = await create(lobby, cyd, hints=True)
    await lobby.arrive(dan)
    await lobby.handle(dan, {"type": "join", "code": code, "hints": False})
    assert cyd.last("match")["hints"] is False


async def test_bad_codes_own_matches_and_too_many_tries_are_refused(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = await create(lobby, ann)
    await lobby.handle(ann, {"type": "join", "code": code, "hints": False})
    assert "Leave the match you are at first" in ann.last("error")["text"]
    await lobby.arrive(bob)
    await lobby.handle(bob, {"type": "join", "code": "ZZZZ", "hints": False})
    assert bob.last("error")["text"] == "No match has the code ZZZZ."
    for _ in range(12):
        await lobby.handle(bob, {"type": "join", "code": "ZZZZ", "hints": False})
    assert "Too many tries" in bob.last("error")["text"]


async def test_same_names_are_told_apart(make_lobby) -> None:
    lobby = await make_lobby()
    first, second = FakeGuest("ann"), FakeGuest("ann", address="10.0.0.2")
    await pair(lobby, first, second)
    assert first.match().players == ("ann", "ann 2")


async def test_moves_are_checked_and_broadcast_to_players_and_spectators(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob, eve = FakeGuest("ann"), FakeGuest("bob"), FakeGuest("eve")
    code = await pair(lobby, ann, bob)
    await lobby.arrive(eve)
    await lobby.handle(eve, {"type": "watch", "code": code})
    assert eve.last("match")["seat"] is None
    await lobby.handle(bob, move_message(bob))  # not bob's turn
    assert bob.last("match")["notice"].startswith("Move not accepted")
    assert bob.match().round.ply == 0
    message = move_message(ann)
    await lobby.handle(ann, message)
    for guest in (ann, bob, eve):
        assert guest.match().round.ply == 1 and str(guest.match().round.placed_moves[0]) == message["move"]
    await lobby.handle(ann, message)  # the same move again: too late now
    assert ann.last("match")["notice"] == "That move came too late: the match had moved on."
    await lobby.handle(bob, {**move_message(bob), "move": "9S>9M"})
    assert "Move not accepted" in bob.last("match")["notice"]
    await lobby.handle(eve, move_message(eve))
    assert eve.last("error")["text"] == "You are not playing a match in progress."


@pytest.mark.parametrize("message", [
    {"type": "create", "options": {"stars_to_win": 99}, "hints": False},
    {"type": "create", "options": {"evil": 1}, "hints": False},
    {"type": "create", "options": {"discs": "many"}, "hints": False},
    {"type": "leaderboard", "offset": -1}, {"type": "finished_match", "id": -5},
])
async def test_requests_that_make_no_sense_get_an_error_never_a_crash(make_lobby, message) -> None:
    lobby = await make_lobby()
    ann = FakeGuest("ann")
    await lobby.arrive(ann)
    await lobby.handle(ann, message)
    assert ann.last("error")["text"]


async def finish_round(lobby: Lobby, players: dict[int, FakeGuest]) -> None:
    """Both players play the first legal move until the round is decided."""
    while not players[0].match().round.is_over:
        match = players[0].match()
        guest = players[match.to_move]
        await lobby.handle(guest, move_message(guest))


async def test_the_loser_chooses_who_opens_the_next_round(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    await pair(lobby, ann, bob, discs=4)
    players = {0: ann, 1: bob}
    await finish_round(lobby, players)
    match = ann.match()
    loser, winner = players[match.round.outcome.loser], players[match.round.outcome.winner]
    await lobby.handle(winner, {"type": "next_round", "opener": 0, "round": 1})
    assert "only the loser" in winner.last("match")["notice"]
    await lobby.handle(loser, {"type": "next_round", "opener": 1, "round": 1})
    assert ann.match().round_number == 2 and ann.match().round.opener == 1
    await lobby.handle(loser, {"type": "next_round", "opener": 1, "round": 1})  # a late duplicate: no news
    assert bob.match().round_number == 2


async def test_under_online_rules_either_player_starts_the_next_round(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    await pair(lobby, ann, bob, discs=4, next_layout="new", next_opener="loser-opens")
    await finish_round(lobby, {0: ann, 1: bob})
    loser = ann.match().round.outcome.loser
    await lobby.handle(ann, {"type": "next_round", "opener": loser, "round": 1})
    count = len(bob.inbox)
    await lobby.handle(bob, {"type": "next_round", "opener": loser, "round": 1})
    assert len(bob.inbox) == count  # the other player was first: nothing to say
    assert bob.match().round_number == 2 and bob.match().round.opener == loser


async def test_a_player_who_leaves_is_held_and_comes_back_with_the_secret(make_lobby) -> None:
    lobby = await make_lobby(hold_time=300)
    now = lobby.store.clock()
    lobby.store.clock = lambda: now  # no time passes while away (a loaded machine took over a second: "4 min 59 s")
    ann, bob, eve = FakeGuest("ann"), FakeGuest("bob"), FakeGuest("eve")
    code = await pair(lobby, ann, bob)
    await lobby.arrive(eve)
    await lobby.handle(eve, {"type": "watch", "code": code})
    secret = bob.last("match")["secret"]
    assert len(secret) == 6 and secret != ann.last("match")["secret"] and eve.last("match")["secret"] is None
    await lobby.depart(bob)
    assert ann.last("match")["notice"] == "bob has left: the seat is held for 5 minutes, then you win by forfeit."
    assert eve.last("match")["notice"] == "bob has left: the seat is held for 5 minutes."
    away = ann.last("match")["away"]
    assert away[0] is None and 299 < away[1] <= 300
    mallory = FakeGuest("mallory", address="10.6.6.6")
    await lobby.arrive(mallory)
    await lobby.handle(mallory, {"type": "join", "code": code, "hints": False})
    assert "has two players already" in mallory.last("error")["text"]
    impostor = FakeGuest("bob", address="10.6.6.7")  # the name and the code are not enough
    await lobby.arrive(impostor)
    await lobby.handle(impostor, {"type": "join", "code": code, "hints": False})
    assert impostor.last("secret_needed")["code"] == code
    await lobby.handle(impostor, {"type": "join", "code": code, "hints": False, "secret": "ZZZZZZ"})
    assert "not the secret" in impostor.last("error")["text"] and not any(
        message["type"] == "match" for message in impostor.inbox)
    back = FakeGuest("bob", address="10.0.0.9")
    await lobby.arrive(back)
    typed = f"{secret[:3].lower()}-{secret[3:]}"
    await lobby.handle(back, {"type": "join", "code": code, "hints": False, "secret": typed})
    assert back.last("match")["seat"] == 1 and back.last("match")["notice"] == "Welcome back."
    assert back.last("match")["secret"] == secret
    assert ann.last("match")["notice"] == "bob is back." and ann.last("match")["away"] == [None, None]
    assert eve.last("match")["notice"] == "bob is back."


async def test_the_lobby_offers_a_held_seat_to_its_player(make_lobby) -> None:
    lobby = await make_lobby(hold_time=300)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    await pair(lobby, ann, bob)
    await lobby.depart(bob)
    back, other_guest = FakeGuest("bob"), FakeGuest("cyd")
    await lobby.arrive(back)
    await lobby.arrive(other_guest)
    assert [entry["yours"] for entry in back.last("lobby")["matches"]] == [True]
    assert [entry["yours"] for entry in other_guest.last("lobby")["matches"]] == [False]
    # Issue 39: the name alone, from an address bob never sat down from, is offered nothing.
    stranger = FakeGuest("bob", address="10.0.0.9")
    await lobby.arrive(stranger)
    assert [entry["yours"] for entry in stranger.last("lobby")["matches"]] == [False]


R = TypeVar("R", bound=Reply)


class KeepingGuest(FakeGuest):
    """A guest that keeps what it was sent as the objects they are (the link encodes an object once)."""

    def __init__(self, name: str, **kwargs) -> None:
        super().__init__(name, **kwargs)
        self.kept: list[Reply] = []

    def send(self, message: Reply) -> None:
        super().send(message)
        self.kept.append(message)

    def kept_of(self, kind: type[R]) -> list[R]:
        return [message for message in self.kept if isinstance(message, kind)]


async def test_the_listing_is_worked_out_once_a_change_one_object_for_all_who_have_no_seat_in_it(make_lobby) -> None:
    """A change of the matches in play is worked out once, not once a guest in the lobby (counting every match's
    stars for each of fifty guests held the server's loop on each change), and the guests with nothing of theirs
    in it share one listing, which the link then encodes once; a guest whose seat is held has its own."""
    lobby = await make_lobby(hold_time=300)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    crowd = [KeepingGuest(name) for name in ("cyd", "dan", "eve")]
    for guest in crowd:
        await lobby.arrive(guest)
    worked_out = []
    in_play = lobby.listing._matches
    lobby.listing._matches = lambda: worked_out.append(1) or in_play()
    code = await pair(lobby, ann, bob)

    def last(guest: KeepingGuest) -> LobbyListing:
        return guest.kept_of(LobbyListing)[-1]

    await wait_for(lambda: all(last(guest).matches for guest in crowd))
    shared = last(crowd[0])
    assert all(last(guest) is shared for guest in crowd) and [entry.code for entry in shared.matches] == [code]
    told = sum(len(guest.kept_of(LobbyListing)) for guest in crowd)
    assert 0 < len(worked_out) < told  # once a change for the three, not once each
    await lobby.depart(bob)
    back = KeepingGuest("bob")  # from where bob sat down: his seat is offered to him
    await lobby.arrive(back)
    await wait_for(lambda: last(crowd[0]).matches[0].away == (False, True))
    assert last(back).matches[0].yours and last(back) is not last(crowd[0])
    assert all(last(guest) is last(crowd[0]) for guest in crowd)


async def test_every_change_has_the_next_version_and_a_gap_is_filled_by_sync(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob, eve = FakeGuest("ann"), FakeGuest("bob"), FakeGuest("eve")
    code = await pair(lobby, ann, bob, discs=4)
    await lobby.arrive(eve)
    await lobby.handle(eve, {"type": "watch", "code": code})
    start = ann.version()
    await finish_round(lobby, {0: ann, 1: bob})  # moves: small updates, one version each
    moves = [message for message in eve.inbox if message["type"] == "moved"]
    assert [message["version"] for message in moves] == list(range(start + 1, start + 1 + len(moves)))
    assert "match" not in {message["type"] for message in eve.inbox[-len(moves):]}
    loser = ann.match().round.outcome.loser
    chooser = (ann, bob)[loser]
    await lobby.handle(chooser, {"type": "next_round", "opener": 1 - loser, "round": 1})
    state = eve.last("match")
    assert state["version"] == start + len(moves) + 1 and Match.from_dict(state["match"]).round_number == 2
    names = ann.match().players
    assert state["notice"] == f"{names[loser]} chose to move second: {names[1 - loser]} opens round 2."
    assert (ann, bob)[1 - loser].last("match")["notice"] == state["notice"]
    count = len(eve.inbox)
    await lobby.handle(eve, {"type": "sync", "code": code})
    assert len(eve.inbox) == count + 1 and eve.inbox[-1]["type"] == "match"
    assert eve.inbox[-1]["version"] == state["version"] and eve.inbox[-1]["match"] == state["match"]
    await lobby.handle(eve, {"type": "sync", "code": "ZZZZ"})  # not the match it is at: nothing
    assert len(eve.inbox) == count + 1


async def test_codes_and_secrets_never_reach_the_log(make_lobby, caplog) -> None:
    caplog.set_level("DEBUG", logger="soluna.server")
    lobby = await make_lobby(hold_time=0.1)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = await pair(lobby, ann, bob)
    secrets = [ann.last("match")["secret"], bob.last("match")["secret"]]
    await lobby.handle(bob, {"type": "join", "code": "QQQQ", "hints": False})
    await both_move(lobby, ann, bob)
    await lobby.depart(bob)
    await wait_for(lambda: "forfeits" in caplog.text)  # bob's seat was held 0.1 s
    assert "match (ann vs bob" in caplog.text
    for secret in (code, *secrets):
        assert secret not in caplog.text


async def both_move(lobby, first: FakeGuest, second: FakeGuest) -> None:
    """The opener and then the other player make a move: real play has begun."""
    await lobby.handle(first, move_message(first))
    await lobby.handle(second, move_message(second))
    assert second.match().round.ply == 2


async def test_a_seat_not_taken_back_in_time_loses_by_forfeit(make_lobby) -> None:
    lobby = await make_lobby(hold_time=0.1)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    await pair(lobby, ann, bob)
    await both_move(lobby, ann, bob)
    await lobby.depart(bob)
    await wait_for(lambda: ann.match().is_over)  # bob's seat was held 0.1 s
    await wait_for(lobby.store.finished.newest)
    match = ann.match()
    assert match.winner == 0 and match.forfeited_by == 1
    assert ann.last("match")["notice"] == "bob did not come back: ann wins by forfeit."
    (finished,) = await lobby.store.finished.newest()
    assert (finished.result, finished.winner, finished.rated) == ("forfeit", 0, False)  # guests: unrated
    assert finished.document == match.to_dict()
    assert [stored.match is not None for stored in lobby.tables.values()] == [True]  # still on ann's screen


async def test_a_match_both_players_left_is_abandoned_and_kept(make_lobby) -> None:
    lobby = await make_lobby(hold_time=0.1)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = await pair(lobby, ann, bob)
    await lobby.depart(ann)
    await lobby.depart(bob)
    await wait_for(lambda: code not in lobby.tables)  # the seats were held 0.1 s
    await wait_for(lobby.store.finished.newest)
    assert await lobby.store.matches.get(code) is None
    assert [finished.result for finished in await lobby.store.finished.newest()] == ["abandoned"]


async def test_a_waiting_match_goes_with_its_creator(make_lobby) -> None:
    lobby = await make_lobby()
    ann = FakeGuest("ann")
    code = await create(lobby, ann)
    await lobby.handle(ann, {"type": "cancel"})
    assert code not in lobby.tables and await lobby.store.matches.get(code) is None
    cyd = FakeGuest("cyd")
    code = await create(lobby, cyd)
    await lobby.depart(cyd)
    assert code not in lobby.tables and await lobby.store.matches.active() == []


async def test_a_rematch_needs_both_players_and_the_loser_opens(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    await pair(lobby, ann, bob, discs=3, stars_to_win=1)
    await finish_round(lobby, {0: ann, 1: bob})
    assert ann.match().is_over
    loser = ann.match().round.outcome.loser
    await lobby.handle(ann, {"type": "rematch"})
    assert bob.last("match")["notice"] == "ann asks for a rematch: press r to play again."
    assert ann.match().is_over
    await lobby.handle(bob, {"type": "rematch"})
    rematch = ann.match()
    assert not rematch.is_over and rematch.round_number == 1 and rematch.round.opener == loser


async def test_the_lobby_lists_matches_in_play_to_guests_in_the_lobby(make_lobby) -> None:
    lobby = await make_lobby()
    eve = FakeGuest("eve")
    await lobby.arrive(eve)
    assert eve.last("lobby")["matches"] == []
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    await create(lobby, ann)
    await asyncio.sleep(0)
    assert eve.last("lobby")["matches"] == []  # a match waiting for its opponent is private
    code = await pair(lobby, FakeGuest("cyd"), bob)
    await asyncio.sleep(0)
    (entry,) = eve.last("lobby")["matches"]
    assert entry["code"] == code and entry["players"] == ["cyd", "bob"] and entry["watchers"] == 0


async def test_matches_in_play_outlive_their_server_and_are_held(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob", fingerprint="SHA256:b")
    code = await pair(lobby, ann, bob)
    await lobby.handle(ann, move_message(ann))
    stored = await lobby.store.matches.get(code)
    assert len(stored.document["rounds"][0]["moves"]) == 1
    assert [seat.server for seat in stored.seats] == [lobby.server_id] * 2
    assert all(seat.secret_hash.startswith("hmac-sha256$") for seat in stored.seats)
    secrets = [ann.last("match")["secret"], bob.last("match")["secret"]]
    assert not any(secret in repr(stored) for secret in secrets)  # never kept plain
    await lobby.close()  # the server stops without a word (no departures): as good as dead to the others
    restored = await make_lobby()
    back = FakeGuest("bob", fingerprint="SHA256:b")
    await restored.arrive(back)
    await wait_for(lambda: back.last("lobby")["matches"][0]["away"] == [True, True])

    async def held() -> bool:  # the new server holds the seats of the one gone silent
        seats = (await restored.store.matches.get(code)).seats
        return all(seat.server is None and seat.held_until is not None for seat in seats)

    await wait_for(held)
    assert back.last("lobby")["matches"][0]["yours"] is True
    await restored.handle(back, {"type": "join", "code": code, "hints": False})  # the same key: no secret
    assert back.last("match")["seat"] == 1 and back.match().round.ply == 1


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # two servers: SQLite serves one
async def test_two_lobbies_on_one_store_share_matches(make_lobby, backend) -> None:
    first, second = await make_lobby(), await make_lobby()
    ann, bob, eve = FakeGuest("ann"), FakeGuest("bob"), FakeGuest("eve")
    code = await create(first, ann)
    await second.arrive(bob)
    await second.handle(bob, {"type": "join", "code": code, "hints": False})
    assert bob.last("match")["seat"] == 1
    await wait_for(lambda: any(message["type"] == "match" for message in ann.inbox))
    assert ann.last("match")["notice"] == "bob has joined: the match begins."
    await second.arrive(eve)
    await wait_for(lambda: [entry["code"] for entry in eve.last("lobby")["matches"]] == [code])
    await second.handle(eve, {"type": "watch", "code": code})
    message = move_message(ann)
    started = time.perf_counter()
    await first.handle(ann, message)
    stored = time.perf_counter()
    await wait_for(lambda: eve.inbox[-1]["type"] == "moved" and bob.inbox[-1]["type"] == "moved", step=0.001)
    heard = time.perf_counter()
    print(f"\na move: stored in {(stored - started) * 1000:.1f} ms, on the other server's guests "
          f"{(heard - started) * 1000:.1f} ms after it was asked for")
    assert heard - started < 0.5  # 100 ms is the target on an idle machine; this one is shared
    assert eve.last("moved")["move"] == message["move"] and eve.match().round.ply == 1
    await second.depart(bob)
    await wait_for(lambda: "bob has left" in (ann.last("match")["notice"] or ""))
    assert ann.last("match")["notice"].endswith("then you win by forfeit.")


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # two servers: SQLite serves one
async def test_two_lobbies_racing_for_one_move_apply_it_once(make_lobby, backend) -> None:
    first, second = await make_lobby(), await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = await create(first, ann)
    await second.arrive(bob)
    await second.handle(bob, {"type": "join", "code": code, "hints": False})
    await wait_for(lambda: any(message["type"] == "match" for message in ann.inbox))
    twin = FakeGuest("ann")  # a second terminal at ann's seat on the other server (as a test rigs it)
    await second.arrive(twin)
    second.tables[code].seated[0] = twin
    second.visitors[twin].code = code
    moves = first.tables[code].match.position.legal_moves
    first.lobby.handle(ann, PlayMove(str(moves[0]), 1, 0))
    second.lobby.handle(twin, PlayMove(str(moves[-1]), 1, 0))
    await first.lobby.settled()
    await second.lobby.settled()
    stored = await first.store.matches.get(code)
    (played,) = stored.document["rounds"][0]["moves"]  # one of them, never both
    loser = twin if PlacedMove.parse(played).move == moves[0] else ann  # stored with its places
    # The loser is told its move came too late; or, the rigged twin holding a seat the store gives to the other
    # server, its server may hear first that the seat is taken there, and send the twin away before its move.
    told = [message.get("notice") or message.get("text") for message in loser.inbox
            if message["type"] in ("match", "sent_away")]
    assert ("That move came too late: the match had moved on." in told
            or (loser is twin and "You took your seat back on another terminal: this one is closed." in told))


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # two servers: SQLite serves one
async def test_a_seat_taken_back_with_proof_on_another_server_sends_the_old_session_away(make_lobby, backend) -> None:
    first, second = await make_lobby(), await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = await pair(first, ann, bob)
    secret = bob.last("welcome")["secret"]
    back = FakeGuest("bob", address="10.0.0.9")  # bob's first session looks alive: its connection is half dead
    await second.arrive(back)
    await second.handle(back, {"type": "join", "code": code, "hints": False})
    assert back.inbox[-1]["type"] == "secret_needed", back.inbox[-1]
    await second.handle(back, {"type": "join", "code": code, "hints": False, "secret": secret})
    assert back.last("match")["notice"] == "Welcome back."
    await wait_for(lambda: any(message["type"] == "sent_away" for message in bob.inbox))
    await wait_for(lambda: ann.last("match")["notice"] == "bob reconnected.")
    await first.settled()
    await heartbeats(first, 3)  # and the sweeps after them: the first server does not take the seat back for bob
    stored = await first.store.matches.get(code)
    assert stored.seats[1].server == second.server_id
    assert 1 not in first.tables[code].seated and bob not in first.visitors or first.visitors[bob].code is None


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # two servers: SQLite serves one
async def test_a_player_back_on_a_server_that_has_not_heard_the_match_begin_takes_the_seat_back(
        make_lobby, backend, monkeypatch) -> None:
    """The test above met this now and then: the second server still saw the match waiting (the news of bob's
    join had not reached it) and told bob, back at his own seat, that someone else had joined first."""
    first, second = await make_lobby(), await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = await create(first, ann)
    await wait_for(lambda: code in second.tables and second.tables[code].waiting)
    unheard: list[str] = []

    async def deaf(changed_code: str) -> None:
        unheard.append(changed_code)

    monkeypatch.setattr(second.cache, "reload", deaf)
    await first.arrive(bob)
    await first.handle(bob, {"type": "join", "code": code, "hints": False})
    await wait_for(lambda: code in unheard)  # the news reached the second server, which did not read it
    monkeypatch.undo()
    assert second.tables[code].waiting
    back = FakeGuest("bob", address="10.0.0.9")
    await second.arrive(back)
    await second.handle(back, {"type": "join", "code": code, "hints": False})
    assert [message["type"] for message in back.inbox if message["type"] != "lobby"][-1] == "secret_needed", \
        back.inbox
    await second.handle(back, {"type": "join", "code": code, "hints": False,
                               "secret": bob.last("welcome")["secret"]})
    assert back.last("match")["notice"] == "Welcome back."


@pytest.mark.parametrize(("username", "shown"), [
    ("ann", "ann"), ("\x1b[31mred\x1b[0m", "31mred0m"), ("", "guest"), ("You", "You (guest)"),
    ("a" * 40, "a" * 16), ("\u202eevil", "evil"),
])
def test_player_names_are_cleaned(username, shown) -> None:
    assert player_name(username) == shown


def computer_save(name: str = "ann", moves: int = 1) -> dict:
    setup = MatchSetup.against_computer("greedy", MatchOptions(), name=name, seed=4)
    match = setup.new_match()
    for _ in range(moves):
        match.play(match.position.legal_moves[0], match.to_move)
    return {"setup": setup.to_dict(), "match": match.to_dict(), "hints_used": [0, 0]}


async def test_a_match_against_the_computer_is_held_and_resumed_with_proof(make_lobby) -> None:
    lobby = await make_lobby(hold_time=300)
    ann = FakeGuest("ann")
    await lobby.arrive(ann)
    secret = ann.last("welcome")["secret"]
    assert ann.last("lobby")["computer"] is None
    await lobby.handle(ann, {"type": "computer_saved", "save": computer_save(moves=2)})
    await lobby.handle(ann, {"type": "leave"})
    assert ann.last("lobby")["computer"] == {"level": "greedy", "round": 1, "stars": [0, 0], "needs_secret": False}
    await lobby.depart(ann)
    thief = FakeGuest("ann", address="10.6.6.6")
    await lobby.arrive(thief)
    assert thief.last("lobby")["computer"]["needs_secret"] is True
    await lobby.handle(thief, {"type": "computer_resume"})
    assert thief.inbox[-1]["type"] == "secret_needed"
    await lobby.handle(thief, {"type": "computer_resume", "secret": "ZZZZZZ"})
    assert "not the secret" in thief.last("error")["text"]
    back = FakeGuest("ann", address="10.0.0.2")
    await lobby.arrive(back)
    await lobby.handle(back, {"type": "computer_resume", "secret": secret.lower()})
    game = back.last("computer_game")
    assert game["secret"] == secret and len(game["save"]["match"]["rounds"][0]["moves"]) == 2
    other_guest = FakeGuest("ann", address="10.0.0.3")
    await lobby.arrive(other_guest)
    assert other_guest.last("lobby")["computer"] is None  # resumed: no longer held


async def test_a_held_computer_match_is_kept_for_days_with_a_key_the_day_without_and_a_finished_one_not(
        make_lobby) -> None:
    lobby = await make_lobby(hold_time=0.1)  # a seat's hold has nothing to do with it
    later = {"by": 0.0}
    real_clock = lobby.store.clock
    lobby.store.clock = lambda: real_clock() + later["by"]
    ann, bob = FakeGuest("ann", fingerprint="SHA256:ann"), FakeGuest("bob")
    for guest in (ann, bob):
        await lobby.arrive(guest)
        await lobby.handle(guest, {"type": "computer_saved", "save": computer_save(guest.name)})
        await lobby.depart(guest)

    async def offered(guest: FakeGuest) -> dict | None:
        await lobby.games.tidy()
        await lobby.games.refresh()
        await lobby.arrive(guest)
        return guest.last("lobby")["computer"]

    later["by"] = 11 * 3600.0  # the same day
    assert (await offered(FakeGuest("ann", fingerprint="SHA256:ann")))["needs_secret"] is False  # the key: proof
    assert (await offered(FakeGuest("bob")))["needs_secret"] is True  # a guest: the secret
    later["by"] = 13 * 3600.0  # the next day: a guest's is gone, a keyed player's is not
    assert await offered(FakeGuest("bob")) is None
    assert await offered(FakeGuest("ann", fingerprint="SHA256:ann")) is not None
    later["by"] = 29 * 24 * 3600.0
    back = FakeGuest("ann", fingerprint="SHA256:ann")
    assert await offered(back) is not None
    later["by"] = 31 * 24 * 3600.0
    assert await offered(FakeGuest("ann", fingerprint="SHA256:ann")) is None
    await lobby.handle(back, {"type": "computer_saved", "save": computer_save()})
    await lobby.handle(back, {"type": "computer_dropped"})
    await lobby.depart(back)
    assert lobby.held_games == [] and await lobby.store.computer_games.held() == []


async def test_a_resumed_computer_match_keeps_analysis_mode_and_the_hints_used(make_lobby) -> None:
    lobby = await make_lobby()
    ann = FakeGuest("ann", fingerprint="SHA256:ann")
    await lobby.arrive(ann)
    save = {**computer_save(moves=2), "analysis": True, "hints_used": [3, 0]}
    await lobby.handle(ann, {"type": "computer_saved", "save": save})
    await lobby.depart(ann)
    back = FakeGuest("ann", fingerprint="SHA256:ann")
    await lobby.arrive(back)
    await lobby.handle(back, {"type": "computer_resume"})
    kept = back.last("computer_game")["save"]
    assert kept["analysis"] is True and kept["hints_used"] == [3, 0]


async def test_a_computer_save_that_is_not_one_is_refused(make_lobby) -> None:
    lobby = await make_lobby()
    ann = FakeGuest("ann")
    await lobby.arrive(ann)
    two_players = MatchSetup(MatchOptions(), ("ann", "bob"))
    await lobby.handle(ann, {"type": "computer_saved", "save": {"setup": two_players.to_dict(),
                                                          "match": two_players.new_match().to_dict()}})
    await lobby.handle(ann, {"type": "computer_saved", "save": {"setup": "x"}})
    assert [message["type"] for message in ann.inbox[-2:]] == ["error", "error"]
    assert ann not in lobby.games.playing


async def test_held_computer_matches_are_bounded(make_lobby, monkeypatch) -> None:
    monkeypatch.setattr("soluna_tui.server.lobby.computer.MAX_HELD_GAMES", 3)
    lobby = await make_lobby(hold_time=300)
    guests = [FakeGuest(f"p{number}") for number in range(5)]
    for guest in guests:
        await lobby.arrive(guest)
        await lobby.handle(guest, {"type": "computer_saved", "save": computer_save(guest.name)})
        await lobby.depart(guest)
    assert [game.identity for game in lobby.held_games] == ["p2", "p3", "p4"]


# ---- players known by key: names, ratings, records ----------------------------------------------


async def test_a_keyed_player_chooses_a_name_once_and_keeps_it_on_every_server(make_lobby) -> None:
    first, second = await make_lobby(), await make_lobby()
    ann = FakeGuest("ann", fingerprint="SHA256:ann")
    await first.arrive(ann)
    assert {key: ann.last("welcome")[key] for key in ("name", "rated", "name_chosen")} == \
        {"name": "ann", "rated": True, "name_chosen": False}
    await first.handle(ann, {"type": "choose_name", "name": "Annabel"})
    welcome = ann.last("welcome")
    assert (welcome["name"], welcome["name_chosen"]) == ("Annabel", True)
    again = FakeGuest("whoever", fingerprint="SHA256:ann")  # another day, another server, another SSH user
    await second.arrive(again)
    assert (again.last("welcome")["name"], again.last("welcome")["name_chosen"]) == ("Annabel", True)
    rival = FakeGuest("bob", fingerprint="SHA256:bob")
    await second.arrive(rival)
    await second.handle(rival, {"type": "choose_name", "name": "ANNABEL"})
    assert rival.last("error")["text"] == "That name looks like Annabel, another player's name: choose another."
    await second.handle(rival, {"type": "choose_name", "name": "you"})
    assert rival.last("error")["text"].startswith("A name is")
    guest = FakeGuest("annabel")  # no key: a guest may not pass for the player who holds the name
    await second.arrive(guest)
    assert guest.last("welcome") == {**guest.last("welcome"), "name": "annabel (guest)", "rated": False,
                                     "name_chosen": True}
    await second.handle(guest, {"type": "choose_name", "name": "zed"})
    assert "SSH key" in guest.last("error")["text"]


@pytest.mark.parametrize("form", ANN_LOOK_ALIKES.values(), ids=ANN_LOOK_ALIKES.keys())
async def test_a_name_that_looks_like_a_keyed_player_s_is_refused_saying_whose(make_lobby, form) -> None:
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann", fingerprint="SHA256:ann"), FakeGuest("bob", fingerprint="SHA256:bob")
    for player in (ann, bob):
        await lobby.arrive(player)
        await lobby.handle(player, {"type": "choose_name", "name": player.name})
    await lobby.handle(bob, {"type": "choose_name", "name": form})
    assert bob.last("error")["text"] == "That name looks like ann, another player's name: choose another."
    assert bob.last("welcome")["name"] == "bob"


LOBBY_CHOICES = {"level": "greedy", "rules": "online", "stars": 2, "discs": 16, "opener": 1, "hints": True,
                 "clock": {"seconds": 180.0, "increment": 2.0}, "hidden": False, "rated": True,
                 "refuse_challenges": False, "screen_reader": False, "cursor_follows_focus": False, "bell": True}


async def test_a_keyed_player_s_lobby_settings_are_set_again_on_the_next_visit_on_any_server(make_lobby) -> None:
    first, second = await make_lobby(), await make_lobby()
    ann, cyd = FakeGuest("ann", fingerprint="SHA256:ann"), FakeGuest("cyd")  # cyd: a guest, without a key
    for player in (ann, cyd):
        await first.arrive(player)
        assert player.last("welcome")["choices"] is None
        await first.handle(player, {"type": "keep_choices", "choices": LOBBY_CHOICES})
        await first.depart(player)
    ann_again, cyd_again = FakeGuest("whoever", fingerprint="SHA256:ann"), FakeGuest("cyd")
    for player in (ann_again, cyd_again):
        await second.arrive(player)
    assert ann_again.last("welcome")["choices"] == LOBBY_CHOICES
    assert cyd_again.last("welcome")["choices"] is None  # a guest's last for the visit, on their own screen
    await first.store.players.keep_lobby_choices("SHA256:dan", '{"type": "keep_choices", "choices": {"stars": "many"}}')
    dan = FakeGuest("dan", fingerprint="SHA256:dan")
    await second.arrive(dan)  # a row no server wrote: the defaults, and the visit goes on
    assert dan.last("welcome")["choices"] is None and dan.last("welcome")["name"] == "dan"


async def test_a_rated_match_shows_on_the_leaderboard_and_in_each_record(make_lobby) -> None:
    lobby = await make_lobby(ranked_after=1, ranked_opponents=0)
    ann = FakeGuest("ann", address="10.0.0.1", fingerprint="SHA256:ann")
    bob = FakeGuest("bob", address="10.0.0.2", fingerprint="SHA256:bob")
    await pair(lobby, ann, bob, discs=3, stars_to_win=1)
    await finish_round(lobby, {0: ann, 1: bob})
    winner = ann.match().winner
    (finished,) = await lobby.store.finished.newest()
    assert finished.rated and finished.result == "won"
    await lobby.handle(ann, {"type": "leaderboard", "offset": 0})
    board = ann.last("leaderboard")
    assert board["total"] == 2 and [row["name"] for row in board["rows"]] == [("ann", "bob")[winner],
                                                                               ("ann", "bob")[1 - winner]]
    assert board["you"]["rank"] == (1 if winner == 0 else 2)
    await lobby.handle(bob, {"type": "record"})
    record = bob.last("record")
    assert (record["rated"], record["played"], record["won"] + record["lost"]) == (True, 1, 1)
    (line,) = record["recent"]
    assert line["opponent"] == "ann" and line["result"] == ("won" if winner == 1 else "lost")
    await lobby.handle(bob, {"type": "finished_match", "id": line["id"]})
    shown = bob.last("finished_match")
    assert shown["players"] == ["ann", "bob"] and Match.from_dict(shown["match"]).winner == winner
    await lobby.handle(bob, {"type": "finished_match", "id": 999999})
    assert bob.last("error")["text"] == "That match is not on record."
    guest = FakeGuest("cyd")
    await lobby.arrive(guest)
    await lobby.handle(guest, {"type": "leaderboard", "offset": 0})
    await lobby.handle(guest, {"type": "record"})
    assert guest.last("leaderboard")["you"] is None
    assert (guest.last("record")["rated"], guest.last("record")["recent"]) == (False, [])


async def test_closing_ends_background_work_that_lost_its_cancellation() -> None:
    """On Python 3.11 a cancellation can be lost: ``asyncio.wait_for``, with which psycopg_pool waits for a free
    connection, drops one that comes as the connection is handed over. The heartbeat then ran on, and closing
    the lobby waited for it for ever (a test's clean-up hung until its timeout)."""
    background, lost = Background(), asyncio.Event()

    async def heartbeat_that_loses_a_cancellation() -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            lost.set()  # as if handed its connection instead
        while True:
            await asyncio.sleep(0.01)

    background.keep(heartbeat_that_loses_a_cancellation(), name="heartbeat")
    await asyncio.sleep(0)
    await asyncio.wait_for(background.close(), 5 * CANCEL_AGAIN_AFTER)
    assert lost.is_set()


async def test_work_scheduled_just_before_closing_is_closed_without_a_never_awaited_warning() -> None:
    """Found as a ``RuntimeWarning: coroutine 'TwoPlayerMatches.reclaim' was never awaited`` at a server's close
    under load: work handed to ``Background.run`` and cancelled before its task first ran was never started, and
    Python said so on the owner's terminal as it collected it. Closed, it never runs and is not warned about."""
    background, ran = Background(), []

    async def reclaim() -> None:
        ran.append(True)

    work = reclaim()
    background.run(work, name="reclaim")
    await background.close()  # before the task's first step
    state = inspect.getcoroutinestate(work)
    work.close()  # (a failing run's own clean-up: no warning of its own)
    assert state == inspect.CORO_CLOSED and ran == []
