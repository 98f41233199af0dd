"""How the app looks on this terminal: its stylesheets (the other screens' read when first needed),
and ASCII mode's scroll bars and key names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.screen import Screen
from textual.scrollbar import ScrollBar, ScrollBarRender

from ..screens.game import GameScreen

STYLESHEETS = ("app.tcss", "game.tcss")
#: The other screens' styles (the dialogs, the replay): read when the first of those screens shows,
#: so the game's first frame does without them (about 4% of the time to it). Read at once in ASCII
#: mode, whose own sheet must come after them, and by an app with ``STYLES_AT_ONCE``.
LATER_STYLESHEETS = ("dialogs.tcss", "replay.tcss")
ASCII_STYLESHEET = "ascii.tcss"
#: The layouts below 80 columns (a phone, a narrow split): read the first time the app is that narrow, so a
#: terminal of 80 columns or more never parses them. Their rules outweigh the others by their ``.-narrow``.
NARROW_STYLESHEET = "narrow.tcss"
#: Plain names for keys whose usual display is a Unicode symbol.
ASCII_KEY_NAMES = {"up": "up", "down": "down", "left": "left", "right": "right", "enter": "enter",
                   "backspace": "bksp", "question_mark": "?"}


def styles_dir() -> Path:
    """``styles/``: inside the installed package, or at the top of a source checkout."""
    package = Path(__file__).resolve().parent.parent  # soluna_tui
    for candidate in (package / "styles", package.parent / "styles"):
        if (candidate / STYLESHEETS[0]).is_file():
            return candidate
    raise FileNotFoundError("the styles folder of soluna_tui is missing; reinstall the package")


class AsciiScrollBarRender(ScrollBarRender):
    """Scroll bars drawn with spaces and colour only, for ASCII mode."""

    VERTICAL_BARS = [" "] * 8
    HORIZONTAL_BARS = [" "] * 8


def draw_scroll_bars(ascii_mode: bool) -> None:
    """Scroll bars of spaces in ASCII mode, Textual's own otherwise.

    Textual's documented way to draw scroll bars (a class variable, one process one app): set in
    both modes, so an app never inherits another's.
    """
    ScrollBar.renderer = AsciiScrollBarRender if ascii_mode else ScrollBarRender


def ascii_key_display(binding: Binding, display: str) -> str:
    """How ASCII mode shows a binding's key that Textual would show as ``display`` (a plain name
    for a Unicode symbol)."""
    if display.isascii():
        return display
    key = binding.key.split(",")[0]
    return ASCII_KEY_NAMES.get(key, key)


class Stylesheets:
    """The app's stylesheets: the game's at start-up (``first``), the other screens' once one of
    those first shows (``read_later_when_needed``)."""

    def __init__(self, *, ascii_mode: bool, at_once: bool, extra: tuple[str, ...]) -> None:
        """``at_once``: read every sheet at start-up (an app whose first screen is not the game's);
        ``extra``: a subclass's own sheets, read after the app's (before ASCII mode's)."""
        folder = styles_dir()
        self.first = [folder / name for name in STYLESHEETS]
        self._later = [folder / name for name in LATER_STYLESHEETS]
        if ascii_mode or at_once:
            self.first += self._later
            self._later = []
        self.first += [folder / name for name in extra]
        if ascii_mode:
            self.first.append(folder / ASCII_STYLESHEET)
        self._narrow: Path | None = folder / NARROW_STYLESHEET
        self._app: App[Any] | None = None

    def read_narrow(self, app: App[Any]) -> None:
        """The first time ``app`` is narrower than 80 columns: read the small screens' layouts (once)."""
        path, self._narrow = self._narrow, None
        if path is not None:
            app.stylesheet.read(path)
            app.stylesheet.reparse()
            app.stylesheet.update(app)

    def read_later_when_needed(self, app: App[Any]) -> None:
        """Once ``app`` is mounted: watch for the first screen other than the game's (perhaps the
        first screen itself, a puzzle)."""
        if self._later:
            self._app = app
            app.screen_change_signal.subscribe(app, self._read_later)
            self._read_later(app.screen)

    def _read_later(self, screen: Screen[Any]) -> None:
        """The first time a screen other than the game's shows: read the other screens' styles."""
        app = self._app
        if isinstance(screen, GameScreen) or not self._later or app is None:
            return
        sheets, self._later = self._later, []
        app.screen_change_signal.unsubscribe(app)  # read once: later screens need not be watched
        for path in sheets:
            app.stylesheet.read(path)
        app.stylesheet.reparse()
        app.stylesheet.update(app)
