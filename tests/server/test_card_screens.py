"""Player cards, tells and the tally's ratings on the child's side (issue 42): ``i`` on a name in who is online or
the leaderboard, ``I`` at a match, asks the server for the card by the number it tells the player by; the card shows
the rating and its graph, the records, the recent matches (Enter replays one), and ``t`` begins a tell; a tell heard
is a line of the talk and a notice; a keyed player's rating stands beside their name in the tally. The server is the
test, at the other end of the child's link."""

from __future__ import annotations

from soluna_tui.link.messages import Doing, OnlinePerson, PlayerCard
from soluna_tui.link.protocol import Link
from soluna_tui.online.screens.leaderboard import LeaderboardScreen
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.online.screens.lobby_wish import ShowLeaderboard
from soluna_tui.online.screens.player_card import PlayerCardScreen, card_text, rating_graph
from soluna_tui.play.chat_book import Explain, Tell, typed
from soluna_tui.play.where import Where, help_keys
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.replay import ReplayScreen

from ..app.helpers import screen_text
from .test_child_app import FakeServer, match_message, settle, start, wait_for_screen
from .test_online_screens import wire

ANN = OnlinePerson(1, "ann", True, 1532, Doing.LOBBY)
BOB = OnlinePerson(7, "bob", True, 1610, Doing.LOBBY)
FINISHED = Match(MatchOptions(discs=4, stars_to_win=1), ("bob", "ann"), seed=3)
RECENT = {"id": 41, "opponent": "ann", "result": "won", "forfeit": False, "stars": [1, 0],
          "finished_at": 1_790_000_000.0, "ended": "won", "rating": [1588, 1610]}
CARD = {"type": "card", "person": 7, "name": "bob", "keyed": True, "rating": 1610, "rank": 3, "played": 12,
        "won": 7, "lost": 5, "graph": [1500, 1540, 1520, 1588, 1610], "against_you": [2, 1], "recent": [RECENT],
        "member_since": 1_780_000_000.0}


def test_the_graph_is_one_line_of_heights_in_blocks_or_in_ascii() -> None:
    assert rating_graph((1500, 1540, 1520, 1588, 1610)) == "▁▄▂▇█"
    assert rating_graph((1500, 1540, 1520, 1588, 1610), ascii_mode=True) == "_-.*#"
    assert rating_graph((1500, 1500)) == "▅▅" and rating_graph(()) == ""


def test_the_tell_command_names_whom_and_what() -> None:
    assert typed("/tell bob see you at eight") == Tell("bob", "see you at eight")
    assert typed("/t Bob  hi ") == Tell("Bob", "hi")
    assert isinstance(typed("/tell bob"), Explain) and isinstance(typed("/tell"), Explain)
    assert "/tell NAME TEXT" in typed("/kick bob").text


async def test_i_on_someone_online_shows_their_card_enter_replays_a_match_and_t_begins_a_tell() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300, "name": "ann", "rated": True,
                     "name_chosen": True})
        server.send({"type": "online", "people": [wire(ANN), wire(BOB)], "total": 2, "you": 1})
        await wait_for_screen(pilot, app, LobbyScreen, "2 online")
        await pilot.press("o")
        await settle(pilot)
        await pilot.press("down", "i")  # bob, below this player's own line
        asked = await server.expect("card")
        assert asked["person"] == 7
        await wait_for_screen(pilot, app, PlayerCardScreen, "Card: bob")
        server.answer(asked, CARD)
        await wait_for_screen(pilot, app, PlayerCardScreen, "rank 3")
        text = screen_text(app)
        assert "bob: rating 1610, rank 3." in text and "▁▄▂▇█  1500 to 1610 over 4 rated matches" in text
        assert "12 rated matches: 7 won, 5 lost." in text and "Against you: 2 won, 1 lost." in text
        assert "Known here since 2026-05-28." in text and "vs ann: won on the board, stars 1-0" in text
        await pilot.press("enter")
        replay = await server.expect("finished_match")
        assert replay["id"] == 41
        server.answer(replay, {"type": "finished_match", "id": 41, "players": ["bob", "ann"], "result": "won",
                               "finished_at": 1_790_000_000.0, "match": FINISHED.to_dict()})
        await wait_for_screen(pilot, app, ReplayScreen)
        await pilot.press("escape")
        await wait_for_screen(pilot, app, PlayerCardScreen)
        await pilot.press("t")
        await wait_for_screen(pilot, app, LobbyScreen)
        await settle(pilot)
        await pilot.press(*"at eight?", "enter")
        told = await server.expect("tell")
        assert (told["name"], told["text"]) == ("bob", "at eight?")
        server.send({"type": "chat", "room": "lobby", "lines": [
            {"id": 3, "room": "lobby", "speaker": 2, "name": "bob", "text": "at eight?", "at": 1.0, "yours": True,
             "tell": True},
            {"id": 4, "room": "lobby", "speaker": 5, "name": "bob", "text": "deal", "at": 2.0, "tell": True}]})
        await settle(pilot)
        await pilot.pause(1.1)  # the lobby draws others' talk as news, once a second
        text = screen_text(app)
        assert "to bob: at eight?" in text and "bob tells you: deal" in text


