"""How many lines each room of table talk may take now, counted in one place by every server sharing the database.

A room's budget is a token bucket (``burst`` lines at once, one more every ``every`` seconds) kept as a row: what was
left and when. Every server takes its lines from the same row, one at a time, so servers deciding lines at once
never spend the room's budget twice over (each one's own count hears the others' lines only a moment later). A room
whose bucket is full again has no row: the table holds only the rooms that talked lately.
"""

from __future__ import annotations

from .database import Database


class TalkRooms:
    """The ``talk_rooms`` table: each room's lines left and when they were counted."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def take(self, room: str, need: float, burst: int, every: float) -> bool:
        """Take one line of ``room``'s budget if at least ``need`` lines are left in it now (a speaker past their
        fair share needs more left than one, kept for the others); else take nothing and say so."""
        now = self._db.clock()
        async with self._db.transaction() as tx:
            await self._db.lock(tx, f"soluna-room:{room}")
            rows = await tx.fetch(f"SELECT lines, counted_at FROM talk_rooms WHERE room = ?{self._db.FOR_UPDATE}",
                                  (room,))
            left = float(burst)
            if rows:
                lines, counted_at = rows[0]
                left = min(left, float(lines) + max(0.0, now - float(counted_at)) / every)
            if left < need:
                return False
            await tx.execute("INSERT INTO talk_rooms (room, lines, counted_at) VALUES (?, ?, ?) ON CONFLICT (room) "
                             "DO UPDATE SET lines = excluded.lines, counted_at = excluded.counted_at",
                             (room, left - 1, now))
            # A bucket full again is as good as no row (a room's lines refill in ``burst * every`` seconds at most).
            await tx.execute("DELETE FROM talk_rooms WHERE counted_at < ?", (now - burst * every,))
        return True
