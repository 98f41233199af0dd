"""The child's app in a pilot, with the test playing the server at the other end of its socketpair."""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
import time

import pytest
from textual.widgets import Static

from soluna_tui.link.messages import REPLIES, LobbyListing
from soluna_tui.link.protocol import Link, encode
from soluna_tui.link.wire import from_wire, to_wire
from soluna_tui.online.child_app import ChildApp
from soluna_tui.online.remote_table import RemoteTable
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.online.screens.waiting import WaitingScreen
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.confirm import ConfirmScreen
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.help import HelpScreen
from soluna_tui.screens.review import ReviewScreen
from soluna_tui.screens.round_over import RoundOverScreen
from soluna_tui.widgets.tally import Tally

from ..app.helpers import footer_keys, help_and_palette, play_by_keys, screen_text, wait_for


class FakeServer:
    """The server's end of a child's link, speaking the wire form the tests write out."""

    def __init__(self, link: Link) -> None:
        self.link = link

    def send(self, wire: dict) -> None:
        """Send a message given as it travels, read as the child will read it (every field checked)."""
        self.link.send(from_wire(wire, REPLIES))

    def answer(self, question: dict, wire: dict) -> None:
        """Send the answer to ``question`` (a request as ``expect`` returned it): it carries its number back."""
        self.send({**wire, "answer_to": question["ask"]})

    async def expect(self, kind: str) -> dict:
        while True:
            message = await asyncio.wait_for(self.link.receive(), 5)
            assert message is not None, "the child closed its link"
            if message.TYPE == kind:
                return to_wire(message)  # as it travels: what the tests read


async def start(pilot_size=(100, 32)):
    ours, theirs = socket.socketpair()
    app = ChildApp(name="ann", link=theirs, computer_pause=0, reveal_pause=0)
    return app, ours


def match_message(match: Match, seat: int | None, code: str = "ABCD", notice: str | None = None, version: int = 0,
                  hints: bool = False, away=(None, None), secret: str | None = None) -> dict:
    return {"type": "match", "code": code, "version": version, "seat": seat, "match": match.to_dict(),
            "hints": hints, "away": list(away), "secret": secret, "notice": notice}


def moved_message(match: Match, move, version: int, code: str = "ABCD") -> dict:
    """The server's update for ``move``, about to be played on ``match`` (which it then plays)."""
    message = {"type": "moved", "code": code, "version": version, "round": match.round_number,
               "ply": match.round.ply, "move": str(move), "notice": None}
    match.play(move, match.to_move)
    return message


async def settle(pilot) -> None:
    for _ in range(5):
        await pilot.pause(0.05)


async def test_creating_shows_the_code_and_escape_cancels() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({"type": "lobby", "matches": []})
        await pilot.press("down", "enter")
        request = await server.expect("create")
        assert request["options"]["stars_to_win"] == 4 and request["hints"] is False
        server.answer(request, {"type": "waiting", "code": "KQXP"})
        await settle(pilot)
        assert isinstance(app.screen, WaitingScreen) and "K Q X P" in screen_text(app)
        behind = app.lobby.query_one("#lobby-status", Static)  # the lobby's status, mostly under the dialog
        assert str(behind.content) == "Match KQXP created: waiting for an opponent."
        await pilot.press("escape")
        await server.expect("cancel")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen) and app.following is None
        assert "Match cancelled." in screen_text(app)


async def test_the_waiting_dialog_s_footer_says_what_its_text_says_of_escape() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        await pilot.press("down", "enter")
        server.answer(await server.expect("create"), {"type": "waiting", "code": "KQXP"})
        await wait_for_screen(pilot, app, WaitingScreen, "K Q X P")
        assert footer_keys(app) == {"Cancel the match": True}  # not the lobby's "esc Menu" underneath
        text = screen_text(app)
        assert "Escape cancels the match." in text and "esc Cancel the match" in text and "Menu" not in text


