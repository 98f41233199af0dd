"""Cards and tells in the lobby in lines (issue 42), without a server: finger NAME asks for the card of someone
online or on the leaderboard page read by the number the server tells them by, and says it in a few lines; tell NAME
TEXT sends a tell; a tell heard is said with who told it."""

from __future__ import annotations

from soluna_tui.link.messages import (
    AskCard,
    Chat,
    ChatLine,
    LeaderboardPage,
    LeaderboardRow,
    PlayerCard,
    RecentMatch,
    SideResult,
    TellPerson,
)
from soluna_tui.link.safe_talk import Room
from soluna_tui.rules.end_reason import EndReason

from .test_line_lobby import Heard


def test_finger_asks_for_a_card_by_the_number_the_server_gives_and_says_it_in_a_few_lines() -> None:
    heard = Heard()
    assert heard.type("finger BOB") == [] and heard.sent == [AskCard(2)]
    assert heard.type("card zed")[0].startswith("No one called zed is online") and heard.sent == []
    heard.hear(LeaderboardPage(0, 1, (LeaderboardRow(1, "zed", 1700, 30, 20, person=9),)))
    heard.type("card zed")
    assert heard.sent == [AskCard(9)]
    recent = RecentMatch(41, "ann", SideResult.WON, False, (1, 0), 1_790_000_000.0, ended=EndReason.WON,
                         rating=(1588, 1610))
    said = heard.hear(PlayerCard(2, "bob", True, 1610, 3, 12, 7, 5, (1500, 1540, 1520, 1588, 1610), (2, 1),
                                 (recent,), 1_780_000_000.0))
    assert said == ["bob: rating 1610, rank 3.", "Rating 1500 to 1610 over 4 rated matches, between 1500 and 1610.",
                    "12 rated matches: 7 won, 5 lost.", "Against you: 2 won, 1 lost.", "Known here since 2026-05-28.",
                    "Recent matches:", "2026-09-21 14:13  vs ann: won on the board, stars 1-0, rating 1610 (+22)."]
    assert heard.type("finger")[0].startswith("Whose card?")


def test_tell_sends_a_line_to_one_person_and_a_tell_heard_says_who_told_it() -> None:
    heard = Heard()
    assert heard.type("tell bob see you at eight") == [] and heard.sent == [TellPerson("bob", "see you at eight")]
    assert heard.type("tell bob")[0].startswith("Tell whom what?") and heard.sent == []
    said = heard.type("tell bob " + "x" * 350)  # one "Not ..." (it said "Not told: Not sent: 350 characters")
    assert len(said) == 1 and said[0].startswith("Not told: 350 characters;") and heard.sent == []
    said = heard.hear(Chat(Room.LOBBY, (ChatLine(3, Room.LOBBY, 2, "bob", "see you at eight", 1.0, yours=True,
                                                 tell=True),
                                        ChatLine(4, Room.LOBBY, 5, "bob", "deal", 2.0, tell=True))))
    assert said == ["You tell bob: see you at eight", "bob tells you: deal"]
