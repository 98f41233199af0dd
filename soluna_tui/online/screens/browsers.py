"""Play in a browser, for a player over SSH with a key: a one-time code (and its link) that signs a browser in as
them, counting down, and the browsers signed in as them, each one signed out with a key. The lobby opens it (its
menu, or ``b``); the app asks the server and hands it the answers."""

from __future__ import annotations

import time
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static

from ...link.messages import BrowserCode, SignedInBrowser
from ...screens.confirm import ConfirmScreen
from ...screens.help import HELP_BINDING
from ...screens.quiet_focus import QuietFocus
from ...screens.styled_as_mounted import StyledAsMounted
from ...widgets.key_footer import KeyFooter
from ...widgets.menu import Menu
from .lobby_wish import LobbyWish
from .seeking import waited_words

TITLE = "Play in a browser"
#: How often the open dialog asks the server for the browsers signed in while its code may be used, so that it says
#: at once when one signed in with it (a key has one code at a time: a new one ends the one before).
LOOK_EVERY = 2.0


def ago_words(seconds: float) -> str:
    """``just now``, ``5 min ago``, ``3 h ago``, ``2 days ago``."""
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 2 * 86400:
        return f"{int(seconds // 3600)} h ago"
    return f"{int(seconds // 86400)} days ago"


def browser_words(browser: SignedInBrowser, now: float, ascii_mode: bool = False) -> str:
    """One signed-in browser as its line says it: what it is, from where it was last seen, and when, since when."""
    linked = time.strftime("%d %b", time.gmtime(browser.linked_at))
    dot = " - " if ascii_mode else " · "
    return dot.join((browser.agent, browser.address, f"seen {ago_words(now - browser.last_seen)}", f"linked {linked}"))


class ShowBrowsers(LobbyWish):
    """The player asked to play in a browser (the lobby's menu, or ``b``)."""


