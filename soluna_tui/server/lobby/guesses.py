"""Runs in the server process.

Secrets tried: a seat's secret (or a held game's) may be tried a few times a minute, with a growing
wait, per seat, per match and per address, however many addresses and keys a guesser has; the tries
are counted in the store, so every server of a fleet counts the same ones
(``storage.secrets.GuessLimit``). The limits are checked before any hashing, and a wrong guess
costs one salted HMAC. A player back from an address their seat was taken from is limited per
address only: a guesser cannot lock them out of their own seat.
"""

from __future__ import annotations

import asyncio
import logging

from ...play.wording import minutes
from ..gate import client_key
from ..storage import Storage
from ..storage.secrets import (
    ADDRESS_GUESSES,
    MATCH_GUESSES,
    SEAT_GUESSES,
    GuessLimit,
    SecretTry,
    is_current,
    secret_matches,
)
from .tables import Table
from .visitors import Asker

log = logging.getLogger("soluna.server")


def seat_scope(table: Table, index: int) -> str:
    """The tries at one seat of one match (codes are used again: the match's creation tells them apart)."""
    return f"seat:{table.code}:{table.stored.created_at!r}:{index}"


def match_scope(table: Table) -> str:
    return f"match:{table.code}:{table.stored.created_at!r}"


def game_scope(game_id: str) -> str:
    """The tries at a match against the computer held for its player."""
    return f"game:{game_id}"


def address_scope(asker: Asker) -> str:
    return f"address:{client_key(asker.guest.address)}"


def seat_limits(table: Table, seats: list[int], asker: Asker) -> dict[str, GuessLimit]:
    """What a try of a secret at ``seats`` counts against: each seat and the match, but not a seat its player
    sat down at from the asker's address (they are back), and the asker's address in any case."""
    address = client_key(asker.guest.address)
    strangers = [index for index in seats if address not in table.seats[index].addresses]
    limits = {seat_scope(table, index): SEAT_GUESSES for index in strangers}
    if strangers:
        limits[match_scope(table)] = MATCH_GUESSES
    return limits


class Guesses:
    """Tries of secrets, counted in the store (see the module's docstring)."""

    def __init__(self, store: Storage) -> None:
        self.store = store

    async def allow(self, asker: Asker, limits: dict[str, GuessLimit]) -> SecretTry | None:
        """Count a try against ``limits`` and the asker's address; ``None`` (the asker told how long to wait)
        when one of them allows no try yet."""
        tried = await self.store.secret_tries.take({address_scope(asker): ADDRESS_GUESSES, **limits})
        if tried.wait <= 0:
            return tried
        kind = (tried.scope or "").partition(":")[0]
        whose = {"address": "from your address", "game": "for that match"}.get(kind, "for that seat")
        asker.refuse(f"Too many wrong secrets tried {whose}: try again in {minutes(max(1.0, tried.wait))}.")
        return None

    async def right(self, tried: SecretTry) -> None:
        """The secret was right: the try counts for nothing."""
        await self.store.secret_tries.give_back(list(tried.tries))

    async def matches(self, secret: str, kept_hash: str) -> bool:
        """Whether ``secret`` is the one ``kept_hash`` keeps: an HMAC, or once an older version's scrypt hash
        (run off the event loop)."""
        if not is_current(kept_hash):
            return await asyncio.to_thread(secret_matches, secret, kept_hash)
        return secret_matches(secret, kept_hash)
