"""Runs in the child.

A seat at a match the SSH server holds (or a spectator's chair beside it).

The server's word is final: this table plays a move on its copy at once (the
screen has already checked it) so the board answers without a round trip, sends
it, and then follows the server's updates. Each update carries the match's
version: a move (``moved``) applies only on top of the version before it, and a
whole state (``match``) replaces whatever this table had (but our own move just sent, when the state only says
the server's clocks stopped: the server answers the move itself). Anything that does not
fit (a gap, a move that does not apply) makes the table ask for the whole state,
so the screen cannot drift from the server. A match with a clock has it in every update: each
player's time left when the server sent it, and whose clock runs (the screen counts it down).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..link.messages import (
    AskRematch,
    AskTakeback,
    MatchState,
    Moved,
    PlayMove,
    ProtocolError,
    Request,
    Resign,
    SeatPerson,
    StartNextRound,
    SyncMatch,
)
from ..local.match_setup import MatchSetup
from ..local.table import HUMAN, REMOTE, Seat, Table
from ..rules import Match, Move, OutOfTurnError, PlacedMove, SolunaError, parse_move_record
from ..rules.end_reason import real_play

NO_REDO = "No redo in a match over the network."
#: Why ``u`` asks for nothing now.
NO_TAKEBACK = "Only your own last move can be taken back, before your opponent moves."


def _version(message: MatchState | Moved) -> int:
    if message.version < 0:
        raise ProtocolError("a negative version")
    return message.version


class RemoteTable(Table):
    """``seat`` is this terminal's player (0 or 1), or ``None`` for a spectator."""

    def __init__(self, message: MatchState, send: Callable[[Request], None]) -> None:
        super().__init__()
        self._send = send
        self.hints_used = [0, 0]
        #: Our own move, played here and sent, until the server's update for it arrives.
        self._pending: tuple[int, int, PlacedMove] | None = None
        #: Asked the server for the whole state and not had it yet (no need to ask again).
        self.syncing = False
        #: Who sits at each seat, as the server said (``SeatPeople``): their cards are asked by it.
        self.seat_people: tuple[SeatPerson, ...] = ()
        self._read(message)

    def _read(self, message: MatchState) -> None:
        """Take the server's whole state (``MatchFormatError`` or ``ProtocolError`` if it is not one)."""
        match = Match.from_dict(message.match)
        version = _version(message)
        now = time.monotonic()
        self._away = tuple(now + left if left is not None else None for left in message.away)
        self._take_clock(message)
        self.ended = message.ended
        self.tournament = message.tournament
        secret, seat = message.secret, message.seat
        self.code: str = message.code
        self.my_seat: int | None = seat
        self.match = match
        self.version = version
        self._pending = None
        self.syncing = False
        self._hints = message.hints
        self.comeback = f"code {self.code}, secret {secret}" if secret is not None and seat is not None else ""
        self.result_notes = tuple(shift.line for shift in message.ratings)
        #: The seat that asks to take its last move back, unanswered (``None``: nobody asks).
        self.takeback: int | None = message.takeback
        # The round review is perfect-play help too: only where both players allowed hints.
        self.setup = MatchSetup(match.options, match.players, None, match.seed, hints=self._hints, review=self._hints)

    def update(self, message: MatchState | Moved) -> None:
        """A ``match`` or ``moved`` update from the server, and its news if any."""
        version = _version(message)
        if isinstance(message, MatchState):
            if version < self.version:
                return  # older than what is shown: overtaken on the way
            if message.clocks_stopped and version == self.version and self._pending is not None:
                self._take_clock(message)  # the database went away before the server read our move: it stays
            else:
                self._read(message)
        elif version <= self.version:
            return  # already applied
        else:
            # This player's own move coming back, lapsing no takeback: on the board already.
            own = self._pending is not None and self.takeback is None
            if version > self.version + 1 or not self._apply_move(message):
                self.ask_for_state()
                return
            self._take_clock(message)
            if own and not self.match.round.is_over and message.notice is None and message.clock is None:
                self.keys_changed()  # nothing shown changed: only asking it back is new
                return
        self.changed(message.notice)

    def opponents_move(self, message: Moved) -> bool:
        """``message`` (not applied yet) is the next move, and the opponent's, at a match this terminal plays (a
        spectator's terminal, and this player's own move coming back, ring no bell)."""
        match = self.match
        return (not self.watching and message.version == self.version + 1
                and (message.round, message.ply) == (match.round_number, match.round.ply)
                and match.round.to_move != self.my_seat)

    def _take_clock(self, message: MatchState | Moved) -> None:
        """The clock as the server read it as it sent ``message`` (kept as it was when a move carries none)."""
        if message.clock is not None or isinstance(message, MatchState):
            self.clock, self.clock_read_at = message.clock, time.monotonic()

    def _apply_move(self, message: Moved) -> bool:
        """The next version's move on top of this one; ``False`` when it does not fit what is shown."""
        moment = (message.round, message.ply)
        try:
            move = parse_move_record(message.move)
        except SolunaError:
            return False
        pending, self._pending = self._pending, None
        self.takeback = None  # a move lapses a takeback asked
        if pending is not None:
            # Ours, already on the board: the server must have taken it from and onto the same places.
            if pending != (*moment, move):
                return False
        elif moment != (self.match.round_number, self.match.round.ply):
            return False
        else:
            try:
                self.match.play(move, self.match.to_move)
            except SolunaError:
                return False
        self.version += 1
        return True

    def ask_for_state(self) -> None:
        """Ask the server for the whole match (once until it comes)."""
        if not self.syncing:
            self.syncing = True
            self._send(SyncMatch(self.code))

    @property
    def watching(self) -> bool:
        return self.my_seat is None

    @property
    def hints_allowed(self) -> bool:
        """Only when both players allowed hints when they created or joined the match."""
        return self._hints

    @property
    def resigning_aborts(self) -> bool:
        return not real_play(self.match)

    def seat(self, player: int) -> Seat:
        return HUMAN if player == self.my_seat else REMOTE

    def away_until(self, player: int) -> float | None:
        return self._away[player]

    @property
    def can_undo(self) -> bool:
        """``u`` asks the opponent to take this player's last move back: only the round's last move, theirs, before
        the opponent answers it, and one request at a time (the server says whether it may be asked at all)."""
        round_ = self.match.round
        return (not self.watching and not self.match.is_over and not round_.is_over and self._pending is None
                and self.takeback is None and round_.ply > 0 and round_.mover_at(round_.ply - 1) == self.my_seat)

    @property
    def can_redo(self) -> bool:
        return False

    def undo(self) -> list[Move]:
        """Ask the opponent for a takeback (nothing is taken back here: the server's state says what came of it)."""
        if not self.can_undo:
            raise OutOfTurnError(NO_TAKEBACK)
        self.takeback = self.my_seat  # asked: not again until the server answers
        self._send(AskTakeback())
        return []

    def redo(self) -> list[Move]:
        raise OutOfTurnError(NO_REDO)

    def play(self, placed: PlacedMove, player: int) -> None:
        if player != self.my_seat:
            raise OutOfTurnError("You are watching this match." if self.watching else "It is not your turn.")
        round_number, ply = self.match.round_number, self.match.round.ply
        self.match.play(placed, player)
        self._pending = (round_number, ply, placed)
        self._send(PlayMove(str(placed), round_number, ply))

    def start_next_round(self, opener: int | None, chooser: int | None) -> None:
        if self.watching:
            raise OutOfTurnError("You are watching: the players start the next round.")
        round_number = self.match.round_number
        started = self.match.start_next_round(opener, chooser)
        self._send(StartNextRound(started.opener, round_number))

    def resigner(self) -> int | None:
        """This terminal's player, while the match is in play (on either player's turn)."""
        return None if self.watching or self.match.is_over else self.my_seat

    def resign(self, player: int) -> None:
        """Ask the server: the match ends as it says (a resignation, or aborted before both players moved)."""
        if player != self.resigner():
            raise OutOfTurnError("You cannot resign this match now.")
        self._send(Resign())

    def ask_for_rematch(self) -> None:
        if self.watching:
            raise OutOfTurnError("Only the players can ask for a rematch.")
        self._send(AskRematch())
