"""The command palette's commands: what works where the player is (``AppHost.where``), nothing that
would do nothing there; and the computer's pauses, offered in the same palette.

Imported when the palette first opens.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from textual.app import SystemCommand
from textual.command import CommandListItem, ProviderSource, SimpleCommand, SimpleProvider

from ..local.preferences import pause_choices, pause_label
from ..play.where import Where
from ..screens.command_palette import orderly_palette
from .other_screens import OtherScreens

if TYPE_CHECKING:
    from ..screens.game import GameScreen
    from .host import AppHost
    from .matches_begun import Matches

#: The palette's "New match" where it means another thing: over SSH, a match is left for the lobby.
NEW_MATCH_COMMAND = ("New match", "Set up a new match")
NEW_MATCH_COMMANDS = {
    Where.COMPUTER_OVER_SSH: ("Back to the lobby", "Leave this match; the server keeps it for you to resume (n)"),
    Where.MATCH_OVER_SSH: ("Back to the lobby", "Leave this match, asked first while it is in play (n)"),
    Where.WATCHING: ("Back to the lobby", "Stop watching (n)"),
}
QUIT_COMMANDS = {Where.TERMINAL: "Leave the game; a match in play is saved for next time (q)"}


class PaletteCommands:
    """The app's commands in the palette (Textual's ``get_system_commands``)."""

    def __init__(self, app: AppHost, matches: Matches) -> None:
        self._app = app
        self._matches = matches

    def offered(self) -> Iterable[SystemCommand]:
        """What works where the player is."""
        app = self._app
        game, where, side_line = app.game, app.where, app.side_line
        if side_line is not None:  # its own take-backs and help; the match's commands once back there
            yield from self._side_line_commands(side_line)
        elif where is not Where.LOBBY:
            yield SystemCommand(*NEW_MATCH_COMMANDS.get(where, NEW_MATCH_COMMAND), app.action_new_match)
        if game is not None and side_line is None and where is not Where.WATCHING:
            yield from self._match_commands(game, where)
        shown = side_line or game
        if shown is not None:
            yield SystemCommand("Copy the position", "The position shown, in notation as soluna analyze reads it "
                                "(Y)", shown.action_copy_position)
        if where.plays_alone:
            screens = OtherScreens(app)
            for difficulty in ("any", "easy", "medium", "hard"):
                yield SystemCommand(f"Puzzles ({difficulty})", "Find the only move that wins",
                                    lambda difficulty=difficulty: screens.puzzles(difficulty))
            yield SystemCommand("Statistics", "Matches, rounds, accuracy over time, puzzle streaks",
                                app.action_stats)
            yield SystemCommand("Replay a finished match", "Step through one of your last 50, every move judged",
                                screens.finished_matches)
        yield SystemCommand("Help", "The rules in brief and every key (?)", app.action_help)
        if where is Where.TERMINAL:
            yield SystemCommand("Guided round", "Learn to play: four steps on a small round against the computer",
                                app.action_guided_round)
        if where.plays_alone:
            yield SystemCommand("Computer's pause", f"How long the computer waits before its move lands "
                                f"(now {pause_label(app.pause)})", self.choose_pause)
        yield from self._reader_commands()
        # Textual's own commands are not offered: "Keys" and "Maximize" show widgets' internals,
        # "Screenshot" writes a file where the game runs (the server's disk, over SSH).
        yield SystemCommand("Theme", "Change the colours (remembered for next time)", app.action_change_theme)
        yield SystemCommand("Quit", QUIT_COMMANDS.get(where, "Leave Soluna, asked first (q)"), app.action_quit)

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
                                lambda: self._matches.start_unless_abandoning(game.table.setup.with_seed(None),
                                                                              game.match))
        yield from self._teaching_commands(game)

    def _teaching_commands(self, game: GameScreen) -> Iterable[SystemCommand]:
        """Hints and analysis, where the match (or the side line) allows them."""
        if game.teaching.hints_allowed:
            yield SystemCommand("Hint", "One more step of help: the verdict, the tower, the move (H)",
                                game.action_hint)
            yield SystemCommand("Analysis mode", "Mark every move as a win or a loss, with plies (A)",
                                game.action_analysis)

    def choose_pause(self) -> None:
        """The palette's "Computer's pause": the pauses offered, in the same palette."""
        app = self._app
        now = app.pause
        commands: list[CommandListItem] = [
            SimpleCommand(f"{label}{' (now)' if seconds == now else ''}",
                          lambda seconds=seconds: self._pause_chosen(seconds),
                          "the computer's pause before its move lands")
            for label, seconds in pause_choices(now)]
        # As Textual's own ``search_commands`` does: a provider instance (its type hint says a class).
        providers = cast(ProviderSource, [SimpleProvider(app.screen, commands)])
        app.push_screen(orderly_palette(app.ascii_mode, providers, "a pause"))

    def _reader_commands(self) -> Iterable[SystemCommand]:
        """For a braille display or a screen reader: the cursor on the focus, and the game in lines next time (both
        kept, in the preferences or with the key; only the cursor, for the visit, where nothing is kept)."""
        app = self._app
        follows, kept = app.cursor_follows_focus, "remembered" if app.keeps_choices else "for this visit"
        yield SystemCommand("Cursor follows focus: " + ("turn off" if follows else "turn on"),
                            f"Hide the terminal's cursor again ({kept})" if follows else
                            f"Show the terminal's cursor on the focused tower or control, for a braille display "
                            f"({kept})", lambda: self._follow_focus(not follows))
        if app.keeps_choices:
            here = app.where is Where.TERMINAL
            yield SystemCommand("Screen reader: play in lines next time",
                                "The whole game as lines for a screen reader, from the next " +
                                ("start (soluna --no-screen-reader gives the full screen back)" if here else
                                 "visit, kept with your key (forget, in the lines, gives the full screen back)"),
                                lambda: self._lines_next_time(here))

    def _follow_focus(self, follows: bool) -> None:
        self._app.follow_focus(follows)
        self._app.remember(cursor_follows_focus=follows)
        self._app.notify("The cursor now follows the focus." if follows else "The cursor is hidden again.", timeout=4)

    def _lines_next_time(self, here: bool) -> None:
        self._app.remember(screen_reader=True)
        self._app.notify("Soluna plays in lines from its next start." if here else
                         "Kept with your key: Soluna opens in lines on your next visit, even with plain ssh.",
                         timeout=6)

    def _pause_chosen(self, pause: float) -> None:
        self._app.set_pause(pause)
        said = "no longer pauses" if pause == 0 else f"now pauses {pause_label(pause)}"
        self._app.notify(f"The computer {said} before its move lands.", timeout=4)
