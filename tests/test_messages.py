"""The messages between the SSH server and its children: every kind round-trips, anything malformed is refused."""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import json
import socket
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from soluna_tui.link import messages
from soluna_tui.link.messages import (
    REPLIES,
    REQUESTS,
    ComputerOffer,
    FinishedMatch,
    JoinMatch,
    LeaderboardPage,
    LeaderboardRow,
    ListedMatch,
    LobbyListing,
    Longest,
    MatchState,
    Notice,
    PlayerRecord,
    PlayMove,
    ProtocolError,
    RecentMatch,
    SideResult,
    Standing,
    Welcome,
)
from soluna_tui.link.protocol import End, Link, decode, encode, encoded
from soluna_tui.link.safe_talk import Room
from soluna_tui.link.wire import from_wire, to_wire
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.rules.clock import ClockSetting
from soluna_tui.rules.end_reason import EndReason
from soluna_tui.rules.json_fields import LONGEST
from soluna_tui.server.storage import RESULTS

MATCH = Match(MatchOptions(discs=4), ("ann", "bob"), seed=3).to_dict()
SAVE = {"setup": {"names": ["ann", "Computer"]}, "match": MATCH, "hints_used": [0, 0]}

TERMS = messages.MatchTerms(MatchOptions(discs=4).to_dict(), ClockSetting(180.0, 2.0), rated=True, hints=True)
CHOICES = messages.LobbyChoices("perfect", "online", 3, 16, 1, True, ClockSetting(180.0, 2.0))

TOURNAMENT = messages.TournamentLine(3, "Friday Swiss", "swiss", "running", 3, 1_790_000_000.0, TERMS, 5, True, 1400,
                                     5, "ann")

