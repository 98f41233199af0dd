"""Runs in the server process.

Moves the store could not take when they were made (the database down, a full disk).

Such a move stays on its player's board, who is told it is pending, and the others at the match
on this server are told it waits. It is kept however long the store is away: the heartbeat writes
it as soon as the store takes it again, decided as of the moment it was made, or the moment the
clocks stopped when the store was found away before (``Referee.play_waited_move``: the wait counts
against no clock), and every player at the match, on any server, hears what became of it in one line.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import partial

from ...link.messages import Notice, PlayMove
from .decision_values import Decision
from .decisions import Referee
from .presence import Presence
from .tables import Table, label
from .visitors import Asker
from .writes import Writer

log = logging.getLogger("soluna.server")

#: What the mover of a move kept pending is told (short enough for the notice lines beside the board).
PENDING = "Your move is pending: the server will save it once its database is back."


@dataclass(frozen=True)
class WaitingMove:
    """A move not yet stored: who made it, at which seat, and when (the store's time; the clocks stopped earlier,
    when the store was found away: then)."""

    asker: Asker
    seat: int
    request: PlayMove
    made_at: float


class PendingMoves:
    """The moves of this server's players that wait for the store, one a match (see the module's docstring)."""

    def __init__(self, writer: Writer, referee: Referee, presence: Presence) -> None:
        self.writer, self.cache, self.referee, self.presence = writer, writer.cache, referee, presence
        self.moves: dict[str, WaitingMove] = {}

    def keep(self, table: Table, seat: int, request: PlayMove, asker: Asker, made_at: float) -> None:
        """The store could not take this move: it waits, and everyone at the match here is told."""
        stopped = self.presence.away_since
        as_of = made_at if stopped is None else min(made_at, stopped)
        self.moves[table.code] = WaitingMove(asker, seat, request, as_of)
        log.warning("a move in match %s waits for the database", label(table))
        waits = f"{table.seats[seat].name} has moved: it shows once the server can save it."
        for guest in table.guests:
            guest.send(Notice(PENDING if guest is asker.guest else waits, "warning"))

    async def write(self) -> None:
        """Store every waiting move, oldest first (``StorageUnavailable``: the store still cannot take them)."""
        for code, waiting in sorted(self.moves.items(), key=lambda item: item[1].made_at):
            table = self.cache.tables.get(code)
            seated = table is not None and table.seat_of(waiting.asker.guest) == waiting.seat
            await self.writer.apply(code, partial(self._decide, waiting=waiting), waiting.asker if seated else None)
            if self.moves.get(code) is waiting:
                del self.moves[code]
            log.info("a move that waited for the database is decided")

    def _decide(self, table: Table, waiting: WaitingMove) -> Decision:
        return self.referee.play_waited_move(table, waiting.seat, waiting.request, self.presence.moment(),
                                             waiting.made_at)
