"""The child's side of issue 10's contract: names, the leaderboard, the record, replays of server matches."""

from __future__ import annotations

from soluna_tui.link.messages import REPLIES, LobbyChoices, PlayerRecord, RecentMatch, SideResult
from soluna_tui.link.protocol import Link
from soluna_tui.link.wire import from_wire
from soluna_tui.online.screens.choose_name import ChooseNameScreen
from soluna_tui.online.screens.leaderboard import LeaderboardScreen
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.online.screens.record import RecordScreen, summary_of
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.rules.clock import ClockSetting
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.help import HelpScreen
from soluna_tui.screens.replay import ReplayScreen

from ..app.helpers import footer_keys, screen_text
from .test_child_app import FakeServer, settle, start, wait_for_screen

LEADERBOARD_KEY = "down", "down", "down", "down", "enter"   # the fifth entry of the menu
RECORD_KEY = "down", "down", "down", "down", "down", "enter"


def welcome(name: str = "ann", rated: bool = True, chosen: bool = True) -> dict:
    return {"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300, "name": name, "rated": rated,
            "name_chosen": chosen}


def leaderboard_page(offset: int, total: int, you: dict | None) -> dict:
    rows = [{"rank": rank, "name": f"p{rank}", "rating": 2000 - rank, "played": 10 + rank, "won": rank}
            for rank in range(offset + 1, min(offset + 20, total) + 1)]
    return {"type": "leaderboard", "offset": offset, "total": total, "rows": rows, "you": you}



def test_a_keyed_player_s_record_counts_its_rated_matches_and_says_so() -> None:
    """Tried over SSH: annie, keyed, had just lost an unrated match to bob; her record said "annie: rating -, not
    ranked yet." and "0 matches played: 0 won, 0 lost." over that very match (a keyed player's counts are of rated
    matches). It now says what it counts, and a rating not had yet in words."""
    lost = RecentMatch(4, "bob", SideResult.LOST, False, (0, 0), 1_790_000_000.0)
    annie = PlayerRecord("annie", True, None, None, 0, 0, 0, recent=(lost,))
    assert summary_of(annie) == ("annie: no rating yet (a rated match gives one).\n"
                                 "0 rated matches played: 0 won, 0 lost.")
    rated = PlayerRecord("ann", True, 1532, None, 1, 1, 0)
    assert summary_of(rated) == "ann: rating 1532, not ranked yet.\n1 rated match played: 1 won, 0 lost."
    guest = PlayerRecord("gus", False, None, None, 1, 0, 1, recent=(lost,))  # a guest's are all its matches
    assert summary_of(guest).endswith("\n1 match played: 0 won, 1 lost.")

async def test_a_keyed_player_without_a_name_chooses_one_and_a_refusal_lets_them_try_again() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(welcome("ann\u200b", chosen=False))
        await wait_for_screen(pilot, app, ChooseNameScreen, "choose the name")
        assert app.screen.query_one("#choose-name-input").value == "ann"  # cleaned like a typed name
        await pilot.press(*["backspace"] * 3, *"Computer", "enter")
        request = await server.expect("choose_name")
        assert request["name"] == "Computer"
        server.answer(request, {"type": "error", "text": "That name is reserved."})
        await wait_for_screen(pilot, app, ChooseNameScreen, "That name is reserved.")
        await pilot.press(*["backspace"] * 8, "enter")  # empty: refused here, nothing sent
        assert "Type a name" in screen_text(app)
        await pilot.press(*"Ann Lee", "enter")
        request = await server.expect("choose_name")
        assert request["name"] == "Ann Lee"
        server.answer(request, welcome("Ann Lee"))
        await wait_for_screen(pilot, app, LobbyScreen, "Welcome, Ann Lee.")
        assert "You are Ann Lee on every visit" in screen_text(app) and app.player_name == "Ann Lee"
        assert "guest" not in screen_text(app)
        await pilot.press("enter")  # the computer match is played under the chosen name
        await wait_for_screen(pilot, app, GameScreen, "Your move")
        assert app.game.match.players[0] == "Ann Lee"


async def test_a_guest_is_told_in_one_line_and_never_asked_for_a_name() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300})  # a server that does not say
        await wait_for_screen(pilot, app, LobbyScreen, "Welcome, ann.")
        assert "guest" not in screen_text(app)
        server.send(welcome("ann", rated=False, chosen=False))
        await wait_for_screen(pilot, app, LobbyScreen, "You play as a guest, unrated")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen) and not app.rated


async def leaderboard_asked(pilot, app, server: FakeServer) -> dict:
    """p23 arrives and opens the leaderboard; the question the server gets (the screen waits for its answer)."""
    server.send(welcome("p23"))
    await wait_for_screen(pilot, app, LobbyScreen, "Welcome, p23.")
    await pilot.press(*LEADERBOARD_KEY)
    asked = await server.expect("leaderboard")
    await wait_for_screen(pilot, app, LeaderboardScreen, "Asking the server")
    return asked


