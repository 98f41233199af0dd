"""How many lines each room of table talk may take now, counted in one place by every server sharing the database.

A room's budget is a token bucket (``burst`` lines at once, one more every ``every`` seconds) kept as a row: what was
left and when it was counted. Every server takes its lines from the same row, one at a time, so servers deciding
lines at once never spend the room's budget twice over (each one's own count hears the others' lines only a moment
later). The time a row was counted never goes back: a server whose clock is behind another's counts from the later
time (no line comes back for the difference), so clocks that disagree cannot refill a room. Rooms quiet for a while
(``QUIET``: long after their bucket is full again) are swept out now and then, in a statement of its own.
"""

from __future__ import annotations

from .database import Database

#: A room's row is swept once it has not been counted for this long (its bucket long full again, whatever the
#: servers' clocks say within that much of each other).
QUIET = 600.0
#: How often one server sweeps, at most.
SWEEP_EVERY = 60.0


class TalkRooms:
    """The ``talk_rooms`` table: each room's lines left and when they were counted."""

    def __init__(self, database: Database) -> None:
        self._db = database
        self._next_sweep = 0.0

    async def take(self, room: str, need: float, burst: int, every: float) -> bool:
        """Take one line of ``room``'s budget if at least ``need`` lines are left in it now (a speaker past their
        fair share needs more left than one, kept for the others); else take nothing and say so."""
        now = self._db.clock()
        async with self._db.transaction() as tx:
            await self._db.lock(tx, f"soluna-room:{room}")
            rows = await tx.fetch(f"SELECT lines, counted_at FROM talk_rooms WHERE room = ?{self._db.FOR_UPDATE}",
                                  (room,))
            left, counted = float(burst), now
            if rows:
                lines, counted_at = float(rows[0][0]), float(rows[0][1])
                counted = max(now, counted_at)  # never back: a clock behind the last count's adds nothing
                left = min(left, lines + (counted - counted_at) / every)
            if left < need:
                return False
            await tx.execute("INSERT INTO talk_rooms (room, lines, counted_at) VALUES (?, ?, ?) ON CONFLICT (room) "
                             "DO UPDATE SET lines = excluded.lines, counted_at = excluded.counted_at",
                             (room, left - 1, counted))
        if now >= self._next_sweep:
            self._next_sweep = now + SWEEP_EVERY
            await self._sweep(now)
        return True

    async def _sweep(self, now: float) -> None:
        """The rooms quiet for ``QUIET`` seconds let go of, by one server at a time."""
        async with self._db.transaction() as tx:
            await self._db.lock(tx, "soluna-room-sweep")
            await tx.execute("DELETE FROM talk_rooms WHERE counted_at < ?", (now - QUIET,))
