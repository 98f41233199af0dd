"""Runs in the server process.

The heartbeat and its sweep, and the forfeit timers: what keeps the shared lobby true when
nobody asks anything.

A seat whose server fell silent is held like a seat whose player left: they may come back on any
server with the same name and proof, else the opponent wins by forfeit, applied by whichever
living server gets there first: at the moment the seat runs out (a timer), or at the next sweep.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from ...link.messages import Notice
from ..storage import Storage, StorageError, StorageUnavailable
from .computer import ComputerGames
from .decisions import ABANDONED, Referee
from .presence import Presence
from .tables import MatchCache, Table
from .writes import Writer

log = logging.getLogger("soluna.server")

#: Servers silent this long are forgotten.
FORGET_SERVERS_AFTER = 24 * 3600.0


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
