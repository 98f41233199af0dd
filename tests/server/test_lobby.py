"""The server's authority on two-player matches, without SSH: guests are fakes that keep what they are told."""

from __future__ import annotations

import asyncio
import json

import pytest

from soluna_tui.match_setup import MatchSetup
from soluna_tui.rules import Match, MatchOptions, Move
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
        """The last whole state, with the moves sent since applied in order (versions without gaps)."""
        index = max(i for i, message in enumerate(self.inbox) if message["type"] == "match")
        state = self.inbox[index]
        match, version = Match.from_dict(state["match"]), state["version"]
        for message in self.inbox[index + 1:]:
            if message["type"] == "moved":
                assert message["version"] == version + 1, "a gap in the versions"
                assert (message["round"], message["ply"]) == (match.round_number, match.round.ply)
                match.play(Move.parse(message["move"]), match.to_move)
                version += 1
        return match

    def version(self) -> int:
        return max(message["version"] for message in self.inbox if message["type"] in ("match", "moved"))

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


async def test_a_player_who_leaves_is_held_and_comes_back_with_the_secret(tmp_path) -> None:
    lobby = make_lobby(tmp_path, hold_time=300)
    ann, bob, eve = FakeGuest("ann"), FakeGuest("bob"), FakeGuest("eve")
    code = pair(lobby, ann, bob)
    lobby.arrive(eve)
    lobby.handle(eve, {"type": "watch", "code": code})
    secret = bob.last("match")["secret"]
    assert len(secret) == 6 and secret != ann.last("match")["secret"] and eve.last("match")["secret"] is None
    lobby.depart(bob)
    assert ann.last("match")["notice"] == "bob has left: the seat is held for 5 minutes, then you win by forfeit."
    assert eve.last("match")["notice"] == "bob has left: the seat is held for 5 minutes."
    away = ann.last("match")["away"]
    assert away[0] is None and 299 < away[1] <= 300
    mallory = FakeGuest("mallory", address="10.6.6.6")
    lobby.arrive(mallory)
    lobby.handle(mallory, {"type": "join", "code": code, "hints": False})
    assert "has two players already" in mallory.last("error")["text"]
    impostor = FakeGuest("bob", address="10.6.6.7")  # the name and the code are not enough
    lobby.arrive(impostor)
    lobby.handle(impostor, {"type": "join", "code": code, "hints": False})
    assert impostor.last("secret_needed")["code"] == code
    lobby.handle(impostor, {"type": "join", "code": code, "hints": False, "secret": "ZZZZZZ"})
    assert "not the secret" in impostor.last("error")["text"] and not any(
        message["type"] == "match" for message in impostor.inbox)
    back = FakeGuest("bob", address="10.0.0.9")
    lobby.arrive(back)
    lobby.handle(back, {"type": "join", "code": code, "hints": False, "secret": f"{secret[:3].lower()}-{secret[3:]}"})
    assert back.last("match")["seat"] == 1 and back.last("match")["notice"] == "Welcome back."
    assert back.last("match")["secret"] == secret
    assert ann.last("match")["notice"] == "bob is back." and ann.last("match")["away"] == [None, None]
    assert eve.last("match")["notice"] == "bob is back."


async def test_the_lobby_offers_a_held_seat_to_its_player(tmp_path) -> None:
    lobby = make_lobby(tmp_path, hold_time=300)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    pair(lobby, ann, bob)
    lobby.depart(bob)
    back, other_guest = FakeGuest("bob", address="10.0.0.9"), FakeGuest("cyd")
    lobby.arrive(back)
    lobby.arrive(other_guest)
    assert [entry["yours"] for entry in back.last("lobby")["matches"]] == [True]
    assert [entry["yours"] for entry in other_guest.last("lobby")["matches"]] == [False]


async def test_every_change_has_the_next_version_and_a_gap_is_filled_by_sync(tmp_path) -> None:
    lobby = make_lobby(tmp_path)
    ann, bob, eve = FakeGuest("ann"), FakeGuest("bob"), FakeGuest("eve")
    code = pair(lobby, ann, bob, discs=4)
    lobby.arrive(eve)
    lobby.handle(eve, {"type": "watch", "code": code})
    start = ann.version()
    finish_round(lobby, {0: ann, 1: bob})  # moves: small updates, one version each
    moves = [message for message in eve.inbox if message["type"] == "moved"]
    assert [message["version"] for message in moves] == list(range(start + 1, start + 1 + len(moves)))
    assert "match" not in {message["type"] for message in eve.inbox[-len(moves):]}
    loser = ann.match().round.outcome.loser
    chooser = (ann, bob)[loser]
    lobby.handle(chooser, {"type": "next_round", "opener": 1 - loser, "round": 1})
    state = eve.last("match")
    assert state["version"] == start + len(moves) + 1 and Match.from_dict(state["match"]).round_number == 2
    names = ann.match().players
    assert state["notice"] == f"{names[loser]} chose to move second: {names[1 - loser]} opens round 2."
    assert (ann, bob)[1 - loser].last("match")["notice"] == state["notice"]
    count = len(eve.inbox)
    lobby.handle(eve, {"type": "sync", "code": code})
    assert len(eve.inbox) == count + 1 and eve.inbox[-1]["type"] == "match"
    assert eve.inbox[-1]["version"] == state["version"] and eve.inbox[-1]["match"] == state["match"]
    lobby.handle(eve, {"type": "sync", "code": "ZZZZ"})  # not the match it is at: nothing
    assert len(eve.inbox) == count + 1


