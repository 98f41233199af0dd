"""Who is online: the pure parts (a session's line, people merged, what the lobby lists, what changed, who
watches), then the roster in a lobby of fake guests (what each is sent, and what the heartbeat carries), on
SQLite and on PostgreSQL, with two lobbies sharing the database where there are servers to share it."""

from __future__ import annotations

import json

import pytest

from soluna_tui.link.messages import ONLINE_LISTED, SPECTATORS_NAMED, Doing, OnlineChanges, OnlinePerson
from soluna_tui.server.lobby.online import (
    Attendance,
    Watching,
    changes,
    guest_person,
    key_person,
    lines_document,
    lines_from_document,
    listed,
    people,
    spectators,
)

from .test_lobby import FakeGuest, pair, wait_for

ANN = Attendance(key_person("SHA256:ann"), "ann", 1532, since=10.0)
BOB = Attendance(key_person("SHA256:bob"), "bob", None, Doing.PLAYING, "ABCD", ("cyd",), since=11.0)
GUEST = Attendance(guest_person("srv1", 1), "cyd", since=12.0)
LOOK_ALIKE = Attendance(guest_person("srv2", 1), "cyd", since=13.0)


NUMBERS: dict[str, int] = {}


def numbered(person: str) -> int:
    """A number for each person, one to one, as the roster numbers them (a hash could give two people one)."""
    return NUMBERS.setdefault(person, len(NUMBERS) + 1)


# ---- the pure parts ---------------------------------------------------------------------------


def test_a_line_travels_with_the_heartbeat_and_anything_else_is_left_out() -> None:
    lines = (ANN, BOB, GUEST, Attendance(guest_person("s", 2), "dan", doing=Doing.COMPUTER, others=("5",),
                                         hidden=True))
    assert lines_from_document(json.loads(json.dumps(lines_document(lines)))) == lines
    good = ANN.to_document()
    broken = [{**good, "person": "ann"}, {**good, "name": ""}, {**good, "name": "x" * 41}, {**good, "rating": "1"},
              {**good, "rating": True}, {**good, "doing": "dancing"}, {**good, "others": ["a", "b", "c"]},
              {**good, "others": "bob"}, {**good, "hidden": 1}, {**good, "since": "now"}, {**good, "since": True},
              {**good, "code": 7}, "ann", None, [good]]
    assert lines_from_document([*broken, good]) == (ANN,)
    assert lines_from_document({"lines": [good]}) == ()


def test_a_key_on_two_terminals_is_one_person_and_two_guests_alike_are_two() -> None:
    lobby_again = Attendance(ANN.person, "ann", 1532, since=20.0)
    watching = Attendance(ANN.person, "ann", 1532, Doing.WATCHING, "WXYZ", ("bob", "cyd"), hidden=True, since=30.0)
    merged = people([lobby_again, GUEST, watching, ANN, LOOK_ALIKE])
    assert [person.person for person in merged] == [ANN.person, GUEST.person, LOOK_ALIKE.person]  # as they came
    assert merged[0].doing is Doing.WATCHING and merged[0].hidden and merged[0].since == 10.0  # the busiest
    assert [person.name for person in merged[1:]] == ["cyd", "cyd"]


def test_the_lobby_lists_those_who_do_not_hide_the_first_to_come_and_counts_them() -> None:
    crowd = [Attendance(guest_person("s", number), f"p{number}", since=float(number)) for number in range(150)]
    hidden = Attendance(key_person("SHA256:h"), "hider", hidden=True, since=-1.0)
    shown, total = listed(people([hidden, *crowd]), numbered)
    assert total == 150 and len(shown) == ONLINE_LISTED
    assert {person.name for person in shown.values()} == {f"p{number}" for number in range(ONLINE_LISTED)}
    shown, _ = listed(people([ANN, BOB]), numbered)
    assert shown[numbered(BOB.person)] == OnlinePerson(numbered(BOB.person), "bob", True, None, Doing.PLAYING,
                                                      ("cyd",))  # no code: it lets players back in


