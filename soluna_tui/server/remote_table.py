"""A seat at a match the SSH server holds (or a spectator's chair beside it).

The server's word is final: this table plays a move on its copy at once (the
screen has already checked it) so the board answers without a round trip, sends
it, and then takes whatever state the server broadcasts in place of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..match_setup import MatchSetup
from ..rules import Match, Move, OutOfTurnError
from ..table import HUMAN, REMOTE, Table
from .protocol import ProtocolError

NO_TAKE_BACKS = "No take-backs in a match over the network."


class RemoteTable(Table):
    """``seat`` is this terminal's player (0 or 1), or ``None`` for a spectator."""

    def __init__(self, message: dict[str, Any], send: Callable[[dict[str, Any]], None]) -> None:
        super().__init__()
        self._send = send
        self.hints_used = [0, 0]
        self._read(message)

    def _read(self, message: dict[str, Any]) -> None:
        """Take the server's state (``MatchFormatError`` or ``ProtocolError`` if it is not one)."""
        match = Match.from_dict(message.get("match"))
        seat = message.get("seat")
        if seat not in (0, 1, None) or not isinstance(message.get("code"), str):
            raise ProtocolError("a match message without a proper seat or code")
        away = message.get("away", [False, False])
        self.code: str = message["code"]
        self.my_seat: int | None = seat
        self.match = match
        self.away = (bool(away[0]), bool(away[1])) if isinstance(away, list) and len(away) == 2 else (False, False)
        self._hints = message.get("hints") is True
        # The round review is perfect-play help too: only where both players allowed hints.
        self.setup = MatchSetup(match.options, match.players, None, match.seed, hints=self._hints, review=self._hints)

    def update(self, message: dict[str, Any]) -> None:
        """The server's new state of this match, and its news if any."""
        self._read(message)
        notice = message.get("notice")
        self.changed(notice if isinstance(notice, str) else None)

    @property
    def watching(self) -> bool:
        return self.my_seat is None

    @property
    def hints_allowed(self) -> bool:
        """Only when both players allowed hints when they created or joined the match."""
        return self._hints

    def seat(self, player: int) -> str:
        return HUMAN if player == self.my_seat else REMOTE

    @property
    def can_undo(self) -> bool:
        return False

    @property
    def can_redo(self) -> bool:
        return False

    def undo(self) -> list[Move]:
        raise OutOfTurnError(NO_TAKE_BACKS)

    def redo(self) -> list[Move]:
        raise OutOfTurnError(NO_TAKE_BACKS)

    def play(self, move: Move, player: int) -> None:
        if player != self.my_seat:
            raise OutOfTurnError("You are watching this match." if self.watching else "It is not your turn.")
        round_number, ply = self.match.round_number, self.match.round.ply
        self.match.play(move, player)
        self._send({"type": "move", "move": str(move), "round": round_number, "ply": ply})

    def start_next_round(self, opener: int | None, chooser: int | None) -> None:
        if self.watching:
            raise OutOfTurnError("You are watching: the players start the next round.")
        round_number = self.match.round_number
        self.match.start_next_round(opener, chooser)
        self._send({"type": "next_round", "opener": opener, "round": round_number})

    def ask_for_rematch(self) -> None:
        if self.watching:
            raise OutOfTurnError("Only the players can ask for a rematch.")
        self._send({"type": "rematch"})
