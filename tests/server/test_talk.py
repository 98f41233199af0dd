"""Table talk: the pure parts (a line cleaned, the limits, who hears which room, a line between servers), then the
rooms in a lobby of fake guests (who is sent what: players, spectators, the lobby, a mute, a flood, the owner's
flags), on SQLite and on PostgreSQL, with two lobbies sharing the database where there are servers to share it."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from soluna_tui.link.messages import REQUESTS, Chat, ProtocolError
from soluna_tui.link.safe_talk import CHAT_LONGEST, ChatRefused, Room, chat_line, clean_chat
from soluna_tui.link.wire import from_wire
from soluna_tui.server.lobby.chat import NO_SUCH_LINE, REPORTED
from soluna_tui.server.lobby.online import guest_person, key_person
from soluna_tui.server.lobby.talk import (
    ADDRESS_REPORT_BURST,
    ADDRESS_REPORT_EVERY,
    CHAT_OFF,
    FAIR_WINDOW,
    GUESTS_SILENT,
    PERSON_BURST,
    PERSON_EVERY,
    REPORT_BURST,
    REPORT_EVERY,
    ROOM_BURST,
    ROOM_EVERY,
    Buckets,
    FairShares,
    Place,
    Said,
    TalkLimits,
    TalkPolicy,
)

from .helpers import Clock
from .test_lobby import FakeGuest, KeepingGuest, move_message, pair, wait_for

# ---- a line cleaned ---------------------------------------------------------------------------


@pytest.mark.parametrize(("said", "shown"), [
    ("good game", "good game"),
    ("  two\tspaces\n\nand lines  ", "two spaces and lines"),
    ("\x1b[2J\x1b[Hwiped?", "wiped?"),  # CSI: clear the screen, home
    ("\x1b]0;a new title\x07hi", "hi"),  # OSC: the window's title
    ("\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "link"),  # OSC 8 hyperlink, ended by ST
    ("\x9b31mred", "red"),  # the 8-bit CSI
    ("\x1bPq#0;2;0;0;0\x1b\\after", "after"),  # DCS (sixel) to ST
    ("bell\x07 and \x00nul\x7f", "bell and nul"),
    ("zero\u200bwidth\u200d joiner\ufeff", "zerowidth joiner"),
    ("\u202egnp.exe", "gnp.exe"),  # a right-to-left override
    ("a\u2800b\u3164c", "abc"),  # blank letters
    ("Z\u0351\u0352\u0353\u0354\u0355algo", "Z\u0351\u0352algo"),  # at most two marks a letter
    ("e\u0301t\u00e9", "e\u0301t\u00e9"),  # accents stay
    ("日本語で話す", "日本語で話す"),
    ("\ufe0f\u0301", ""),
])
def test_a_line_is_cleaned_of_what_a_terminal_would_obey_or_that_draws_nothing(said: str, shown: str) -> None:
    assert clean_chat(said) == shown


def test_a_line_too_long_or_empty_once_cleaned_is_refused_in_one_line() -> None:
    assert chat_line("x" * CHAT_LONGEST) == "x" * CHAT_LONGEST
    assert chat_line("\x1b[31m" * 500 + "ok") == "ok"  # long only with what is cleaned away: said
    with pytest.raises(ChatRefused, match=f"^Not sent: 10000 characters; a line has at most {CHAT_LONGEST}.$"):
        chat_line("y" * 10_000)
    with pytest.raises(ChatRefused, match="nothing in it can be shown"):
        chat_line("\u200b\x1b[2J \t")


def test_the_wire_refuses_a_line_longer_than_a_child_may_send() -> None:
    assert from_wire({"type": "say", "text": "hi"}, REQUESTS).text == "hi"
    with pytest.raises(ProtocolError):
        from_wire({"type": "say", "text": "x" * 1001}, REQUESTS)
    with pytest.raises(ProtocolError):
        from_wire({"type": "mute", "speaker": "bob"}, REQUESTS)


# ---- who hears which room ----------------------------------------------------------------------


def test_players_hear_each_other_spectators_hear_each_other_and_players_hear_spectators_once_over() -> None:
    lobby, seated = Place(), Place("ABCD", seated=True)
    watching, over = Place("ABCD", watching=True), Place("ABCD", seated=True, over=True)
    assert lobby.says_in == (Room.LOBBY, None) and lobby.hears == {(Room.LOBBY, None)}
    assert seated.says_in == (Room.PLAYERS, "ABCD") and seated.hears == {(Room.PLAYERS, "ABCD")}
    assert watching.says_in == (Room.SPECTATORS, "ABCD") and watching.hears == {(Room.SPECTATORS, "ABCD")}
    assert over.hears == {(Room.PLAYERS, "ABCD"), (Room.SPECTATORS, "ABCD")}
    assert over.says_in == (Room.PLAYERS, "ABCD")  # after the match, still among the players
    assert Place("ABCD", watching=True, over=True).hears == {(Room.SPECTATORS, "ABCD")}  # never the players'
    assert Place("ABCD").says_in is None and Place("ABCD").hears == frozenset()


def test_the_owner_may_turn_talk_off_or_keep_it_to_players_with_a_key() -> None:
    assert TalkPolicy().closed(keyed=False) is None
    assert TalkPolicy(guests=False).closed(keyed=False) == GUESTS_SILENT
    assert TalkPolicy(guests=False).closed(keyed=True) is None
    assert TalkPolicy(chat=False).closed(keyed=True) == CHAT_OFF


def test_a_line_travels_between_servers_and_anything_else_is_left_out() -> None:
    said = Said(Room.SPECTATORS, "ABCD", key_person("SHA256:eve"), "eve", "nice move", 12.5)
    assert Said.from_payload(said.to_payload()) == said
    good = json.loads(said.to_payload())
    broken = [{**good, "room": "kitchen"}, {**good, "code": None}, {**good, "code": "X" * 9},
              {**good, "room": "lobby"}, {**good, "person": "eve"}, {**good, "name": ""}, {**good, "text": ""},
              {**good, "text": "x" * (CHAT_LONGEST + 1)}, {**good, "at": "now"}, {**good, "at": True}, [good], "hi"]
    assert all(Said.from_payload(json.dumps(each)) is None for each in broken)
    assert Said.from_payload("{not json") is None
    lobby = Said(Room.LOBBY, None, guest_person("srv", 3), "cyd (guest)", "hello", 1.0)
    assert Said.from_payload(lobby.to_payload()) == lobby


# ---- the limits ----------------------------------------------------------------------------------


def test_a_burst_then_a_line_every_few_seconds_and_a_refused_line_costs_nothing() -> None:
    clock = Clock()
    limits = TalkLimits(clock)
    said = [limits.allow("key:ann", "10.0.0.1", "lobby") for _ in range(PERSON_BURST + 20)]
    assert said[:PERSON_BURST] == [None] * PERSON_BURST
    assert all(refusal is not None and refusal.startswith("Slow down") for refusal in said[PERSON_BURST:])
    clock.now += PERSON_EVERY * 0.9
    assert limits.allow("key:ann", "10.0.0.1", "lobby") is not None  # a flood meanwhile did not push it back
    clock.now += PERSON_EVERY * 0.1
    assert limits.allow("key:ann", "10.0.0.1", "lobby") is None
    assert limits.allow("key:bob", "10.0.0.2", "lobby") is None  # someone else talks on


def test_a_line_the_room_s_shared_budget_refused_is_given_back_to_the_person_and_the_address() -> None:
    limits = TalkLimits(Clock())
    for _ in range(PERSON_BURST):
        assert limits.allow("key:ann", "10.0.0.1", "lobby") is None
        limits.give_back("key:ann", "10.0.0.1")  # the room's budget, in the store, was spent
    limits.give_back("key:ann", "10.0.0.1")  # never past a full bucket
    assert limits.people.ready("key:ann", PERSON_BURST) and not limits.people.ready("key:ann", PERSON_BURST + 0.5)
    assert all(limits.allow("key:ann", "10.0.0.1", "lobby") is None for _ in range(PERSON_BURST))
    assert limits.allow("key:ann", "10.0.0.1", "lobby") is not None


def test_many_keys_from_one_address_are_held_to_the_address_s_limit() -> None:
    limits = TalkLimits(Clock())
    passed = sum(limits.allow(f"guest:s:{number}", "10.0.0.9", "lobby") is None for number in range(50))
    assert passed == limits.addresses.burst


def test_many_keys_and_addresses_are_held_to_a_room_s_limit_counted_as_lines_are_heard() -> None:
    clock = Clock()
    limits = TalkLimits(clock)
    passed = 0
    for number in range(100):
        if limits.allow(f"key:{number}", f"10.0.{number}.1", "players:ABCD") is None:
            passed += 1
            limits.heard("players:ABCD", f"key:{number}")  # every server hears every line: each counts it
    assert passed == ROOM_BURST
    assert limits.allow("key:other", "10.9.9.9", "lobby") is None  # another room talks on
    clock.now += 10
    assert limits.allow("key:0", "10.0.0.1", "players:ABCD") is None


def flood(limits: TalkLimits, clock: Clock, flooders: int, seconds: float) -> int:
    """``flooders`` guests, each at an address of its own and within its own limits, try a lobby line every
    quarter second for ``seconds``; the lines that passed."""
    passed = 0
    for _ in range(int(seconds / 0.25)):
        clock.now += 0.25
        for number in range(flooders):
            person = f"guest:s:{number}"
            if limits.allow(person, f"10.0.{number}.1", "lobby", f"site:10.0.{number}.1") is None:
                limits.heard("lobby", f"site:10.0.{number}.1")
                passed += 1
    return passed


def test_six_flooders_within_their_own_limits_leave_an_honest_talker_its_lines() -> None:
    clock = Clock()
    limits = TalkLimits(clock)
    started = clock.now
    flooded = flood(limits, clock, 6, 20.0)  # the room's budget spent before the honest talker comes
    honest = 0
    for _ in range(12):  # a line every four seconds, the flood going on
        if limits.allow("key:ann", "10.9.9.9", "lobby", "key:ann") is None:
            limits.heard("lobby", "key:ann")
            honest += 1
        flooded += flood(limits, clock, 6, 4.0)
    print(f"\nthe honest talker: {honest} of 12 lines; the six flooders: {flooded}")
    assert honest >= 10  # at least 80% (before the room's budget was shared: 0 of 12)
    assert flooded + honest <= ROOM_BURST + (clock.now - started) / ROOM_EVERY + 1  # the room's limit holds
    assert flooded >= (clock.now - started) / ROOM_EVERY * 0.75  # the flooders share what is left


def test_a_speaker_quiet_for_a_while_gets_a_line_through_at_once_however_many_flood() -> None:
    clock = Clock()
    limits = TalkLimits(clock)
    for flooders in (6, 40):
        flood(limits, clock, flooders, FAIR_WINDOW)
        waited = 0.0
        while limits.allow("key:ann", "10.9.9.9", "lobby", "key:ann") is not None:
            flood(limits, clock, flooders, 0.5)
            waited += 0.5
        limits.heard("lobby", "key:ann")
        assert waited <= 2.0, (flooders, waited)


def test_fair_shares_forget_what_was_said_before_the_window() -> None:
    clock = Clock()
    shares = FairShares(FAIR_WINDOW, clock)
    for number in range(1000):
        shares.heard(f"players:{number}", "key:ann")
    assert shares.used("players:1", "key:ann", 60) == 1 * 2 / 60  # a line, of a share split by ann and one more
    clock.now += FAIR_WINDOW + 1
    shares.heard("lobby", "key:bob")
    assert len(shares) == 1 and shares.used("players:1", "key:ann", 60) == 0


def test_reports_are_a_few_then_one_every_so_often_per_reporter_and_per_address() -> None:
    clock = Clock()
    limits = TalkLimits(clock)
    assert [limits.report("key:ann", "10.0.0.1") for _ in range(REPORT_BURST)] == [None] * REPORT_BURST
    assert limits.report("key:ann", "10.0.0.9").startswith("Not reported")
    assert limits.report("key:bob", "10.0.0.2") is None
    clock.now += REPORT_EVERY
    assert limits.report("key:ann", "10.0.0.1") is None
    # Guests reconnecting from one address are one reporter; keys from one address share its limit.
    passed = sum(limits.report(f"key:{number}", "10.0.0.7") is None for number in range(50))
    assert passed == ADDRESS_REPORT_BURST
    clock.now += ADDRESS_REPORT_EVERY
    assert limits.report("key:late", "10.0.0.7") is None


def test_buckets_forget_the_keys_whose_bucket_is_full_again() -> None:
    clock = Clock()
    buckets = Buckets(2, 1.0, clock)
    for number in range(1000):
        buckets.take(f"key{number}")
    clock.now += 5
    buckets.take("late")
    assert len(buckets) == 1


# ---- the rooms, in a lobby ---------------------------------------------------------------------


def chats(guest: FakeGuest) -> list[dict]:
    return [message for message in guest.inbox if message["type"] == "chat"]


def heard(guest: FakeGuest) -> list[str]:
    """Every line ``guest`` was told, as "name: text"."""
    return [f"{line['name']}: {line['text']}" for message in chats(guest) for line in message["lines"]]


def refusals(guest: FakeGuest) -> list[str]:
    return [message["refused"] for message in chats(guest) if message.get("refused")]


async def say(lobby, guest: FakeGuest, text: str) -> None:
    await lobby.handle(guest, {"type": "say", "text": text})


async def test_players_talk_to_each_other_and_spectators_among_themselves_until_the_match_is_over(
        make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob, eve, dan = FakeGuest("ann"), FakeGuest("bob"), FakeGuest("eve", "10.0.0.5"), FakeGuest("dan")
    code = await pair(lobby, ann, bob)
    await lobby.arrive(eve)
    await lobby.arrive(dan)
    await lobby.handle(eve, {"type": "watch", "code": code})
    await say(lobby, ann, "good luck")
    await say(lobby, eve, "\x1b[2Jann will lose\u200b")
    await say(lobby, dan, "anyone for a match?")
    await wait_for(lambda: "ann: good luck" in heard(bob) and "eve: ann will lose" in heard(eve))
    await wait_for(lambda: "dan: anyone for a match?" in heard(dan))
    assert heard(ann) == heard(bob) == ["ann: good luck"]
    assert heard(eve) == ["eve: ann will lose"] and heard(dan) == ["dan: anyone for a match?"]
    own = next(line for message in chats(ann) for line in message["lines"])
    assert own["yours"] and own["room"] == "players" and not chats(bob)[-1]["lines"][0]["yours"]
    for _ in range(2):  # both have moved: a resignation then ends the match with a winner
        mover = (ann, bob)[ann.match().to_move]
        await lobby.handle(mover, move_message(mover))
    await lobby.handle(ann, {"type": "resign"})
    await wait_for(lambda: "eve: ann will lose" in heard(ann) and "eve: ann will lose" in heard(bob))
    whole = next(message for message in chats(bob) if message["room"] == "spectators")
    assert whole["whole"] and whole["code"] == code
    assert "dan: anyone for a match?" not in heard(ann) + heard(eve)


async def test_a_line_is_one_message_for_everyone_but_its_speaker_who_is_told_it_is_theirs(make_lobby) -> None:
    """A line in the lobby is told to everyone there: made and encoded once for all who did not say it (once for
    each of 150 lobbies, encoding it took 3% of the server's time in a crowded lobby)."""
    lobby = await make_lobby()
    bob, *others = guests = [KeepingGuest(name, address=f"10.0.0.{number}")
                             for number, name in enumerate(("bob", "ann", "cyd", "dan"))]
    for guest in guests:
        await lobby.arrive(guest)
    await say(lobby, bob, "hello all")
    await wait_for(lambda: all("bob: hello all" in heard(guest) for guest in guests))
    told = [guest.kept_of(Chat)[-1] for guest in others]
    assert all(message is told[0] for message in told) and not told[0].lines[0].yours
    assert bob.kept_of(Chat)[-1] is not told[0] and bob.kept_of(Chat)[-1].lines[0].yours


async def test_a_muted_player_never_hears_the_one_who_muted_them_and_muting_all_talk_silences_the_rest(
        make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob, cyd = FakeGuest("ann"), FakeGuest("bob", "10.0.0.2"), FakeGuest("cyd", "10.0.0.3")
    for guest in (ann, bob, cyd):
        await lobby.arrive(guest)
    await say(lobby, bob, "hello all")
    await wait_for(lambda: "bob: hello all" in heard(ann))
    speaker = chats(ann)[-1]["lines"][0]["speaker"]
    await lobby.handle(ann, {"type": "mute", "speaker": speaker})
    await say(lobby, bob, "can you hear me")
    await say(lobby, cyd, "I can")
    await wait_for(lambda: "cyd: I can" in heard(ann) and "cyd: I can" in heard(bob))
    assert "bob: can you hear me" not in heard(ann) and "bob: can you hear me" in heard(cyd)
    await lobby.handle(ann, {"type": "mute", "speaker": None})
    await say(lobby, cyd, "still there?")
    await say(lobby, ann, "I only hear myself")
    await wait_for(lambda: "ann: I only hear myself" in heard(ann) and "cyd: still there?" in heard(bob))
    assert "cyd: still there?" not in heard(ann)
    await lobby.handle(ann, {"type": "mute", "speaker": None, "muted": False})
    await lobby.handle(ann, {"type": "mute", "speaker": speaker, "muted": False})
    await say(lobby, bob, "back?")
    await wait_for(lambda: "bob: back?" in heard(ann))
    newcomer = FakeGuest("dan", "10.0.0.4")
    await lobby.arrive(newcomer)
    assert heard(newcomer)[-1] == "bob: back?" and len(heard(newcomer)) == 6  # the lobby's lines so far


async def test_muting_by_name_someone_online_who_has_not_talked_yet_is_a_mute_and_nobody_there_is_said(
        make_lobby) -> None:
    """``/mute bob`` before bob talked: a mute all the same (it said "Nobody called bob has talked here."); a name
    nobody online has is said so."""
    lobby = await make_lobby()
    ann, bob, cyd = FakeGuest("ann"), FakeGuest("bob", "10.0.0.2"), FakeGuest("cyd", "10.0.0.3")
    for guest in (ann, bob, cyd):
        await lobby.arrive(guest)
    await lobby.handle(ann, {"type": "mute", "speaker": None, "name": "Bob"})
    await wait_for(lambda: refusals(ann) == ["Muted bob: their lines will not reach you."])
    await say(lobby, bob, "hello all")
    await say(lobby, cyd, "hi bob")
    await wait_for(lambda: "cyd: hi bob" in heard(ann))
    assert "bob: hello all" not in heard(ann) and "bob: hello all" in heard(cyd)
    await lobby.handle(ann, {"type": "mute", "speaker": None, "name": "zed"})
    await wait_for(lambda: refusals(ann)[-1:] == ["Nobody called zed is online: nobody to mute."])


async def test_a_flood_is_held_to_the_limit_told_once_and_the_other_player_s_moves_go_on(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob", "10.0.0.2")
    await pair(lobby, ann, bob)
    version, mover = bob.version(), (ann, bob)[bob.match().to_move]
    for number in range(200):
        lobby.lobby.handle(ann, from_wire({"type": "say", "text": f"spam {number}"}, REQUESTS))
    await lobby.handle(mover, move_message(mover))
    await wait_for(lambda: ann.version() == bob.version() == version + 1)
    await lobby.lobby.settled()
    await wait_for(lambda: len(heard(bob)) == PERSON_BURST)
    assert heard(bob) == [f"ann: spam {number}" for number in range(PERSON_BURST)]
    assert len(refusals(ann)) == 1 and refusals(ann)[0].startswith("Slow down")


async def test_the_owner_s_flags_keep_guests_or_everyone_quiet_and_bad_lines_are_refused_in_one_line(
        make_lobby) -> None:
    lobby = await make_lobby()
    lobby.talk.policy = TalkPolicy(guests=False)
    ann, bob = FakeGuest("ann", fingerprint="SHA256:ann"), FakeGuest("bob", "10.0.0.2")
    await lobby.arrive(ann)
    await lobby.arrive(bob)
    assert chats(bob)[0]["closed"] == GUESTS_SILENT and chats(ann)[0]["closed"] is None
    await say(lobby, bob, "let me in")
    await say(lobby, ann, "y" * 400)
    await say(lobby, ann, "\u200b\u200b")
    await say(lobby, ann, "keyed")
    await wait_for(lambda: "ann: keyed" in heard(bob))
    assert heard(bob) == ["ann: keyed"] and refusals(bob) == [GUESTS_SILENT]
    assert [refusal.split(":")[0] for refusal in refusals(ann)] == ["Not sent"] * 2
    lobby.talk.policy = TalkPolicy(chat=False)
    await say(lobby, ann, "anyone?")
    assert refusals(ann)[-1] == CHAT_OFF and "ann: anyone?" not in heard(bob)


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # two servers: SQLite serves one
async def test_talk_reaches_the_players_of_another_server_and_a_room_s_limit_holds_across_them(
        make_lobby, backend) -> None:
    first, second = await make_lobby(), await make_lobby()
    ann, bob = FakeGuest("ann"), FakeGuest("bob", "10.0.0.2")
    cyd, dan = FakeGuest("cyd", "10.0.0.3"), FakeGuest("dan", "10.0.0.4")
    await first.arrive(ann)
    await first.arrive(cyd)
    await second.arrive(bob)
    await second.arrive(dan)
    await say(first, ann, "hello from one")
    await say(second, bob, "hello from two")
    for guest in (ann, bob, cyd, dan):
        await wait_for(lambda guest=guest: heard(guest) == ["ann: hello from one", "bob: hello from two"])
    crowd = [FakeGuest(f"p{number}", f"10.1.{number}.1") for number in range(ROOM_BURST + 10)]
    for number, guest in enumerate(crowd):
        await (first if number % 2 else second).arrive(guest)
    started = time.monotonic()
    # All at once, on both servers: neither has heard the other's lines as it decides its own.
    await asyncio.gather(*(say(first if number % 2 else second, guest, f"line {number}")
                           for number, guest in enumerate(crowd)))
    for number, guest in enumerate(crowd):
        await wait_for(lambda guest=guest, number=number: refusals(guest) or f"{guest.name}: line {number}"
                       in heard(ann))
    await wait_for(lambda: heard(ann) == heard(bob))
    # A line of the room's comes back every ROOM_EVERY s, counted to when the last line was decided (a server
    # decides a line a moment after it is said, later on a loaded machine). Both servers take from one budget in
    # the store: not one line more (each counting the lines it had heard let through all 30 under load).
    refilled = int((time.monotonic() - started) / ROOM_EVERY)
    assert len(heard(ann)) <= 2 + ROOM_BURST + refilled
    assert any("talks too fast" in each for guest in crowd for each in refusals(guest))


async def test_a_reported_line_is_kept_with_its_match_and_a_match_s_talk_only_when_the_owner_asks(
        make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob = FakeGuest("ann", fingerprint="SHA256:ann"), FakeGuest("bob", "10.0.0.2")
    code = await pair(lobby, ann, bob)
    await say(lobby, bob, "you are bad")
    await wait_for(lambda: "bob: you are bad" in heard(ann))
    line = chats(ann)[-1]["lines"][0]
    await lobby.handle(ann, {"type": "report", "line": line["id"]})
    await lobby.handle(ann, {"type": "report", "line": 9999})
    await lobby.handle(ann, {"type": "report", "line": line["id"]})  # again: once is enough
    assert refusals(ann) == [REPORTED, NO_SUCH_LINE, REPORTED]
    (report,) = await lobby.store.chat.reports()
    started = lobby.tables[code].stored.created_at
    assert (report.line.code, report.line.started_at, report.line.room) == (code, started, "players")
    assert (report.line.name, report.line.fingerprint, report.line.text) == ("bob", None, "you are bad")
    assert (report.reporter, report.reporter_fingerprint) == ("ann", "SHA256:ann")
    assert await lobby.store.chat.of_match(code, started) == []  # not kept: the owner did not ask
    lobby.talk.policy = TalkPolicy(keep=True)
    await say(lobby, ann, "kept now")
    await say(lobby, ann, "and this")
    kept = await lobby.store.chat.of_match(code, started)
    assert [(line.name, line.fingerprint, line.text) for line in kept] == [("ann", "SHA256:ann", "kept now"),
                                                                          ("ann", "SHA256:ann", "and this")]
    lobby_guest = FakeGuest("cyd", "10.0.0.3")
    await lobby.arrive(lobby_guest)
    await say(lobby, lobby_guest, "the lobby is never kept")
    await wait_for(lambda: "cyd: the lobby is never kept" in heard(lobby_guest))
    assert len(await lobby.store.chat.of_match(code, started)) == 2


# ---- moderation that follows people -------------------------------------------------------------


def speaker_of_line(guest: FakeGuest, text: str) -> int:
    return next(line["speaker"] for message in chats(guest) for line in message["lines"] if line["text"] == text)


async def test_a_mute_follows_the_muted_back_on_a_new_session_or_a_new_address_and_stays_with_a_key(
        make_lobby) -> None:
    lobby = await make_lobby()
    ann = FakeGuest("ann", "10.0.0.1", fingerprint="SHA256:ann")
    bob = FakeGuest("bob", "10.0.0.2", fingerprint="SHA256:bob")
    zed, cyd = FakeGuest("zed", "10.0.0.3"), FakeGuest("cyd", "10.0.0.4")
    for guest in (ann, bob, zed, cyd):
        await lobby.arrive(guest)
    await say(lobby, bob, "hi from bob")
    await say(lobby, zed, "hi from zed")
    await wait_for(lambda: "zed: hi from zed" in heard(ann) and "zed: hi from zed" in heard(cyd))
    for listener in (ann, cyd):  # a key's mutes, and a guest's
        for text in ("hi from bob", "hi from zed"):
            await lobby.handle(listener, {"type": "mute", "speaker": speaker_of_line(listener, text)})
    # Both come back: bob with his key from a new address, zed as a new guest session from his address.
    await lobby.depart(bob)
    await lobby.depart(zed)
    bob_again = FakeGuest("bob", "10.7.7.7", fingerprint="SHA256:bob")
    zed_again = FakeGuest("zed", "10.0.0.3")
    await lobby.arrive(bob_again)
    await lobby.arrive(zed_again)
    await say(lobby, bob_again, "bob is back")
    await say(lobby, zed_again, "zed is back")
    await say(lobby, cyd, "cyd still here")
    await wait_for(lambda: "cyd: cyd still here" in heard(ann) and "cyd: cyd still here" in heard(bob_again))
    for listener in (ann, cyd):
        assert "bob: bob is back" not in heard(listener) and "zed: zed is back" not in heard(listener)
    assert "zed: zed is back" in heard(bob_again)  # nobody else's talk is touched
    # ann comes back on a new terminal (the store kept her mutes with her key), cyd as a new session from her
    # address (kept there for a while): neither hears them, not even in the lobby's lines so far.
    await lobby.depart(ann)
    await lobby.depart(cyd)
    ann_again = FakeGuest("ann", "10.8.8.8", fingerprint="SHA256:ann")
    cyd_again = FakeGuest("cyd", "10.0.0.4")
    await lobby.arrive(ann_again)
    await lobby.arrive(cyd_again)
    for listener in (ann_again, cyd_again):
        assert heard(listener) == ["cyd: cyd still here"], heard(listener)
    kept = await lobby.store.chat.mutes("SHA256:ann")
    assert {(mute.speaker, mute.name) for mute in kept} == {("key:SHA256:bob", "bob"), ("site:10.0.0.3", "zed")}
    # Unmuted by name, though none of their lines was heard on this terminal.
    await lobby.handle(ann_again, {"type": "mute", "speaker": None, "muted": False, "name": "BOB"})
    await lobby.handle(ann_again, {"type": "mute", "speaker": None, "muted": False, "name": "nobody"})
    assert refusals(ann_again) == ["You hear bob again.", "You had not muted anyone called nobody."]
    await say(lobby, bob_again, "heard again")
    await wait_for(lambda: "bob: heard again" in heard(ann_again))
    assert [mute.speaker for mute in await lobby.store.chat.mutes("SHA256:ann")] == ["site:10.0.0.3"]


async def test_a_line_is_reported_once_per_reporter_and_address_and_listed_once_with_its_count(
        make_lobby) -> None:
    lobby = await make_lobby()
    bob = FakeGuest("bob", "10.0.0.2", fingerprint="SHA256:bob")
    await lobby.arrive(bob)
    await say(lobby, bob, "an innocent line")
    # Kept for newcomers once heard back (on PostgreSQL, through the database's notification, a moment later): a
    # newcomer at once was told no line (seen once in CI).
    await wait_for(lambda: "bob: an innocent line" in heard(bob))
    reporters = []
    for number in range(60):  # guests reconnecting from five addresses, each reporting the line
        guest = FakeGuest(f"g{number}", f"10.5.{number % 5}.1")
        await lobby.arrive(guest)
        line = next(line for message in chats(guest) for line in message["lines"])
        await lobby.handle(guest, {"type": "report", "line": line["id"]})
        reporters.append(guest)
        await lobby.depart(guest)
    told = [refusal for guest in reporters for refusal in refusals(guest)]
    assert set(told) == {REPORTED, f"Not reported: {REPORT_BURST} reports at once, then one every {REPORT_EVERY:g} s."}
    assert told.count(REPORTED) == 5 * REPORT_BURST  # each address: a few at once, the rest held to its limit
    (report,) = await lobby.store.chat.reports()
    assert (report.line.text, report.count) == ("an innocent line", 5)
    async with lobby.store.transaction(write=False) as tx:
        assert await tx.fetch("SELECT COUNT(*) FROM chat_reports") == [(5,)]


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # two servers: SQLite serves one
async def test_a_mute_follows_the_muted_and_the_one_who_muted_to_another_server(make_lobby, backend) -> None:
    first, second = await make_lobby(), await make_lobby()
    ann = FakeGuest("ann", "10.0.0.1", fingerprint="SHA256:ann")
    zed, cyd = FakeGuest("zed", "10.0.0.3"), FakeGuest("cyd", "10.0.0.4")
    await first.arrive(ann)
    await first.arrive(zed)
    await second.arrive(cyd)
    await say(first, zed, "hi from zed")
    await wait_for(lambda: "zed: hi from zed" in heard(ann))
    await first.handle(ann, {"type": "mute", "speaker": speaker_of_line(ann, "hi from zed")})
    await first.depart(zed)
    zed_elsewhere = FakeGuest("zorro", "10.0.0.3")  # back on the other server, from his address
    await second.arrive(zed_elsewhere)
    await say(second, zed_elsewhere, "zed on two")
    await say(second, cyd, "cyd on two")
    await wait_for(lambda: "cyd: cyd on two" in heard(ann) and "zorro: zed on two" in heard(cyd))
    assert "zorro: zed on two" not in heard(ann)
    await first.depart(ann)
    ann_elsewhere = FakeGuest("ann", "10.9.9.9", fingerprint="SHA256:ann")  # and ann, her mutes with her key
    await second.arrive(ann_elsewhere)
    assert "cyd: cyd on two" in heard(ann_elsewhere) and "zorro: zed on two" not in heard(ann_elsewhere)
    # ann on a terminal at each server: a mute on one holds on the other at once.
    ann_here = FakeGuest("ann", "10.0.0.1", fingerprint="SHA256:ann")
    await first.arrive(ann_here)
    await say(second, cyd, "mute me")
    await wait_for(lambda: "cyd: mute me" in heard(ann_here))
    await first.handle(ann_here, {"type": "mute", "speaker": speaker_of_line(ann_here, "mute me")})
    await wait_for(lambda: "site:10.0.0.4" in second.talk.mutes.of(ann_elsewhere))
    await say(second, cyd, "unheard")
    await say(second, zed_elsewhere, "the last line")
    await wait_for(lambda: any(heard.said.text == "the last line" for heard in first.talk.rooms[(Room.LOBBY, None)]))
    assert "cyd: unheard" not in heard(ann_here) + heard(ann_elsewhere)
