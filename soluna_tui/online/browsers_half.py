"""Runs in the child.

Play in a browser, the session app's part: the dialog's wishes (a code, a browser signed out) asked of the
server, and its answers shown in the dialog.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..link.messages import AskBrowserCode, AskBrowsers, BrowserCode, Browsers, Message, RevokeBrowser
from .linked_app import LinkedApp
from .screens.browsers import BrowsersScreen, ShowBrowsers
from .screens.lobby_wish import LobbyWish


class BrowsersHalf:
    """The dialog's wishes, asked of the server, and the answers, shown in the dialog that asked."""

    def __init__(self, app: LinkedApp) -> None:
        self.app = app

    @property
    def wishes(self) -> dict[type[LobbyWish], Callable[[Any], None]]:
        return {ShowBrowsers: self._show, BrowsersScreen.NewCode: self._new_code, BrowsersScreen.Revoke: self._revoke,
                BrowsersScreen.LookAgain: self._look_again}

    @property
    def handlers(self) -> dict[type[Message], Callable[[Any], None]]:
        return {BrowserCode: self._heard_code, Browsers: self._heard_browsers}

    def _show(self, wish: ShowBrowsers) -> None:
        screen = BrowsersScreen(self.app.player_name, ascii_mode=self.app.ascii_mode)
        self.app.push_screen(screen)
        self.app.ask(AskBrowserCode(), screen, screen.refused)
        self.app.ask(AskBrowsers(), screen, screen.refused)

    def _new_code(self, wish: BrowsersScreen.NewCode) -> None:
        self.app.ask(AskBrowserCode(), wish.control, wish.control.refused)

    def _look_again(self, wish: BrowsersScreen.LookAgain) -> None:
        self.app.ask(AskBrowsers(), wish.control, wish.control.refused)

    def _revoke(self, wish: BrowsersScreen.Revoke) -> None:
        self.app.ask(RevokeBrowser(wish.browser), wish.control, wish.control.refused)

    def _heard_code(self, message: BrowserCode) -> None:
        asked = self.app.asker(message)
        if asked is not None and isinstance(asked.screen, BrowsersScreen):
            asked.screen.show_code(message)

    def _heard_browsers(self, message: Browsers) -> None:
        asked = self.app.asker(message)
        if asked is not None and isinstance(asked.screen, BrowsersScreen):
            asked.screen.show_browsers(message.browsers)
