"""The commands of a match in lines that only tell, each in one or a few lines: ``board``, ``tower 7``, ``moves``,
``last``, ``stars``, ``clock``, ``history``, ``stats`` and ``help``.

``MatchQuestions`` is a part the line game owns, seeing it as a ``LineHost`` (``line_host.py``).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..rules import SolunaError
from ..rules.wording import plural
from .command_words import HELP_LINES
from .speech import clock_line, error_sentence, legal_moves_lines, round_move_line, stars_line, table_line, tower_line
from .typed_lines import read_place

if TYPE_CHECKING:
    from collections.abc import Callable

    from .line_host import LineHost


class MatchQuestions:
    """The answers to what the player may ask of the match; nothing is changed."""

    def __init__(self, game: LineHost) -> None:
        self._game = game

    @property
    def commands(self) -> dict[str, Callable[[str], None]]:
        """The commands of this part, by their words."""
        return {"help": self._help, "board": self._board, "tower": self._tower, "moves": self._moves,
                "last": self._last, "stars": self._stars, "clock": self._clock, "history": self._history,
                "stats": self._stats}

    def _help(self, argument: str) -> None:
        game = self._game
        game.say(*HELP_LINES)
        if game.table.match.round.is_over and not game.table.match.is_over:
            game.say("Between rounds: " + game.between_rounds.question())

    def _board(self, argument: str) -> None:
        match = self._game.table.match
        self._game.say(f"Round {match.round_number}. {table_line(match.round.table)}")

    def _tower(self, argument: str) -> None:
        table = self._game.table.match.round.table
        if not argument:
            self._game.say(f"Which tower? Type tower and its number, 1 to {len(table)}, like tower 7.")
            return
        try:
            slot = read_place(argument, table)
        except SolunaError as error:
            self._game.say(error_sentence(error))
            return
        self._game.say(tower_line(table, slot))

    def _moves(self, argument: str) -> None:
        self._game.say(*legal_moves_lines(self._game.table.match.round.table))

    def _last(self, argument: str) -> None:
        match = self._game.table.match
        played = match.round
        if not played.ply:
            self._game.say(f"No move yet in round {match.round_number}.")
            return
        self._game.say(f"Last move: {round_move_line(played, match.players, played.ply - 1)}")

    def _stars(self, argument: str) -> None:
        match = self._game.table.match
        self._game.say(f"Round {match.round_number}. {stars_line(match)}")

    def _clock(self, argument: str) -> None:
        table = self._game.table
        self._game.say(clock_line(table.match.players, table.clock, table.clock_read_at, time.monotonic()))

    def _history(self, argument: str) -> None:
        match = self._game.table.match
        names = match.players
        for number, played in enumerate(match.rounds, start=1):
            outcome = played.outcome
            won = f", {names[outcome.winner]} won" if outcome is not None else ""
            self._game.say(f"Round {number}: {names[played.opener]} opened{won}, {plural(played.ply, 'move')}.")
            self._game.say(*(f"{ply + 1}. {round_move_line(played, names, ply)}" for ply in range(played.ply)))

    def _stats(self, argument: str) -> None:
        stats_store = self._game.stats_store
        if stats_store is None:
            self._game.say("No statistics are kept here.")
            return
        from ..local.player_stats import describe

        stats = stats_store.load()
        self._game.say(*(line.strip() for line in describe(stats, bar=("", ""), width=40) if line.strip()))