async def test_i_on_the_leaderboard_and_a_card_refused_in_one_line() -> None:
    app, ours = await start()
    async with app.run_test(size=(40, 20)) as pilot:
        server = FakeServer(await Link.over(ours))
        await wait_for_screen(pilot, app, LobbyScreen)
        app.lobby.post_message(ShowLeaderboard())
        asked = await server.expect("leaderboard")
        server.answer(asked, {"type": "leaderboard", "offset": 0, "total": 1, "rows": [
            {"rank": 1, "name": "bob", "rating": 1610, "played": 12, "won": 7, "person": 7}]})
        await wait_for_screen(pilot, app, LeaderboardScreen, "bob")
        await pilot.press("i")
        card = await server.expect("card")
        assert card["person"] == 7
        server.answer(card, {"type": "error", "text": "That player is not known here any more."})
        await wait_for_screen(pilot, app, PlayerCardScreen, "not known here any")


async def test_the_tally_shows_a_keyed_player_s_rating_and_capital_i_asks_for_the_opponent_s_card() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        await pilot.press("down", "down", "enter", "k", "q", "x", "p", "enter")
        await server.expect("join")
        match = Match(MatchOptions(), ("bob", "ann"), seed=3)
        server.send(match_message(match, 1, code="KQXP"))
        await wait_for_screen(pilot, app, GameScreen, "Waiting for bob.")
        assert "1610" not in screen_text(app)
        server.send({"type": "seat_people", "code": "KQXP", "seats": [
            {"person": 7, "keyed": True, "rating": 1610}, {"person": 9, "keyed": False, "rating": None}]})
        await settle(pilot)
        assert "bob 1610" in screen_text(app) and "ann (you)" in screen_text(app)
        await pilot.press("I")
        asked = await server.expect("card")
        assert asked["person"] == 7
        server.answer(asked, CARD)
        await wait_for_screen(pilot, app, PlayerCardScreen, "rank 3")
        await pilot.press("i")  # the other player at the table: this one
        assert (await server.expect("card"))["person"] == 9


def test_a_guest_s_card_is_short() -> None:
    assert card_text(PlayerCard(9, "zed", False, played=2, won=1, lost=1)) == (
        "zed: a guest, unrated.\nThis visit: 2 matches finished, 1 won, 1 lost.")


def test_the_help_lists_the_card_s_keys_and_tell_over_ssh_and_not_on_this_terminal() -> None:
    assert "i" in dict(help_keys(Where.LOBBY)) and "/tell NAME TEXT" in dict(help_keys(Where.LOBBY))
    for where in (Where.MATCH_OVER_SSH, Where.WATCHING):
        assert "I (shift+i)" in dict(help_keys(where))
    assert "I (shift+i)" not in dict(help_keys(Where.COMPUTER_OVER_SSH)) | dict(help_keys(Where.TERMINAL))
