"""Quick matches and challenges on the child's side, at 80x24: the lobby's menu and settings whole with every entry,
the waiting dialog, the list of challenges and its keys, and what each sends; the server is the test, at the other
end of the child's link."""

from __future__ import annotations

import pytest
from textual.app import ComposeResult
from textual.widgets import Static

from soluna_tui.link.messages import ChallengeLine, MatchTerms
from soluna_tui.link.protocol import Link
from soluna_tui.online.screens.challenges import ChallengesScreen, challenge_words
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.online.screens.seeking import SeekingScreen, terms_words, waited_words
from soluna_tui.online.screens.waiting import WaitingScreen
from soluna_tui.rules import MatchOptions

from ..app.helpers import footer_keys, screen_text
from .test_child_app import FakeServer, settle, start, wait_for_screen

TERMS = {"options": MatchOptions.preset("online", stars_to_win=3).to_dict(),
         "clock": {"seconds": 180.0, "increment": 2.0}, "rated": True, "hints": False}
#: A keyed player's welcome from a server that pairs players and passes challenges on.
WELCOME = {"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300, "name": "ann", "rated": True,
           "name_chosen": True, "quick_match": True, "challenges": True}
#: Every entry the menu can have: a held seat, a computer match to resume, the name (a key), quick matches.
EVERY_ENTRY = ("Return to your match", "Resume computer match", "Play the computer", "Create a match",
               "Join a match by code", "Watch a match", "Leaderboard", "Your record", "Choose your name",
               "Find me an opponent", "Quit")


def test_terms_and_waits_read_as_a_line() -> None:
    terms = MatchTerms(MatchOptions.preset("online", stars_to_win=3).to_dict(), None, rated=False)
    assert terms_words(terms) == "online rules, 3 stars, 12 discs, no clock, unrated"
    assert terms_words(MatchTerms({"stars_to_win": "many"})) == "terms this version cannot read"
    assert (waited_words(7.9), waited_words(754), waited_words(-3)) == ("0:07", "12:34", "0:00")
    line = ChallengeLine(3, "bob", True, terms, 0.0, 1532)
    assert challenge_words(line) == "bob (1532) challenges you: online rules, 3 stars, 12 discs, no clock, unrated"
    assert challenge_words(ChallengeLine(4, "cyd", False, terms, 0.0, waiting=True)).endswith(
        "(cyd is at a match: told once back)")


async def test_the_lobby_shows_every_entry_and_setting_whole_at_80x24_and_asks_for_an_opponent() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(WELCOME)
        server.send({"type": "lobby", "matches": [
            {"code": "ABCD", "players": ["ann", "bob"], "round": 1, "stars": [0, 0], "watchers": 0,
             "away": [True, False], "yours": True, "held": 200.0}],
            "computer": {"level": "5", "round": 1, "stars": [0, 0], "needs_secret": False}})
        await wait_for_screen(pilot, app, LobbyScreen, "Find me an opponent")
        await settle(pilot)
        text = screen_text(app)
        assert all(entry in text for entry in EVERY_ENTRY), text
        assert "◂ yes (players with keys) ▸" in text and "◂ welcome ▸" in text
        assert "Your seat: ann vs bob" in text  # the list under them still shown
        await pilot.press("end", "up", "enter")
        seek = await server.expect("seek")
        assert seek["terms"]["rated"] is True and seek["terms"]["options"]["stars_to_win"] == 4
        server.answer(seek, {"type": "seeking", "since": 0.0})
        await wait_for_screen(pilot, app, SeekingScreen, "Waiting 0:0")
        text = screen_text(app)
        assert "box rules, 4 stars, 12 discs, no clock, rated." in text and footer_keys(app) == {
            "Stop waiting": True}
        await pilot.press("escape")
        await server.expect("cancel_seek")
        await wait_for_screen(pilot, app, LobbyScreen, "You stopped looking for an opponent.")


@pytest.mark.parametrize("news_first", [True, False], ids=["news-before-the-answer", "news-after-it"])
async def test_who_waits_unpaired_reaches_the_quick_match_dialog_whichever_comes_first(news_first) -> None:
    """The server's word on who waits on the same settings unpaired, and why, may come before the answer that opens
    the quick match's dialog (it went to the lobby's status, under the dialog, and was never read) or after it."""
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(WELCOME)
        await wait_for_screen(pilot, app, LobbyScreen, "Find me an opponent")
        await pilot.press("end", "up", "enter")
        seek = await server.expect("seek")
        why = {"type": "notice", "text": "dan waits on the same settings, rated: a guest's matches are unrated."}
        if news_first:
            server.send(why)
        server.answer(seek, {"type": "seeking", "since": 0.0})
        if not news_first:
            await wait_for_screen(pilot, app, SeekingScreen, "Waiting 0:0")
            server.send(why)
        await wait_for_screen(pilot, app, SeekingScreen, "dan waits on the same settings")
        assert "dan waits on the same settings" in str(app.screen.query_one("#seeking-news").render())


