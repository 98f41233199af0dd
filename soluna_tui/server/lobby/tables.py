"""Runs in the server process.

The matches as this server last read them, and its guests told of every change.

The store is the authority, so several servers share one lobby: each keeps a ``Table`` per match
(the match as read, and this server's own guests at it: seated players and spectators) and learns
of every server's changes from the store. A change read (or just written) is ``install``ed: the
guests at the match hear it, a move as a move alone when it is the very next version, anything
else as the whole match, with the line the change's ``News`` has for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable
from typing import Protocol

from ...link.messages import MatchGone, MatchState, Moved, RatingShift
from ...rules.clock import ClockReading
from ...rules.end_reason import EndReason
from ..storage import MatchNotFound, Storage, StoredMatch, VersionConflict
from .decision_values import TOURNAMENT_TERM, MatchRead, Moment
from .decisions import ABANDONED, ABORTED
from .news import News
from .takebacks import asking_seat
from .visitors import CODE_LETTERS, Guest, Visitor

log = logging.getLogger("soluna.server")

CODE_PATTERN = re.compile(f"[{CODE_LETTERS}]{{4}}")
#: The last line of a session whose seat its player took back on another terminal.
REPLACED = "You took your seat back on another terminal: this one is closed."


class Table(MatchRead):
    """One match of the store as this server last read it, with this server's guests at it."""

    def __init__(self, stored: StoredMatch) -> None:
        #: A rated match over: what it did to each player's rating (read from the match as filed), and whether
        #: the filed match was read for it.
        self.ratings: tuple[RatingShift, ...] = ()
        self.ratings_asked = False
        super().__init__(stored)
        #: Seat index -> this server's guest sitting there.
        self.seated: dict[int, Guest] = {}
        self.spectators: set[Guest] = set()
        #: One change at a time from this server (others' changes are refused by the store's versions).
        self.lock = asyncio.Lock()

    def take(self, stored: StoredMatch) -> None:
        super().take(stored)
        if not self.finished:  # a rematch, or still in play: no ratings to tell yet
            self.ratings, self.ratings_asked = (), False

    @property
    def guests(self) -> list[Guest]:
        return list(self.seated.values()) + list(self.spectators)

    @property
    def deserted(self) -> bool:
        """Finished, and nobody is at it any more (on any server): it may go from play."""
        return self.finished and not self.guests and all(seat.server is None for seat in self.seats)

    def seat_of(self, guest: Guest) -> int | None:
        return next((index for index, each in self.seated.items() if each is guest), None)


def label(table: Table) -> str:
    """How the log names a match (never by its code, which lets players back in)."""
    started = time.strftime("%H:%M:%S", time.localtime(table.stored.created_at))
    return f"({' vs '.join(seat.name for seat in table.seats)}, created {started})"


class Listener(Protocol):
    """What the rest of the lobby does when the cache learns of a change."""

    def match_changed(self, table: Table) -> None:
        """A match was installed (new, or a new version): the listing and its forfeit timer follow."""

    def match_gone(self, code: str) -> None:
        """A match is gone from play."""

    def seat_taken_over(self, table: Table, index: int, guest: Guest) -> None:
        """The store gave up a seat this server's ``guest`` still sits at (another server thought it dead)."""


