"""Browsing the match's moves on the game screen: Tab to the history and back, an earlier position shown
(read-only) while the history has the focus, and from it a side line (``p``) or its notation copied (``Y``).

``HistoryBrowsing`` is a part the game screen owns. On a narrow terminal it also opens the moves and the talk
above the board while one of them has the focus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..play import view
from ..terminal.sizes import NARROW_CLASS
from ..widgets.chat_panel import ChatPanel
from ..widgets.history import History

if TYPE_CHECKING:
    from textual.widget import Widget

    from ..play.looks import HistoryEntry
    from .game_host import GameHost

#: The screen's class while the moves and the talk are open on a narrow terminal (styles/game.tcss).
SIDE_OPEN_CLASS = "-side-open"


class HistoryBrowsing:
    """The position shown: the live one, or one picked in the history."""

    def __init__(self, game: GameHost) -> None:
        self._game = game
        #: The earlier position shown, as the history names it (``None``: the live one).
        self.viewing: HistoryEntry | None = None

    @property
    def browsing(self) -> bool:
        """Showing an earlier position: only while the history has the focus (when it has just
        lost it, its ``Left`` message may still be on the way behind the next key)."""
        return self.viewing is not None and isinstance(self._game.focused, History)

    def toggle(self) -> None:
        """Tab: from the board to the move history and back."""
        game = self._game
        history = game.widget_of(History)
        if game.picking.move_prompt.is_open:
            game.picking.close_prompt()
        if game.focused is history:
            game.set_focus(game.board, scroll_visible=False)
        else:
            game.set_focus(history)  # at once: the next key of a burst browses the history

    def viewed(self, entry: HistoryEntry) -> None:
        """The history's cursor on ``entry``: that position shown (the live one: back to play)."""
        match = self._game.match
        rounds = match.rounds
        if entry.round_number > len(rounds) or entry.ply > rounds[entry.round_number - 1].ply:
            return  # a late message about a list since replaced (undo, a new match)
        live = entry.round_number == match.round_number and entry.ply == match.round.ply
        self.viewing = None if live else entry
        if self.viewing is not None:
            self._game.picking.drop()
        self._game.teaching.seek_help()
        self._game.redraw()

    def left(self) -> None:
        """The history lost the focus: the live position again."""
        if self.viewing is not None:
            self.viewing = None
            self._game.teaching.seek_help()
            self._game.redraw()

    def live_shown(self) -> bool:
        """Whether the live position is shown, to pick a tower on: an earlier one is left behind once the history
        has lost the focus; while it has it, the player is told the position is read-only."""
        if self.viewing is not None and not self.browsing:
            self.left()
        if self.viewing is not None:
            self._game.say("This is an earlier position (read-only): Esc returns to play.")
            return False
        return True

    def show_side(self, focused: Widget | None) -> None:
        """On a narrow terminal the moves and the talk show (above the board) while one of them has the focus:
        Tab opens them, Tab or Escape goes back to the board."""
        game = self._game
        side = focused is not None and game.app.has_class(NARROW_CLASS) and (
            focused is game.widget_of(History) or isinstance(focused.parent, ChatPanel))
        game.set_class(side, SIDE_OPEN_CLASS)

    def copy_position(self) -> None:
        """``Y``: the position shown (live, or the one picked in the history) in notation, as ``soluna analyze``
        reads it: to the terminal's clipboard (OSC 52, over SSH too) and on the status line, for a terminal
        that keeps OSC 52 from its clipboard."""
        game = self._game
        position = str(view.shown_position(game.match, self.viewing))
        game.app.copy_to_clipboard(position)
        game.say(f"Copied, for soluna analyze: {position}", "info")

    def play_on(self) -> None:
        """``p`` in the history: play on from the position shown (a side line), the match untouched."""
        game = self._game
        flow, teaching = game.flow, game.teaching
        if flow.thinking:  # its move would land in the match under the side line, and perhaps end the round
            game.say(flow.why_not("press_focused", teaching.hints_allowed))
            return
        number, played, ply = view.shown_round(game.match, self.viewing)
        if self.viewing is None and not played.is_over:
            game.say("This is where the match stands: play on the board (p plays on from an earlier move).")
            return
        refusal = game.soluna.side_line_opener.play_on(game.screen, game.match, number, ply,
                                                       hints=teaching.side_line_hints,
                                                       analysis_on=teaching.analysis_on, you=flow.you)
        if refusal:
            game.say(refusal)
