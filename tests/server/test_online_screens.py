"""Who is online and who watches, on the child's side: the list the app keeps, the lines the lobby draws from it
(at 80x24, in the matches' place), and the tally's line of who watches; the server is the test, at the other end
of the child's link."""

from __future__ import annotations

import functools

from soluna_tui.link.messages import ONLINE_LISTED, Doing, OnlineChanges, OnlinePeople, OnlinePerson
from soluna_tui.link.protocol import Link
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.online.who_is_online import OnlineBook
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.game import GameScreen
from soluna_tui.widgets.people_list import PeopleList, person_line
from soluna_tui.widgets.row_list import RowList
from soluna_tui.widgets.tally import watching_text

from ..app.helpers import footer_keys, screen_text
from .test_child_app import FakeServer, match_message, settle, start, wait_for_screen

ANN = OnlinePerson(1, "ann", True, 1532, Doing.LOBBY)
BOB = OnlinePerson(2, "Bob", True, None, Doing.PLAYING, ("cyd (guest)",))
CYD = OnlinePerson(3, "cyd (guest)", False, None, Doing.PLAYING, ("Bob",))


def wire(person: OnlinePerson) -> dict:
    return {"id": person.id, "name": person.name, "keyed": person.keyed, "rating": person.rating,
            "doing": person.doing.value, "others": list(person.others)}


def test_the_book_takes_the_whole_list_then_its_changes_this_player_first_then_by_name() -> None:
    book = OnlineBook()
    book.take(OnlinePeople((CYD, BOB, ANN), 3, you=3))
    assert book.people == (CYD, ANN, BOB) and book.total == 3
    dan = OnlinePerson(4, "dan", False, None, Doing.WATCHING, ("Bob", "cyd (guest)"))
    book.apply(OnlineChanges((dan, OnlinePerson(1, "ann", True, 1540, Doing.COMPUTER, ("5",))), (2,), 3))
    assert [person.name for person in book.people] == ["cyd (guest)", "ann", "dan"]
    assert book.people[1].rating == 1540 and book.total == 3
    book.apply(OnlineChanges((), (99,), 3))  # someone never listed here: nothing to take out
    assert len(book.people) == 3


def test_the_book_keeps_no_more_people_than_the_server_lists() -> None:
    book = OnlineBook()
    crowd = tuple(OnlinePerson(number, f"p{number}", False, None, Doing.LOBBY) for number in range(ONLINE_LISTED))
    book.take(OnlinePeople(crowd, ONLINE_LISTED + 50))
    book.apply(OnlineChanges((OnlinePerson(999, "late", False, None, Doing.LOBBY),
                              OnlinePerson(5, "p5", True, 1200, Doing.LOBBY)), (), ONLINE_LISTED + 51))
    assert len(book.people) == ONLINE_LISTED and "late" not in {person.name for person in book.people}
    assert next(person for person in book.people if person.id == 5).rating == 1200  # a change, not a newcomer


def test_a_person_s_line_says_who_their_rating_and_what_they_do_in_the_width_given() -> None:
    assert person_line(ANN, you=True) == f"{'ann (you)':22}  1532  in the lobby"
    assert person_line(BOB, you=False).endswith("  new  playing cyd (guest)")
    assert person_line(CYD, you=False).endswith("guest  playing Bob")
    watching = OnlinePerson(5, "abcdefghijklmnop", True, 1000, Doing.WATCHING,
                            ("abcdefghijklmnop", "qrstuvwxyzabcdef"))
    assert person_line(watching, you=True, width=64) == (
        "abcdefghijklmnop (you)  1000  watching abcdefghijklmnop vs qrst…")  # what they do is cut, not who
    longer = OnlinePerson(8, "abcdefghijklmnop (guest)", False, None, Doing.LOBBY)
    assert person_line(longer, you=True).startswith("abcdefghijklmno… (you) guest")
    computer = OnlinePerson(6, "eve", False, None, Doing.COMPUTER, ("5",))
    assert person_line(computer, False).endswith("playing the computer at level 5")
    assert person_line(OnlinePerson(7, "fay", True, 999, Doing.WAITING), False).endswith("waiting for an opponent")
    assert person_line(watching, True, 30, ellipsis="...").endswith("...") and len(person_line(watching, True, 30,
                                                                                                ellipsis="...")) == 30


