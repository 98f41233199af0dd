"""Runs in the server process.

Secrets tried: a seat's secret (or a held game's) may be tried a few times a minute, with a growing
wait, per address, and at each seat, match and held game per address and key (``tried_by``); the
tries are counted in the store, so every server of a fleet counts the same ones
(``storage.secrets.GuessLimit``). The limits are checked before any hashing, and a wrong guess
costs one salted HMAC. A stranger's wrong tries count against the stranger's address alone: the
real player, back from any other address (or with another key), is never locked out of their own
seat. A player back from an address their seat was taken from is limited per address only.
"""

from __future__ import annotations

import asyncio
import logging

from ...rules.wording import minutes
from ..gate import client_key
from ..storage import Storage
from ..storage.secrets import (
    ADDRESS_GUESSES,
    MATCH_GUESSES,
    SEAT_COUNTED,
    SEAT_GUESSES,
    GuessLimit,
    SecretTry,
    is_current,
    secret_matches,
)
from .tables import Table
from .visitors import Asker

log = logging.getLogger("soluna.server")


def tried_by(asker: Asker) -> str:
    """Who tries, as the seat, match and game limits count them apart: the address, and the key if any."""
    fingerprint = asker.guest.fingerprint
    return client_key(asker.guest.address) + (f"/{fingerprint}" if fingerprint is not None else "")


def seat_scope(table: Table, index: int, asker: Asker) -> str:
    """The asker's tries at one seat of one match (codes are used again: the match's creation tells them
    apart)."""
    return f"seat:{table.code}:{table.stored.created_at!r}:{index}:{tried_by(asker)}"


def seat_count_scope(table: Table, index: int) -> str:
    """Every stranger's tries at one seat (told to its player, never a wait)."""
    return f"seat:{table.code}:{table.stored.created_at!r}:{index}"


def match_scope(table: Table, asker: Asker) -> str:
    return f"match:{table.code}:{table.stored.created_at!r}:{tried_by(asker)}"


def game_scope(game_id: str, asker: Asker) -> str:
    """The asker's tries at a match against the computer held for its player."""
    return f"game:{game_id}:{tried_by(asker)}"


def address_scope(asker: Asker) -> str:
    return f"address:{client_key(asker.guest.address)}"


def seat_limits(table: Table, seats: list[int], asker: Asker) -> dict[str, GuessLimit]:
    """What a try of a secret at ``seats`` counts against: the asker's tries at each seat and at the match, but
    not at a seat its player sat down at from the asker's address (they are back); the asker's address in any
    case (``Guesses.allow``)."""
    address = client_key(asker.guest.address)
    strangers = [index for index in seats if address not in table.seats[index].addresses]
    limits = {seat_scope(table, index, asker): SEAT_GUESSES for index in strangers}
    limits.update({seat_count_scope(table, index): SEAT_COUNTED for index in strangers})
    if strangers:
        limits[match_scope(table, asker)] = MATCH_GUESSES
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
