"""Runs in the child.

The lobby in lines' replays (a part of ``line_lobby.py``), as the record's replays on the full screen: ``record``
numbers the recent matches, ``replay 2`` asks the server for the second, and it is replayed move by move in lines
(``line_mode/line_replay.py``) until ``lobby``. The full screen judges each move too; the lines tell the moves.
"""

from __future__ import annotations

import time

from ..line_mode.line_replay import LineReplay
from ..link.messages import AskFinishedMatch, FinishedMatch, RecentMatch
from ..rules import Match, SolunaError
from .line_state import LobbyState


class ReplaysPart(LobbyState):
    """The recent matches the record told, by number, and the one replayed."""

    recent: tuple[RecentMatch, ...] = ()
    replay: LineReplay | None = None

    def _cmd_replay(self, argument: str) -> None:
        if not self.recent:
            self._say("Type record first: it numbers your recent matches, and replay 1 replays the first.")
            return
        if not (argument.isascii() and argument.isdigit() and 1 <= int(argument) <= len(self.recent)):
            self._say(f"Type replay and a number from 1 to {len(self.recent)}, as record numbered your matches.")
            return
        self._send(AskFinishedMatch(self.recent[int(argument) - 1].id))

    def _finished_match(self, message: FinishedMatch) -> None:
        if self.game is not None:
            return  # asked for, then a match began: the match goes on
        try:
            match = Match.from_dict(message.match)
        except SolunaError as error:
            self._say(f"That match could not be read: {error}.")
            return
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(message.finished_at))
        heading = (f"Replaying match #{message.id}, {message.players[0]} against {message.players[1]}: "
                   f"{message.result.words}, finished {when}.")
        self.replay = LineReplay(match, self._say_lines, heading, "lobby goes back to the lobby")
        self.replay.start()

    def _leave_replay(self) -> None:
        self.replay = None
        self._say("Back in the lobby.")
