"""Runs in the server process.

The heartbeat and its sweep, and the timers of what comes due: what keeps the shared lobby true
when nobody asks anything.

A seat whose server fell silent is held like a seat whose player left: they may come back on any
server with the same name and proof, else the opponent wins by forfeit; a clock that runs out
loses on time. Either is applied by whichever living server gets there first: at the moment it
comes due (a timer per match), or at the next sweep.

A seat that names this server while none of its guests sits there was left while the store could
not be written (a full disk, the database down): the sweep tells the store now, as of when the
store came back (``Presence.departures``), so the opponent is told, the seat is held or forfeited in
its turn, and the result is never turned round. Moves kept while it could not be written
(``pending.py``) are written first, as soon as it can; then every match in play is given back the time
the store was away (``give_back``): its clocks stopped when this server found it away, however long. Past
a day (``Referee.adjourn_after``) the match is adjourned instead: kept, its clocks stopped where they stood and
no seat held, until the sweep finds both its players here again, on any server (``go_on``).

Alone on its database (SQLite), a server writes no heartbeat: while a match is in play it marks now and then that
it serves the database, and every heartbeat while a clock runs, so that a database gone away (a full disk) is found
within a heartbeat even when nobody moves, and the clocks stop as of then.

Time nobody could play is given back: a server starting when no other is alive gives every match
in play back as it was when the last server stopped (``resume``; the time is read from the store:
the servers' heartbeats, the last change, and the mark a server leaves when it stops or, alone on
SQLite, now and then while a match is in play).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..storage import MatchNotFound, Storage, StorageError, StorageUnavailable, VersionConflict
from .computer import ComputerGames
from .decision_values import Change, Decision, MatchRead
from .decisions import DATABASE_AWAY, Referee
from .pending import PendingMoves
from .presence import Presence
from .tables import MatchCache, Table
from .writes import Writer

log = logging.getLogger("soluna.server")

#: What the players at a match with a running clock are told when the store is found away.
CLOCKS_STOPPED = "The database is away: the clocks are stopped until it is back."
#: Servers silent this long are forgotten.
FORGET_SERVERS_AFTER = 24 * 3600.0
#: Seconds between two marks that a server alone on its database (SQLite) serves it, while a match is in play (every
#: heartbeat while a clock runs: the mark is the write that finds the database away).
MARK_EVERY = 5.0
#: Seconds closing waits for cancelled work to end before cancelling it again, and how many times it does.
CANCEL_AGAIN_AFTER = 1.0
CANCEL_TRIES = 5


class Background:
    """Work beside the requests (kept until done, cancelled at close); a storage failure is logged,
    and the heartbeat's sweep tries again."""

    def __init__(self) -> None:
        self._tasks: list[asyncio.Task[None]] = []

    def run(self, work: Coroutine[Any, Any, Any], name: str | None = None) -> None:
        self._tasks = [task for task in self._tasks if not task.done()]
        task = asyncio.get_running_loop().create_task(self._quietly(work), name=name)
        # Cancelled before its first step (the server closing at once), the task never starts ``work``: closed
        # here, it is not reported as "never awaited" on the owner's terminal. Done any other way, it has ended.
        task.add_done_callback(lambda _task: work.close())
        self._tasks.append(task)

    def keep(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """A task that runs until close (it handles its own errors)."""
        self._tasks.append(asyncio.get_running_loop().create_task(work, name=name))

    @staticmethod
    async def _quietly(work: Awaitable[Any]) -> None:
        try:
            await work
        except StorageError as error:
            log.warning("cannot apply a change now: %s", error)

    async def close(self) -> None:
        await cancel_and_wait(self._tasks)


async def cancel_and_wait(tasks: Sequence[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` and wait until each has ended; one still running a moment later is cancelled again.

    A cancellation can be lost: on Python 3.11, ``asyncio.wait_for`` drops one that comes just as what it
    waits for is done, and psycopg_pool waits for a free connection with it. The heartbeat or the following
    of changes, cancelled as the pool hands it a connection, would run on for ever, and closing with it.
    """
    running = [task for task in tasks if not task.done()]
    for attempt in range(CANCEL_TRIES):
        if not running:
            break
        if attempt:
            log.warning("still running once cancelled, cancelled again: %s", _names(running))
        for task in running:
            task.cancel()
        _, still = await asyncio.wait(running, timeout=CANCEL_AGAIN_AFTER)
        running = list(still)
    if running:
        log.error("left running, cancelled %d times: %s", CANCEL_TRIES, _names(running))
    await asyncio.gather(*(task for task in tasks if task.done()), return_exceptions=True)


def _names(tasks: list[asyncio.Task[Any]]) -> str:
    return ", ".join(task.get_name() for task in tasks)


@dataclass(eq=False)
class Upkeep:
    """The heartbeat and its sweep: seats of servers gone silent are held, seats this server's players left
    unwritten are told to the store, clocks run out and held seats that ran out are applied, finished matches
    nobody is at go, and so do held computer matches past their time."""

    presence: Presence
    cache: MatchCache
    writer: Writer
    referee: Referee
    games: ComputerGames
    background: Background
    pending: PendingMoves
    #: The timer of each match with something to come due (a held seat, a running clock).
    _expiries: dict[str, asyncio.TimerHandle] = field(default_factory=dict)
    #: When this server (alone on SQLite, without heartbeats) last marked that it serves the database.
    _marked: float = float("-inf")
    #: The matches whose players were shown their clocks stopped while the store is away (code -> version then).
    _shown_stopped: dict[str, int] = field(default_factory=dict)
    #: Every sweep, the tournaments are tended (``tournament_desk.py``: started, paired, results recorded, pairings
    #: missed, each decided once under the store's lock, by whichever server gets there first).
    tend: Callable[[], None] = lambda: None

    @property
    def store(self) -> Storage:
        return self.presence.store

    async def keep_alive(self, reread: Callable[[], Awaitable[None]]) -> None:
        """Say this server is alive every heartbeat, and sweep; when the store is back, ``reread`` everything,
        write the moves kept meanwhile before anything else, then give every match the time it was away."""
        presence = self.presence
        while True:
            await asyncio.sleep(presence.heartbeat)
            tried_at = self.store.clock()
            try:
                await presence.beat()
                if presence.store_down:
                    await reread()
                await self.pending.write()
                if presence.store_down:
                    if presence.away_since is not None:
                        await self.give_back(presence.away_since, presence.found_away_at)
                    presence.store_back()
                    self._show_clocks_running()
                    log.warning("the database is back: every match was re-read")
                await self.sweep()
            except StorageUnavailable as error:
                if not presence.store_down:
                    log.warning("the database is unavailable: %s", error)
                presence.store_away(tried_at)
                self._show_clocks_stopped(presence.away_since or tried_at)
            except Exception:  # noqa: BLE001 - the heartbeat must go on
                log.exception("the lobby's heartbeat failed")

    async def resume(self) -> None:
        """On start, when no other server is alive: every match in play is given back as it was when the last
        server stopped (``Referee.resume``), before anything can come due."""
        store, now = self.store, self.store.clock()
        if store.SHARED and any(server.seen_at >= now - self.presence.dead_after
                                for server in await store.servers.known()):
            return  # served all along
        since = await store.servers.last_served()
        if since is None:
            return
        given = 0
        for stored in await store.matches.active():
            change = self.referee.resume(MatchRead(stored), self.presence.moment(), since)
            if isinstance(change, Change):
                with contextlib.suppress(VersionConflict, MatchNotFound):  # another server starting was first
                    await self.writer.write(stored, change)
                    given += 1
        if given:
            log.info("no server served the database for %.0f s: %d matches in play given back as they were",
                     now - since, given)

    def _show_clocks_stopped(self, since: float) -> None:
        """Once an outage: the players at every match here whose clock runs see it stopped as of ``since``, and
        why (the mover of a move kept meanwhile keeps their board as they played it)."""
        for table in self.cache.tables.values():
            clock = table.clock
            if (table.code in self._shown_stopped or not table.in_play or clock is None or clock.running is None
                    or table.match is None):
                continue
            self._shown_stopped[table.code] = table.version
            waiting = self.pending.moves.get(table.code)
            for guest in table.guests:
                if waiting is not None and guest is waiting.asker.guest:
                    continue
                guest.send(self.cache.state(table, guest, CLOCKS_STOPPED, clocks_stopped_at=since))

    def _show_clocks_running(self) -> None:
        """The store is back: the players of a match shown its clocks stopped that was not changed since (each
        change shows its clock) see them as they are."""
        shown, self._shown_stopped = self._shown_stopped, {}
        for code, version in shown.items():
            table = self.cache.tables.get(code)
            if table is None or table.version != version or table.match is None:
                continue
            for guest in table.guests:
                guest.send(self.cache.state(table, guest))

    async def give_back(self, since: float, found_at: float | None = None) -> None:
        """The store was away from ``since`` until now: every match in play not changed since this server found it
        away (``found_at``) is given back as it was then (``Referee.resume``: no clock ran, no time away counted),
        its players told; a match another server gave back first, or whose move kept meanwhile was just written,
        was changed since."""
        given = 0
        for stored in await self.store.matches.active():
            def decide(read: MatchRead) -> Decision:
                return self.referee.resume(read, self.presence.moment(), since, DATABASE_AWAY, changed_after=found_at)

            if stored.code in self.cache.tables:
                given += await self.writer.apply(stored.code, decide) is not None
                continue
            change = decide(MatchRead(stored))
            if isinstance(change, Change):
                with contextlib.suppress(VersionConflict, MatchNotFound):  # another server was first
                    await self.writer.write(stored, change)
                    given += 1
        if given:
            log.info("the database was away for %.0f s: %d matches in play given back as they were",
                     self.store.clock() - since, given)

    async def sweep(self) -> None:
        moment = self.presence.moment()
        for table in list(self.cache.tables.values()):
            gone = [index for index, seat in enumerate(table.seats)
                    if seat.server is not None and seat.server not in moment.live]
            unwritten = [index for index, seat in enumerate(table.seats)
                         if seat.server == moment.server and index not in table.seated]
            due = self.referee.next_due(table)
            if unwritten:
                await self.leave_unwritten(table.code, unwritten[0])
            elif gone:
                await self.hold_gone(table.code, gone)
            elif due is not None and due <= moment.now:
                await self.settle(table.code)
            elif table.adjourned and self.presence.settling:
                await self.writer.apply(table.code, lambda read: self.referee.go_on(read, self.presence.moment()))
            else:
                await self.cache.drop_if_deserted(table.code)
        self._forget_departures()
        await self.games.tidy()
        if self.store.SHARED:
            await self.store.servers.forget(seen_before=moment.now - FORGET_SERVERS_AFTER)
        elif self._mark_due(moment.now):
            await self.store.servers.mark_served()  # no heartbeat says so: when it stops short, the restart knows when
            self._marked = moment.now
        await self.games.refresh()
        self.tend()

    def _mark_due(self, now: float) -> bool:
        """Alone on the database: whether to mark now that this server serves it (see the module's docstring)."""
        playing = [table for table in self.cache.tables.values() if table.in_play]
        return bool(playing) and (now >= self._marked + MARK_EVERY or any(
            table.clock is not None and table.clock.running is not None for table in playing))

    async def leave_unwritten(self, code: str, index: int) -> None:
        """The player at seat ``index`` of ``code`` left this server while the store could not be told: it is
        told now, as of when they left or, later, when the store came back (now, when this server has forgotten)."""
        left_at = self.presence.departures.get((code, index))

        def decide(table: Table) -> Decision:
            if index in table.seated:
                return None  # seated again meanwhile (a join written just now)
            return self.referee.leave(table, self.presence.moment(), index, at=left_at)

        await self.writer.apply(code, decide)
        table = self.cache.tables.get(code)
        if table is None or table.seats[index].server != self.presence.server_id:
            self.presence.departures.pop((code, index), None)
            log.info("a departure the database missed is written")

    def _forget_departures(self) -> None:
        """Departures of matches gone from play, or told since, need no keeping."""
        for code, index in list(self.presence.departures):
            table = self.cache.tables.get(code)
            if table is None or table.seats[index].server != self.presence.server_id:
                del self.presence.departures[(code, index)]

    async def hold_gone(self, code: str, indexes: list[int]) -> None:
        """The sessions at these seats were on a server that has stopped answering (see ``Referee.hold_gone``)."""
        await self.writer.apply(code, lambda table: self.referee.hold_gone(table, self.presence.moment(), indexes,
                                                                           self.presence.heard))

    async def settle(self, code: str) -> None:
        """Whatever has come due in the match (see ``Referee.due``: a clock run out, a held seat's time up); not
        while the store is down or just back (``Presence.settling``): the sweep applies it then."""
        if self.presence.settling:
            await self.writer.apply(code, lambda table: self.referee.due(table, self.presence.moment()))

    def schedule_expiry(self, table: Table) -> None:
        """A timer for the moment something next comes due in the match (``Referee.next_due``): a held seat runs
        out, a clock runs out. Any living server may apply it; the first to write it wins."""
        self.cancel_expiry(table.code)
        due = self.referee.next_due(table)
        if due is None:
            return
        delay = max(0.0, due - self.store.clock()) + 0.01
        code = table.code
        self._expiries[code] = asyncio.get_running_loop().call_later(
            delay, lambda: self.background.run(self.settle(code)))

    def cancel_expiry(self, code: str) -> None:
        timer = self._expiries.pop(code, None)
        if timer is not None:
            timer.cancel()

    def close(self) -> None:
        for timer in self._expiries.values():
            timer.cancel()
        self._expiries.clear()
