"""Runs in the server process.

Every change to a two-player match goes through one loop: decide on the match as last read, write
the change at that version, and when another server changed the match first (the store refuses the
version), read it again and decide again.

The decision (``decisions.py``) is pure, so deciding again is safe; only this loop reads and writes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ...rules.end_reason import EndReason
from ..storage import MatchNotFound, Storage, StoredMatch, VersionConflict
from .decision_values import Change, Decision, Keep, Refused, Resync
from .tables import MatchCache, Table, label
from .visitors import Asker

log = logging.getLogger("soluna.server")

#: Tries to apply a change whose match another server changed meanwhile.
RETRIES = 8


class Writer:
    """Applies decisions to matches in the store, optimistically (see the module's docstring)."""

    def __init__(self, store: Storage, cache: MatchCache) -> None:
        self.store = store
        self.cache = cache

    async def apply(self, code: str, decide: Callable[[Table], Decision], asker: Asker | None = None,
                    seat_at: int | None = None) -> Table | None:
        """Decide on match ``code`` and store the change; the table once stored (``None`` if nothing was,
        or the match went from play). A refusal goes to ``asker``; ``seat_at`` seats the asker there once
        the change is stored."""
        for _ in range(RETRIES):
            table = self.cache.tables.get(code)
            if table is None:
                return None
            async with table.lock:
                if self.cache.tables.get(code) is not table:
                    continue  # replaced while this waited for the lock
                decision = decide(table)
                if not isinstance(decision, Change):
                    self._refuse(table, asker, decision)
                    return None
                try:
                    stored = await self._write(table.stored, decision)
                except (VersionConflict, MatchNotFound):
                    await self.cache.reload(code)
                    continue
                if decision.finish is not None:
                    log.info("match %s ends: %s", label(table), _ending(table, decision))
                if stored is None:
                    self.cache.vanish(code, _last_word(decision))
                    return None
                if asker is not None and seat_at is not None:
                    table.seated[seat_at] = asker.guest
                    asker.visitor.code = code
                    if table.version >= stored.version:
                        # The news of this very write came first (the guests here were told then, before the
                        # asker sat down): the asker is shown the match now.
                        self.cache.show(table, asker.guest)
                self.cache.install(stored)
                return table
        log.warning("a change to a match kept losing the race to other servers; given up")
        return None

    async def write(self, stored: StoredMatch, change: Change) -> None:
        """Store ``change`` on top of ``stored`` once, with no cache and nobody told (a server starting, before it
        reads the matches); ``VersionConflict`` when another server changed the match first."""
        await self._write(stored, change)

    def _refuse(self, table: Table, asker: Asker | None, decision: Decision) -> None:
        if asker is None:
            return
        if isinstance(decision, Refused):
            asker.refuse(decision.text)
        elif isinstance(decision, Resync) and table.match is not None:
            asker.guest.send(self.cache.state(table, asker.guest, decision.notice))

    async def _write(self, stored: StoredMatch, change: Change) -> StoredMatch | None:
        """Store ``change`` on top of ``stored``; the match as it now is (``None`` when it is gone from play)."""
        document = change.match.to_dict() if change.match is not None else None
        news = change.news.to_document()
        clock = _clock_document(stored, change)
        adjourned_at = stored.adjourned_at if isinstance(change.adjourned_at, Keep) else change.adjourned_at
        if change.drop:
            await self.store.matches.drop(stored.code, stored.version)
            return None
        if change.finish is not None:
            if document is None:
                raise ValueError("a match that has not begun cannot end")
            await self.store.matches.finish(stored.code, stored.version, document, change.finish, change.seats,
                                          keep=not change.goes, news=news, clock=clock)
            if change.goes:
                return None
        else:
            await self.store.matches.update(stored.code, stored.version, document, change.seats, news=news, clock=clock,
                                            adjourned_at=adjourned_at)
        return replace(stored, version=stored.version + 1, seats=change.seats, document=document,
                       updated_at=self.store.clock(), news=news, clock=clock,
                       adjourned_at=None if change.finish is not None else adjourned_at)


def _clock_document(stored: StoredMatch, change: Change) -> dict[str, Any] | None:
    """The clock to store with ``change``: its own, or the one read when it keeps it."""
    if isinstance(change.clock, Keep):
        return stored.clock
    return change.clock.to_document() if change.clock is not None else None


def _last_word(change: Change) -> str:
    """What the guests of a match that goes from play with ``change`` are told (nothing for a waiting match
    its creator left)."""
    return "" if change.drop else change.news.watchers or "The match has ended."


def _ending(table: Table, change: Change) -> str:
    """How the log says a match ended (by the names at it, never its code)."""
    if change.finish is EndReason.ABANDONED:
        return "abandoned by both players"
    if change.finish is EndReason.ABORTED:
        return "aborted before both players had moved"
    loser = change.match.forfeited_by if change.match is not None else None
    if change.finish is EndReason.FORFEIT and loser is not None:
        return f"{table.seats[loser].name} forfeits"
    if change.finish is EndReason.TIME and loser is not None:
        return f"{table.seats[loser].name} loses on time"
    if change.finish is EndReason.RESIGNED and loser is not None:
        return f"{table.seats[loser].name} resigns"
    return str(change.finish)
