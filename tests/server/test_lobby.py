"""The server's authority on two-player matches, without SSH: guests are fakes that keep what they are told."""

from __future__ import annotations

import asyncio
import json

import pytest

from soluna_tui.rules import Match, MatchOptions
from soluna_tui.server.archive import MatchArchive
from soluna_tui.server.lobby import CODE_PATTERN, Lobby, player_name


class FakeGuest:
    def __init__(self, name: str, address: str = "10.0.0.1", fingerprint: str | None = None) -> None:
        self.name = name
        self.address = address
        self.fingerprint = fingerprint
        self.inbox: list[dict] = []

    def send(self, message: dict) -> None:
        json.dumps(message)  # everything sent must travel as JSON
        self.inbox.append(message)

    def last(self, kind: str) -> dict:
        return next(message for message in reversed(self.inbox) if message["type"] == kind)

    def match(self) -> Match:
        return Match.from_dict(self.last("match")["match"])

    def texts(self) -> str:
        return " | ".join(str(message.get("text") or message.get("notice") or "") for message in self.inbox)


def make_lobby(tmp_path, hold_time: float = 60.0) -> Lobby:
    return Lobby(MatchArchive(tmp_path / "matches"), hold_time)


def create(lobby: Lobby, guest: FakeGuest, hints: bool = False, **options) -> str:
    lobby.arrive(guest)
    lobby.handle(guest, {"type": "create", "options": MatchOptions(**options).to_dict(), "hints": hints})
    return guest.last("waiting")["code"]


def pair(lobby: Lobby, first: FakeGuest, second: FakeGuest, **options) -> str:
    code = create(lobby, first, **options)
    lobby.arrive(second)
    lobby.handle(second, {"type": "join", "code": code.lower(), "hints": False})
    return code


def move_message(guest: FakeGuest, index: int = 0) -> dict:
    match = guest.match()
    move = match.position.legal_moves[index]
    return {"type": "move", "move": str(move), "round": match.round_number, "ply": match.round.ply}


async def test_a_created_match_has_a_code_and_starts_when_someone_joins(tmp_path) -> None:
    lobby = make_lobby(tmp_path)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = pair(lobby, ann, bob)
    assert CODE_PATTERN.fullmatch(code)
    assert ann.last("match")["seat"] == 0 and bob.last("match")["seat"] == 1
    assert ann.match().players == ("ann", "bob")
    assert ann.last("match")["notice"] == "bob has joined: the match begins."
    assert ann.last("match")["hints"] is False


async def test_hints_need_both_players(tmp_path) -> None:
    lobby = make_lobby(tmp_path)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = create(lobby, ann, hints=True)
    lobby.arrive(bob)
    lobby.handle(bob, {"type": "join", "code": code, "hints": True})
    assert ann.last("match")["hints"] is True
    cyd, dan = FakeGuest("cyd"), FakeGuest("dan")
    code = create(lobby, cyd, hints=True)
    lobby.arrive(dan)
    lobby.handle(dan, {"type": "join", "code": code, "hints": False})
    assert cyd.last("match")["hints"] is False


async def test_bad_codes_own_matches_and_too_many_tries_are_refused(tmp_path) -> None:
    lobby = make_lobby(tmp_path)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = create(lobby, ann)
    lobby.handle(ann, {"type": "join", "code": code, "hints": False})
    assert "Leave the match you are at first" in ann.last("error")["text"]
    lobby.arrive(bob)
    lobby.handle(bob, {"type": "join", "code": "ZZZZ", "hints": False})
    assert bob.last("error")["text"] == "No match has the code ZZZZ."
    for _ in range(12):
        lobby.handle(bob, {"type": "join", "code": "ZZZZ", "hints": False})
    assert "Too many tries" in bob.last("error")["text"]


async def test_same_names_are_told_apart(tmp_path) -> None:
    lobby = make_lobby(tmp_path)
    first, second = FakeGuest("ann"), FakeGuest("ann", address="10.0.0.2")
    pair(lobby, first, second)
    assert first.match().players == ("ann", "ann 2")


async def test_moves_are_checked_and_broadcast_to_players_and_spectators(tmp_path) -> None:
    lobby = make_lobby(tmp_path)
    ann, bob, eve = FakeGuest("ann"), FakeGuest("bob"), FakeGuest("eve")
    code = pair(lobby, ann, bob)
    lobby.arrive(eve)
    lobby.handle(eve, {"type": "watch", "code": code})
    assert eve.last("match")["seat"] is None
    lobby.handle(bob, move_message(bob))  # not bob's turn
    assert bob.last("match")["notice"].startswith("Move not accepted")
    assert bob.match().round.ply == 0
    message = move_message(ann)
    lobby.handle(ann, message)
    for guest in (ann, bob, eve):
        assert guest.match().round.ply == 1 and str(guest.match().round.moves[0]) == message["move"]
    lobby.handle(ann, message)  # the same move again: too late now
    assert ann.last("match")["notice"] == "That move came too late: the match had moved on."
    lobby.handle(bob, {**move_message(bob), "move": "9S>9M"})
    assert "Move not accepted" in bob.last("match")["notice"]
    lobby.handle(eve, move_message(eve))
    assert eve.last("error")["text"] == "You are not playing a match in progress."