async def test_a_joined_match_plays_through_the_server() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        await pilot.press("down", "down", "enter", "k", "q", "x", "p", "enter")
        request = await server.expect("join")
        assert request["code"] == "KQXP"
        match = Match(MatchOptions(), ("bob", "ann"), seed=3)
        server.send(match_message(match, 1, code="KQXP"))
        await settle(pilot)
        game = app.screen
        assert isinstance(game, GameScreen) and isinstance(game.table, RemoteTable)
        assert "Waiting for bob." in screen_text(app)
        server.send(moved_message(match, match.position.legal_moves[0], 1, code="KQXP"))
        await settle(pilot)
        assert "Your move: pick a tower up" in screen_text(app)
        await play_by_keys(pilot, app, app.game.match.position.legal_moves[0])
        sent = await server.expect("move")
        assert (sent["round"], sent["ply"]) == (1, 1)
        assert app.game.match.round.ply == 2  # played at once, before the server answers
        await pilot.press("u")
        assert app.game.match.round.ply == 2  # u asks the opponent (test_takeback_screens.py): nothing undone here


async def test_news_about_a_match_left_behind_is_ignored_and_errors_show_in_the_lobby() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send(match_message(Match(seed=1), 0, code="ZZZZ"))
        server.send({"type": "error", "text": "No match has the code ZZZZ."})
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert "No match has the code ZZZZ." in screen_text(app)


async def test_the_server_ending_the_session_ends_the_app() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({"type": "exit"})
        await settle(pilot)
    assert app.return_code == 0


async def test_a_spectator_cannot_move_and_leaving_goes_back_to_the_lobby() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "WXYZ"
        server.send(match_message(Match(seed=2), None, code="WXYZ", notice="You are watching."))
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and app.game.table.watching
        await pilot.press("enter", "right", "space")
        assert app.game.match.round.ply == 0
        await pilot.press("n")
        await server.expect("leave")
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen) and app.remote is None


async def test_a_rematch_over_the_network_is_asked_of_the_server() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "ABCD"
        match = Match(MatchOptions(discs=3, stars_to_win=1), ("ann", "bob"), seed=5)
        while not match.is_over:
            match.play(match.position.legal_moves[0], match.to_move)
        server.send(match_message(match, 0))
        for _ in range(40):
            await pilot.pause(0.05)
            if type(app.screen).__name__ == "MatchOverScreen":
                break
        await settle(pilot)  # pushed is not yet drawn
        text = screen_text(app)
        assert "wins the match" in text or "win the match" in text
        assert "Take back" not in text  # the server keeps the moves: nothing to take back here
        await pilot.press("u")
        await settle(pilot)
        assert type(app.screen).__name__ == "MatchOverScreen" and app.game.match.is_over
        await pilot.press("enter")  # the first choice: rematch
        await server.expect("rematch")
        await settle(pilot)
        assert "Rematch asked" not in screen_text(app)  # the server says what came of it, not this terminal
        server.send(match_message(match, 0, version=1, notice="Rematch asked: it starts when bob asks too."))
        await settle(pilot)
        # In the notice lines under the moves (wrapped to the sidebar), over nothing else.
        from soluna_tui.widgets.notice_line import NoticeLine

        assert app.game.query_one(NoticeLine).text == "Rematch asked: it starts when bob asks too."
        assert "Rematch asked: it starts" in screen_text(app)


async def wait_for_screen(pilot, app, kind: type, what: str = "") -> None:
    """Until the screen on top is a ``kind`` (and shows ``what``); drawn, not merely pushed."""
    for _ in range(100):
        await pilot.pause(0.05)
        if isinstance(app.screen, kind) and what in screen_text(app):
            return
    raise AssertionError(f"never showed {kind.__name__} {what!r}; on top: {type(app.screen).__name__}\n"
                         f"{screen_text(app)}")


def won_by_first_player(discs: int = 4) -> int:
    """A seed whose round, both players always playing the first legal move, player 0 wins."""
    for seed in range(100):
        match = Match(MatchOptions(discs=discs), ("ann", "bob"), seed=seed)
        while not match.round.is_over:
            match.play(match.position.legal_moves[0], match.to_move)
        if match.round.outcome.winner == 0:
            return seed
    raise AssertionError("no such seed")