async def test_the_leaderboard_pages_and_highlights_the_players_own_row() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 40)) as pilot:
        server = FakeServer(await Link.over(ours))
        request = await leaderboard_asked(pilot, app, server)
        assert request["offset"] == 0
        server.answer(request, leaderboard_page(0, 45, {"rank": 23, "rating": 1977}))
        await wait_for_screen(pilot, app, LeaderboardScreen, "Players 1-20 of 45")
        assert "p23: rank 23, rating 1977." in screen_text(app) and "1999" in screen_text(app)
        await pilot.press("pagedown")
        request = await server.expect("leaderboard")
        assert request["offset"] == 20
        server.answer(request, leaderboard_page(20, 45, {"rank": 23, "rating": 1977}))
        await wait_for_screen(pilot, app, LeaderboardScreen, "Players 21-40 of 45")
        table = app.screen.query_one("#leaderboard-table")
        assert table.cursor_row == 2 and table.get_row_at(2)[1].plain == "p23"  # the cursor on their own row
        assert "bold" in str(table.get_row_at(2)[1].style)
        await pilot.press("right")
        request = await server.expect("leaderboard")
        assert request["offset"] == 40
        server.answer(request, leaderboard_page(40, 45, {"rank": 23, "rating": 1977}))
        await wait_for_screen(pilot, app, LeaderboardScreen, "Players 41-45 of 45")
        await pilot.press("right")  # no page after the last: nothing asked
        await pilot.press("left")
        assert (await server.expect("leaderboard"))["offset"] == 20
        await pilot.press("escape")
        await wait_for_screen(pilot, app, LobbyScreen)


async def test_the_record_lists_recent_matches_and_enter_replays_one() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 40)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(welcome("ann"))
        await pilot.press(*RECORD_KEY)
        request = await server.expect("record")
        match = Match(MatchOptions(discs=4, stars_to_win=1), ("ann", "bob"), seed=5)
        while not match.is_over:
            match.play(match.position.legal_moves[0], match.to_move)
        recent = [{"id": 17, "opponent": "bob", "result": "won" if match.winner == 0 else "lost", "forfeit": False,
                   "stars": list(match.stars), "finished_at": 1_790_000_000.0, "ended": "won"},
                  {"id": 9, "opponent": "cyd", "result": "abandoned", "forfeit": False, "stars": [0, 0],
                   "finished_at": 1_789_000_000.0, "ended": "abandoned"},
                  {"id": 8, "opponent": "dan", "result": "lost", "forfeit": False, "stars": [0, 0],
                   "finished_at": 1_788_000_000.0, "on_time": True, "ended": "time"}]
        server.answer(request, {"type": "record", "name": "ann", "rated": True, "rating": 1532, "rank": 5,
                                "played": 12, "won": 7, "lost": 5, "recent": recent})
        await wait_for_screen(pilot, app, RecordScreen, "ann: rating 1532, rank 5.")
        text = screen_text(app)
        assert "12 rated matches played: 7 won, 5 lost." in text
        assert "vs bob: " in text and "on the board, stars" in text and "vs cyd: abandoned, stars 0-0" in text
        assert "vs dan: lost on time, stars 0-0" in text  # how each match ended
        await pilot.press("down", "enter")
        request = await server.expect("finished_match")
        assert request["id"] == 9
        server.answer(request, {"type": "error", "text": "No finished match #9."})
        await wait_for_screen(pilot, app, RecordScreen, "No finished match #9.")
        await pilot.press("up", "enter")
        request = await server.expect("finished_match")
        assert request["id"] == 17
        server.answer(request, {"type": "finished_match", "id": 17, "players": ["ann", "bob"], "result": "forfeit",
                                "finished_at": 1_790_000_000.0, "match": match.to_dict()})
        await wait_for_screen(pilot, app, ReplayScreen, "Round 1: ann opened")
        assert app.screen.match.to_dict() == match.to_dict()
        await pilot.press("escape")
        await wait_for_screen(pilot, app, RecordScreen)


async def test_a_guest_s_empty_record_and_a_damaged_match_say_so_in_one_line() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(welcome("ann", rated=False, chosen=False))
        await pilot.press(*RECORD_KEY)
        request = await server.expect("record")
        server.answer(request, {"type": "record", "name": "ann", "rated": False, "rating": None, "rank": None,
                                "played": 0, "won": 0, "lost": 0, "recent": []})
        await wait_for_screen(pilot, app, RecordScreen, "a guest, unrated")
        assert "No finished match yet." in screen_text(app)
        app.screen.post_message(RecordScreen.ReplayWanted(app.screen, 3))  # as if one were listed
        request = await server.expect("finished_match")
        server.answer(request, {"type": "finished_match", "id": 3, "players": ["a", "b"], "result": "abandoned",
                                "finished_at": 0.0, "match": {"format": "nonsense"}})
        await wait_for_screen(pilot, app, RecordScreen, "That match could not be read")


# ---- answers reach the screen that asked, ready or not ------------------------------------------------------