#: One of each kind, every field set (nested records included).
EXAMPLES: list[messages.Message] = [
    messages.CreateMatch(MatchOptions(discs=4).to_dict(), hints=True),
    JoinMatch("ABCD", hints=False, secret="KQXPMR"), JoinMatch("ABCD", hints=True),
    messages.WatchMatch("WXYZ"), messages.CancelMatch(), messages.LeaveMatch(),
    PlayMove("a1b2", round=2, ply=5), messages.StartNextRound(opener=1, round=1), messages.AskRematch(),
    messages.SyncMatch("ABCD"), messages.ComputerSaved(SAVE), messages.ComputerDropped(),
    messages.ComputerResume("KQXPMR"), messages.ComputerResume(), messages.AskLeaderboard(20), messages.AskRecord(),
    messages.AskFinishedMatch(17), messages.ChooseName("Ann the Bold"), messages.CrashReport("Traceback...\n" * 50),
    messages.Activity(), messages.KeepChoices(CHOICES), messages.Resign(),
    Welcome("KQXPMR", 300.0, "ann", True, name_chosen=False), Welcome("KQXPMR", 45.5),
    Welcome("KQXPMR", 300.0, "ann", True, choices=messages.LobbyChoices("easy", "box", 2, 12, 0, False)),
    LobbyListing((ListedMatch("ABCD", ("ann", "bob"), 2, (1, 0), 3, (False, True), True, 212.5),),
                 ComputerOffer("hard", 3, (2, 1), needs_secret=True)),
    LobbyListing(()), messages.Waiting("ABCD"),
    MatchState("ABCD", 7, 1, MATCH, hints=True, away=(None, 12.5), secret="KQXPMR", notice="bob is back."),
    MatchState("ABCD", 0, None, MATCH, ratings=(messages.RatingShift("ann", 1000, 1023),
                                                messages.RatingShift("bob", 1010, 991))),
    messages.Moved("ABCD", 8, 1, 4, "a1b2", notice="ann played."), messages.SecretNeeded("ABCD"),
    messages.SecretNeeded(None), messages.ComputerGameKept("KQXPMR", SAVE), Notice("Saved.", "warning"),
    Notice("Hello."), messages.ErrorReply("No match has the code ZZZZ."), messages.Exit(),
    messages.MatchGone("ABCD", "bob left before the first move: nobody wins."),
    messages.ClosingSoon(840.0, 59.5),
    LeaderboardPage(0, 1, (LeaderboardRow(1, "ann", 1532, 12, 7),), Standing(1, 1532)),
    LeaderboardPage(20, 0, ()),
    PlayerRecord("ann", True, 1532, 5, 12, 7, 5, (
        RecentMatch(9, "cyd", SideResult.ABANDONED, True, (0, 0), 1_789_000_000.0),
        RecentMatch(17, "bob", SideResult.WON, False, (1, 0), 1_790_000_000.0, True, EndReason.TIME),
        RecentMatch(18, "Computer (level 5)", SideResult.LOST, False, (0, 1), 1_790_000_000.0, rating=(1532, 1520))),
                 computer=(3, 1)),
    messages.ComputerResult((messages.RatingShift("ann", 1000, 1023), messages.RatingShift("Computer (level 5)",
                                                                                            1466, 1466))),
    messages.ComputerResult(unrated="Unrated: no round was decided on the board."),
    FinishedMatch(17, ("ann", "bob"), EndReason.FORFEIT, 1_790_000_000.0, MATCH),
    messages.OnlinePeople((messages.OnlinePerson(3, "ann", True, 1532, messages.Doing.PLAYING, ("bob",)),
                           messages.OnlinePerson(4, "cyd (guest)", False, None, messages.Doing.LOBBY)), 2, you=3),
    messages.OnlineChanges((messages.OnlinePerson(5, "dan", True, None, messages.Doing.WATCHING, ("ann", "bob")),),
                           (4,), 2),
    messages.OnlineChanges(), messages.Spectators("ABCD", 3, ("dan", "eve")),
    messages.Say("good luck"), messages.MuteChat(3), messages.MuteChat(None, muted=False),
    messages.MuteChat(None, False, "bob"), messages.ReportChat(12),
    messages.Chat(Room.SPECTATORS, (messages.ChatLine(7, Room.SPECTATORS, 2, "eve", "nice", 12.5, yours=True),),
                  whole=True, code="ABCD"),
    messages.Chat(Room.LOBBY, (), closed="Chat is off on this server.", refused="Not sent."),
    messages.KeepChoices(messages.LobbyChoices("perfect", "online", 3, 16, 1, True, hidden=True)),
    messages.KeepChoices(messages.LobbyChoices("perfect", "box", 3, 12, 0, False, rated=False,
                                               refuse_challenges=True)),
    messages.Seek(TERMS), messages.CancelSeek(), messages.ChallengePerson(7, TERMS),
    messages.AnswerChallenge(12, accept=True), messages.WithdrawChallenge(12),
    messages.Seeking(1_790_000_000.5), messages.Paired("ABCD", "bob"), messages.ChallengeSent("bob"),
    messages.Challenges((messages.ChallengeLine(12, "bob", True, TERMS, 1_790_000_000.0, 1532),
                         messages.ChallengeLine(13, "cyd (guest)", False, messages.MatchTerms({}), 1_790_000_001.0,
                                                waiting=True)), new=(12,)),
    Welcome("KQXPMR", 300.0, "ann", True, quick_match=True, challenges=True),
    Welcome("KQXPMR", 300.0, "ann", True, browser_link=True),
    messages.AskBrowserCode(), messages.AskBrowsers(), messages.RevokeBrowser(3),
    messages.BrowserCode("ABCD-EFGHJK", "https://soluna.example.org/?code=ABCDEFGHJK", 300.0),
    messages.Browsers((messages.SignedInBrowser(3, 1_790_000_000.0, 1_790_000_100.5, "2001:db8::7",
                                                "Firefox on Linux"),)),
    messages.Browsers(()),
    messages.AskTakeback(), messages.AnswerTakeback(accept=False), messages.BackAtTable("ABCD"),
    messages.WatchSeeks(True), messages.AcceptSeek("4f0c1e2d9a7b:12", hints=True),
    messages.OpenSeeks((messages.SeekLine("4f0c1e2d9a7b:12", "bob", TERMS, 1_790_000_000.0, 1532),
                        messages.SeekLine("4f0c1e2d9a7b:13", "ann", TERMS, 1_790_000_001.0, yours=True)), total=2),
    MatchState("ABCD", 6, 1, MATCH, takeback=0),
    messages.KeepChoices(messages.LobbyChoices("perfect", "online", 3, 16, 1, True, bell=False)),
    messages.AskCard(7), messages.TellPerson("bob", "see you at eight"),
    messages.SeatPeople("ABCD", (messages.SeatPerson(7, True, 1532), messages.SeatPerson(None))),
    messages.PlayerCard(7, "bob", True, 1532, 3, 12, 7, 5, (1500, 1517, 1532), (2, 1),
                        (RecentMatch(41, "ann", SideResult.WON, False, (2, 1), 1_790_000_000.0, rating=(1517, 1532),
                                     ended=EndReason.WON),), 1_780_000_000.0),
    messages.PlayerCard(8, "cyd (guest)", False),
    messages.Chat(Room.LOBBY, (messages.ChatLine(9, Room.LOBBY, 3, "bob", "psst", 12.5, tell=True),)),
    LeaderboardPage(0, 1, (LeaderboardRow(1, "ann", 1532, 12, 7, person=4),)),
    messages.AskTournaments(), messages.AskTournament(3), messages.JoinTournament(3), messages.WithdrawTournament(3),
    messages.CreateTournament("Friday Swiss", "swiss", 3, 15.0, TERMS),
    messages.Tournaments((TOURNAMENT,), may_create=True, now=1_789_999_000.0), messages.Tournaments(()),
    messages.TournamentPage(TOURNAMENT, (messages.TournamentStanding(1, "ann", 2.5, 3, (4.0, 3.25), you=True),
                                         messages.TournamentStanding(2, "bob", 0.0, 2, paused=True)),
                            (messages.TournamentGame(1, ("ann", "bob"), "ann won"),
                             messages.TournamentGame(1, ("cyd", None), "bye"),
                             messages.TournamentGame(2, ("ann", "cyd"))),
                            2, 1_790_000_060.0, 1_790_000_000.0, True),
]