async def test_the_round_winner_follows_the_opener_choice_after_closing_the_review() -> None:
    """The freeze seen over SSH: closing the round review stopped every worker of the app, the
    server's listener with them, so the winner stayed on "Waiting for bob to choose" for good."""
    app, ours = await start()
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "ABCD"
        match = Match(MatchOptions(discs=4), ("ann", "bob"), seed=won_by_first_player())
        version = 0
        server.send(match_message(match, 0, hints=True))
        await wait_for_screen(pilot, app, GameScreen, "Your move")
        while not match.round.is_over:
            move = match.round.table.resolve(match.position.legal_moves[0])  # as the server sends it: placed
            if match.to_move == 0:
                await play_by_keys(pilot, app, move)
                await server.expect("move")
            version += 1
            server.send(moved_message(match, move, version))
            await settle(pilot)
        await wait_for_screen(pilot, app, ReviewScreen)
        await pilot.press("enter")  # skip the review
        await wait_for_screen(pilot, app, RoundOverScreen, "Waiting for bob to choose")
        match.start_next_round(0, 1)  # bob chose to move second
        version += 1
        server.send(match_message(match, 0, hints=True, version=version,
                                  notice="bob chose to move second: ann opens round 2."))
        await wait_for_screen(pilot, app, GameScreen, "bob chose to move second")
        assert app.game.match.round_number == 2 and "Your move" in screen_text(app)
        move = match.round.table.resolve(match.position.legal_moves[0])
        await play_by_keys(pilot, app, move.move)
        sent = await server.expect("move")
        assert (sent["round"], sent["ply"], sent["move"]) == (2, 0, str(move))
        version += 1
        server.send(moved_message(match, move, version))
        reply = match.round.table.resolve(match.position.legal_moves[0])
        version += 1
        server.send(moved_message(match, reply, version))  # bob's reply still reaches this screen
        await wait_for_screen(pilot, app, GameScreen, "Your move")
        assert app.game.match.to_dict() == match.to_dict() and app.remote.version == version


async def test_a_gap_in_the_versions_asks_for_the_whole_state() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "ABCD"
        match = Match(MatchOptions(), ("ann", "bob"), seed=6)
        server.send(match_message(match, None, version=3))
        await wait_for_screen(pilot, app, GameScreen, "Waiting for ann.")
        moved_message(match, match.position.legal_moves[0], 4)  # lost on the way
        server.send(moved_message(match, match.position.legal_moves[0], 5))
        request = await server.expect("sync")
        assert request["code"] == "ABCD"
        await settle(pilot)
        assert app.game.match.round.ply == 0  # nothing applied on top of a gap
        server.send(moved_message(match, match.position.legal_moves[0], 6))
        server.send(match_message(match, None, version=6))
        await wait_for_screen(pilot, app, GameScreen, " 3. ann")
        assert app.game.match.to_dict() == match.to_dict()
        stale = Match(MatchOptions(), ("ann", "bob"), seed=6)
        server.send(match_message(stale, None, version=2))  # overtaken on the way: ignored
        await settle(pilot)
        assert app.game.match.round.ply == 3


#: How long the app is watched, nobody away, for a tick of the tally's clock (once a second while it runs).
NOBODY_AWAY_WATCHED = 1.3


def shown_countdown(app) -> int:
    """The seconds the tally says an away player has left to return (``away: 2:05 to return``)."""
    minutes, seconds = re.search(r"away: (\d+):(\d\d) to return", screen_text(app)).groups()
    return int(minutes) * 60 + int(seconds)