def test_who_watches_names_as_many_as_fit_and_counts_the_others() -> None:
    assert watching_text(1, ("eve",), 26) == "1 watching: eve"
    assert watching_text(4, ("eve", "fay", "abcdefghijklmnop"), 26) == "4 watching: eve, fay +2"
    assert watching_text(2, (), 26) == "2 watching"  # both hide: counted, not named
    assert watching_text(3, ("abcdefghijklmnop",), 12) == "3 watching"


async def test_the_lobby_lists_who_is_online_in_the_matches_place_at_80x24_and_counts_them_in_its_title() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300, "name": "ann", "rated": True,
                     "name_chosen": True})
        entries = [{"code": code, "players": [f"p{index}", f"q{index}"], "round": 1, "stars": [0, 0], "watchers": 1,
                    "away": [False, False], "yours": index == 0} for index, code in enumerate(("ABCD", "EFGH"))]
        server.send({"type": "lobby", "matches": entries,
                     "computer": {"level": "5", "round": 1, "stars": [0, 0], "needs_secret": False}})
        crowd = [OnlinePerson(10 + number, f"z{number:02}", False, None, Doing.LOBBY) for number in range(40)]
        server.send({"type": "online", "people": [wire(each) for each in (CYD, BOB, ANN, *crowd)], "total": 43,
                     "you": 1})
        await wait_for_screen(pilot, app, LobbyScreen, "Soluna · 43 online")
        people = app.lobby.query_one(PeopleList)
        assert "Matches in play" in screen_text(app) and people.option_count == 0  # drawn once asked for
        assert footer_keys(app)["Who is online"]
        await pilot.press("o")
        await settle(pilot)
        text = screen_text(app)
        assert app.focused is people  # arrows choose someone at once
        assert "Who is online (43)" in text and "p1 vs q1" not in text
        assert "ann (you)" in text and text.index("ann (you)") < text.index("Bob") < text.index("cyd (guest)")
        assert "Resume computer match" in text and "Choose your name" in text and "tab Next field" in text
        assert footer_keys(app)["Matches"] and "Who is online" not in footer_keys(app)
        assert footer_keys(app)["Challenge"]  # what Enter does on the list
        server.send({"type": "online_changes", "came": [wire(OnlinePerson(2, "Bob", True, 1100, Doing.LOBBY))],
                     "went": [3], "total": 42})
        await wait_for_screen(pilot, app, LobbyScreen, "Soluna · 42 online")  # news: drawn at its moment
        text = screen_text(app)
        assert "cyd (guest)" not in text and "1100  in the lobby" in text and "Soluna · 42 online" in text
        await pilot.press("escape", *("tab",) * 8, "right")  # from the menu, the Online list setting: hide me
        await settle(pilot)
        assert "Who is online (42): you are hidden" in screen_text(app)
        assert (await server.expect("keep_choices"))["choices"]["hidden"] is True
        await pilot.press("o")
        await settle(pilot)
        assert "p1 vs q1: round 1, stars 0-0, 1 watching" in screen_text(app)
        app.lobby.watch_from_list()
        await settle(pilot)
        assert footer_keys(app)["Watch"] and "Challenge" not in footer_keys(app)


async def in_the_lobby_alone(pilot, app, ours) -> FakeServer:
    """The server's end of the link, once the lobby shows with this player (ann) alone online."""
    server = FakeServer(await Link.over(ours))
    server.send({"type": "lobby", "matches": []})
    server.send({"type": "online", "people": [wire(ANN)], "total": 1, "you": 1})
    await wait_for_screen(pilot, app, LobbyScreen, "Soluna · 1 online")
    return server