@pytest.mark.parametrize("message", [
    {"type": "move"}, {"type": "move", "move": 3, "round": 1, "ply": 0}, {"type": "move", "move": "x" * 500},
    {"type": "create", "options": {"stars_to_win": 99}, "hints": False},
    {"type": "create", "options": {"evil": 1}, "hints": False}, {"type": "create", "options": [], "hints": 1},
    {"type": "join", "code": None}, {"type": "launch_missiles"}, {"type": "_changed"},
])
async def test_malformed_requests_get_an_error_never_a_crash(tmp_path, message) -> None:
    lobby = make_lobby(tmp_path)
    ann = FakeGuest("ann")
    lobby.arrive(ann)
    lobby.handle(ann, message)
    assert ann.last("error")["text"]


def finish_round(lobby: Lobby, players: dict[int, FakeGuest]) -> None:
    """Both players play the first legal move until the round is decided."""
    while not players[0].match().round.is_over:
        match = players[0].match()
        guest = players[match.to_move]
        lobby.handle(guest, move_message(guest))


async def test_the_loser_chooses_who_opens_the_next_round(tmp_path) -> None:
    lobby = make_lobby(tmp_path)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    pair(lobby, ann, bob, discs=4)
    players = {0: ann, 1: bob}
    finish_round(lobby, players)
    match = ann.match()
    loser, winner = players[match.round.outcome.loser], players[match.round.outcome.winner]
    lobby.handle(winner, {"type": "next_round", "opener": 0, "round": 1})
    assert "only the loser" in winner.last("match")["notice"]
    lobby.handle(loser, {"type": "next_round", "opener": 1, "round": 1})
    assert ann.match().round_number == 2 and ann.match().round.opener == 1
    lobby.handle(loser, {"type": "next_round", "opener": 1, "round": 1})  # a late duplicate: no news
    assert bob.match().round_number == 2


async def test_under_online_rules_either_player_starts_the_next_round(tmp_path) -> None:
    lobby = make_lobby(tmp_path)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    pair(lobby, ann, bob, discs=4, next_layout="new", next_opener="loser-opens")
    finish_round(lobby, {0: ann, 1: bob})
    loser = ann.match().round.outcome.loser
    lobby.handle(ann, {"type": "next_round", "opener": loser, "round": 1})
    count = len(bob.inbox)
    lobby.handle(bob, {"type": "next_round", "opener": loser, "round": 1})
    assert len(bob.inbox) == count  # the other player was first: nothing to say
    assert bob.match().round_number == 2 and bob.match().round.opener == loser


async def test_a_player_who_leaves_is_held_and_may_come_back(tmp_path) -> None:
    lobby = make_lobby(tmp_path, hold_time=300)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = pair(lobby, ann, bob)
    lobby.depart(bob)
    notice = ann.last("match")["notice"]
    assert notice == "bob has left: the seat is held for 5 minutes, then you win by forfeit."
    assert ann.last("match")["away"] == [False, True]
    mallory = FakeGuest("mallory", address="10.6.6.6")
    lobby.arrive(mallory)
    lobby.handle(mallory, {"type": "join", "code": code, "hints": False})
    assert "has two players already" in mallory.last("error")["text"]
    back = FakeGuest("bob", address="10.0.0.9")
    lobby.arrive(back)
    lobby.handle(back, {"type": "join", "code": code, "hints": False})
    assert back.last("match")["seat"] == 1 and back.last("match")["notice"] == "Welcome back."
    assert ann.last("match")["notice"] == "bob is back." and ann.last("match")["away"] == [False, False]


async def test_a_player_with_a_key_must_come_back_with_it(tmp_path) -> None:
    lobby = make_lobby(tmp_path)
    ann, bob = FakeGuest("ann"), FakeGuest("bob", fingerprint="SHA256:bob")
    code = pair(lobby, ann, bob)
    lobby.depart(bob)
    impostor = FakeGuest("bob", address="10.6.6.6")
    lobby.arrive(impostor)
    lobby.handle(impostor, {"type": "join", "code": code, "hints": False})
    assert "has two players already" in impostor.last("error")["text"]
    back = FakeGuest("bob", fingerprint="SHA256:bob")
    lobby.arrive(back)
    lobby.handle(back, {"type": "join", "code": code, "hints": False})
    assert back.last("match")["seat"] == 1


