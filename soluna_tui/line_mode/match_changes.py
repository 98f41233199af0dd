"""The commands of a match in lines that change the match or leave it: ``undo`` (the moves taken back told),
``resign`` (asked first: yes or no), ``rematch`` once the match is over, and ``quit`` (an unfinished match kept).

``MatchChanges`` is a part the line game owns, seeing it as a ``LineHost`` (``line_host.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules import SolunaError
from .command_words import YES
from .speech import table_line

if TYPE_CHECKING:
    from collections.abc import Callable

    from .line_host import LineHost


class MatchChanges:
    """Taking moves back, resigning, a rematch and leaving."""

    def __init__(self, game: LineHost) -> None:
        self._game = game
        #: The player asked whether they mean to resign (``None``: no question asked).
        self.resigning: int | None = None

    @property
    def commands(self) -> dict[str, Callable[[str], None]]:
        """The commands of this part, by their words."""
        return {"undo": self._undo, "resign": self._resign, "rematch": self._rematch, "quit": self._quit}

    def _undo(self, argument: str) -> None:
        game = self._game
        table = game.table
        if not table.can_undo:
            reason = " (no take-backs in a rated match)" if table.setup.rated else ""
            game.say(f"Nothing to take back{reason}.")
            return
        refusal = table.undo_refusal()
        if refusal is not None:
            game.say(str(refusal))
            return
        game.call_everything_off()
        played, before = table.match.round, table.match.round.ply
        try:
            undone = table.undo()
        except SolunaError as error:
            game.steps.after_change()
            game.say(str(error))
            return
        if undone:
            names = table.match.players
            taken = [f"{names[played.mover_at(played.ply + index)]} {placed.move} "
                     f"({placed.places[0]} onto {placed.places[1]})"
                     for index, placed in enumerate(played.redo_moves[:before - played.ply])]
            game.say(f"Taken back: {'; '.join(taken)}. {table_line(played.table)}")
            game.announcements.told = (table.match.round_number, played.ply)
            game.between_rounds.decided = None
            game.flow.taken_back()
        else:  # asked of the opponent over the network: the server's news says what came of it, nothing before
            game.answer_to_come()
        game.steps.after_change()

    def _resign(self, argument: str) -> None:
        game = self._game
        player = game.table.resigner()
        if player is None:
            game.say("There is no match in play to resign.")
            return
        self.resigning = player
        game.say(f"{game.flow.resign_question(player)} Type yes to resign, or no to keep playing.")

    def resign_answered(self, text: str) -> None:
        """The answer to "Resign?"."""
        game = self._game
        player, self.resigning = self.resigning, None
        if text.casefold() not in YES:
            game.say("You keep playing.")
            return
        if player is None or game.table.resigner() != player:
            game.say("The match moved on meanwhile: nothing was given up.")
            return
        game.call_everything_off()
        game.table.resign(player)
        if not game.table.match.is_over:  # asked of whoever keeps the match (over SSH, the server): it says the end
            game.say("You resign: the match ends as the server says.")
        game.steps.after_change()

    def _rematch(self, argument: str) -> None:
        game = self._game
        match = game.table.match
        if not match.is_over:
            game.say("A rematch is for when the match is over.")
            return
        if game.rematch_table is None or not game.table.offers_rematch:
            game.say("No rematch here. Type quit to leave.")
            return
        table = game.rematch_table(match)
        if table is None:
            return  # asked: the rematch comes as news of the table
        game.call_everything_off()
        game.table.on_change = None
        game.sit(table)
        game.announcements.introduce()
        game.table.pause_clock(False)
        game.steps.after_change()

    def _quit(self, argument: str) -> None:
        game = self._game
        match = game.table.match
        game.stop()
        if match.is_over or not game.table.records_stats:
            game.say("Goodbye.")
        elif game.table.save_problem:
            game.say(f"The match could not be saved: {game.table.save_problem}")
        else:
            game.say("The match is saved: start Soluna again in this mode to go on with it. Goodbye.")