async def test_an_away_player_is_shown_in_the_tally_with_a_countdown_and_the_secret(monkeypatch) -> None:
    ticks: list[float] = []
    tick = Tally._tick

    def counted(tally: Tally) -> None:
        ticks.append(time.monotonic())
        tick(tally)

    monkeypatch.setattr(Tally, "_tick", counted)  # before the tally's clock takes it
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "ABCD"
        match = Match(MatchOptions(), ("ann", "bob"), seed=6)
        server.send(match_message(match, 0, away=(None, 125), secret="KQXPMR",
                                  notice="bob has left: the seat is held for 2 minutes."))
        await wait_for_screen(pilot, app, GameScreen, "to return")
        assert "code ABCD, secret KQXPMR" in screen_text(app)
        first = shown_countdown(app)
        assert 115 <= first <= 125  # 2:05 when drawn at once; a loaded machine may draw it a few seconds late
        for _ in range(100):  # counts down by itself
            await pilot.pause(0.05)
            if shown_countdown(app) < first:
                break
        assert shown_countdown(app) < first and ticks
        server.send(match_message(match, 0, away=(None, None), secret="KQXPMR", version=1))
        await settle(pilot)
        assert "away:" not in screen_text(app)
        since = time.monotonic()
        await pilot.pause(NOBODY_AWAY_WATCHED)
        assert not [tick for tick in ticks if tick > since]  # nobody away: the tally's clock no longer wakes the app


async def test_q_asks_before_quitting_in_the_lobby_and_in_a_match() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300})
        await pilot.press("q")
        await wait_for_screen(pilot, app, ConfirmScreen, "Leave Soluna?")
        await pilot.press("escape")
        await wait_for_screen(pilot, app, LobbyScreen)
        await pilot.press("up", "enter")  # Up on the first choice stays there: not round to Quit
        await wait_for_screen(pilot, app, GameScreen, "Your move")
        await pilot.press("q")
        await wait_for_screen(pilot, app, ConfirmScreen, "against the computer is kept for 12")
        assert "secret KQXPMR" in screen_text(app)
        await pilot.press("n")
        await wait_for_screen(pilot, app, GameScreen)
        await pilot.press("q")
        await wait_for_screen(pilot, app, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
    assert app.return_code == 0


async def test_the_lobby_s_quit_item_asks_and_quits() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300})
        await wait_for_screen(pilot, app, LobbyScreen, "Welcome, ann.")
        await pilot.press("end", "enter")  # the menu's last item
        await wait_for_screen(pilot, app, ConfirmScreen, "Leave Soluna? You can connect again at any time.")
        await pilot.press("escape")
        await wait_for_screen(pilot, app, LobbyScreen)
        await pilot.press("enter")  # the item is still highlighted: asked again, and this time yes
        await wait_for_screen(pilot, app, ConfirmScreen, "Leave Soluna?")
        await pilot.press("y")
        await settle(pilot)
    assert app.return_code == 0


async def test_the_palette_offers_nothing_that_writes_on_the_servers_disk() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        server = await Link.over(ours)  # kept: a link dropped would close, and the app with it
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Screenshot" not in titles and "Help" in titles
        await wait_for_screen(pilot, app, LobbyScreen, "Welcome, ann.")
        await pilot.press("enter")  # in a match too
        await wait_for_screen(pilot, app, GameScreen, "Your move")
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Screenshot" not in titles and "Undo" in titles
        app.action_screenshot()
        await settle(pilot)
        assert "Screenshots are not" in screen_text(app) and not server.closed  # a notice, in the sidebar's columns


async def test_the_lobby_lists_matches_on_arrival_keeps_them_current_and_watches_from_the_list() -> None:
    app, ours = await start()
    # The server lists the matches as the session starts: before the lobby has even mounted.
    ours.sendall(encode(LobbyListing(matches=())))
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        await wait_for_screen(pilot, app, LobbyScreen, "None right now.")
        entry = {"code": "WXYZ", "players": ["cyd", "dan"], "round": 2, "stars": [1, 0], "watchers": 1,
                 "away": [False, True], "yours": False}
        server.send({"type": "lobby", "matches": [entry], "computer": None})
        await settle(pilot)
        assert "cyd vs dan: round 2, stars 1-0, 1 watching (dan away)" in screen_text(app)
        assert "None right now." not in screen_text(app)
        await pilot.press("down", "down", "down", "enter")  # Watch a match
        assert "Choose a match to watch" in screen_text(app)
        await pilot.press("enter")
        request = await server.expect("watch")
        assert request["code"] == "WXYZ"