def kinds_of(message: messages.Message) -> Any:
    return REQUESTS if isinstance(message, messages.Request) else REPLIES


def test_every_kind_of_message_has_an_example_here() -> None:
    assert {type(message) for message in EXAMPLES} == set(REQUESTS.values()) | set(REPLIES.values())


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda message: f"{type(message).__name__}")
def test_every_message_round_trips_through_one_line(message) -> None:
    line = encode(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert decode(line, kinds_of(message)) == message
    assert json.loads(line)["type"] == message.TYPE


def test_a_message_sent_to_many_terminals_is_encoded_once() -> None:
    change = messages.OnlineChanges((messages.OnlinePerson(5, "dan", True, None, messages.Doing.LOBBY),), (4,), 2)
    line = encoded(change)
    assert line == encode(change) and encoded(change) is line  # the same line, not made again
    other = messages.OnlineChanges((), (5,), 1)
    assert encoded(other) == encode(other) and encoded(change) == line


def test_the_wire_format_is_the_one_the_dict_literals_wrote() -> None:
    assert encode(JoinMatch("ABCD", hints=False)) == (
        b'{"type":"join","code":"ABCD","hints":false,"secret":null,"ask":null}\n')
    assert encode(PlayMove("a1b2", 1, 0)) == b'{"type":"move","move":"a1b2","round":1,"ply":0}\n'
    assert to_wire(FinishedMatch(3, ("a", "b"), EndReason.WON, 1.0, {}))["result"] == "won"
    assert to_wire(LobbyListing((ListedMatch("ABCD", ("a", "b"), 1, (0, 0), 0, (False, False), False),)))[
        "matches"] == [{"code": "ABCD", "players": ["a", "b"], "round": 1, "stars": [0, 0], "watchers": 0,
                        "away": [False, False], "yours": False, "held": None}]


def test_fields_with_a_default_may_be_left_out_by_the_sender() -> None:
    assert decode(b'{"type":"welcome","secret":"KQXPMR","hold_seconds":300}', REPLIES) == Welcome("KQXPMR", 300.0)
    assert decode(b'{"type":"lobby","matches":[]}', REPLIES) == LobbyListing(())


def test_a_name_used_both_ways_is_the_question_or_the_answer_by_direction() -> None:
    assert isinstance(decode(b'{"type":"leaderboard","offset":0}', REQUESTS), messages.AskLeaderboard)
    with pytest.raises(ProtocolError, match="no 'total' field"):
        decode(b'{"type":"leaderboard","offset":0}', REPLIES)
    with pytest.raises(ProtocolError, match="unknown message 'welcome'"):
        decode(b'{"type":"welcome","secret":"KQXPMR","hold_seconds":300}', REQUESTS)


MALFORMED = {
    "not JSON": b'{"type": "move", ',
    "not UTF-8": b'{"type":"cancel","x":"\xff"}',
    "not an object": b'["move"]',
    "no type": b'{"move":"a1b2"}',
    "a type that is not text": b'{"type":7}',
    "an unknown type": b'{"type":"launch_missiles"}',
    "the lobby's own step": b'{"type":"_depart"}',
    "a missing field": b'{"type":"move","move":"a1b2","round":1}',
    "an unknown field": b'{"type":"cancel","code":"ABCD"}',
    "a bool for a number": b'{"type":"move","move":"a1b2","round":true,"ply":0}',
    "a number for text": b'{"type":"move","move":3,"round":1,"ply":0}',
    "a float for a whole number": b'{"type":"leaderboard","offset":1.5}',
    "text for a bool": b'{"type":"join","code":"ABCD","hints":"yes"}',
    "null where none is allowed": b'{"type":"join","code":null,"hints":false}',
    "NaN": b'{"type":"leaderboard","offset":NaN}',
    "Infinity": b'{"type":"leaderboard","offset":Infinity}',
    "a code too long": b'{"type":"watch","code":"ABCDEFGHI"}',
    "a move too long": ('{"type":"move","move":"' + "x" * 500 + '","round":1,"ply":0}').encode(),
    "a name too long": ('{"type":"choose_name","name":"' + "n" * 81 + '"}').encode(),
    "options too many": ('{"type":"create","hints":false,"options":{'
                         + ",".join(f'"k{i}":1' for i in range(11)) + "}}").encode(),
    "options not an object": b'{"type":"create","options":[],"hints":false}',
    "a save not an object": b'{"type":"computer_saved","save":"everything"}',
    "nested too deeply": b'{"type":"computer_saved","save":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "a number of absurd length": b'{"type":"leaderboard","offset":' + b"9" * 5000 + b"}",
}
MALFORMED_REPLIES = {
    "a seat that is no seat": b'{"type":"match","code":"ABCD","version":0,"seat":2,"match":{}}',
    "a seat that is a bool": b'{"type":"match","code":"ABCD","version":0,"seat":true,"match":{}}',
    "three away times": b'{"type":"match","code":"ABCD","version":0,"seat":0,"match":{},"away":[1,2,3]}',
    "an away time that is text": b'{"type":"match","code":"ABCD","version":0,"seat":0,"match":{},"away":["1",null]}',
    "a listed match missing a field": b'{"type":"lobby","matches":[{"code":"ABCD"}]}',
    "a listed match that is a list": b'{"type":"lobby","matches":[["ABCD"]]}',
    "a listing item with a bool count": (b'{"type":"lobby","matches":[{"code":"ABCD","players":["a","b"],"round":1,'
                                         b'"stars":[0,0],"watchers":true,"away":[false,false],"yours":false}]}'),
    "three players": b'{"type":"finished_match","id":1,"players":["a","b","c"],"result":"won","finished_at":0,'
                     b'"match":{}}',
    "an end reason that is none": b'{"type":"finished_match","id":1,"players":["a","b"],"result":"lost",'
                                  b'"finished_at":0,"match":{}}',
    "a severity that is none": b'{"type":"notice","text":"hi","severity":"loud"}',
    "a notice too long": ('{"type":"notice","text":"' + "x" * 1001 + '"}').encode(),
    "a row with a float rank": b'{"type":"leaderboard","offset":0,"total":1,"rows":[{"rank":1.0,"name":"a",'
                               b'"rating":1,"played":1,"won":1}]}',
}


@pytest.mark.parametrize("line", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_request_is_a_protocol_error(line: bytes) -> None:
    with pytest.raises(ProtocolError):
        decode(line, REQUESTS)


@pytest.mark.parametrize("line", MALFORMED_REPLIES.values(), ids=MALFORMED_REPLIES.keys())
def test_a_malformed_reply_is_a_protocol_error(line: bytes) -> None:
    with pytest.raises(ProtocolError):
        decode(line, REPLIES)


# ---- generated messages: every field of every kind, with values of every legal shape --------------------


def values_of(annotation: Any, longest: int = LONGEST) -> st.SearchStrategy[Any]:
    """Any value the declaration allows (the test's own reading of the declarations)."""
    origin, arguments = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        limit = next(extra.limit for extra in arguments[1:] if isinstance(extra, Longest))
        return values_of(arguments[0], min(limit, 60))
    if origin in (Union, types.UnionType):
        return st.one_of(*(st.none() if each is type(None) else values_of(each, longest) for each in arguments))
    if origin is Literal:
        return st.sampled_from(arguments)
    if origin is tuple:
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return st.lists(values_of(arguments[0]), max_size=min(longest, 3)).map(tuple)
        return st.tuples(*(values_of(each) for each in arguments))
    if origin is dict:
        return st.dictionaries(st.text(max_size=5), st.integers(), max_size=min(longest, 5))
    if dataclasses.is_dataclass(annotation):
        return records(annotation)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return st.sampled_from(list(annotation))
    return {str: st.text(max_size=min(longest, 60)), int: st.integers(-(2**63), 2**63),
            float: st.floats(allow_nan=False, allow_infinity=False), bool: st.booleans()}[annotation]


def records(kind: type) -> st.SearchStrategy[Any]:
    """Records of ``kind`` with any declared values, less those the record refuses itself (a clock out of range)."""
    hints = get_type_hints(kind, include_extras=True)
    fields = st.fixed_dictionaries({each.name: values_of(hints[each.name]) for each in dataclasses.fields(kind)})

    def made(values: dict[str, Any]) -> Any:
        try:
            return kind(**values)
        except ValueError:
            return None

    return fields.map(made).filter(lambda record: record is not None)


ANY_MESSAGE = st.sampled_from([*REQUESTS.values(), *REPLIES.values()]).flatmap(records)
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=10)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(ANY_MESSAGE)
def test_any_message_of_any_kind_round_trips(message) -> None:
    assert decode(encode(message), kinds_of(message)) == message


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(ANY_MESSAGE, st.data())
def test_a_field_replaced_by_any_json_is_read_back_the_same_or_refused(message, data) -> None:
    """Whatever a hostile child puts in a field, the reader says ``ProtocolError`` or reads a well-formed message."""
    wire = to_wire(message)
    if len(wire) > 1:
        key = data.draw(st.sampled_from(sorted(set(wire) - {"type"})))
        wire[key] = data.draw(JSON)
    try:
        read = from_wire(json.loads(json.dumps(wire)), kinds_of(message))
    except ProtocolError:
        return
    assert decode(encode(read), kinds_of(message)) == read


@pytest.mark.parametrize(("changed", "said"), [
    ({"match": {"rounds": [[1, float("inf")]]}}, "'match' message field 'match' holds a number that is not finite"),
    ({"away": [float("nan"), None]}, "'match' message field 'away' item 1 is not a finite number"),
    ({"clock": {"setting": {"seconds": 300, "increment": 2}, "left": [300.0, float("-inf")]}},
     "'match' message field 'clock' field 'left' item 2 is not a finite number"),
    ({"away": [10 ** 400, None]}, "'match' message field 'away' item 1 is not a finite number"),  # no float
    ({"seat": True}, "'match' message field 'seat' is not one of 0, 1"),
    ({"seat": 1.0}, "'match' message field 'seat' is not one of 0, 1"),  # a seat is an int
    ({"away": [None, None, None]}, "'match' message field 'away' has 3 items, not 2"),
])
def test_a_number_that_is_not_finite_is_refused_at_any_depth_and_named_by_its_place(changed, said) -> None:
    """Each list and record is read item by item, so its numbers are checked where they are read; a document
    carried whole (the match) is checked through and through. Whichever, the error names the place. An int too
    big for a float is refused as such (it raised ``OverflowError``, which ended the server's reading of that
    child), and a choice of numbers takes the very type (``1.0`` is no seat)."""
    wire = {"type": "match", "code": "ABCD", "version": 1, "seat": 0, "match": {}, **changed}
    with pytest.raises(ProtocolError) as refused:
        from_wire(json.loads(json.dumps(wire)), REPLIES)
    assert str(refused.value) == said


@given(JSON)
def test_any_json_at_all_is_a_message_or_a_protocol_error(document) -> None:
    for kinds in (REQUESTS, REPLIES):
        try:
            from_wire(document, kinds)
        except ProtocolError:
            pass


# ---- the link ---------------------------------------------------------------------------------------------


async def test_a_link_carries_typed_messages_both_ways_and_a_malformed_wire_object_is_never_made_one() -> None:
    ours, theirs = socket.socketpair()
    server, child = await Link.over(ours), await Link.over(theirs, End.CHILD)
    try:
        child.send(PlayMove("a1b2", 1, 0))
        assert await asyncio.wait_for(server.receive(), 5) == PlayMove("a1b2", 1, 0)
        server.send(from_wire({"type": "notice", "severity": "warning", "text": "No key pressed for 5 minutes."},
                              REPLIES))
        assert await asyncio.wait_for(child.receive(), 5) == Notice("No key pressed for 5 minutes.", "warning")
        with pytest.raises(ProtocolError, match="'round' is true or false"):
            from_wire({"type": "moved", "code": "ABCD", "version": 1, "round": True, "ply": 0, "move": "a1b2"}, REPLIES)
        with pytest.raises(ProtocolError, match="unknown message 'move'"):
            from_wire({"type": "move", "move": "a1b2", "round": 1, "ply": 0}, REPLIES)  # a request is not the server's
        server.send(messages.Exit())
        assert await asyncio.wait_for(child.receive(), 5) == messages.Exit()  # nothing refused was sent
    finally:
        server.close()
        child.close()


async def test_a_malformed_line_on_a_link_is_a_protocol_error_and_a_closed_link_is_none() -> None:
    ours, theirs = socket.socketpair()
    server = await Link.over(ours)
    theirs.sendall(b'{"type":"move","move":"a1b2","round":1,"ply":false}\n')
    with pytest.raises(ProtocolError, match="'ply' is true or false"):
        await asyncio.wait_for(server.receive(), 5)
    theirs.close()
    assert await asyncio.wait_for(server.receive(), 5) is None
    server.close()


def test_end_reasons_keep_the_values_stored_databases_hold() -> None:
    assert [reason.value for reason in EndReason] == ["won", "forfeit", "abandoned", "time", "aborted", "resigned"]
    assert RESULTS == ("won", "forfeit", "abandoned", "time", "aborted", "resigned")
    assert json.dumps(EndReason.ABANDONED) == '"abandoned"'


def test_how_a_match_ended_reads_from_each_side() -> None:
    assert EndReason.TIME.side_words(won=False) == "lost on time"
    assert EndReason.RESIGNED.side_words(won=True) == "won by resignation"
    assert EndReason.WON.side_words(won=False) == "lost on the board"
    assert EndReason.FORFEIT.side_words(won=False) == "lost by forfeit"
    assert EndReason.ABORTED.side_words(won=True) == "aborted"
    assert EndReason.RESIGNED.words == "won, by resignation"
