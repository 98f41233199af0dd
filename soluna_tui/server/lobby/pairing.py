"""Runs in the server process.

Players meeting, as the lobby sees it: quick matches (``seeks.py``) and challenges (``challenges.py``), their
requests, the store's news of them (read again after every ``PAIRING`` change, however many came meanwhile, and
every few heartbeats while anything is open: players gone on other servers let their challenges lapse), and a
guest's arrival, each step, and departure.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ...link.messages import (
    AcceptSeek,
    AnswerChallenge,
    CancelSeek,
    ChallengePerson,
    LobbyChoices,
    Seek,
    WatchSeeks,
    WithdrawChallenge,
)
from ..storage import Storage, StorageError
from .challenges import ChallengeBook
from .meeting import Meeting, PairedJoin
from .presence import Presence
from .roster import Roster
from .seeks import Seeks
from .two_player import TwoPlayerMatches
from .visitors import Asker, Guest, Visitor

log = logging.getLogger("soluna.server")

#: Heartbeats between two readings of what is open, besides those the store's changes call for.
READ_EVERY = 2


class Pairings:
    """Quick matches and challenges on this server."""

    def __init__(self, store: Storage, visitors: Mapping[Guest, Visitor], roster: Roster, presence: Presence,
                 matches: TwoPlayerMatches, quick_match: bool = True, challenges: bool = True) -> None:
        self.store, self.presence = store, presence
        self.meeting = Meeting(visitors, roster, presence, matches)
        self.seeks = Seeks(store, self.meeting, matches, quick_match)
        self.book = ChallengeBook(store, self.meeting, matches, challenges)
        self._reading: asyncio.Task[None] | None = None
        self._again = False
        self._in_lobby: dict[Guest, bool] = {}

    @property
    def handlers(self) -> dict[type[Any], Callable[[Asker, Any], Awaitable[None]]]:
        return {Seek: self.seeks.seek, CancelSeek: self.seeks.cancel, ChallengePerson: self.book.challenge,
                AnswerChallenge: self.book.answer, WithdrawChallenge: self.book.withdraw,
                PairedJoin: self._paired_join, WatchSeeks: self.seeks.watch, AcceptSeek: self.seeks.accept}

    async def _paired_join(self, asker: Asker, step: PairedJoin) -> None:
        await (self.seeks.join(asker, step) if step.challenge is None else self.book.join(asker, step))

    # ---- the store's news ----------------------------------------------------------------------

    def stir(self) -> None:
        """Seeks or challenges changed (on any server): read them again, once for however many changes came."""
        if self._reading is not None and not self._reading.done():
            self._again = True
            return
        self._reading = asyncio.get_running_loop().create_task(self._read(), name="soluna-pairing-read")

    async def _read(self) -> None:
        self._again = True
        while self._again:
            self._again = False
            try:
                await self.seeks.heard(await self.store.pairing.seeks())
                await self.book.heard(await self.store.pairing.challenges())
            except StorageError as error:
                log.warning("cannot read the quick matches and challenges: %s", error)
            except Exception:  # noqa: BLE001 - one bad row must not stop the next reading
                log.exception("reading the quick matches and challenges failed")

    async def watch(self) -> None:
        """Every few heartbeats while anything is open here (or a seeks board is open): read again (a player gone
        elsewhere lapses)."""
        while True:
            await asyncio.sleep(self.presence.heartbeat * READ_EVERY)
            if self.book.known or self.seeks.waiting or self.seeks.board:
                self.stir()

    async def close(self) -> None:
        if self._reading is not None:
            self._reading.cancel()
            await asyncio.gather(self._reading, return_exceptions=True)

    # ---- guests ----------------------------------------------------------------------------------

    def arrive(self, guest: Guest, choices: LobbyChoices | None) -> None:
        self.book.refuse(guest, choices is not None and choices.refuse_challenges)
        self._in_lobby[guest] = True
        self.stir()

    def choices(self, guest: Guest, choices: LobbyChoices) -> None:
        if (guest in self.book.refusing) != choices.refuse_challenges:
            self.book.refuse(guest, choices.refuse_challenges)
            self.stir()

    async def after_step(self, guest: Guest) -> None:
        """After each of a guest's steps: off to a match, it waits for a quick match no more; back in the lobby,
        it hears the challenges that waited."""
        now, before = self.meeting.in_lobby(guest), self._in_lobby.get(guest, True)
        self._in_lobby[guest] = now
        if not now:
            self.seeks.board.pop(guest, None)  # the seeks board closes with the lobby
        if not now and guest in self.seeks.waiting:
            try:
                await self.seeks.gone(guest)
            except StorageError as error:
                log.warning("cannot take a quick match back: %s", error)
        if now and not before:
            self.book.back_in_lobby(guest)

    async def depart(self, guest: Guest) -> None:
        self._in_lobby.pop(guest, None)
        await self.seeks.gone(guest)
        await self.book.gone(guest)
        self.meeting.forget(guest)
