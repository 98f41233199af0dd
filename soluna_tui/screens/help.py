"""Help: the rules in brief and every key."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..widgets.board import JUMP_KEYS

RULES = """\
THE RULES IN BRIEF
Discs lie on the table, each its own tower, each showing a symbol:
sun (S), moon (M), stars (*) or comet (C).
On your turn, put one whole tower on another tower that has
  - the same height, or
  - the same symbol on top (or both).
The new tower keeps the symbol of the tower you moved.
Towers are never split. The player who cannot move loses the round,
and the winner gets a star. First to the target (4 stars) wins the match.

Box rules: every round starts from the same layout, and the loser of a
round chooses to open the next one or to move second.
Online rules: every round gets a new layout, and the loser opens.

Notation: a tower is its height and symbol (3M); a move is A>B, tower A
put on tower B (2*>2M).

Perfect play: a position is won or lost for the player to move. "Win in
5 plies" means 5 moves (both players' together) to leave the opponent
without a move; a lost position is held out as long as possible."""

KEYS = f"""\
KEYS
  Arrows, h j k l, w a s d   move between towers
  {JUMP_KEYS[:10]} and {JUMP_KEYS[10:]}   jump to tower 1, 2, 3...
  Enter or Space            pick the tower up, then put it on a lit tower
  Escape                    put the tower back
  Mouse                     click a tower to pick it up, click a target to place it
  u / r                     undo / redo (against the computer: your move and its reply)
  H (shift+h)               hint, one step more per press: win or loss and in how
                            many plies, then the tower to move, then the whole move
  A (shift+a)               analysis mode: under each tower its best move's outcome,
                            W (win) or L (loss) and the plies; pick a tower up to see
                            each target's. Hints and analysis count as hints used.
  Tab                       go to the move history; arrows there show earlier
                            positions (read-only), Escape returns to play
  n                         new match
  ?                         this help
  Ctrl+P                    command palette: rematch, puzzles, statistics, themes...
  q or Ctrl+Q               quit (the match is saved after every move)"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape,q,question_mark", "close", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help", classes="dialog"):
            yield Static(RULES, markup=False)
            yield Static("")
            yield Static(KEYS, markup=False)

    def on_mount(self) -> None:
        help_text = self.query_one("#help")
        help_text.border_title = "Soluna help"
        help_text.border_subtitle = "arrows/PgDn scroll, Esc closes"
        help_text.focus()

    def action_close(self) -> None:
        self.dismiss(None)
