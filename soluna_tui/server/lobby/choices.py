"""Runs in the server process.

The lobby's settings a player with a key left (level, rules, stars, discs, opener, hints, clock): kept
with their key in the store, on every server, and set again on their next visit. A guest's last for the
visit, on their own screen: the server keeps nothing for them.
"""

from __future__ import annotations

import json
import logging

from ...link.messages import KeepChoices, LobbyChoices
from ...link.wire import from_wire, to_wire
from ..storage import Storage, StorageUnavailable
from .visitors import Asker, Guest

log = logging.getLogger("soluna.lobby")


class Choices:
    """Keeps a keyed player's lobby settings, and finds them again."""

    def __init__(self, store: Storage) -> None:
        self.store = store

    async def of(self, guest: Guest) -> LobbyChoices | None:
        """The settings this guest's key last left, if any (a row no server wrote counts as none)."""
        return None if guest.fingerprint is None else await self.of_key(guest.fingerprint)

    async def of_key(self, fingerprint: str) -> LobbyChoices | None:
        """The settings the key of ``fingerprint`` last left, if any (a browser signed in as it asks, before its
        session starts: whether its page is in lines)."""
        kept = await self.store.players.lobby_choices(fingerprint)
        if kept is None:
            return None
        try:
            message = from_wire(json.loads(kept), {KeepChoices.TYPE: KeepChoices})
        except (ValueError, RecursionError):  # ProtocolError and JSON's errors are ValueErrors
            log.warning("the lobby settings kept for a key could not be read; they are left unused")
            return None
        assert isinstance(message, KeepChoices)
        return message.choices

    async def keep(self, asker: Asker, request: KeepChoices) -> None:
        """Keep the settings with the asker's key (a guest's are not kept: nothing to find them by)."""
        fingerprint = asker.guest.fingerprint
        if fingerprint is None:
            return
        try:
            await self.store.players.keep_lobby_choices(fingerprint, json.dumps(to_wire(request)))
        except StorageUnavailable as error:  # settings are a convenience: nobody is told
            log.warning("cannot keep the lobby settings: %s", error)
