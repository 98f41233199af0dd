"""A finished match replayed in lines, move by move: each move told as it was played, in words and notation, as the
match in lines tells a move (``next``, or Enter; ``back`` takes it back; ``start`` and ``end`` go to either end;
``board`` says the towers at that moment). Each round starts with its table and ends with who could not move.

``LineReplay`` speaks as the other cores do (``start``, ``take``, ``prompt``); whoever holds it takes it away when the
player leaves it (``lobby``, ``quit``: the door's words, not the replay's).
"""

from __future__ import annotations

from collections.abc import Callable

from ..rules import Match
from ..rules.wording import plural
from .speech import round_move_line, table_line
from .typed_lines import read_command

COMMANDS = {
    "next": "next (or Enter): the next move.",
    "back": "back: the move before, taken back.",
    "start": "start: back to the first move.",
    "end": "end: on to the last move.",
    "board": "board: the towers at this moment.",
    "help": "help: these lines.",
}
ALIASES = {"n": "next", "b": "back", "p": "back", "previous": "back", "s": "start", "e": "end", "where": "board",
           "?": "help"}
WORDS = frozenset(COMMANDS)


class LineReplay:
    """``match`` (finished) from its first move to its last; ``heading`` says which match it is."""

    def __init__(self, match: Match, say: Callable[[list[str]], None], heading: str, leave_words: str) -> None:
        self.match = match
        self._say_lines = say
        self.heading = heading
        #: What leaves the replay where it is shown (``lobby goes back to the lobby``), said with the help.
        self.leave_words = leave_words
        #: Every move of the match as (round index, ply), in order.
        self.steps = [(number, ply) for number, played in enumerate(match.rounds) for ply in range(played.ply)]
        #: The moves told so far (0: at the start, none told).
        self.at = 0

    @property
    def prompt(self) -> str:
        return f"Replay, move {self.at} of {len(self.steps)}> "

    def _say(self, *lines: str) -> None:
        self._say_lines([line for line in lines if line])

    def start(self) -> None:
        match = self.match
        self._say(self.heading, f"{plural(len(self.steps), 'move')} in {plural(len(match.rounds), 'round')}. "
                  f"Type next (or press Enter) for each move, back, start, end, board; {self.leave_words}.",
                  self._round_start(0))

    def take(self, line: str) -> None:
        text = line.strip()
        command = read_command(text or "next", WORDS, ALIASES)
        if command is None:
            self._say(f"In the replay, type next, back, start, end, board or help; {self.leave_words}.")
            return
        getattr(self, f"_cmd_{command.word}")(command.argument)

    # ---- what is said --------------------------------------------------------------------------------

    def _round_start(self, number: int) -> str:
        played = self.match.rounds[number]
        opener = self.match.players[played.mover_at(0)]
        return f"Round {number + 1}, {opener} opens. {table_line(played.table_at(0))}"

    def _move_words(self, step: int) -> list[str]:
        """The move of ``step``, and the round's end after its last move."""
        number, ply = self.steps[step]
        match = self.match
        played = match.rounds[number]
        lines = [round_move_line(played, match.players, ply)]
        if ply == played.ply - 1 and played.position_at(played.ply).is_blocked:
            loser = played.mover_at(played.ply)
            lines.append(f"{match.players[loser]} cannot move: {match.players[1 - loser]} wins round {number + 1}.")
        if step == len(self.steps) - 1:
            lines.append("The end of the match." + (f" {match.players[match.winner]} won it."
                                                    if match.winner is not None else ""))
        elif ply == played.ply - 1:
            lines.append(self._round_start(number + 1))
        return lines

    # ---- commands ------------------------------------------------------------------------------------

    def _cmd_next(self, argument: str) -> None:
        if self.at >= len(self.steps):
            self._say(f"That was the last move. Type back, start, or {self.leave_words}.")
            return
        self.at += 1
        self._say(*self._move_words(self.at - 1))

    def _cmd_back(self, argument: str) -> None:
        if self.at == 0:
            self._say("This is the start: no move yet. Type next for the first.")
            return
        self.at -= 1
        number, ply = self.steps[self.at]
        taken = round_move_line(self.match.rounds[number], self.match.players, ply)
        self._say(f"Taken back: {taken}")

    def _cmd_start(self, argument: str) -> None:
        self.at = 0
        self._say("Back at the start.", self._round_start(0))

    def _cmd_end(self, argument: str) -> None:
        if not self.steps:
            self._say("This match has no move.")
            return
        self.at = len(self.steps) - 1
        self._cmd_next("")

    def _cmd_board(self, argument: str) -> None:
        if self.at == 0:
            self._say(self._round_start(0))
            return
        number, ply = self.steps[self.at - 1]
        self._say(f"Round {number + 1}, after move {ply + 1}. "
                  f"{table_line(self.match.rounds[number].table_at(ply + 1))}")

    def _cmd_help(self, argument: str) -> None:
        self._say(*COMMANDS.values(), f"And {self.leave_words}.")