async def test_codes_and_secrets_never_reach_the_log(tmp_path, caplog) -> None:
    caplog.set_level("DEBUG", logger="soluna.server")
    lobby = make_lobby(tmp_path, hold_time=0.1)
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    code = pair(lobby, ann, bob)
    secrets = [ann.last("match")["secret"], bob.last("match")["secret"]]
    lobby.handle(bob, {"type": "join", "code": "QQQQ", "hints": False})
    lobby.depart(bob)
    await asyncio.sleep(0.3)  # bob forfeits
    assert "match #" in caplog.text and "forfeits" in caplog.text
    for secret in (code, *secrets):
        assert secret not in caplog.text


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


def computer_save(name: str = "ann", moves: int = 1) -> dict:
    setup = MatchSetup.against_computer("greedy", MatchOptions(), name=name, seed=4)
    match = setup.new_match()
    for _ in range(moves):
        match.play(match.position.legal_moves[0], match.to_move)
    return {"setup": setup.to_dict(), "match": match.to_dict(), "hints_used": [0, 0]}


async def test_a_match_against_the_computer_is_held_and_resumed_with_proof(tmp_path) -> None:
    lobby = make_lobby(tmp_path, hold_time=300)
    ann = FakeGuest("ann")
    lobby.arrive(ann)
    secret = ann.last("welcome")["secret"]
    assert ann.last("lobby")["computer"] is None
    lobby.handle(ann, {"type": "computer_saved", "save": computer_save(moves=2)})
    lobby.handle(ann, {"type": "leave"})
    assert ann.last("lobby")["computer"] == {"level": "greedy", "round": 1, "stars": [0, 0], "needs_secret": False}
    lobby.depart(ann)
    thief = FakeGuest("ann", address="10.6.6.6")
    lobby.arrive(thief)
    assert thief.last("lobby")["computer"]["needs_secret"] is True
    lobby.handle(thief, {"type": "computer_resume"})
    assert thief.inbox[-1]["type"] == "secret_needed"
    lobby.handle(thief, {"type": "computer_resume", "secret": "ZZZZZZ"})
    assert "not the secret" in thief.last("error")["text"]
    back = FakeGuest("ann", address="10.0.0.2")
    lobby.arrive(back)
    lobby.handle(back, {"type": "computer_resume", "secret": secret.lower()})
    game = back.last("computer_game")
    assert game["secret"] == secret and len(game["save"]["match"]["rounds"][0]["moves"]) == 2
    other_guest = FakeGuest("ann", address="10.0.0.3")
    lobby.arrive(other_guest)
    assert other_guest.last("lobby")["computer"] is None  # resumed: no longer held


async def test_a_held_computer_match_is_let_go_after_the_hold_and_a_finished_one_is_not_kept(tmp_path) -> None:
    lobby = make_lobby(tmp_path, hold_time=0.1)
    ann = FakeGuest("ann", fingerprint="SHA256:ann")
    lobby.arrive(ann)
    lobby.handle(ann, {"type": "computer_saved", "save": computer_save()})
    lobby.depart(ann)
    back = FakeGuest("ann", fingerprint="SHA256:ann")
    lobby.arrive(back)
    assert back.last("lobby")["computer"]["needs_secret"] is False  # the same key is proof enough
    await asyncio.sleep(0.3)
    lobby.arrive(later := FakeGuest("ann", fingerprint="SHA256:ann"))
    assert later.last("lobby")["computer"] is None
    lobby.handle(later, {"type": "computer_saved", "save": computer_save()})
    lobby.handle(later, {"type": "computer_dropped"})
    lobby.depart(later)
    assert lobby.held_games == []


async def test_a_computer_save_that_is_not_one_is_refused(tmp_path) -> None:
    lobby = make_lobby(tmp_path)
    ann = FakeGuest("ann")
    lobby.arrive(ann)
    two_players = MatchSetup(MatchOptions(), ("ann", "bob"))
    lobby.handle(ann, {"type": "computer_saved", "save": {"setup": two_players.to_dict(),
                                                          "match": two_players.new_match().to_dict()}})
    lobby.handle(ann, {"type": "computer_saved", "save": {"setup": "x"}})
    assert [message["type"] for message in ann.inbox[-2:]] == ["error", "error"]
    assert lobby.games == {}


async def test_held_computer_matches_are_bounded(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("soluna_tui.server.lobby.MAX_HELD_GAMES", 3)
    lobby = make_lobby(tmp_path, hold_time=300)
    guests = [FakeGuest(f"p{number}") for number in range(5)]
    for guest in guests:
        lobby.arrive(guest)
        lobby.handle(guest, {"type": "computer_saved", "save": computer_save(guest.name)})
        lobby.depart(guest)
    assert [game.identity for game in lobby.held_games] == ["p2", "p3", "p4"]
    lobby.close()
