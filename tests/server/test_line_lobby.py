"""The lobby in lines (``online/line_lobby.py``) without a server: the server's messages in, typed lines in, the
requests it sends and the lines it says out, read one by one. The SSH side is ``test_screen_reader_e2e.py``."""

from __future__ import annotations

from collections.abc import Callable

from soluna_tui.link.messages import (
    AnswerChallenge,
    AskFinishedMatch,
    AskLeaderboard,
    CancelSeek,
    ChallengeLine,
    ChallengePerson,
    Challenges,
    Chat,
    ChatLine,
    Doing,
    FinishedMatch,
    LeaderboardPage,
    LeaderboardRow,
    LeaveMatch,
    ListedMatch,
    MatchState,
    MatchTerms,
    Moved,
    MuteChat,
    OnlinePeople,
    OnlinePerson,
    PlayerRecord,
    PlayMove,
    RecentMatch,
    ReportChat,
    Request,
    Say,
    Seek,
    SideResult,
    Standing,
    WatchMatch,
    Welcome,
)
from soluna_tui.link.messages import LobbyListing as Listing
from soluna_tui.link.safe_talk import Room
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.online.line_lobby import LineLobby
from soluna_tui.rules import MatchOptions
from soluna_tui.rules.end_reason import EndReason
from soluna_tui.rules.solver import Budget

BOB = OnlinePerson(2, "bob", False, None, Doing.LOBBY)
ANN = OnlinePerson(1, "ann", False, None, Doing.LOBBY)
TERMS = MatchTerms(MatchOptions.preset("box", stars_to_win=1, discs=6).to_dict())


class AtOnce:
    """A runner that answers at once on the caller's thread; timers are kept, never fired."""

    def solve(self, job: Callable[[Budget], object], seconds: float | None,
              done: Callable[[object | None], None]) -> Callable[[], None]:
        done(job(Budget(seconds)))
        return lambda: None

    def later(self, seconds: float, then: Callable[[], None]) -> Callable[[], None]:
        return lambda: None


class Heard:
    """The lobby, what it sent and what it said since the last look."""

    def __init__(self) -> None:
        self.sent: list[Request] = []
        self.said: list[str] = []
        self.lobby = LineLobby("ann", self.sent.append, self.said.extend, AtOnce())
        self.lobby.heard(Welcome("SECRET", 300.0, name="ann", rated=False))
        self.lobby.heard(OnlinePeople((ANN, BOB), 2, you=1))

    def type(self, line: str) -> list[str]:
        self.said.clear()
        self.sent.clear()
        self.lobby.take(line)
        return list(self.said)

    def hear(self, *messages) -> list[str]:
        self.said.clear()
        for message in messages:
            self.lobby.heard(message)
        return list(self.said)


def test_the_lobby_welcomes_with_its_numbered_menu_and_a_number_does_what_its_word_does() -> None:
    heard = Heard()
    welcome = Heard().said
    assert welcome[0] == "Welcome, ann: Soluna in lines, as a guest."
    assert [line.split(".")[0] for line in welcome[2:]] == [str(number) for number in (*range(1, 10), 0)]
    assert heard.type("2") == ["Looking for an opponent..."] and isinstance(heard.sent[0], Seek)
    assert heard.lobby.prompt == "Looking for an opponent> "
    assert heard.type("cancel") == ["You stopped looking for an opponent."] and heard.sent == [CancelSeek()]
    assert heard.lobby.prompt == "Lobby> "
    assert heard.type("5") == heard.type("who") == ["2 people online:", "ann (you, guest), in the lobby.",
                                                      "bob (guest), in the lobby."]


def test_every_bad_line_is_answered_in_one_line_that_says_what_works_and_sends_nothing() -> None:
    heard = Heard()
    for line in ("xyzzy", "challenge", "challenge nobody", "watch", "watch 9", "accept", "accept 3", "decline 2",
                 "join", "join ABCDE", "join 12",
                 "withdraw", "stars 99", "discs x", "rules chess", "computer 11", "resume", "cancel", "say",
                 "return", "say " + "a" * 2000):
        said = heard.type(line)
        assert len(said) == 1, (line, said)
        assert heard.sent == [], (line, heard.sent)
    assert heard.type("xyzzy") == ["I do not know 'xyzzy': type a number or a word from the menu, or help."]
    assert heard.type("watch 9") == ["No match in play to watch."]
    assert heard.type("computer 11")[0].startswith("There is no level 11: type computer and a level from 1 to 10")