async def test_at_80x24_the_tallest_lobby_keeps_its_hints_and_the_chosen_match_in_view() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        # The tallest lobby: a guest (told so in a line of its own), a held seat (a menu entry more),
        # more matches than the list shows at once.
        server.send({"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300, "name": "ann", "rated": False,
                     "name_chosen": True})
        entries = [{"code": code, "players": [f"p{index}", f"q{index}"], "round": 1, "stars": [0, 0],
                    "watchers": 0, "away": [False, False], "yours": index == 0}
                   for index, code in enumerate(("ABCD", "EFGH", "IJKL", "MNOP", "QRST", "UVWX"))]
        server.send({"type": "lobby", "matches": entries, "computer": None})
        await settle(pilot)
        await pilot.press("down", "down", "down", "enter")  # Join a match by code (below "Return to your match")
        await settle(pilot)
        text = screen_text(app)
        assert "You play as a guest" in text and "Return to your match" in text
        assert "Type the four-letter code of the match, then Enter." in text
        assert "p3 vs q3" in text and "tab Next field" in text  # the list's first rows and the footer too
        await pilot.press("escape", "down", "enter", *["down"] * 5)  # Watch a match, then the last one
        await settle(pilot)
        text = screen_text(app)
        assert "Choose a match to watch" in text and "p5 vs q5" in text


async def test_a_held_seat_is_offered_and_its_secret_asked_for() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 40)) as pilot:
        server = FakeServer(await Link.over(ours))
        entry = {"code": "WXYZ", "players": ["ann", "dan"], "round": 1, "stars": [0, 0], "watchers": 0,
                 "away": [True, False], "yours": True}
        server.send({"type": "lobby", "matches": [entry], "computer": None})
        await settle(pilot)
        assert "Your seat: ann vs dan, round 1, stars 0-0 (Enter returns)" in screen_text(app)
        assert "Return to your match" in screen_text(app)  # first in the menu, and highlighted
        await pilot.press("down", "down", "down", "down", "enter", "enter")  # or from the list
        request = await server.expect("join")
        assert request["code"] == "WXYZ" and request["secret"] is None
        server.answer(request, {"type": "secret_needed", "code": "WXYZ"})
        await settle(pilot)
        assert "type the secret" in screen_text(app)
        await pilot.press(*"kqx", "enter")
        assert "six letters" in screen_text(app)
        await pilot.press(*"pmr", "enter")
        request = await server.expect("join")
        assert (request["code"], request["secret"]) == ("WXYZ", "kqxpmr")
        await pilot.press("escape", "up", "up", "up", "up", "enter")  # the menu's first choice: the same
        request = await server.expect("join")
        assert request["code"] == "WXYZ"


