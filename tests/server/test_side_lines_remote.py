"""Side lines over SSH: none from a match between players while it is in play (an analysis board beside
the game), for its players or its spectators; once it is over, as anywhere."""

from __future__ import annotations

import pytest

from soluna_tui.link.protocol import Link
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.play.where import Where
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.match_over import MatchOverScreen
from soluna_tui.screens.play_on import PlayOnScreen
from soluna_tui.screens.review import ReviewScreen
from soluna_tui.screens.side_line import SideLineScreen
from soluna_tui.widgets.history import History

from ..app.helpers import footer_keys, play_by_keys, screen_text, wait_for, wait_for_text
from .test_child_app import FakeServer, match_message, start, wait_for_screen

REFUSAL = "No side lines until this match is over."


def two_moves_in(seed: int = 3) -> Match:
    match = Match(MatchOptions(discs=8, stars_to_win=1), ("ann", "bob"), seed=seed)
    for _ in range(2):
        match.play(match.position.legal_moves[0], match.to_move)
    return match


@pytest.mark.parametrize("seat", [0, None], ids=["player", "spectator"])
async def test_p_in_the_history_of_a_match_between_players_in_play_says_why_it_does_nothing(seat) -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        app.following = "ABCD"
        match = two_moves_in()
        server.send(match_message(match, seat, hints=True))
        await wait_for_screen(pilot, app, GameScreen)
        screen = app.screen
        await pilot.press("tab", "up")
        await wait_for(pilot, app, lambda: screen.browsing.viewing is not None and screen.browsing.viewing.ply == 1,
                       "move 1")
        assert footer_keys(app)["Play on"] is False  # offered where it works, dimmed here
        await pilot.press("p")
        await wait_for_text(pilot, app, REFUSAL)
        await pilot.pause()
        assert app.screen is screen and isinstance(app.focused, History)
        await pilot.press("escape")  # back to play
        await wait_for(pilot, app, lambda: screen.browsing.viewing is None, "the live position")
        # Once the match is over, a side line is no help to anyone in it: p plays on as anywhere.
        while not match.is_over:
            match.play(match.position.legal_moves[0], match.to_move)
        server.send(match_message(match, seat, version=1, hints=True))
        await wait_for(pilot, app, lambda: screen.match.is_over, "the match's end")
        for dialog in (ReviewScreen, MatchOverScreen):  # the round's review, the summary: Escape goes on
            await wait_for(pilot, app, lambda dialog=dialog: isinstance(app.screen, dialog), dialog.__name__)
            await pilot.press("escape")
        await wait_for(pilot, app, lambda: app.screen is screen, "the board")
        await pilot.press("tab", "home", "down", "p")
        await wait_for(pilot, app, lambda: isinstance(app.screen, PlayOnScreen), "the question")
        await pilot.press("b")
        await wait_for(pilot, app, lambda: isinstance(app.screen, SideLineScreen), "the side line")
        assert app.screen.match.round.ply == 1 and app.game is screen
        assert REFUSAL not in screen_text(app)


async def test_against_the_computer_over_ssh_a_side_line_plays_on_and_leaves_the_kept_match_alone() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300})
        await wait_for_screen(pilot, app, LobbyScreen, "Welcome, ann.")
        await pilot.press("enter")  # against the computer
        await wait_for_screen(pilot, app, GameScreen, "Your move")
        screen = app.screen
        await play_by_keys(pilot, app, screen.match.position.legal_moves[0])
        await wait_for(pilot, app, lambda: screen.match.round.ply == 2 and not screen.flow.thinking, "the reply")
        kept = screen.match.to_json()
        await pilot.press("tab", "home", "p")
        await wait_for(pilot, app, lambda: isinstance(app.screen, PlayOnScreen), "the question")
        await pilot.press("c")
        await wait_for(pilot, app, lambda: isinstance(app.screen, SideLineScreen), "the side line")
        side = app.screen
        await play_by_keys(pilot, app, side.match.position.legal_moves[-1], side)
        await wait_for(pilot, app, lambda: side.match.round.ply == 2 and not side.flow.thinking, "its answer")
        assert app.where is Where.COMPUTER_OVER_SSH and screen.match.to_json() == kept
        await pilot.press("escape")
        await wait_for(pilot, app, lambda: app.screen is screen, "the match again")
        assert screen.match.to_json() == kept