def test_talk_is_told_with_its_speaker_as_it_comes_and_what_was_said_before_is_read_back_on_asking() -> None:
    heard = Heard()
    before = ChatLine(1, Room.LOBBY, 2, "bob", "earlier", 0.0)
    assert heard.hear(Chat(Room.LOBBY, (before,), whole=True)) == []  # the room so far: not read out at once
    line = ChatLine(2, Room.LOBBY, 2, "bob", "hello", 1.0)
    assert heard.hear(Chat(Room.LOBBY, (line,))) == ["bob says: hello"]
    assert heard.type("talk") == ["bob says: earlier", "bob says: hello"]
    assert heard.type("say hi all") == [] and heard.sent == [Say("hi all")]
    mine = ChatLine(3, Room.LOBBY, 1, "ann", "hi all", 2.0, yours=True)
    assert heard.hear(Chat(Room.LOBBY, (mine,))) == ["You said: hi all"]
    # The server's line as it is (a refusal says "not sent" itself; a mute's or a report's outcome comes so too).
    assert heard.hear(Chat(Room.LOBBY, (), refused="Slow down: not sent.")) == ["Slow down: not sent."]


def test_a_talker_is_muted_heard_again_and_reported_by_name_as_on_the_full_screen() -> None:
    heard = Heard()
    heard.hear(Chat(Room.LOBBY, (ChatLine(1, Room.LOBBY, 2, "bob", "buy gold", 0.0),)))
    assert heard.type("report nobody") == ["No line of nobody's is shown here to report."] and heard.sent == []
    assert heard.type("report Bob") == [] and heard.sent == [ReportChat(1)]  # the server says what came of it
    assert heard.type("mute bob") == ["Muted bob (unmute bob undoes it)."] and heard.sent == [MuteChat(2, True)]
    assert heard.hear(Chat(Room.LOBBY, (ChatLine(2, Room.LOBBY, 2, "bob", "more gold", 1.0),))) == []
    assert heard.type("talk") == ["No talk here yet. Type say and a line to talk."]
    assert heard.type("unmute bob") == ["You hear bob again."] and heard.sent == [MuteChat(2, False)]
    assert heard.type("mute") == ["All talk muted (unmute undoes it)."] and heard.sent == [MuteChat(None, True)]
    # cyd has not talked: the server mutes them if they are online, or says nobody of that name is.
    assert heard.type("mute cyd") == [] and heard.sent == [MuteChat(None, True, name="cyd")]
    assert heard.type("report") == ["Whose line? Type report and their name: their last line goes to the server's "
                                    "owner."]


def test_a_challenge_is_sent_by_name_and_one_that_comes_is_told_and_accepted_by_its_number() -> None:
    heard = Heard()
    assert heard.type("challenge BOB") == [] and heard.sent == [ChallengePerson(2, heard.lobby._terms())]
    incoming = ChallengeLine(7, "bob", True, TERMS, 0.0)
    assert heard.hear(Challenges((incoming,), new=(7,))) == [  # BEL first: the terminal's bell rings
        "\abob challenges you: box rules, 1 star, 6 discs, no clock, unrated. Type accept to play, or decline."]
    assert heard.type("challenges") == ["1. bob challenges you: box rules, 1 star, 6 discs, no clock, unrated.",
                                        "Type accept 1 or decline 1 for a challenge to you, withdraw 1 for one of "
                                        "yours."]
    assert heard.type("withdraw 1") == ["No challenge from you numbered 1. Type challenges for the list."]
    assert heard.type("accept 1") == ["Accepting bob's challenge..."] and heard.sent == [AnswerChallenge(7, True)]