async def test_a_match_against_the_computer_begun_before_the_welcome_shows_its_secret_once_it_comes() -> None:
    """Found with 16 workers on 2 cores: the lobby shows "Welcome, ann." with the SSH name before the server's
    welcome (with the secret) arrives; Enter then began a match whose tally never said its secret."""
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        await pilot.press("enter")  # Play the computer, the welcome still on its way
        await server.expect("computer_saved")
        await wait_for_screen(pilot, app, GameScreen, "Your move")
        assert "secret" not in screen_text(app)
        server.send({"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300})
        await wait_for(pilot, app, lambda: "secret KQXPMR" in screen_text(app), "the secret in the tally")


async def test_a_match_against_the_computer_is_kept_by_the_server_and_resumed() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300})
        await pilot.press("enter")  # Play the computer
        saved = await server.expect("computer_saved")
        assert saved["save"]["setup"]["names"][0] == "ann"  # the SSH name, not "You"
        await wait_for_screen(pilot, app, GameScreen, "Your move")
        assert "secret KQXPMR" in screen_text(app)
        await pilot.press("A")  # analysis mode on: kept with the match
        await play_by_keys(pilot, app, app.game.match.position.legal_moves[0])
        saved = await server.expect("computer_saved")
        kept = saved["save"]
        assert kept["analysis"] is True
        await pilot.press("n")
        await wait_for_screen(pilot, app, LobbyScreen)
        offer = {"level": "perfect", "round": 1, "stars": [0, 0], "needs_secret": False}
        server.send({"type": "lobby", "matches": [], "computer": offer})
        await settle(pilot)
        assert "Resume computer match" in screen_text(app)
        await pilot.press("enter")  # the offer comes first in the menu
        request = await server.expect("computer_resume")
        assert request["secret"] is None
        server.answer(request, {"type": "computer_game", "secret": "KQXPMR", "save": kept})
        await wait_for_screen(pilot, app, GameScreen)
        assert app.game.match.to_dict()["rounds"][0]["moves"][:1] == kept["match"]["rounds"][0]["moves"][:1]
        assert app.game.match.players == ("ann", "Computer")
        assert app.game.teaching.analysis_on
        await wait_for_screen(pilot, app, GameScreen, "analysis on")


async def test_the_waiting_dialog_closes_with_escape_and_goes_by_itself_behind_help() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "ABCD"
        match = Match(MatchOptions(discs=4), ("ann", "bob"), seed=won_by_first_player())
        while not match.round.is_over:
            match.play(match.position.legal_moves[0], match.to_move)
        server.send(match_message(match, 0, version=9))
        await wait_for_screen(pilot, app, RoundOverScreen, "Waiting for bob to choose")
        await pilot.press("escape")  # nothing to choose here: Esc shows the board
        await wait_for_screen(pilot, app, GameScreen, "ann won round 1.")
        server.send(match_message(match, 0, version=9))  # the same state again: no new dialog
        await settle(pilot)
        assert isinstance(app.screen, GameScreen)
        match.start_next_round(1, 1)
        server.send(match_message(match, 0, version=10))
        await wait_for_screen(pilot, app, GameScreen, "Waiting for bob.")
        assert app.game.match.round_number == 2
        while not match.round.is_over:  # round 2 over too; ann reads the help meanwhile
            match.play(match.position.legal_moves[0], match.to_move)
        server.send(match_message(match, 0, version=11))
        await wait_for_screen(pilot, app, RoundOverScreen, "round 2")
        await pilot.press("question_mark")
        await wait_for_screen(pilot, app, HelpScreen)
        loser = match.round.outcome.loser
        match.start_next_round(loser, loser)
        server.send(match_message(match, 0, version=12))
        await settle(pilot)
        await pilot.press("escape")  # help closes; the round-over dialog beneath has gone by itself
        await wait_for_screen(pilot, app, GameScreen, "Round 3 ")
        assert app.game.match.round_number == 3


async def test_a_bug_in_reading_the_server_ends_the_app_as_a_crash() -> None:
    """The listener's task ends with an error no handler expected: the app reports it and exits failing
    (reported from the task's done callback, outside any ``except`` block, which Textual cannot draw)."""
    app, ours = await start()

    def broken(message: LobbyListing) -> None:
        raise RuntimeError("a bug in the listing's handler")

    stopped = False
    with contextlib.suppress(RuntimeError):  # the pilot raises the app's error as it closes
        async with app.run_test(size=(100, 32)):
            server = FakeServer(await Link.over(ours))
            app._handlers[LobbyListing] = broken
            server.send({"type": "lobby", "matches": []})
            for _ in range(100):
                if not app.is_running:
                    break
                await asyncio.sleep(0.05)
            stopped = not app.is_running
    assert stopped  # the app stopped, not just marked failed
    assert app.return_code == 1
    assert isinstance(app._exception, RuntimeError)


#: What a match against the computer offers, and a match between players over SSH does not.
SOLO_COMMANDS = ("Undo", "Redo", "Puzzles (any)", "Statistics", "Computer's pause")


