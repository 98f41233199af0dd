"""A beatable first opponent: a new player is offered "Match my strength" (level 3 with no history) on the
new-match screen, by ``soluna play --vs`` alone and in the SSH lobby; and the help key is on the first screen."""

from __future__ import annotations

from soluna_tui import cli
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.rules.strengths import FIRST_MATCHED
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.help import HelpScreen
from soluna_tui.screens.new_match import MATCH_LEVEL, NewMatchScreen
from soluna_tui.widgets.choice import Choice

from ..server.test_child_app import settle, start
from .helpers import footer_keys, make_app, screen_text, wait_for_text


def test_play_vs_alone_means_match_my_strength_and_a_number_still_works(monkeypatch, tmp_path) -> None:
    started: dict = {}
    monkeypatch.setattr(cli, "_run_app", lambda args, **start: started.update(start) or 0)
    for argv, level, matched in ((["play", "--vs"], FIRST_MATCHED.level, True),
                                 (["play", "--vs", "--seed", "4"], FIRST_MATCHED.level, True),
                                 (["play", "--vs", "5"], "5", False),
                                 (["play", "--vs", "match"], FIRST_MATCHED.level, True)):
        assert cli.main([*argv, "--data-dir", str(tmp_path)]) == 0
        setup = started["setup"]
        assert (setup.computer_level, setup.matched) == (level, matched), argv
    assert "Level 3 chosen" in started["start_notice"]


async def test_a_new_player_is_offered_match_my_strength_and_plays_level_3(tmp_path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)
        await pilot.press("right")  # against the computer
        await pilot.pause()
        assert app.screen.query_one("#level", Choice).value == MATCH_LEVEL
        await wait_for_text(pilot, app, "Level 3 chosen: a gentle start")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.screen.table.setup.computer_level == "3" and app.screen.table.setup.matched


async def test_a_level_chosen_by_number_is_offered_again_and_two_players_leave_it_matched(tmp_path) -> None:
    for previous, offered in ((MatchSetup.against_computer("7"), "7"), (MatchSetup(), MATCH_LEVEL),
                              (MatchSetup.against_computer("7", matched=True), MATCH_LEVEL)):
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.push_screen(NewMatchScreen(previous))
            await pilot.pause()
            assert app.screen.query_one("#level", Choice).value == offered


async def test_the_first_screen_shows_the_help_key_and_it_opens_the_help(tmp_path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)
        assert footer_keys(app).get("Help") is True
        assert "? Help" in screen_text(app).splitlines()[-1]
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_the_ssh_lobby_offers_a_new_player_level_3() -> None:
    from soluna_tui.link.protocol import Link

    from ..server.test_child_app import FakeServer

    app, ours = await start()
    async with app.run_test(size=(100, 32)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300})
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)
        assert app.screen.query_one("#level", Choice).value == FIRST_MATCHED.level
        assert app.screen.settings.computer_setup("ann", None).computer_level == FIRST_MATCHED.level
        assert f"{FIRST_MATCHED.rated}" in screen_text(app)