async def test_the_tally_says_who_watches_without_a_notice_over_the_board() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        await pilot.press("down", "down", "enter", "k", "q", "x", "p", "enter")
        await server.expect("join")
        match = Match(MatchOptions(), ("bob", "ann"), seed=3)
        server.send(match_message(match, 1, code="KQXP"))
        await wait_for_screen(pilot, app, GameScreen, "Waiting for bob.")
        before = screen_text(app)
        server.send({"type": "spectators", "code": "WXYZ", "count": 5, "names": ["zed"]})  # not this match
        server.send({"type": "spectators", "code": "KQXP", "count": 3, "names": ["eve", "fay"]})
        await settle(pilot)
        text = screen_text(app)
        assert "3 watching: eve, fay +1" in text and "zed" not in text
        assert text.splitlines()[-5:] == before.splitlines()[-5:]  # under the board as it was: no notice
        server.send({"type": "spectators", "code": "KQXP", "count": 0, "names": []})
        await settle(pilot)
        assert "watching" not in screen_text(app)


async def test_the_lobby_s_news_waits_under_a_match_and_shows_when_the_lobby_does() -> None:
    """Under a match the lobby is not drawn (Textual passes a change to the screen under the one in front on to that
    one, which then repainted whole: every change of who is online repainted every match); what changed meanwhile
    is drawn when the lobby shows again."""
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = await in_the_lobby_alone(pilot, app, ours)
        app.following = "WXYZ"
        server.send(match_message(Match(seed=2), None, code="WXYZ", notice="You are watching."))
        await wait_for_screen(pilot, app, GameScreen)
        entry = {"code": "ABCD", "players": ["p0", "q0"], "round": 1, "stars": [0, 0], "watchers": 0,
                 "away": [False, False], "yours": False}
        server.send({"type": "lobby", "matches": [entry]})
        server.send({"type": "online_changes", "came": [wire(BOB)], "total": 2})
        await settle(pilot)
        lobby = app.lobby
        assert lobby.online_total == 2 and len(lobby.matches) == 1  # told, and kept
        assert lobby.query_one("#lobby-matches", RowList).option_count == 0  # not drawn under the match
        assert "2 online" not in str(lobby.query_one("#lobby").border_title)
        await pilot.press("n")
        await server.expect("leave")
        await wait_for_screen(pilot, app, LobbyScreen, "Soluna · 2 online")
        assert "p0 vs q0: round 1" in screen_text(app)


async def test_who_is_online_asked_for_before_the_server_says_takes_the_focus_when_it_comes() -> None:
    """``o`` at once on arrival, before the list has come: the list is focused when it comes (arrows and Enter
    then choose someone), unless the player has moved the focus meanwhile."""
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({"type": "lobby", "matches": []})
        await wait_for_screen(pilot, app, LobbyScreen, "None right now.")
        await pilot.press("o")
        await settle(pilot)
        assert "Nobody else is listed right now." in screen_text(app)
        server.send({"type": "online", "people": [wire(ANN), wire(BOB)], "total": 2, "you": 1})
        await settle(pilot)
        assert app.focused is app.lobby.query_one(PeopleList)


async def test_news_from_others_is_drawn_at_the_lobbys_own_moments_whatever_came_meanwhile_at_once() -> None:
    """Every lobby hears a change of who is online in the same instant: each draws it at the next of its own moments,
    ``ONLINE_EVERY`` seconds apart, what came meanwhile drawn together (fifty lobbies drawing each change at once held
    the moves of the matches in play behind them)."""
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = await in_the_lobby_alone(pilot, app, ours)
        lobby, drawn = app.lobby, []
        draw_online = lobby._draw_online

        @functools.wraps(draw_online)
        def counted() -> None:
            drawn.append(lobby.online_total)
            draw_online()

        lobby._draw_online = counted
        server.send({"type": "online_changes", "came": [wire(BOB)], "total": 2})
        await wait_for_screen(pilot, app, LobbyScreen, "Soluna · 2 online")  # within ONLINE_EVERY
        dan = OnlinePerson(4, "dan", False, None, Doing.LOBBY)
        for change in ({"came": [wire(CYD)], "total": 3}, {"came": [], "went": [3], "total": 2},
                       {"came": [wire(CYD), wire(dan)], "total": 4}):  # each a message of its own, heard in turn
            server.send({"type": "online_changes", **change})
        await wait_for_screen(pilot, app, LobbyScreen, "Soluna · 4 online")
        assert drawn == [2, 4]  # the three changes that came before the lobby's next moment, drawn once