@pytest.mark.parametrize("hints", [False, True])
async def test_in_a_match_over_ssh_help_and_palette_list_what_works_there(hints: bool) -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "ABCD"
        match = Match(MatchOptions(discs=4, stars_to_win=1), ("ann", "bob"), seed=won_by_first_player())
        server.send(match_message(match, 0, hints=hints))
        await wait_for_screen(pilot, app, GameScreen, "Your move")
        keys, titles = await help_and_palette(pilot, app)
        for listed in ("Enter or Space", "R (shift+r)", "it counts as a loss", "a rematch", "back to the lobby",
                       "resign, rematch, themes"):
            assert listed in keys
        for not_here in ("u / r", "undo", "puzzles", "statistics", "computer's pause", "Tab, Shift+Tab"):
            assert not_here not in keys
        assert ("H (shift+h)" in keys) is hints and ("Hint" in titles) is hints
        for offered in ("Back to the lobby", "Help", "Theme", "Quit", "Copy the position"):
            assert offered in titles
        for not_offered in (*SOLO_COMMANDS, "New match", "Rematch", "Replay a finished match"):
            assert not_offered not in titles
        assert "Y (shift+y) copy the position shown in notation" in keys
        await pilot.press("Y")  # the same key as on one terminal: OSC 52 goes to the player's terminal
        await wait_for(pilot, app, lambda: app.clipboard == str(match.position), "the position copied")
        assert f"Copied, for soluna analyze: {match.position}" in " ".join(screen_text(app).split())
        while not match.is_over:
            match.play(match.position.legal_moves[0], match.to_move)
        server.send(match_message(match, 0, version=1, hints=hints))
        await wait_for(pilot, app, lambda: app.game.match.is_over, "the match's end")
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Rematch" in titles  # once the match is over
        assert not any(command in titles for command in SOLO_COMMANDS)


async def test_a_spectator_s_help_and_palette_offer_no_move_take_back_or_rematch() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "WXYZ"
        server.send(match_message(Match(seed=2), None, code="WXYZ", hints=True, notice="You are watching."))
        await wait_for_screen(pilot, app, GameScreen)
        keys, titles = await help_and_palette(pilot, app)
        for listed in ("only the players move them", "Tab", "back to the lobby", "quit (asked first)"):
            assert listed in keys
        for not_here in ("Enter or Space", "Mouse", "u / r", "rematch", "R (shift+r)", "H (shift+h)", "puzzles"):
            assert not_here not in keys
        assert set(titles) == {"Back to the lobby", "Help", "Theme", "Quit", "Copy the position",
                               "Cursor follows focus: turn on"}  # a guest's, for the visit: watching by touch too


async def test_the_lobby_s_help_lists_its_own_keys_and_its_palette_no_match_commands() -> None:
    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300})
        await wait_for_screen(pilot, app, LobbyScreen, "Welcome, ann.")
        keys, titles = await help_and_palette(pilot, app)
        for listed in ("Tab, Shift+Tab", "Left / Right", "on a setting", "PgUp / PgDn", "back to the menu",
                       "puzzles, statistics", "quit (asked first)", "who is online"):
            assert listed in keys
        for not_here in ("Enter or Space pick the tower up", "u / r", "R (shift+r)", "H (shift+h)", "Mouse"):
            assert not_here not in keys
        for offered in ("Puzzles (any)", "Statistics", "Computer's pause", "Help", "Theme", "Quit"):
            assert offered in titles
        for not_offered in ("New match", "Back to the lobby", "Undo", "Rematch", "Resign", "Hint"):
            assert not_offered not in titles
        await pilot.press("enter")  # against the computer: its own match, taken back and all
        await wait_for_screen(pilot, app, GameScreen, "Your move")
        keys, titles = await help_and_palette(pilot, app)
        assert "u / r" in keys and "the server keeps the match" in keys and "Tab, Shift+Tab" not in keys
        assert all(command in titles for command in SOLO_COMMANDS) and "Back to the lobby" in titles
