"""A screen's first show: Textual styled its widgets as it mounted them, and does not style them all again as it
shows (``StyledAsMounted``), which was a fifth of a lobby's start; nor, on a narrow terminal, as the app takes its
narrow class (it has it before the first screen is made). What shows is what a full restyle gives."""

from __future__ import annotations

import pytest
from textual import events
from textual.screen import Screen

from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.help import HelpScreen
from soluna_tui.screens.new_match import NewMatchScreen
from soluna_tui.screens.styled_as_mounted import StyledAsMounted

from .helpers import hot_seat, make_app, screen_text, wait_for, welcomed_session


@pytest.fixture
def restyled(monkeypatch) -> list[str]:
    """The names of our screens styled whole (every widget again) from now on, one entry a time."""
    names: list[str] = []
    whole = Screen.update_node_styles

    def counted(self, animate: bool = True) -> None:
        if isinstance(self, StyledAsMounted):
            names.append(type(self).__name__)
        whole(self, animate)

    monkeypatch.setattr(Screen, "update_node_styles", counted)
    return names


def styles_of(screen: Screen) -> list[tuple[str, list[str], list[tuple[str, list[str]]]]]:
    """Every widget's styles from the stylesheet, its component classes' too."""
    return [(repr(node), node.styles.base.css_lines,
             [(name, styles.base.css_lines) for name, styles in sorted(node._component_styles.items())])
            for node in screen.walk_children(with_self=True)]


async def shows_as_restyled(pilot, screen: Screen) -> None:
    """Styling ``screen`` whole, once its first layouts are done, changes no widget's styles and nothing on the
    screen."""
    await settled(pilot)
    before, text = styles_of(screen), screen_text(pilot.app)
    screen.update_node_styles(animate=False)
    await pilot.pause()
    assert styles_of(screen) == before
    assert screen_text(pilot.app) == text


async def settled(pilot) -> None:
    """Until the screen has shown the same for a tenth of a second (at most 2 s): a screen's last layout comes
    with Textual's next timer tick, after its first frame (the scroll bars a layout found needed, the text wrapped
    beside them; a lobby at 40x20)."""
    shown = screen_text(pilot.app)
    for _ in range(20):
        await pilot.pause(0.1)
        shown, before = screen_text(pilot.app), shown
        if shown == before:
            return
    raise AssertionError(f"the screen never settled:\n{shown}")


async def shown_again(pilot, restyled: list[str]) -> None:
    """A later show of the screen in front is styled whole when Textual asks for it, as before."""
    restyled.clear()
    pilot.app.screen.post_message(events.ScreenResume(refresh_styles=True))
    await pilot.pause()
    assert restyled == [type(pilot.app.screen).__name__]


@pytest.mark.parametrize("size", [(80, 24), (40, 20)])  # narrow: the layouts for the width come before the screen
async def test_the_game_and_its_dialogs_are_not_styled_again_as_they_first_show(tmp_path, restyled, size) -> None:
    app = make_app(tmp_path, hot_seat(seed=1))
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, app, lambda: isinstance(app.screen, GameScreen), "the game")
        assert restyled == []
        await shows_as_restyled(pilot, app.screen)
        await shown_again(pilot, restyled)
        for key, dialog in (("question_mark", HelpScreen), ("n", NewMatchScreen)):
            restyled.clear()
            await pilot.press(key)
            await wait_for(pilot, app, lambda dialog=dialog: isinstance(app.screen, dialog), dialog.__name__)
            assert restyled == []
            await shows_as_restyled(pilot, app.screen)
            await shown_again(pilot, restyled)
            await pilot.press("escape")
            await wait_for(pilot, app, lambda: isinstance(app.screen, GameScreen), "the game again")


@pytest.mark.parametrize("size", [(80, 24), (40, 20)])
async def test_the_lobby_is_not_styled_again_as_it_first_shows(restyled, size) -> None:
    with welcomed_session() as app:
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, app, lambda: isinstance(app.screen, LobbyScreen) and "Welcome, ann" in
                           screen_text(app), "the lobby")
            assert restyled == []
            await shows_as_restyled(pilot, app.screen)
            await shown_again(pilot, restyled)