def test_what_changed_is_who_came_or_changed_and_who_went() -> None:
    before, total = listed(people([ANN, BOB, GUEST]), numbered)
    after, after_total = listed(people([Attendance(ANN.person, "ann", 1540, since=10.0), BOB]), numbered)
    told = changes(before, after, after_total, total)
    assert told == OnlineChanges((after[numbered(ANN.person)],), (numbered(GUEST.person),), 2)
    assert changes(after, after, 2, 2) is None
    assert changes(after, after, 3, 2) == OnlineChanges((), (), 3)  # someone hidden came: only the count


def test_who_watches_a_match_counts_each_person_once_and_names_those_who_do_not_hide() -> None:
    def watcher(person: str, name: str, code: str = "ABCD", hidden: bool = False) -> Attendance:
        return Attendance(person, name, doing=Doing.WATCHING, code=code, others=("ann", "bob"), hidden=hidden)

    lines = [watcher("key:z", "Zed"), watcher("key:z", "Zed"), watcher("guest:s:1", "amy"),
             watcher("guest:s:2", "hal", hidden=True), watcher("guest:s:3", "eve", code="WXYZ"), ANN, BOB]
    assert spectators(lines) == {"ABCD": Watching(3, ("amy", "Zed")), "WXYZ": Watching(1, ("eve",))}
    crowd = [watcher(f"guest:s:{number}", f"w{number:02}") for number in range(20)]
    assert spectators(crowd)["ABCD"] == Watching(20, tuple(f"w{number:02}" for number in range(SPECTATORS_NAMED)))


# ---- the roster in a lobby ------------------------------------------------------------------------


def online_now(guest: FakeGuest) -> dict[int, dict]:
    """Who ``guest`` was told is online: its whole list, with the changes since applied."""
    start = max(index for index, message in enumerate(guest.online) if message["type"] == "online")
    people_now = {person["id"]: person for person in guest.online[start]["people"]}
    for message in guest.online[start + 1:]:
        if message["type"] == "online_changes":
            for number in message["went"]:
                people_now.pop(number)
            people_now.update({person["id"]: person for person in message["came"]})
    return people_now


def names_online(guest: FakeGuest) -> list[str]:
    return sorted(person["name"] for person in online_now(guest).values())


async def test_a_guest_sat_down_before_its_line_is_made_again_hears_no_lobby_news_and_all_of_it_back(
        make_lobby) -> None:
    """Found with 16 workers on 2 cores: a player's step seats them (``visitor.code``) and then waits on the store
    before their line is made again; news told meanwhile reached them at their match. Now it does not, and back in
    the lobby they have the whole list, with what changed meanwhile."""
    lobby = await make_lobby()
    ann, eve = FakeGuest("ann"), FakeGuest("eve")
    await lobby.arrive(ann)
    await wait_for(lambda: names_online(ann) == ["ann"])
    lobby.visitors[ann].code = "ABCD"  # seated by a step that has not finished yet
    told = len(ann.online)
    await lobby.arrive(eve)
    lobby.roster.tell()
    assert ann.online[told:] == []
    lobby.visitors[ann].code = None  # back in the lobby
    lobby.roster.follow(ann)
    assert [message["type"] for message in ann.online[told:]] == ["online"] and names_online(ann) == ["ann", "eve"]