class MatchCache:
    """Every match in the store, as this server last read it (``tables``), kept in step with the store."""

    def __init__(self, store: Storage, visitors: dict[Guest, Visitor], moment: Callable[[], Moment],
                 listener: Listener) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self._visitors = visitors
        self._moment = moment
        self._listener = listener
        #: Matches gone from play (by code: when they were created), so that a late notification
        #: of their last change does not bring them back.
        self._gone: dict[str, float] = {}

    def table_of(self, guest: Guest) -> Table | None:
        """The match ``guest`` sits or watches at."""
        visitor = self._visitors.get(guest)
        return self.tables.get(visitor.code) if visitor is not None and visitor.code is not None else None

    def state(self, table: Table, guest: Guest, notice: str | None = None,
              clocks_stopped_at: float | None = None) -> MatchState:
        """The whole match as ``guest`` sees it (a player's own secret included); ``clocks_stopped_at``: its clocks
        shown stopped as of then (the store is away)."""
        if table.match is None:
            raise ValueError("a match waiting for its opponent has no state to show")
        seat = table.seat_of(guest)
        moment = self._moment()
        away = [moment.away(each) for each in table.seats]
        secret = self._visitors[guest].secret if seat is not None else None
        return MatchState(table.code, table.version, 0 if seat == 0 else 1 if seat == 1 else None,
                          table.match.to_dict(), table.hints, (away[0], away[1]), secret, notice,
                          self._clock(table, moment.now, clocks_stopped_at), table.ended, table.ratings,
                          clocks_stopped=clocks_stopped_at is not None, takeback=asking_seat(table.seats),
                          tournament=table.stored.options.get(TOURNAMENT_TERM))

    @staticmethod
    def _clock(table: Table, now: float, stopped_at: float | None = None) -> ClockReading | None:
        if table.clock is None:
            return None
        if stopped_at is None:
            return table.clock.reading(now)
        return table.clock.run(None, stopped_at).reading(stopped_at)

    # ---- taking changes in ------------------------------------------------------------------------

    def install(self, stored: StoredMatch, quiet: bool = False) -> Table:
        """Take a match as read (or just written): cache it and tell this server's guests at it."""
        table = self.tables.get(stored.code)
        old_version: int | None = None
        if table is None or table.stored.created_at != stored.created_at:
            previous = table
            table = Table(stored)
            if previous is not None:
                table.seated, table.spectators = previous.seated, previous.spectators
            self.tables[stored.code] = table
            self._gone.pop(stored.code, None)
            quiet = quiet or stored.document is None
        elif stored.version <= table.version:
            return table
        else:
            old_version = table.version
            table.take(stored)
        if not quiet:
            self._tell_local(table, old_version)
        self._listener.match_changed(table)
        return table

    def vanish(self, code: str, notice: str = "") -> None:
        """A match is gone from play (abandoned, aborted, or a waiting match cancelled): its guests go back to the
        lobby, told ``notice``."""
        table = self.tables.pop(code, None)
        if table is None:
            return
        self._gone[code] = table.stored.created_at
        for guest in table.guests:
            visitor = self._visitors.get(guest)
            if visitor is not None and visitor.code == code:
                visitor.code = None
            if notice:
                guest.send(MatchGone(code, notice))
        self._listener.match_gone(code)

    async def table_for(self, code: str, fresh: bool = False) -> Table | None:
        """The match with ``code``, read from the store if this server has not heard of it yet; ``fresh``: read
        again from a store other servers share, for a decision that news not heard yet could turn (a waiting
        match another server has just seen begin)."""
        table = self.tables.get(code)
        if (table is None or (fresh and self.store.SHARED)) and CODE_PATTERN.fullmatch(code):
            await self.reload_after_writes(code)
            table = self.tables.get(code)
        return table

    async def reload_after_writes(self, code: str, older_than: int | None = None) -> None:
        """Read match ``code`` again once a write under way here to it has finished (its news, or a join's read,
        can come before the write returns: the write tells its guests its own words, not a reading's). With
        ``older_than``, only if the match here is still at an older version than that."""
        table = self.tables.get(code)
        if table is None:
            await self.reload(code)
            return
        if older_than is not None and table.version >= older_than:
            return  # heard already (this server's own write, installed)
        async with table.lock:
            now = self.tables.get(code)  # the write may have let it go, or it was made anew
            if now is not None and (older_than is None or now.version < older_than):
                await self.reload(code)

    async def reload(self, code: str) -> None:
        """Read one match again (another server changed it, or a write lost the race)."""
        stored = await self.store.matches.get(code)
        if stored is None:
            table = self.tables.get(code)
            if table is not None:
                self.vanish(code, await self._last_word(table))
            return
        if self._gone.get(code) == stored.created_at:
            return
        self.install(stored)

    async def reload_all(self) -> None:
        """Read every match in play again (at the start, when the store was away, when its news may have been
        missed). A match is gone if the read has not got it and it was here, unchanged, before the read began: one
        created or changed here while the read was under way is newer than what it got (it was taken for gone: its
        creator was sent to the lobby, and a joiner then sat down at a match whose creator was not seated). A match
        a write here is ending as the read runs is left to that write, which tells its guests its own words."""
        before = {code: (table, table.version) for code, table in self.tables.items()}
        matches = await self.store.matches.active()
        codes = {stored.code for stored in matches}
        for code, (table, version) in before.items():
            if code in codes:
                continue
            async with table.lock:  # a write under way here finishes first, and tells its own words
                if self.tables.get(code) is table and table.version == version:
                    self.vanish(code, await self._last_word(table))
        for stored in matches:
            if self._gone.get(stored.code) != stored.created_at:  # not one that went while this waited
                self.install(stored)

    async def _last_word(self, table: Table) -> str:
        """What the guests of a match another server let go are told: nothing for a finished match (they saw
        it end), else whether it was aborted or abandoned, as filed."""
        if table.finished or table.match is None:
            return ""
        filed = await self.store.finished.latest_under(table.code)
        if filed is not None and filed.started_at == table.stored.created_at and filed.result == EndReason.ABORTED:
            return ABORTED
        return ABANDONED

    async def drop_if_deserted(self, code: str) -> None:
        """A finished match nobody is at any more goes from play (it is filed already)."""
        table = self.tables.get(code)
        if table is not None and table.deserted:
            with contextlib.suppress(VersionConflict, MatchNotFound):
                await self.store.matches.drop(code, table.version)

    def send_away(self, guest: Guest, code: str) -> None:
        """``guest`` sat at match ``code`` until its player took the seat back on another terminal: its session
        ends, saying so."""
        visitor = self._visitors.get(guest)
        if visitor is not None and visitor.code == code:
            visitor.code = None
        guest.send_away(REPLACED)

    # ---- telling this server's guests -------------------------------------------------------------

    def show(self, table: Table, guest: Guest) -> None:
        """``guest`` is shown the whole match as it is now, with what its last change told their seat."""
        guest.send(self.state(table, guest, News.from_document(table.stored.news).for_seat(table.seat_of(guest))))

    def _tell_local(self, table: Table, old_version: int | None) -> None:
        """This server's guests at ``table`` hear of its new version: the move alone when it is the very next."""
        server = self._moment().server
        for index, guest in list(table.seated.items()):
            if index >= len(table.seats) or table.seats[index].server == server or not table.in_play:
                continue
            if table.seats[index].server is None:  # held by a server that thought this one dead
                self._listener.seat_taken_over(table, index, guest)
            else:  # its player proved it theirs on another server
                del table.seated[index]
                self.send_away(guest, table.code)
        if table.match is None:
            return
        stored = table.stored
        news = News.from_document(stored.news)
        moved = news.moved
        clock = self._clock(table, self._moment().now)
        for guest in table.guests:
            notice = news.for_seat(table.seat_of(guest))
            if moved is not None and old_version == stored.version - 1:
                guest.send(Moved(stored.code, stored.version, moved.round, moved.ply, moved.move, notice, clock))
            else:
                guest.send(self.state(table, guest, notice))
