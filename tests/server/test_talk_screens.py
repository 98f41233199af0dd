"""Table talk on the child's side: the book it keeps, the chat line's commands, and the panel at 80x24 beside the
board (never over the board, the tally, the clock or the moves) and in the lobby (in the lists' place); the server is
the test, at the other end of the child's link."""

from __future__ import annotations

from textual import events

from soluna_tui.link.messages import Chat, ChatLine
from soluna_tui.link.protocol import Link
from soluna_tui.link.safe_talk import CANNED, LOBBY_LINES_KEPT, Room
from soluna_tui.online.screens.lobby import TALK_TITLE, LobbyScreen
from soluna_tui.play.chat_book import ChatBook, Explain, Mute, Report, typed
from soluna_tui.play.where import Where, help_keys
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.game import GameScreen
from soluna_tui.widgets.board import Board
from soluna_tui.widgets.chat_input import ChatInput
from soluna_tui.widgets.chat_panel import ChatPanel
from soluna_tui.widgets.clock_panel import ClockPanel
from soluna_tui.widgets.history import History
from soluna_tui.widgets.tally import Tally

from ..app.helpers import footer_keys, screen_text
from .test_child_app import FakeServer, match_message, settle, start, wait_for_screen

CLOCK = {"seconds": 180.0, "increment": 2.0}


def line(number: int, room: Room, speaker: int, name: str, text: str, yours: bool = False) -> ChatLine:
    return ChatLine(number, room, speaker, name, text, 100.0 + number, yours)


def wire(each: ChatLine) -> dict:
    return {"id": each.id, "room": each.room.value, "speaker": each.speaker, "name": each.name, "text": each.text,
            "at": each.at, "yours": each.yours}


def test_the_book_keeps_each_room_and_shows_a_match_s_rooms_in_the_order_said_without_the_muted() -> None:
    book = ChatBook()
    book.take(Chat(Room.PLAYERS, (line(3, Room.PLAYERS, 1, "ann", "gl", yours=True),), whole=True, code="ABCD"))
    book.take(Chat(Room.SPECTATORS, (line(2, Room.SPECTATORS, 5, "eve", "ann loses"),), whole=True, code="ABCD"))
    book.take(Chat(Room.PLAYERS, (line(4, Room.PLAYERS, 2, "bob", "thanks"),), code="ABCD"))
    book.take(Chat(Room.LOBBY, (line(1, Room.LOBBY, 7, "cyd", "hi"),), whole=True, closed="Chat is off."))
    assert [each.text for each in book.lines("ABCD")] == ["ann loses", "gl", "thanks"]
    assert [each.text for each in book.lines("ABCD", watching=True)] == ["ann loses"]  # a spectator's view
    assert [each.text for each in book.lines(None)] == ["hi"] and book.closed == "Chat is off."
    assert book.speakers("BOB") == {2: "bob"} and book.speakers("ann") == {}  # never this player
    book.muted[2] = "bob"
    assert [each.text for each in book.lines("ABCD")] == ["ann loses", "gl"]
    assert book.last_line_of("eve", "ABCD").id == 2
    # Muted, bob's line is still the one his /report names: tried over SSH, bob muted gus and then could not
    # report him ("No line of gus's is shown here to report").
    assert book.last_line_of("bob", "ABCD").id == 4
    book.deaf = True
    assert [each.text for each in book.lines("ABCD")] == ["gl"]  # this player's own lines stay
    book.take(Chat(Room.PLAYERS, (), whole=True, code="ABCD"))  # a seat at a new match under this code
    assert book.lines("ABCD") == [] and (Room.SPECTATORS, "ABCD") not in book.rooms
    crowd = tuple(line(number, Room.LOBBY, 9, "z", str(number)) for number in range(10, 10 + LOBBY_LINES_KEPT))
    book.take(Chat(Room.LOBBY, crowd, whole=True))
    assert len(book.rooms[(Room.LOBBY, None)]) == LOBBY_LINES_KEPT


def test_the_chat_line_s_commands() -> None:
    assert typed("good game") is None and typed(" 2 moves ahead") is None
    assert typed("/mute") == Mute(None) and typed("/MUTE  bob ") == Mute("bob")
    assert typed("/unmute") == Mute(None, muted=False) and typed("/unmute bob") == Mute("bob", muted=False)
    assert typed("/report eve") == Report("eve")
    assert isinstance(typed("/report"), Explain) and isinstance(typed("/kick bob"), Explain)
    assert "/kick" in typed("/kick bob").text


def test_the_help_lists_the_chat_keys_over_ssh_and_not_on_this_terminal() -> None:
    for where in (Where.LOBBY, Where.MATCH_OVER_SSH, Where.WATCHING, Where.COMPUTER_OVER_SSH):
        keys = dict(help_keys(where))
        assert "C (shift+c)" in keys and "1 to 4" in keys and "/mute, /unmute" in keys
    assert "C (shift+c)" not in dict(help_keys(Where.TERMINAL))


def overlaps(first, second) -> bool:
    return first.overlaps(second)