async def test_a_seat_not_taken_back_in_time_loses_by_forfeit(tmp_path) -> None:
    lobby = make_lobby(tmp_path, hold_time=0.1)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    pair(lobby, ann, bob)
    lobby.depart(bob)
    await asyncio.sleep(0.3)
    match = ann.match()
    assert match.is_over and match.winner == 0 and match.forfeited_by == 1
    assert ann.last("match")["notice"] == "bob did not come back: ann wins by forfeit."
    await lobby.archive.flush()
    finished = list((tmp_path / "matches" / "finished").glob("*.json"))
    assert len(finished) == 1 and json.loads(finished[0].read_text())["result"] == "forfeit"
    assert not list((tmp_path / "matches" / "active").glob("*.json"))


async def test_a_match_both_players_left_is_abandoned_and_kept(tmp_path) -> None:
    lobby = make_lobby(tmp_path, hold_time=0.1)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = pair(lobby, ann, bob)
    lobby.depart(ann)
    lobby.depart(bob)
    await asyncio.sleep(0.3)
    assert code not in lobby.matches
    await lobby.archive.flush()
    finished = list((tmp_path / "matches" / "finished").glob("*.json"))
    assert [json.loads(path.read_text())["result"] for path in finished] == ["abandoned"]


async def test_a_waiting_match_goes_with_its_creator(tmp_path) -> None:
    lobby = make_lobby(tmp_path)
    ann = FakeGuest("ann")
    code = create(lobby, ann)
    lobby.handle(ann, {"type": "cancel"})
    assert code not in lobby.matches
    code = create(lobby, FakeGuest("cyd"))
    lobby.depart(next(guest for guest in lobby.present if guest.name == "cyd"))
    assert code not in lobby.matches


async def test_a_rematch_needs_both_players_and_the_loser_opens(tmp_path) -> None:
    lobby = make_lobby(tmp_path)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    pair(lobby, ann, bob, discs=3, stars_to_win=1)
    finish_round(lobby, {0: ann, 1: bob})
    assert ann.match().is_over
    loser = ann.match().round.outcome.loser
    lobby.handle(ann, {"type": "rematch"})
    assert bob.last("notice")["text"] == "ann asks for a rematch: choose Rematch to play again."
    assert ann.match().is_over
    lobby.handle(bob, {"type": "rematch"})
    rematch = ann.match()
    assert not rematch.is_over and rematch.round_number == 1 and rematch.round.opener == loser


async def test_the_lobby_lists_matches_in_play_to_guests_in_the_lobby(tmp_path) -> None:
    lobby = make_lobby(tmp_path)
    eve = FakeGuest("eve")
    lobby.arrive(eve)
    assert eve.last("lobby")["matches"] == []
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    create(lobby, ann)
    await asyncio.sleep(0)
    assert eve.last("lobby")["matches"] == []  # a match waiting for its opponent is private
    code = pair(lobby, FakeGuest("cyd"), bob)
    await asyncio.sleep(0)
    (entry,) = eve.last("lobby")["matches"]
    assert entry["code"] == code and entry["players"] == ["cyd", "bob"] and entry["watchers"] == 0


async def test_matches_in_play_are_kept_on_disk_and_restored(tmp_path) -> None:
    lobby = make_lobby(tmp_path)
    ann, bob = FakeGuest("ann"), FakeGuest("bob", fingerprint="SHA256:b")
    code = pair(lobby, ann, bob)
    lobby.handle(ann, move_message(ann))
    await lobby.archive.flush()
    document = json.loads((tmp_path / "matches" / "active" / f"{code}.json").read_text())
    assert document["result"] == "playing" and len(document["match"]["rounds"][0]["moves"]) == 1
    restored = make_lobby(tmp_path)
    assert restored.restore() == 1
    back = FakeGuest("bob", fingerprint="SHA256:b")
    restored.arrive(back)
    restored.handle(back, {"type": "join", "code": code, "hints": False})
    assert back.last("match")["seat"] == 1 and back.match().round.ply == 1
    restored.close()


async def test_a_damaged_match_file_is_moved_aside(tmp_path) -> None:
    active = tmp_path / "matches" / "active"
    active.mkdir(parents=True)
    (active / "ABCD.json").write_text("{not json")
    lobby = make_lobby(tmp_path)
    assert lobby.restore() == 0
    assert [path.name.startswith("ABCD.json.corrupt-") for path in active.iterdir()] == [True]


@pytest.mark.parametrize(("username", "shown"), [
    ("ann", "ann"), ("\x1b[31mred\x1b[0m", "31mred0m"), ("", "guest"), ("You", "You (guest)"),
    ("a" * 40, "a" * 16), ("\u202eevil", "evil"),
])
def test_player_names_are_cleaned(username, shown) -> None:
    assert player_name(username) == shown
