"""The online screens on small screens (issue 38): the lobby and a match's talk at 40x20, 46x35 and 60x20, as a phone's
SSH client or browser shows them; the server is the test, at the other end of the child's link."""

from __future__ import annotations

import re
import time

import pytest

from soluna_tui.link.protocol import Link
from soluna_tui.link.safe_talk import Room
from soluna_tui.online.screens.lobby import TALK_TITLE, LobbyScreen
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.game import GameScreen
from soluna_tui.terminal.sizes import NARROW_CLASS
from soluna_tui.widgets.board import Board
from soluna_tui.widgets.chat_panel import ChatPanel
from soluna_tui.widgets.history import History

from ..app.helpers import screen_text
from ..app.test_small_screens import SIZE_IDS, SMALL_SIZES, in_view, tab_through, towers_in_view
from .helpers import SshTerminal, running_server
from .test_child_app import FakeServer, match_message, settle, start, wait_for_screen
from .test_talk_screens import line, wire

#: The size a phone's page gives its terminal (390x844 CSS pixels, ``tests/web/browser.py``'s ``PHONE``).
PHONE_TERMINAL = (43, 38)
#: How long the lobby is watched once the server's clocks have come (Textual's slide took a quarter of a second).
STILL_FOR = 1.5
#: The clock setting once the server's clocks have come: its values are too wide beside the label at 43 columns.
CLOCKS_CAME = re.compile(r"Clock\s*│\n│\s*◂ none ▸")

MENU_ENTRIES = ("Return to your match", "Resume computer match", "Play the computer", "Create a match",
                "Join a match by code", "Watch a match", "Leaderboard", "Your record", "Quit")


def the_tallest_lobby(server: FakeServer) -> None:
    """A seat to return to and a computer match to resume (the longest menu), and three matches in play."""
    server.send({"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300, "name": "ann", "rated": False,
                 "name_chosen": True})
    entries = [{"code": code, "players": [f"player{index}", f"q{index}"], "round": 1, "stars": [0, 0],
                "watchers": 0, "away": [False, False], "yours": index == 0}
               for index, code in enumerate(("ABCD", "EFGH", "IJKL"))]
    server.send({"type": "lobby", "matches": entries,
                 "computer": {"level": "5", "round": 1, "stars": [0, 0], "needs_secret": False}})


@pytest.mark.parametrize("size", SMALL_SIZES, ids=SIZE_IDS)
async def test_the_lobby_s_menu_fields_lists_and_talk_each_show_when_reached(size) -> None:
    app, ours = await start()
    async with app.run_test(size=size) as pilot:
        server = FakeServer(await Link.over(ours))
        the_tallest_lobby(server)
        await wait_for_screen(pilot, app, LobbyScreen, "Welcome, ann")
        await settle(pilot)
        lobby = app.screen
        assert app.has_class(NARROW_CLASS) and in_view(lobby.query_one("#lobby-menu"))
        menu = lobby.query_one("#lobby-menu")
        shown: list[str] = []
        for _ in range(menu.option_count):  # every entry, highlighted in turn, shows (the lobby scrolled to it)
            prompt = str(menu.get_option_at_index(menu.highlighted or 0).prompt)
            for _ in range(10):
                if prompt in screen_text(app):
                    break
                await pilot.pause(0.02)
            assert prompt in screen_text(app), f"{prompt!r} highlighted but not shown at {size}"
            shown.append(prompt)
            await pilot.press("down")
            await pilot.pause()
        assert all(entry in shown for entry in MENU_ENTRIES)
        where = menu.region
        server.send({"type": "error", "text": "No match has the code ZZZZ: check the four letters and try again."})
        await settle(pilot)
        assert "No match has the code ZZZZ" in " ".join(screen_text(app).split())  # scrolled to, where it must be
        assert menu.region.y == where.y or size[1] < 35  # where the lobby fits, nothing moves under a finger
        await pilot.press("tab", "shift+tab")  # the menu again: the focus brings it back into view
        met = await tab_through(pilot, app)  # the settings, the code, the matches in play
        assert lobby.query_one("#lobby-matches") in met
        while app.screen.focused is not lobby.query_one("#lobby-matches"):
            await pilot.press("tab")
        await settle(pilot)
        assert "player1 vs q1" in screen_text(app) and in_view(lobby.query_one("#lobby-matches"))
        await pilot.press("escape")  # the menu again, then "Watch a match": its hint at the foot, the list in view
        await settle(pilot)
        menu.highlighted = next(index for index in range(menu.option_count)
                                if str(menu.get_option_at_index(index).prompt) == "Watch a match")
        await pilot.press("enter")
        await settle(pilot)
        matches, status = lobby.query_one("#lobby-matches"), lobby.query_one("#lobby-status")
        assert app.screen.focused is matches and "Choose a match to watch" in " ".join(screen_text(app).split())
        assert in_view(matches) and not matches.region.overlaps(status.region)
        server.send({"type": "chat", "room": "lobby", "whole": True,
                     "lines": [wire(line(number, Room.LOBBY, 4, "cyd", f"line {number}")) for number in range(3)]})
        await pilot.press("C")
        await settle(pilot)
        panel = lobby.query_one(ChatPanel)
        assert panel.is_open and app.screen.focused is panel.chat_line and in_view(panel.chat_line)
        text = screen_text(app)
        assert TALK_TITLE in text and "cyd: line 2" in text
        await pilot.press(*"hello", "enter")
        assert (await server.expect("say"))["text"] == "hello"


