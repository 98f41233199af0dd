"""The Soluna app: its stores and settings, global keys, and the parts it owns, each with one job:

- ``start_up.StartUp``: the first screen, the Welcome back offer, a damaged save set aside;
- ``matches_begun.Matches``: the new-match form, a rematch, asking before abandoning, a match shown;
- ``palette_commands.PaletteCommands``: the command palette's commands (and the computer's pauses);
- ``other_screens.OtherScreens``: the help, puzzles, statistics, finished matches and their replays;
- ``stylesheets``: the stylesheets (some read later), ASCII mode's scroll bars and key names;
- ``too_small_notice.TooSmallNotice`` (mixed in): the notice while the terminal is too small, kept on top.

Only what the first frame needs is imported with the app (the game screen, or the new-match
screen); every other screen, the palette's commands and the stats are imported when first used. A
process that forks sessions (the SSH server's zygote) imports them all first with ``preload``.
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.screen import Screen
from textual.theme import ThemeProvider

from ..compat.textual_internals import share_parsed_stylesheets
from ..local.match_setup import MatchSetup
from ..local.preferences import Preferences
from ..local.saves import SaveStore
from ..local.table import SideLineTable
from ..play.where import Where
from ..rules import Match
from ..screens.game import GameScreen
from ..terminal.driver import compact_driver
from ..terminal.key_order import InOrderInput
from ..terminal.sizes import NARROW_CLASS, WIDE_WIDTH
from .focus_cursor import FocusCursor
from .hangup import end_when_hung_up
from .matches_begun import Matches
from .start_up import StartUp
from .stylesheets import Stylesheets, ascii_key_display, draw_scroll_bars
from .too_small_notice import TooSmallNotice

if TYPE_CHECKING:
    from textual.driver import Driver
    from textual.geometry import Size

    from ..local.player_stats import StatsStore
    from ..screens.new_match import NewMatchScreen
    from ..screens.side_line import SideLines
    from .soluna_view import SolunaView

#: The computer's pause before its move lands, in seconds, unless the player chose another.
DEFAULT_PAUSE = 1.0
#: The longest time the computer's chosen tower stays lifted before it lands.
REVEAL_PAUSE = 0.5
#: Modules the first frame does without, imported when first used (``preload`` imports them all).
LATER_MODULES = (
    "soluna_tui.screens.confirm", "soluna_tui.screens.finished", "soluna_tui.screens.help",
    "soluna_tui.screens.new_match", "soluna_tui.screens.puzzle", "soluna_tui.screens.replay",
    "soluna_tui.screens.resume", "soluna_tui.screens.stats", "soluna_tui.screens.too_small",
    "soluna_tui.screens.round_over", "soluna_tui.screens.match_over", "soluna_tui.screens.review",
    "soluna_tui.screens.command_palette", "soluna_tui.screens.difficulty", "soluna_tui.screens.play_on",
    "soluna_tui.screens.side_line", "soluna_tui.screens.guided_round",
    "soluna_tui.app.palette_commands", "soluna_tui.app.other_screens", "soluna_tui.local.player_stats",
    "soluna_tui.rules.puzzles",
    # The solver, the computer players and the teaching: a match on one terminal draws its first frame
    # without them, and imports them when the computer first moves or a hint is asked for.
    "soluna_tui.rules.solver", "soluna_tui.rules.players", "soluna_tui.rules.teaching",
)


def preload() -> None:
    """Import everything the app may show, at once (a zygote forks sessions after this, so no
    session pays to import a screen when it first shows it)."""
    for name in LATER_MODULES:
        importlib.import_module(name)


def pause_parts(pause: float) -> tuple[float, float]:
    """The computer's whole pause before its move lands, as the time it takes to choose (at least)
    and the time its chosen tower stays lifted (half of it, at most ``REVEAL_PAUSE``)."""
    reveal = min(REVEAL_PAUSE, pause / 2)
    return pause - reveal, reveal


def freeze_what_lasts() -> None:
    """Once the first frame is drawn: keep what was loaded out of the collector's sight, and
    switch the collector back on (``soluna`` starts with it off: see ``launch``).

    A Python function, not ``gc.freeze`` itself: Textual reads a callback's signature, and a
    builtin's costs about 30 ms (its text signature is parsed by a regex compiled on first use).
    """
    gc.freeze()
    gc.enable()


class SolunaApp(InOrderInput, TooSmallNotice, FocusCursor, App[None]):
    """Soluna on one terminal: two players, or one against the computer.

    Keys that arrive together are handled in order, each after the one before (``InOrderInput``); the terminal's
    real cursor is shown on the focus where the player asks for it (``FocusCursor``).
    """

    TITLE = "Soluna"
    #: Read every stylesheet at start-up (an app whose first screen is not the game's).
    STYLES_AT_ONCE: ClassVar[bool] = False
    #: A subclass's own stylesheets, read at start-up after the app's (before ASCII mode's).
    EXTRA_STYLESHEETS: ClassVar[tuple[str, ...]] = ()
    #: Freeze what the first frame leaves (``freeze_what_lasts``): not in a process that runs several sessions'
    #: apps (``online/house.py``), whose ended apps must be collected.
    FREEZES_WHAT_LASTS: ClassVar[bool] = True
    #: The descriptor of the app's terminal, where it is not standard input (a session in a house).
    terminal_fd: int | None = None
    BINDINGS = [
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        *,
        setup: MatchSetup | None = None,
        puzzle: tuple[int | None, str, int] | None = None,
        ascii_mode: bool = False,
        data_dir: Path | None = None,
        theme: str | None = None,
        computer_pause: float | None = None,
        reveal_pause: float | None = None,
        store: SaveStore | None = None,
        stats_store: StatsStore | None = None,
        preferences: Preferences | None = None,
        start_notice: str = "",
        offer_guided_round: bool = True,
        cursor_follows_focus: bool = False,
    ) -> None:
        """The stores default to files in ``data_dir``; a host (the SSH child, a test) may hand in its own.

        The computer's pauses default to the player's preference (``pause_parts``); a host may set them.
        ``start_notice`` is said once the first screen shows (the level ``--vs match`` chose, and why).
        ``offer_guided_round``: show the guided round at a first start (no save, no stats, not done before).
        ``cursor_follows_focus``: show the terminal's cursor on the focus (``focus_cursor.py``)."""
        share_parsed_stylesheets()  # every app of the process parses a sheet once between them
        self.sheets = Stylesheets(ascii_mode=ascii_mode, at_once=self.STYLES_AT_ONCE,
                                  extra=self.EXTRA_STYLESHEETS)
        super().__init__(css_path=self.sheets.first)
        self.ascii_mode = ascii_mode
        self.cursor_follows_focus = cursor_follows_focus
        self.store: SaveStore | None = store if store is not None else SaveStore(data_dir)
        self._stats_store = stats_store
        self._data_dir = data_dir
        self.preferences = preferences if preferences is not None else Preferences(data_dir)
        self.requested_theme = theme
        think, reveal = pause_parts(self.preferences.computer_pause if self.preferences.computer_pause is not None
                                    else DEFAULT_PAUSE)
        #: The computer takes at least this long, so its move is not a surprise.
        self.computer_pause = think if computer_pause is None else computer_pause
        #: How long the computer's chosen tower stays lifted before it lands.
        self.reveal_pause = reveal if reveal_pause is None else reveal_pause
        self.matches = Matches(self)
        self.start_up = StartUp(self, self.matches, setup=setup, puzzle=puzzle, notice=start_notice,
                                offer_guided_round=offer_guided_round)
        draw_scroll_bars(ascii_mode)

    @property
    def stats_store(self) -> StatsStore:
        """The statistics, read from the data directory when first needed (at the end of a match)."""
        if self._stats_store is None:
            from ..local.player_stats import StatsStore

            self._stats_store = StatsStore(self._data_dir)
        return self._stats_store

    @stats_store.setter
    def stats_store(self, store: StatsStore) -> None:
        self._stats_store = store

    def remember(self, **choices: Any) -> None:
        """Keep the theme or match setup for next time; a terminal that saves nothing (a remote
        session, whose store is None) remembers nothing either."""
        if self.store is not None:
            self.preferences.remember(**choices)

    @property
    def keeps_choices(self) -> bool:
        """Whether ``remember`` keeps anything (in the preferences)."""
        return self.store is not None

    # ---- start-up and the terminal -------------------------------------------------------

    def get_default_screen(self) -> Screen[Any]:
        """The first screen, made for the terminal's width: the app has its narrow class (and the narrow layouts
        read) before the screen's widgets are styled, not after, when each would be styled again (twice: for the
        class, and for the sheet)."""
        self.fit_width(self.size)
        return self.first_screen()

    def first_screen(self) -> Screen[Any]:
        """The match ``soluna play`` asked for, or the puzzle (``StartUp.first_screen``); else Textual's."""
        return self.start_up.first_screen() or super().get_default_screen()

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this terminal, writing its frames in fewer bytes (``terminal/driver.py``)."""
        return compact_driver(super().get_driver_class())

    def on_mount(self) -> None:
        # What exists once the first frame is drawn (the imported modules, the screen's widgets)
        # lives as long as the app: kept out of the garbage collector's sight, so no key pays for
        # a collection that walks it all again (as the SSH server's zygote does for its sessions).
        if self.FREEZES_WHAT_LASTS:
            self.call_after_refresh(freeze_what_lasts)
        self.sheets.read_later_when_needed(self)
        self.start_up.keep_first_match()
        theme = self.requested_theme or self.preferences.theme
        if theme in self.available_themes:
            self.theme = theme
        self.theme_changed_signal.subscribe(self, lambda theme: self.remember(theme=theme.name))
        self.check_size()
        self.start_up.greet()
        end_when_hung_up(self)

    def check_size(self, size: Size | None = None) -> None:
        """The layouts for the width (``fit_width``), and the too-small notice below the minimum size
        (``TooSmallNotice``)."""
        self.fit_width(size or self.size)
        super().check_size(size)

    def fit_width(self, size: Size) -> None:
        """Below ``WIDE_WIDTH`` the app has ``NARROW_CLASS``, which the stylesheets lay every screen out by (a class
        of the app's, so a screen under a dialog is laid out for the new width too)."""
        narrow = size.width < WIDE_WIDTH
        if narrow:
            self.sheets.read_narrow(self)
        self.set_class(narrow, NARROW_CLASS)

    def on_unmount(self) -> None:
        if isinstance(self.store, SaveStore):  # a host's own store (the SSH child's) holds no slot
            self.store.release()  # another copy of the game may now play this save slot

    def get_key_display(self, binding: Binding) -> str:
        display = super().get_key_display(binding)
        return ascii_key_display(binding, display) if self.ascii_mode else display

    # ---- matches -------------------------------------------------------------------------

    @property
    def side_line_opener(self) -> SideLines:
        """How the screens open side lines (whose screen stands on theirs), imported when first used."""
        from ..screens.side_line import SideLines

        return SideLines()

    @property
    def game(self) -> GameScreen | None:
        """The match being played, if any (the lowest screen but for modals, replays and side lines over it)."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen) and not isinstance(screen.table, SideLineTable):
                return screen
        return None

    @property
    def side_line(self) -> GameScreen | None:
        """The side line being played, if it is the game screen nearest the top (``screens/side_line.py``)."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen if isinstance(screen.table, SideLineTable) else None
        return None

    def start_match(self, setup: MatchSetup, rematch_of: Match | None = None) -> None:
        """Begin a fresh match (a rematch keeps the players and lets the loser open)."""
        self.matches.start(setup, rematch_of)

    def action_new_match(self, previous: MatchSetup | None = None, notice: str = "") -> None:
        self.matches.offer_new_match(previous, notice)

    @property
    def where(self) -> Where:
        """Where the player is, for the keys the help lists and the commands the palette offers."""
        return Where.TERMINAL

    def server_rules(self) -> str:
        """What the help says about this server's rules for matches between players (none here)."""
        return ""

    # ---- the computer's pause --------------------------------------------------------------

    @property
    def pause(self) -> float:
        """The computer's whole pause before its move lands, in seconds."""
        return self.computer_pause + self.reveal_pause

    def set_pause(self, pause: float) -> None:
        """A new pause for the computer, from its next move on, remembered for next time."""
        self.computer_pause, self.reveal_pause = pause_parts(pause)
        self.remember(computer_pause=pause)

    def on_new_match_screen_pause_chosen(self, message: NewMatchScreen.PauseChosen) -> None:
        self.set_pause(message.pause)

    # ---- other screens and the palette -----------------------------------------------------

    def action_help(self) -> None:
        from .other_screens import OtherScreens

        OtherScreens(self).help()

    def action_stats(self) -> None:
        from .other_screens import OtherScreens

        OtherScreens(self).stats()

    def action_guided_round(self) -> None:
        from .other_screens import OtherScreens

        OtherScreens(self).guided_round()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """What works where the player is (``where``): nothing that would do nothing there."""
        from .palette_commands import PaletteCommands

        return PaletteCommands(self, self.matches).offered()

    def action_command_palette(self) -> None:
        if self.use_command_palette and not CommandPalette.is_open(self):
            from ..screens.command_palette import orderly_palette

            self.push_screen(orderly_palette(self.ascii_mode))

    def search_themes(self) -> None:
        """The palette's "Theme": the same palette, listing the themes."""
        from ..screens.command_palette import orderly_palette

        self.push_screen(orderly_palette(self.ascii_mode, [ThemeProvider], "themes"))


if TYPE_CHECKING:
    def _soluna_app_is_a_view(app: SolunaApp) -> SolunaView:
        """Checked by mypy only: ``SolunaApp`` provides everything the screens' view of it (``app_view``) promises."""
        return app