def record_message(name: str = "ann") -> dict:
    recent = [{"id": 4, "opponent": "bob", "result": "won", "forfeit": False, "stars": [1, 0],
               "finished_at": 1_790_000_000.0, "ended": "won"}]
    return {"type": "record", "name": name, "rated": True, "rating": 1069, "rank": 1, "played": 1, "won": 1,
            "lost": 0, "recent": recent}


async def test_an_answer_that_comes_before_the_screen_is_drawn_is_kept_and_shown_when_it_is() -> None:
    """The order the leaderboard met over SSH: the server's page came before the table had its columns
    (``DataTable.add_row``: "More values provided than there are columns"), and never showed."""
    app, ours = await start()
    async with app.run_test(size=(100, 40)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(welcome("p23"))
        await wait_for_screen(pilot, app, LobbyScreen, "Welcome, p23.")
        page = from_wire(leaderboard_page(0, 45, {"rank": 23, "rating": 1977}), REPLIES)
        board = LeaderboardScreen("p23")
        board.show_page(page)  # before the screen is even pushed
        app.push_screen(board)
        await wait_for_screen(pilot, app, LeaderboardScreen, "Players 1-20 of 45")
        assert "p23: rank 23, rating 1977." in screen_text(app)
        await pilot.press("escape")
        board = LeaderboardScreen("p23")
        app.push_screen(board)
        board.show_page(page)  # pushed, not yet mounted: what the app did when the answer came at once
        await wait_for_screen(pilot, app, LeaderboardScreen, "Players 1-20 of 45")
        await pilot.press("escape")
        record = RecordScreen()
        app.push_screen(record)
        record.show_record(from_wire(record_message(), REPLIES))
        await wait_for_screen(pilot, app, RecordScreen, "ann: rating 1069, rank 1.")
        assert "vs bob: won on the board, stars 1-0" in screen_text(app)
        record.refused("That match is not on record.")
        await wait_for_screen(pilot, app, RecordScreen, "That match is not on record.")


async def test_an_answer_reaches_the_screen_that_asked_whatever_is_on_top_and_none_once_it_has_closed() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 40)) as pilot:
        server = FakeServer(await Link.over(ours))
        asked = await leaderboard_asked(pilot, app, server)
        await pilot.press("question_mark")  # the help over the leaderboard while the server answers
        await wait_for_screen(pilot, app, HelpScreen)
        server.answer(asked, leaderboard_page(0, 45, {"rank": 23, "rating": 1977}))
        await settle(pilot)
        await pilot.press("escape")
        await wait_for_screen(pilot, app, LeaderboardScreen, "Players 1-20 of 45")
        await pilot.press("escape")
        await wait_for_screen(pilot, app, LobbyScreen)
        await pilot.press(*["up"] * 7, *RECORD_KEY)  # the menu's cursor is where it was left: from the top
        asked = await server.expect("record")
        await pilot.press("escape")  # closed before the answer: it goes nowhere
        await wait_for_screen(pilot, app, LobbyScreen)
        server.answer(asked, record_message())
        server.answer({"ask": asked["ask"]}, {"type": "error", "text": "Too late for anyone."})
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen) and "Too late" not in screen_text(app)
        assert "could not read" not in screen_text(app)


async def test_the_name_dialog_says_that_enter_chooses_in_its_text_and_its_footer() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(welcome("ann", chosen=False))
        await wait_for_screen(pilot, app, ChooseNameScreen, "choose the name")
        assert footer_keys(app) == {"Choose": True, "Not now": True}
        assert "Enter chooses it; Escape keeps this" in " ".join(screen_text(app).split())
        await pilot.press(*["backspace"] * 3, *"zed", "enter")
        assert (await server.expect("choose_name"))["name"] == "zed"


async def test_the_lobby_s_settings_are_set_as_the_key_left_them_and_told_once_they_settle() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        kept = {"level": "greedy", "rules": "online", "stars": 2, "discs": 16, "opener": 1, "hints": True,
                "clock": {"seconds": 180.0, "increment": 2.0}, "hidden": True, "rated": False,
                "refuse_challenges": True}
        server.send({**welcome(), "clocks": [{"seconds": 180.0, "increment": 2.0}], "choices": kept})
        await wait_for_screen(pilot, app, LobbyScreen, "3 min + 2 s a move")
        assert app.lobby.settings.choices() == LobbyChoices(
            "greedy", "online", 2, 16, 1, True, ClockSetting(180.0, 2.0), hidden=True, rated=False,
            refuse_challenges=True)
        text = screen_text(app)
        assert "online (loser opens)" in text and "the other player" in text and "◂ 16 ▸" in text
        assert "◂ hide me ▸" in text
        await pilot.press("tab", "tab", "tab", "right", "right")  # stars: 2, then 3, then 4
        told = await server.expect("keep_choices")  # once, as they settled (not the server's own back)
        assert told["choices"] == {**kept, "stars": 4, "screen_reader": False, "cursor_follows_focus": False,
                                  "bell": True}