def test_a_match_watched_by_its_number_tells_every_move_and_lobby_leaves_it() -> None:
    heard = Heard()
    heard.hear(Listing((ListedMatch("ABCD", ("bob", "cyd"), 1, (0, 0), 0, (False, False)),)))
    assert heard.type("matches") == ["1 match in play:", "1: bob against cyd, round 1, stars 0 to 0.",
                                     "Type watch and a number to watch one."]
    heard.type("watch 1")
    assert heard.sent == [WatchMatch("ABCD")]
    match = MatchSetup(MatchOptions.preset("box", stars_to_win=1, discs=6), ("bob", "cyd"), seed=3).new_match()
    said = heard.hear(MatchState("ABCD", 0, None, match.to_dict(), notice="You are watching: n returns to the lobby."))
    assert said[0] == "Soluna. bob against cyd: box rules, 6 discs, 1 star to win, no hints."
    assert said[1].startswith("Watching match ABCD: say TEXT talks") and "n returns" not in " ".join(said)
    move = match.position.legal_moves[0]
    placed = match.round.table.resolve(move)
    said = heard.hear(Moved("ABCD", 1, 1, 0, str(placed)))
    assert said == [f"bob: {said[0].removeprefix('bob: ')}"] and f"({move})" in said[0]
    assert heard.type("help")[-1] == ("Here also: say TEXT talks, talk reads the last lines, mute NAME, unmute NAME "
                                      "and report NAME as in the lobby, lobby goes back to the lobby.")
    heard.type(f"{placed.mover_slot + 1}>{placed.target_slot + 1}")
    assert not any(isinstance(request, PlayMove) for request in heard.sent)  # a spectator moves nothing
    assert heard.type("lobby")[0] == "Back in the lobby." and heard.sent == [LeaveMatch("ABCD")]
    assert heard.lobby.prompt == "Lobby> "


def test_who_before_the_list_has_come_says_it_is_on_its_way() -> None:
    said: list[str] = []
    lobby = LineLobby("ann", lambda request: None, said.extend, AtOnce())
    lobby.take("who")
    assert said == ["The list of who is online is on its way: type who again in a moment."]


def test_the_leaderboard_is_told_a_row_a_line_with_the_player_s_own_standing_and_the_next_page() -> None:
    heard = Heard()
    assert heard.type("leaderboard 0") == ["Type leaderboard, or leaderboard and a rank to start from, like "
                                           "leaderboard 21."]
    heard.type("leaderboard 21")
    assert heard.sent == [AskLeaderboard(20)]
    rows = tuple(LeaderboardRow(rank, f"p{rank}", 1600 - rank, 10, 6) for rank in (21, 22))
    said = heard.hear(LeaderboardPage(20, 30, rows, you=Standing(rank=22, rating=1578), minimum=5))
    assert said == ["The leaderboard, ranks 21 to 22 of 30 (players with at least 5 rated matches):",
                    "21. p21, rating 1579, 10 played, 6 won.", "22. p22, rating 1578, 10 played, 6 won.",
                    "You: rank 22, rating 1578.", "Type leaderboard 23 for the next ones."]


def test_a_recent_match_is_replayed_from_the_record_move_by_move_and_lobby_leaves_it() -> None:
    heard = Heard()
    assert heard.type("replay 1") == ["Type record first: it numbers your recent matches, and replay 1 replays the "
                                      "first."]
    won = RecentMatch(4, "bob", SideResult.WON, False, (1, 0), 1_790_000_000.0, ended=EndReason.WON)
    said = heard.hear(PlayerRecord("ann", False, None, None, 1, 1, 0, recent=(won,)))
    assert said[-2] == "Recent matches (replay 1 replays the first, move by move):"
    assert said[-1].startswith("1. ") and "vs bob: won" in said[-1]
    assert heard.type("replay 2") == ["Type replay and a number from 1 to 1, as record numbered your matches."]
    assert heard.type("replay 1") == [] and heard.sent == [AskFinishedMatch(4)]
    match = MatchSetup(MatchOptions.preset("box", stars_to_win=1, discs=6), ("ann", "bob"), seed=3).new_match()
    while not match.is_over:
        match.play(match.position.legal_moves[0])
    said = heard.hear(FinishedMatch(4, ("ann", "bob"), EndReason.WON, 1_790_000_000.0, match.to_dict()))
    assert said[0].startswith("Replaying match #4, ann against bob: ")
    assert said[2].startswith("Round 1, ann opens. ")
    assert heard.lobby.prompt == f"Replay, move 0 of {match.round.ply}> "
    placed = match.round.placed_at(0)
    assert heard.type("")[0] == f"ann: {heard.said[0].removeprefix('ann: ')}" and f"({placed.move})" in heard.said[0]
    assert heard.lobby.prompt == f"Replay, move 1 of {match.round.ply}> "
    assert heard.type("lobby") == ["Back in the lobby."] and heard.lobby.prompt == "Lobby> "