async def test_a_guest_has_the_whole_list_once_then_only_what_changed(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob, cyd = FakeGuest("ann", fingerprint="SHA256:ann"), FakeGuest("bob"), FakeGuest("cyd")
    for guest in (ann, bob, cyd):
        await lobby.arrive(guest)
    await wait_for(lambda: names_online(ann) == ["ann", "bob", "cyd"])
    assert [message["type"] for message in ann.online].count("online") == 1
    assert all(len(message["came"]) + len(message["went"]) <= 3 for message in ann.online[1:])
    you = ann.online[0]["you"]
    assert online_now(ann)[you] == {"id": you, "name": "ann", "keyed": True, "rating": None, "doing": "lobby",
                                    "others": []}
    cyd_number = next(number for number, person in online_now(ann).items() if person["name"] == "cyd")
    sent = len(ann.online)
    await lobby.depart(cyd)
    await wait_for(lambda: len(ann.online) > sent)
    assert ann.online[sent:] == [{"type": "online_changes", "came": [], "went": [cyd_number], "total": 2}]


async def test_playing_and_watching_are_told_and_the_players_hear_who_watches(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob, eve, hal, lou = (FakeGuest(name) for name in ("ann", "bob", "eve", "hal", "lou"))
    code = await pair(lobby, ann, bob)
    # Until she sat down ann was in the lobby, and may have heard its news (her own arrival, told a moment later,
    # while a loaded store took her match's creation): from here on, at the match, she hears only who watches.
    seated = len(ann.online)
    for guest in (eve, hal, lou):
        await lobby.arrive(guest)
    await wait_for(lambda: {person["name"]: (person["doing"], person["others"])
                            for person in online_now(lou).values()}.get("ann") == ("playing", ["bob"]))
    await lobby.handle(hal, {"type": "keep_choices", "choices": {"level": "5", "rules": "box", "stars": 4,
                                                                "discs": 12, "opener": 0, "hints": False,
                                                                "hidden": True}})
    await lobby.handle(hal, {"type": "watch", "code": code})
    await lobby.handle(eve, {"type": "watch", "code": code})
    for player in (ann, bob, eve):
        await wait_for(lambda player=player: player.online and player.online[-1] == {
            "type": "spectators", "code": code, "count": 2, "names": ["eve"]})  # hal counted, not named
    await wait_for(lambda: names_online(lou) == ["ann", "bob", "eve", "lou"])  # a guest hidden for the visit
    assert {person["name"]: (person["doing"], person["others"]) for person in online_now(lou).values()}["eve"] == (
        "watching", ["ann", "bob"])
    assert lobby.roster.watcher_counts == {code: 2}
    await wait_for(lambda: lou.last("lobby")["matches"][0]["watchers"] == 2)  # the listing is told on its own beat
    told = len(ann.online) - seated
    assert ann.online[0]["type"] == "online" and told > 0
    assert [message["type"] for message in ann.online[seated:]] == ["spectators"] * told  # at a match: no list to
    # follow, only who watches
    left = len(eve.online)
    await lobby.handle(eve, {"type": "leave"})
    await wait_for(lambda: ann.online[-1]["count"] == 1 and ann.online[-1]["names"] == [])
    assert [message["type"] for message in eve.online[left:]][:1] == ["online"]  # back in the lobby: the list
    left = len(ann.online)
    await lobby.handle(ann, {"type": "leave"})
    whole = next(message for message in ann.online[left:] if message["type"] == "online")
    assert {person["name"]: person["doing"] for person in whole["people"]}["bob"] == "playing"


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # two servers: SQLite serves one
async def test_a_guest_gone_from_one_server_leaves_the_other_s_list_and_idle_heartbeats_carry_nothing(
        make_lobby, backend) -> None:
    first, second = await make_lobby(), await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob")
    await first.arrive(ann)
    await second.arrive(bob)
    await wait_for(lambda: names_online(ann) == ["ann", "bob"] and names_online(bob) == ["ann", "bob"])
    version = {server.id: server.online_version for server in await first.store.servers.known()}
    beats = first.presence.heard[first.server_id]
    await wait_for(lambda: first.presence.heard[first.server_id] > beats + 0.3)  # a few heartbeats, nothing new
    assert {server.id: server.online_version for server in await first.store.servers.known()} == version
    await second.depart(bob)
    await wait_for(lambda: names_online(ann) == ["ann"])
