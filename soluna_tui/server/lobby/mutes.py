"""Runs in the server process.

Whom each listener muted, as table talk asks it (``chat.TalkRooms``). A mute names the speaker as
``talk.speaker_of`` does, never by a session or a name: a key, whatever address it comes from; a guest, by their
address (``gate.client_key``), so a muted guest back on a new session is still not heard (nor any other guest at
that address). A keyed listener's mutes are kept with their key in the store (read as they arrive, the newest
``MUTES_KEPT``); a guest's for their session, then for their address a while (``GUEST_MUTES_KEPT``), so the
guest back from it keeps them. A guest's address muted is let go after ``ADDRESS_MUTED_FOR``: an address passes
to other people in time.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Mapping

from ..gate import client_key
from ..storage import ChatMute, Storage, StorageError
from .online import key_person
from .talk import SITE
from .visitors import Guest

log = logging.getLogger("soluna.server")

#: The mutes kept with a key (the oldest let go past it).
MUTES_KEPT = 200
#: How long a guest's mutes outlast their session, for the next guest session from their address.
GUEST_MUTES_KEPT = 24 * 3600.0
#: The addresses whose guests' mutes are kept (the longest gone let go past it).
GUEST_ADDRESSES_KEPT = 1000
#: How long a guest's address stays muted.
ADDRESS_MUTED_FOR = 30 * 24 * 3600.0

#: A listener: a key (``talk.KEY`` and its fingerprint: every terminal of it), or a guest's session.
Listener = str | Guest


class Mutes:
    """Whom each listener here muted: speakers (``talk.speaker_of``) with the name they were muted under."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self._of: dict[Listener, dict[str, ChatMute]] = {}
        #: Guests' mutes after their session, by address: when the last of them left, and the mutes.
        self._left: OrderedDict[str, tuple[float, dict[str, ChatMute]]] = OrderedDict()

    def of(self, guest: Guest) -> Mapping[str, ChatMute]:
        return self._of.get(_listener(guest), {})

    async def arrive(self, guest: Guest) -> None:
        """A terminal come: a key's mutes read from the store (again, when another server changed them); a guest's
        kept for its address taken up."""
        now = self.store.clock()
        if guest.fingerprint is None:
            left = self._left.get(client_key(guest.address))
            if left is not None and now - left[0] < GUEST_MUTES_KEPT:
                self._of[guest] = {speaker: mute for speaker, mute in left[1].items() if _live(mute, now)}
            return
        try:
            kept = await self.store.chat.mutes(guest.fingerprint)
        except StorageError as error:
            log.warning("a player's mutes could not be read: %s", error)
            return
        self._of[_listener(guest)] = {mute.speaker: mute for mute in kept if _live(mute, now)}

    def leave(self, guest: Guest, others: bool) -> None:
        """A terminal gone (``others``: its key still has a terminal here, which keeps hearing by its mutes)."""
        if guest.fingerprint is not None:
            if not others:
                self._of.pop(_listener(guest), None)
            return
        muted = self._of.pop(guest, None)
        if muted:
            site = client_key(guest.address)
            self._left[site] = (self.store.clock(), muted)
            self._left.move_to_end(site)
            while len(self._left) > GUEST_ADDRESSES_KEPT:
                self._left.popitem(last=False)

    async def mute(self, guest: Guest, speaker: str, name: str) -> None:
        """``guest`` hears ``speaker`` no more (kept with its key; ``StorageError`` if that cannot be written, and
        the mute holds here meanwhile)."""
        mute = ChatMute(speaker, name, self.store.clock())
        self._of.setdefault(_listener(guest), {})[speaker] = mute
        if guest.fingerprint is not None:
            await self.store.chat.mute(guest.fingerprint, mute, MUTES_KEPT)

    async def unmute(self, guest: Guest, speakers: list[str]) -> None:
        """``guest`` hears ``speakers`` again (``StorageError`` as for ``mute``)."""
        muted = self._of.get(_listener(guest), {})
        for speaker in speakers:
            muted.pop(speaker, None)
            if guest.fingerprint is not None:
                await self.store.chat.unmute(guest.fingerprint, speaker)

    def named(self, guest: Guest, name: str) -> list[str]:
        """The speakers ``guest`` muted under ``name`` (case aside)."""
        wanted = name.casefold()
        return [speaker for speaker, mute in self.of(guest).items() if mute.name.casefold() == wanted]


def _listener(guest: Guest) -> Listener:
    return key_person(guest.fingerprint) if guest.fingerprint is not None else guest


def _live(mute: ChatMute, now: float) -> bool:
    """Whether a mute still holds: a key's always; an address's for ``ADDRESS_MUTED_FOR``."""
    return not mute.speaker.startswith(SITE) or now - mute.muted_at < ADDRESS_MUTED_FOR
