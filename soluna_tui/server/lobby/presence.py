"""Runs in the server process.

Presence: which servers are alive, and what happens to the seats of players who are not.

Each seat records which server's session sits there; servers say they are alive every second
(``HEARTBEAT``), with how many watch each match there. A seat whose server falls silent for
``DEAD_AFTER`` is held like a seat whose player left: they may come back on any server with the
same name and proof, else the opponent wins by forfeit, applied by whichever living server gets
there first: at the moment the seat runs out (a timer), or at the next sweep.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from ...link.messages import Notice
from ..storage import ServerRecord, Storage, StorageError, StorageUnavailable
from .computer import ComputerGames
from .decisions import ABANDONED, Moment, Referee
from .tables import MatchCache, Table
from .writes import Writer

log = logging.getLogger("soluna.server")

#: Seconds between two "I am alive" of a server; silent for DEAD_AFTER, its seats are held.
HEARTBEAT = 1.0
DEAD_AFTER = 6.0
#: Servers silent this long are forgotten.
FORGET_SERVERS_AFTER = 24 * 3600.0


class Presence:
    """The servers alive (by their last heartbeat in the store) and how many watch each match."""

    def __init__(self, store: Storage, server_id: str, heartbeat: float = HEARTBEAT) -> None:
        self.store = store
        self.server_id = server_id
        self.heartbeat = heartbeat
        self.dead_after = heartbeat * DEAD_AFTER / HEARTBEAT
        self.live: set[str] = {server_id}
        #: How many watch each match on this server, and on every living server.
        self.watching: dict[str, int] = {}
        self.watchers: dict[str, int] = {}

    def moment(self) -> Moment:
        """Now, for a decision: the store's time and the servers alive."""
        return Moment(self.store.clock(), self.server_id, frozenset(self.live))

    async def beat(self) -> None:
        """Say this server is alive (with its spectators), and hear who else is."""
        watching = {code: count for code, count in self.watching.items() if count > 0}
        self._note_live(await self.store.heartbeat(self.server_id, watching))

    async def refresh(self) -> None:
        """Hear again who is alive (a player coming back asks: their old server may have just died)."""
        with contextlib.suppress(StorageError):
            self._note_live(await self.store.servers())

    def _note_live(self, servers: list[ServerRecord]) -> None:
        now = self.store.clock()
        self.live = {server.id for server in servers if server.seen_at >= now - self.dead_after} | {self.server_id}
        self.watchers = {}
        for server in servers:
            if server.id in self.live:
                for code, count in server.watching.items():
                    self.watchers[code] = self.watchers.get(code, 0) + count

    def watch(self, code: str, step: int) -> None:
        """One more (``step`` 1) or one fewer (-1) watching ``code`` here."""
        self.watching[code] = max(0, self.watching.get(code, 0) + step)

    def forget(self, code: str) -> None:
        self.watching.pop(code, None)


class Background:
    """Work beside the requests (kept until done, cancelled at close); a storage failure is logged,
    and the heartbeat's sweep tries again."""

    def __init__(self) -> None:
        self._tasks: list[asyncio.Task[None]] = []

    def run(self, work: Coroutine[Any, Any, Any], name: str | None = None) -> None:
        self._tasks = [task for task in self._tasks if not task.done()]
        self._tasks.append(asyncio.get_running_loop().create_task(self._quietly(work), name=name))

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
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


@dataclass(eq=False)
class Upkeep:
    """The heartbeat and its sweep: seats of servers gone silent are held, held seats that ran out are
    forfeited, finished matches nobody is at go, and so do held computer matches past their time."""

    presence: Presence
    cache: MatchCache
    writer: Writer
    referee: Referee
    games: ComputerGames
    background: Background
    #: The forfeit timer of each match with a held seat.
    _expiries: dict[str, asyncio.TimerHandle] = field(default_factory=dict)
    _storage_down: bool = False

    @property
    def store(self) -> Storage:
        return self.presence.store

    async def keep_alive(self, reread: Callable[[], Awaitable[None]]) -> None:
        """Say this server is alive every heartbeat, and sweep; ``reread`` everything when the store is back."""
        while True:
            await asyncio.sleep(self.presence.heartbeat)
            try:
                await self.presence.beat()
                if self._storage_down:
                    self._storage_down = False
                    log.warning("the database is back: every match is re-read")
                    await reread()
                await self.sweep()
            except StorageUnavailable as error:
                if not self._storage_down:
                    self._storage_down = True
                    log.warning("the database is unavailable: %s", error)
            except Exception:  # noqa: BLE001 - the heartbeat must go on
                log.exception("the lobby's heartbeat failed")

    async def sweep(self) -> None:
        moment = self.presence.moment()
        for table in list(self.cache.tables.values()):
            gone = [index for index, seat in enumerate(table.seats)
                    if seat.server is not None and seat.server not in moment.live]
            expired = [index for index, seat in enumerate(table.seats)
                       if seat.server is None and seat.held_until is not None and seat.held_until <= moment.now]
            if gone:
                await self.hold_gone(table.code, gone)
            elif expired and table.in_play:
                await self.expire(table.code, expired[0])
            else:
                await self.cache.drop_if_deserted(table.code)
        await self.games.tidy()
        await self.store.forget_servers(seen_before=moment.now - FORGET_SERVERS_AFTER)
        await self.games.refresh()

    async def hold_gone(self, code: str, indexes: list[int]) -> None:
        """The sessions at these seats were on a server that has stopped answering (see ``Referee.hold_gone``)."""
        await self.writer.apply(code, lambda table: self.referee.hold_gone(table, self.presence.moment(), indexes))

    async def expire(self, code: str, index: int) -> None:
        """A held seat's time is up (see ``Referee.expire``); the spectators of a match abandoned are told."""
        table = self.cache.tables.get(code)
        spectators = list(table.spectators) if table is not None else []
        result = await self.writer.apply(code, lambda table: self.referee.expire(table, self.presence.moment(),
                                                                                 index))
        if result is None and code not in self.cache.tables:
            for guest in spectators:
                guest.send(Notice(ABANDONED))

    def schedule_expiry(self, table: Table) -> None:
        """A forfeit on time: at the moment the first held seat runs out (any living server may apply it)."""
        self.cancel_expiry(table.code)
        if not table.in_play:
            return
        held = [(seat.held_until, index) for index, seat in enumerate(table.seats)
                if seat.server is None and seat.held_until is not None]
        if not held:
            return
        until, index = min(held)
        delay = max(0.0, until - self.store.clock()) + 0.01
        code = table.code
        self._expiries[code] = asyncio.get_running_loop().call_later(
            delay, lambda: self.background.run(self.expire(code, index)))

    def cancel_expiry(self, code: str) -> None:
        timer = self._expiries.pop(code, None)
        if timer is not None:
            timer.cancel()

    def close(self) -> None:
        for timer in self._expiries.values():
            timer.cancel()
        self._expiries.clear()