@pytest.mark.parametrize("size", SMALL_SIZES, ids=SIZE_IDS)
async def test_a_match_s_talk_is_told_in_a_line_and_read_behind_tab(size) -> None:
    app, ours = await start()
    async with app.run_test(size=size) as pilot:
        server = FakeServer(await Link.over(ours))
        await pilot.press("down", "down", "enter", "k", "q", "x", "p", "enter")
        await server.expect("join")
        match = Match(MatchOptions(), ("bob", "ann"), seed=3)
        state = match_message(match, 1, code="KQXP")
        state["clock"] = {"setting": {"seconds": 180.0, "increment": 2.0}, "left": [170.0, 180.0], "running": 0}
        server.send(state)
        await wait_for_screen(pilot, app, GameScreen, "Waiting for bob.")
        game = app.screen
        assert towers_in_view(game)
        text = screen_text(app)
        assert re.search(r"bob .*▶ 2:[45]\d", text) and re.search(r"ann \(you\) .* 3:00", text)  # the clocks, beside
        # their players' lines (bob's running down from 2:50)
        server.send({"type": "chat", "room": "players", "code": "KQXP", "whole": False,
                     "lines": [wire(line(1, Room.PLAYERS, 2, "bob", "good luck, have fun"))]})
        await settle(pilot)
        panel = game.query_one(ChatPanel)
        assert not panel.region  # behind Tab: the board keeps its room
        assert "bob: good luck, have fun (Tab reads the talk)" in " ".join(screen_text(app).split())
        assert towers_in_view(game)
        await pilot.press("tab")
        await settle(pilot)
        assert in_view(game.query_one(History)) and panel.region and "bob: good luck" in screen_text(app)
        await pilot.press("tab")
        await settle(pilot)
        assert isinstance(app.screen.focused, Board) and not panel.region
        await pilot.press("C")  # the chat line opens over the board's top, the board stays
        await settle(pilot)
        assert panel.is_open and in_view(panel.chat_line)
        await pilot.press(*"thanks", "enter")
        assert (await server.expect("say"))["text"] == "thanks"
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen.focused, Board) and not panel.region


async def test_a_phone_s_lobby_stays_still_as_it_opens(tmp_path) -> None:
    """A guest's lobby over SSH at a phone's size, from a real server offering its clocks: once the welcome shows,
    its first line stays on the screen while the server's word lengthens the settings under it (the clock's values
    wrap). Textual centred the focused menu, animated, as measured before the clocks came: the lobby slid a line
    away, and a tap aimed at a setting landed on the next one."""
    async with running_server(tmp_path) as server:
        bob = await SshTerminal.open(server.port, username="bob", columns=PHONE_TERMINAL[0], lines=PHONE_TERMINAL[1])
        try:
            await bob.wait_for_text("Welcome, bob.", "Matches in play")

            def still(text: str) -> bool:
                assert "Welcome, bob." in text, bob.shown
                return CLOCKS_CAME.search(text) is not None

            await bob.wait_for(still)  # every frame until the server's clocks lengthen the setting, then as long again
            until = time.monotonic() + STILL_FOR
            while (left := until - time.monotonic()) > 0:
                await bob.pump(min(left, 0.02))
                still(bob.text)
        finally:
            await bob.close()