async def test_who_waits_unpaired_heard_once_the_dialog_is_composed_and_not_yet_mounted_is_shown() -> None:
    """Over SSH a guest's dialog showed two blank lines where the word on a rated seeker should be: the server sends
    a newcomer the answer and then the news at once, and the news came once the dialog was composed (its line
    empty) and before it was mounted (the line shown, still empty)."""
    why = "dan waits on the same settings, rated: a guest's matches are unrated."

    class NewsOnceComposed(SeekingScreen):
        def compose(self) -> ComposeResult:
            yield from super().compose()
            self.show_news(why)  # heard now: every widget made, none mounted

    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(WELCOME)
        await wait_for_screen(pilot, app, LobbyScreen, "Find me an opponent")
        await app.push_screen(NewsOnceComposed(MatchTerms(TERMS["options"], None, rated=False)))
        await wait_for_screen(pilot, app, NewsOnceComposed, "Waiting 0:0")
        assert why in str(app.screen.query_one("#seeking-news", Static).render())


async def test_a_new_challenge_is_a_notice_and_counted_and_c_lists_them_to_answer_or_withdraw() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(WELCOME)
        await wait_for_screen(pilot, app, LobbyScreen, "Find me an opponent")
        assert not footer_keys(app).get("Challenges")
        lines = [{"id": 3, "name": "bob", "incoming": True, "terms": TERMS, "sent_at": 0.0, "rating": 1532},
                 {"id": 4, "name": "cyd (guest)", "incoming": False, "terms": {**TERMS, "rated": False},
                  "sent_at": 0.0, "waiting": True}]
        server.send({"type": "challenges", "challenges": lines, "new": [3]})
        await wait_for_screen(pilot, app, LobbyScreen, "2 challenges (c)")  # the notice: over SSH, in test_pairing_e2e
        assert footer_keys(app)["Challenges"]
        await pilot.press("c")
        await wait_for_screen(pilot, app, ChallengesScreen, "You challenged cyd (guest)")
        text = " ".join(screen_text(app).replace("│", " ").split())  # each line read whole, wrapped in the frame
        assert "bob (1532) challenges you: online rules, 3 stars, 12 discs, 3+2 clock, rated" in text
        assert "(cyd (guest) is at a match: told once back)" in text
        assert footer_keys(app) == {"Accept": True, "Decline": True, "Back": True}  # bob's, to answer
        await pilot.press("down")
        await settle(pilot)
        assert footer_keys(app) == {"Withdraw": True, "Back": True}  # ann's own, to withdraw
        await pilot.press("w")
        assert (await server.expect("withdraw_challenge"))["id"] == 4
        await pilot.press("up", "d")
        assert (await server.expect("answer_challenge")) | {"ask": None} == {
            "type": "answer_challenge", "id": 3, "accept": False, "ask": None}
        server.send({"type": "challenges", "challenges": [], "new": []})
        await settle(pilot)
        assert "No challenges right now" in screen_text(app)
        assert footer_keys(app) == {"Back": True}  # nothing to accept, decline or withdraw
        await pilot.press("escape")
        await wait_for_screen(pilot, app, LobbyScreen)
        assert "challenge" not in screen_text(app).split("Welcome")[0]  # the count gone from the title


async def test_paired_at_once_the_match_created_says_the_opponent_is_joining_and_a_plain_one_gives_the_code() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(WELCOME)
        await wait_for_screen(pilot, app, LobbyScreen, "Find me an opponent")
        await pilot.press("end", "up", "enter")
        server.answer(await server.expect("seek"), {"type": "waiting", "code": "WXYZ"})
        await wait_for_screen(pilot, app, WaitingScreen, "Your opponent is joining")
        await pilot.press("escape")
        await server.expect("cancel")
        await wait_for_screen(pilot, app, LobbyScreen)
        await pilot.press("home", "down", "enter")  # Create a match
        server.answer(await server.expect("create"), {"type": "waiting", "code": "ABCD"})
        await wait_for_screen(pilot, app, WaitingScreen, "Tell it to your opponent")


async def test_a_key_pressed_before_the_server_offers_quick_matches_still_chooses_what_the_player_saw() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        await wait_for_screen(pilot, app, LobbyScreen, "Create a match")
        await pilot.press("down")  # "Create a match", before the server's word adds an entry to the menu
        server.send(WELCOME)
        await wait_for_screen(pilot, app, LobbyScreen, "Find me an opponent")
        await pilot.press("enter")
        assert (await server.expect("create"))["type"] == "create"
