"""What a line typed in a match in lines gets: the answer to "Resign?", the next round for an empty line where
there is one way on (else where the match stands), a command handed to the part that holds it, a move played, or
a one-line answer saying what was not understood.

``LineReading`` is a part the line game owns, seeing it as a ``LineHost`` (``line_host.py``); what a line asks
for is read by ``typed_lines.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules import SolunaError
from .command_words import ALIASES, WORDS
from .speech import error_sentence
from .typed_lines import MoveRefused, looks_like_a_move, not_understood, read_command, read_move

if TYPE_CHECKING:
    from .line_host import LineHost


class LineReading:
    """Each typed line sent where it belongs."""

    def __init__(self, game: LineHost) -> None:
        self._game = game

    def take(self, line: str) -> None:
        """A line the player typed: a move, a command, an answer or nothing."""
        game = self._game
        text = line.strip()
        if game.changes.resigning is not None:
            game.changes.resign_answered(text)
            return
        if not text:
            one_way = game.between_rounds.one_way_on() if game.table.match.round.is_over else None
            if one_way is not None:
                game.between_rounds.start_round(*one_way)
            else:
                game.say(game.announcements.state_line())
            return
        command = read_command(text, WORDS, ALIASES)
        if command is not None:
            game.commands[command.word](command.argument)
        elif looks_like_a_move(text):
            self._typed_move(text)
        else:
            game.say(not_understood(text))

    def _typed_move(self, text: str) -> None:
        game = self._game
        table, match = game.table, game.table.match
        if match.is_over or match.round.is_over:
            game.say(f"The {'match' if match.is_over else 'round'} is over. {game.announcements.state_line()}")
            return
        if not game.flow.human_may_move():
            game.say(game.flow.why_not("press_focused", game.hints.helps()))
            return
        try:
            placed = read_move(text, match.round.table)
        except MoveRefused as refusal:
            game.say(str(refusal))
            return
        try:
            table.play(placed, match.to_move)
        except SolunaError as error:
            game.say(error_sentence(error))
            return
        game.steps.after_change()