class BrowsersScreen(QuietFocus, StyledAsMounted, ModalScreen[None]):
    """``n`` makes a new code, Enter or ``r`` signs the highlighted browser out (asked first), Escape goes back."""

    AUTO_FOCUS = "#browsers-list"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_code", "New code"),
        Binding("r", "revoke", "Sign out browser"),
        Binding("escape", "close", "Back"),
        HELP_BINDING,
    ]

    class NewCode(LobbyWish):
        """Another code (the one shown no longer works)."""

        def __init__(self, screen: BrowsersScreen) -> None:
            super().__init__()
            self.screen = screen

        @property
        def control(self) -> BrowsersScreen:
            return self.screen

    class LookAgain(NewCode):
        """The browsers signed in, asked again while the code shown may be used."""

    class Revoke(NewCode):
        """Sign this browser out."""

        def __init__(self, screen: BrowsersScreen, browser: int) -> None:
            super().__init__(screen)
            self.browser = browser

    def __init__(self, name: str, *, ascii_mode: bool = False) -> None:
        super().__init__()
        self.player_name = name
        self.ascii_mode = ascii_mode
        self.code: BrowserCode | None = None
        #: When the code runs out (``time.monotonic()``).
        self.runs_out = 0.0
        self.browsers: tuple[SignedInBrowser, ...] = ()
        #: The browser being signed out (the list without it says it is done).
        self._revoking: SignedInBrowser | None = None
        #: The browsers listed when the code came (``None``: not listed yet); one more since used the code.
        self._before_code: frozenset[int] | None = None
        #: The server has listed the browsers.
        self._listed = False
        #: The browser that signed in with the code shown (it works once).
        self.used_by: SignedInBrowser | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="browsers", classes="dialog"):
            yield Static("Asking the server for a code...", id="browsers-code", markup=False)
            yield Static("", id="browsers-link", markup=False)
            yield Static("Browsers signed in as you:", id="browsers-title", markup=False)
            yield Menu(id="browsers-list", markup=False)
            yield Static("", id="browsers-none", markup=False)
            yield Static("", id="browsers-status", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#browsers").border_title = TITLE
        self.set_interval(1.0, self._show_code)
        self.set_interval(LOOK_EVERY, self._look_again)
        self._draw_browsers(self.browsers)

    # ---- attributes down -----------------------------------------------------------------

    def show_code(self, code: BrowserCode) -> None:
        """A fresh code from the server, counting down from now."""
        self.code, self.runs_out = code, time.monotonic() + code.seconds
        self.used_by = None
        self._before_code = frozenset(browser.id for browser in self.browsers) if self._listed else None
        self.say("")
        self.query_one("#browsers-link", Static).update(
            f"Open {code.link}\nor type the code on that page where it asks for a name. The browser then plays as "
            f"{self.player_name}, rated, with your settings, and stays signed in: it is listed below.")
        self._show_code()

    def _show_code(self) -> None:
        code = self.code
        if code is None:
            return
        left = self.runs_out - time.monotonic()
        used = self.used_by
        if used is not None:
            words = f"Your code {code.code} was used: {used.agent} at {used.address} signed in. n makes a new one."
        elif left > 0:
            words = f"Your code: {code.code}  (works once, {waited_words(left)} left)"
        else:
            words = f"Your code {code.code} has run out: n makes a new one."
        self.query_one("#browsers-code", Static).update(words)
        self.query_one("#browsers-link", Static).display = used is None and left > 0  # where to use it: while it works

    def _look_again(self) -> None:
        """While the code shown may still be used: the browsers asked for again (one more says it was)."""
        if self.code is not None and self.used_by is None and self.runs_out > time.monotonic():
            self.post_message(self.LookAgain(self))

    def show_browsers(self, browsers: tuple[SignedInBrowser, ...]) -> None:
        """The browsers signed in as this player, as the server last said (the highlight stays where it was)."""
        self._note_sign_in(browsers)
        self._listed = True
        self._draw_browsers(browsers)

    def _draw_browsers(self, browsers: tuple[SignedInBrowser, ...]) -> None:
        menu = self.query_one("#browsers-list", Menu)
        was = self._highlighted()
        self.browsers = browsers
        now = time.time()
        menu.set_options([browser_words(browser, now, self.ascii_mode) for browser in browsers])
        ids = [browser.id for browser in browsers]
        if browsers:
            menu.highlighted = ids.index(was.id) if was is not None and was.id in ids else 0
        menu.display = bool(browsers)
        none = self.query_one("#browsers-none", Static)
        none.update("None yet.")
        none.display = not browsers
        gone, self._revoking = self._revoking, None
        if gone is not None and gone.id not in ids:
            self.say(f"Signed out: {gone.agent} at {gone.address} (its game, if any, is closed).")

    def _note_sign_in(self, browsers: tuple[SignedInBrowser, ...]) -> None:
        """A browser listed that was not when the code came signed in with it: the code is spent, and said so."""
        ids = frozenset(browser.id for browser in browsers)
        if self.code is None or self.used_by is not None:
            return
        if self._before_code is None:
            self._before_code = ids
            return
        new = [browser for browser in browsers if browser.id not in self._before_code]
        if new:
            self.used_by = new[0]
            self._show_code()
        self._before_code &= ids  # a browser signed out and back in again is new again

    def say(self, text: str) -> None:
        self.query_one("#browsers-status", Static).update(text)

    def refused(self, text: str) -> None:
        """The server could not do what was asked (a code, the list, a sign-out): why."""
        self.say(text)
        if self.code is None:
            self.query_one("#browsers-code", Static).update("No code.")

    # ---- what the player does ------------------------------------------------------------

    def _highlighted(self) -> SignedInBrowser | None:
        if not self.is_mounted:
            return None
        index = self.query_one("#browsers-list", Menu).highlighted
        return self.browsers[index] if index is not None and index < len(self.browsers) else None

    @on(OptionList.OptionSelected, "#browsers-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_revoke()

    def action_new_code(self) -> None:
        self.say("Asking the server for a new code...")
        self.post_message(self.NewCode(self))

    def action_revoke(self) -> None:
        browser = self._highlighted()
        if browser is None:
            return

        def revoke(sure: bool | None) -> None:
            if sure:
                self._revoking = browser
                self.say(f"Signing out {browser.agent} at {browser.address}...")
                self.post_message(self.Revoke(self, browser.id))

        self.app.push_screen(ConfirmScreen(f"Sign out {browser.agent} at {browser.address}? Its game ends now, and it "
                                           "needs a new code to sign in again.", "Sign out", "Keep",
                                           title="Sign out browser"), revoke)

    def action_close(self) -> None:
        self.dismiss(None)