async def test_beside_the_board_at_80x24_the_talk_covers_nothing_and_the_keys_say_lines() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        await pilot.press("down", "down", "enter", "k", "q", "x", "p", "enter")
        await server.expect("join")
        match = Match(MatchOptions(), ("bob", "ann"), seed=3)
        state = match_message(match, 1, code="KQXP")
        state["clock"] = {"setting": CLOCK, "left": [170.0, 180.0], "running": 0}
        server.send(state)
        await wait_for_screen(pilot, app, GameScreen, "Waiting for bob.")
        game = app.screen
        panel = game.query_one(ChatPanel)
        assert not panel.display  # no talk yet: the moves have the column
        server.send({"type": "chat", "room": "players", "code": "KQXP", "whole": True,
                     "lines": [wire(line(1, Room.PLAYERS, 2, "bob", "good luck, have fun"))]})
        server.send({"type": "chat", "room": "players", "code": "WXYZ", "whole": True,  # another match's
                     "lines": [wire(line(2, Room.PLAYERS, 3, "zed", "elsewhere"))]})
        await settle(pilot)
        text = screen_text(app)
        assert "bob: good luck, have fun" in " ".join(text.split()) and "elsewhere" not in text
        await pilot.press("C")
        await settle(pilot)
        assert panel.is_open and isinstance(app.focused, type(panel.chat_line))
        parts = [game.query_one(Board), game.query_one(Tally), game.query_one(ClockPanel), game.query_one(History)]
        assert all(part.display and part.region.area for part in parts)
        assert not any(overlaps(panel.region, part.region) for part in parts)
        assert game.query_one(History).region.height >= 4 and panel.region.height >= 4
        assert panel.region.bottom <= 23  # above the footer
        await pilot.press(*"thanks, you too", "enter")
        assert (await server.expect("say"))["text"] == "thanks, you too"
        await pilot.press("2")  # the empty chat line: a canned line, never a tower
        assert (await server.expect("say"))["text"] == CANNED[1]
        await pilot.press("/", *"mute bob", "enter")
        assert await server.expect("mute") == {"type": "mute", "speaker": 2, "muted": True, "name": None}
        await settle(pilot)
        assert "Muted bob" in " ".join(screen_text(app).split())
        await pilot.press("escape")
        await settle(pilot)
        assert not panel.is_open and isinstance(app.focused, Board)
        assert "good luck, have fun" not in screen_text(app)  # muted since


async def test_in_the_lobby_at_80x24_the_talk_takes_the_lists_place_and_the_tallest_lobby_stays_whole() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300, "name": "ann", "rated": True,
                     "name_chosen": True, "quick_match": True, "challenges": True, "browser_link": True})
        entries = [{"code": code, "players": [f"p{index}", f"q{index}"], "round": 1, "stars": [0, 0], "watchers": 0,
                    "away": [False, False], "yours": index == 0} for index, code in enumerate(("ABCD", "EFGH"))]
        server.send({"type": "lobby", "matches": entries,  # the tallest menu: a seat to return to, a match to resume
                     "computer": {"level": "5", "round": 1, "stars": [0, 0], "needs_secret": False}})
        server.send({"type": "chat", "room": "lobby", "whole": True,
                     "lines": [wire(line(number, Room.LOBBY, 4, "cyd", f"line {number}")) for number in range(8)]})
        await wait_for_screen(pilot, app, LobbyScreen, "p1 vs q1")
        assert "line 7" not in screen_text(app)  # closed, the lobby shows its matches
        server.send({"type": "chat", "room": "lobby", "lines": [wire(line(9, Room.LOBBY, 4, "cyd", "anyone?"))]})
        # Another's line is news: counted over the list at the lobby's next moment for it (within three seconds).
        await wait_for_screen(pilot, app, LobbyScreen, "Matches in play · 1 new line of talk (C reads)")
        await pilot.press("C")
        await settle(pilot)
        text = screen_text(app)
        rows = text.splitlines()
        assert TALK_TITLE in text and "p1 vs q1" not in text and "cyd: anyone?" in text and "new line" not in text
        assert "Return to your match" in text and "Resume computer match" in text and "Quit" in text
        # Every entry of the menu whole, and the chat line over the lobby's bottom edge: the welcome makes way for
        # the talk's lines (the chat line was cut off at 80x24 once the menu had Tournaments and the settings Bell).
        bottom = next(index for index, row in enumerate(rows) if row.strip().startswith("╰"))
        assert "Enter says it" in rows[bottom - 1] and "Welcome, ann" not in text
        assert all(entry in text for entry in ("Play in a browser", "Tournaments", "Find me an opponent"))
        assert "cyd: line 5" in text  # more of the talk in the welcome's place
        assert {"Say", "Close talk"} <= set(footer_keys(app))  # the chat line's own keys, in its footer
        server.send({"type": "chat", "room": "lobby", "refused": "Slow down: too fast.", "lines": []})
        await settle(pilot)
        assert "Slow down: too fast." in screen_text(app)
        # Pasted, as a long line comes (301 key presses one by one took 20 s of waiting on the pilot).
        chat_input = app.screen.query_one(ChatInput)
        assert chat_input.has_focus
        chat_input.post_message(events.Paste("x" * 301))
        await settle(pilot)
        assert chat_input.value == "x" * 301
        await pilot.press("enter")
        await settle(pilot)
        said = " ".join(screen_text(app).replace("│", " ").split())
        assert "Not sent: 301 characters; a line has at most 300. It is back in the chat line, cut to fit: Enter " \
               "says it." in said
        assert chat_input.value == "x" * 300  # kept, to trim or say, not thrown away
        await pilot.press("escape")
        await settle(pilot)
        text = screen_text(app)
        assert "p1 vs q1" in text and "anyone?" not in text and TALK_TITLE not in text
        assert "Welcome, ann" in text.splitlines()[1]  # back with the talk closed
