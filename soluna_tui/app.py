"""The Soluna app: styles, screens, global keys, the command palette, saves and resume.

Only what the first frame needs is imported with the app (the game screen, or the new-match
screen); every other screen, and the stats, are imported when first used. A process that forks
sessions (the SSH server's zygote) imports them all first with ``preload``.
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandListItem, CommandPalette, ProviderSource, SimpleCommand, SimpleProvider
from textual.screen import Screen
from textual.theme import ThemeProvider

from .app_looks import Stylesheets, ascii_key_display, draw_scroll_bars
from .app_matches import Matches
from .app_start import StartUp
from .app_too_small import TooSmallNotice
from .glyphs import glyphs_for
from .key_order import InOrderInput
from .match_setup import MatchSetup
from .play.where import Where
from .preferences import Preferences, pause_choices, pause_label
from .rules import Match
from .saves import SaveStore
from .screens.game import GameScreen
from .screens.side_line import SideLines
from .table import SideLineTable
from .terminal_output import compact_driver

if TYPE_CHECKING:
    from textual.driver import Driver

    from .app_view import SolunaView
    from .saves import FinishedFile
    from .screens.new_match import NewMatchScreen
    from .stats import StatsStore

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
    "soluna_tui.stats", "soluna_tui.export", "soluna_tui.rules.puzzles",
)
#: The palette's "New match" where it means another thing: over SSH, a match is left for the lobby.
NEW_MATCH_COMMAND = ("New match", "Set up a new match")
NEW_MATCH_COMMANDS = {
    Where.COMPUTER_OVER_SSH: ("Back to the lobby", "Leave this match; the server keeps it for you to resume (n)"),
    Where.MATCH_OVER_SSH: ("Back to the lobby", "Leave this match, asked first while it is in play (n)"),
    Where.WATCHING: ("Back to the lobby", "Stop watching (n)"),
}
QUIT_COMMANDS = {Where.TERMINAL: "Leave the game; a match in play is saved for next time (q)"}


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


class SolunaApp(InOrderInput, TooSmallNotice, App[None]):
    """Soluna on one terminal: two players, or one against the computer.

    Keys that arrive together are handled in order, each after the one before (``InOrderInput``).
    """

    TITLE = "Soluna"
    #: Read every stylesheet at start-up (an app whose first screen is not the game's).
    STYLES_AT_ONCE: ClassVar[bool] = False
    #: A subclass's own stylesheets, read at start-up after the app's (before ASCII mode's).
    EXTRA_STYLESHEETS: ClassVar[tuple[str, ...]] = ()
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
    ) -> None:
        """The stores default to files in ``data_dir``; a host (the SSH child, a test) may hand in its own.

        The computer's pauses default to the player's preference (``pause_parts``); a host may set them.
        ``start_notice`` is said once the first screen shows (the level ``--vs match`` chose, and why)."""
        self.sheets = Stylesheets(ascii_mode=ascii_mode, at_once=self.STYLES_AT_ONCE,
                                  extra=self.EXTRA_STYLESHEETS)
        super().__init__(css_path=self.sheets.first)
        self.ascii_mode = ascii_mode
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
        #: How the screens open side lines (whose screen stands on theirs).
        self.side_line_opener = SideLines()
        self.matches = Matches(self)
        self.start_up = StartUp(self, self.matches, setup=setup, puzzle=puzzle, notice=start_notice)
        draw_scroll_bars(ascii_mode)

    @property
    def stats_store(self) -> StatsStore:
        """The statistics, read from the data directory when first needed (at the end of a match)."""
        if self._stats_store is None:
            from .stats import StatsStore

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

    # ---- start-up and the terminal -------------------------------------------------------

    def get_default_screen(self) -> Screen[Any]:
        """The match ``soluna play`` asked for, or the puzzle (``StartUp.first_screen``); else Textual's."""
        return self.start_up.first_screen() or super().get_default_screen()

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this terminal, writing its frames in fewer bytes (``terminal_output``)."""
        return compact_driver(super().get_driver_class())

    def on_mount(self) -> None:
        # What exists once the first frame is drawn (the imported modules, the screen's widgets)
        # lives as long as the app: kept out of the garbage collector's sight, so no key pays for
        # a collection that walks it all again (as the SSH server's zygote does for its sessions).
        self.call_after_refresh(self._freeze_what_lasts)
        self.sheets.read_later_when_needed(self)
        self.start_up.keep_first_match()
        theme = self.requested_theme or self.preferences.theme
        if theme in self.available_themes:
            self.theme = theme
        self.theme_changed_signal.subscribe(self, lambda theme: self.remember(theme=theme.name))
        self.check_size()
        self.start_up.greet()

    def _freeze_what_lasts(self) -> None:
        """Once the first frame is drawn: keep what was loaded out of the collector's sight, and
        switch the collector back on (``soluna`` starts with it off: see ``launch``).

        A Python function, not ``gc.freeze`` itself: Textual reads a callback's signature, and a
        builtin's costs about 30 ms (its text signature is parsed by a regex compiled on first use).
        """
        gc.freeze()
        gc.enable()

    def on_unmount(self) -> None:
        if isinstance(self.store, SaveStore):  # a host's own store (the SSH child's) holds no slot
            self.store.release()  # another copy of the game may now play this save slot

    # ---- matches -------------------------------------------------------------------------

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

    def action_choose_pause(self) -> None:
        """The palette's "Computer's pause": the pauses offered, in the same palette."""
        now = self.pause
        commands: list[CommandListItem] = [
            SimpleCommand(f"{label}{' (now)' if seconds == now else ''}",
                          lambda seconds=seconds: self._pause_chosen(seconds),
                          "the computer's pause before its move lands")
            for label, seconds in pause_choices(now)]
        # As Textual's own ``search_commands`` does: a provider instance (its type hint says a class).
        providers = cast(ProviderSource, [SimpleProvider(self.screen, commands)])
        self.push_screen(self._palette(providers, "a pause"))

    def _pause_chosen(self, pause: float) -> None:
        self.set_pause(pause)
        said = "no longer pauses" if pause == 0 else f"now pauses {pause_label(pause)}"
        self.notify(f"The computer {said} before its move lands.", timeout=4)

    @property
    def where(self) -> Where:
        """Where the player is, for the keys the help lists and the commands the palette offers."""
        return Where.TERMINAL

    def server_rules(self) -> str:
        """What the help says about this server's rules for matches between players (none here)."""
        return ""

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            side_line = self.side_line
            game = side_line or self.game
            hints = game is None or game.hints_allowed
            self.push_screen(HelpScreen(glyphs_for(self.ascii_mode), self.server_rules(), self.where, hints,
                                        side_line=side_line is not None))

    def action_puzzles(self, difficulty: str = "any") -> None:
        from .screens.puzzle import PuzzleScreen

        if not isinstance(self.screen, PuzzleScreen):
            self.push_screen(PuzzleScreen(difficulty=difficulty))

    def action_stats(self) -> None:
        from .screens.stats import StatsScreen

        stats = self.stats_store.load()
        self.push_screen(StatsScreen(stats, self.stats_store.problem, ascii_mode=self.ascii_mode))

    def action_replay_finished(self) -> None:
        self._read_finished()

    @work(thread=True, exclusive=True, group="finished")
    def _read_finished(self) -> None:
        """Reading 50 long matches takes a quarter of a second: not on the screen's time."""
        from .saves import FinishedStore
        from .screens.finished import FinishedListScreen

        assert self.store is not None  # the command is offered only where matches are kept
        kept = FinishedStore(self.store.data_dir).newest_first()
        self.call_from_thread(self.push_screen, FinishedListScreen(kept), self._replay_kept)

    def _replay_kept(self, kept: FinishedFile | None) -> None:
        if kept is not None and kept.saved is not None:
            from .screens.replay import ReplayScreen

            self.push_screen(ReplayScreen(kept.saved.match, [f"Played on this computer: {kept.saved.setup.mode_label}"],
                                          ascii_mode=self.ascii_mode))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """What works where the player is (``where``): nothing that would do nothing there."""
        game, where, side_line = self.game, self.where, self.side_line
        if side_line is not None:  # its own take-backs and help; the match's commands once back there
            yield from self._side_line_commands(side_line)
        elif where is not Where.LOBBY:
            yield SystemCommand(*NEW_MATCH_COMMANDS.get(where, NEW_MATCH_COMMAND), self.action_new_match)
        if game is not None and side_line is None and where is not Where.WATCHING:
            yield from self._match_commands(game, where)
        if where.plays_alone:
            for difficulty in ("any", "easy", "medium", "hard"):
                yield SystemCommand(f"Puzzles ({difficulty})", "Find the only move that wins",
                                    lambda difficulty=difficulty: self.action_puzzles(difficulty))
            yield SystemCommand("Statistics", "Matches, rounds, accuracy over time, puzzle streaks",
                                self.action_stats)
            yield SystemCommand("Replay a finished match", "Step through one of your last 50, every move judged",
                                self.action_replay_finished)
        yield SystemCommand("Help", "The rules in brief and every key (?)", self.action_help)
        if where.plays_alone:
            yield SystemCommand("Computer's pause", f"How long the computer waits before its move lands "
                                f"(now {pause_label(self.pause)})", self.action_choose_pause)
        # Textual's own commands are not offered: "Keys" and "Maximize" show widgets' internals,
        # "Screenshot" writes a file where the game runs (the server's disk, over SSH).
        yield SystemCommand("Theme", "Change the colours (remembered for next time)", self.action_change_theme)
        yield SystemCommand("Quit", QUIT_COMMANDS.get(where, "Leave Soluna, asked first (q)"), self.action_quit)

    def _side_line_commands(self, side_line: GameScreen) -> Iterable[SystemCommand]:
        """The palette's commands in a side line: they act on it, never on the match."""
        yield SystemCommand("Undo", "Take back the last move of the side line (u)", side_line.action_undo)
        yield SystemCommand("Redo", "Replay the move taken back (r)", side_line.action_redo)
        yield from self._teaching_commands(side_line)

    def _match_commands(self, game: GameScreen, where: Where) -> Iterable[SystemCommand]:
        """The palette's commands for the match a player plays."""
        if where.takes_back:
            yield SystemCommand("Undo", "Take back the last move (u)", game.action_undo)
            yield SystemCommand("Redo", "Replay the move taken back (r)", game.action_redo)
        if game.table.resigner() is not None:
            yield SystemCommand("Resign", "Give the match to your opponent, asked first (R)", game.action_resign)
        if where.takes_back or game.match.is_over:
            yield SystemCommand("Rematch", "Start again with the same players and rules",
                                lambda: self.matches.start_unless_abandoning(game.table.setup.with_seed(None),
                                                                            game.match))
        yield from self._teaching_commands(game)

    def _teaching_commands(self, game: GameScreen) -> Iterable[SystemCommand]:
        """Hints and analysis, where the match (or the side line) allows them."""
        if game.hints_allowed:
            yield SystemCommand("Hint", "One more step of help: the verdict, the tower, the move (H)",
                                game.action_hint)
            yield SystemCommand("Analysis mode", "Mark every move as a win or a loss, with plies (A)",
                                game.action_analysis)

    def _palette(self, providers: ProviderSource | None = None, searching: str = "commands") -> CommandPalette:
        """Textual's palette, answering keys that arrive together in order (with a plain search
        mark in ASCII mode); ``id`` marks the one the footer's ``^p`` opens."""
        from .screens.command_palette import OrderlyAsciiCommandPalette, OrderlyCommandPalette

        palette = OrderlyAsciiCommandPalette if self.ascii_mode else OrderlyCommandPalette
        ellipsis = "..." if self.ascii_mode else "\u2026"
        return palette(providers, placeholder=f"Search for {searching}{ellipsis}",
                       id="--command-palette" if providers is None else None)

    def action_command_palette(self) -> None:
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(self._palette())

    def search_themes(self) -> None:
        """The palette's "Theme": the same palette, listing the themes."""
        self.push_screen(self._palette([ThemeProvider], "themes"))

    def get_key_display(self, binding: Binding) -> str:
        display = super().get_key_display(binding)
        return ascii_key_display(binding, display) if self.ascii_mode else display


if TYPE_CHECKING:
    def _soluna_app_is_a_view(app: SolunaApp) -> SolunaView:
        """Checked by mypy only: ``SolunaApp`` provides everything the screens' view of it (``app_view``) promises."""
        return app
