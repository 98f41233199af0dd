"""Runs in the server process.

Browsers signed in as a keyed player, as the SSH lobby manages them: a one-time code to type on the web door's
page (or its link to open), the browsers signed in as the key, and one signed out. Only a player on SSH with a
key, at a server with a web door, is offered them: a browser signed in cannot make codes for more browsers. The
web door checks the codes and the cookies (``web/sign_in.py``); the store keeps both for every server of a fleet.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...link.messages import AskBrowserCode, AskBrowsers, BrowserCode, Browsers, RevokeBrowser, SignedInBrowser
from ..gate import RateWindow
from ..storage import Storage
from ..storage.sign_ins import CODE_LIFE, CODES_PER_MINUTE, new_code, shown_code
from .visitors import Asker, Guest

#: Codes drawn before giving up when each one's first letters name a living code already (a few in 330,000).
CODE_DRAWS = 8
NOT_OFFERED = ("Only a player who comes over SSH with a key, to a server with a web door, can sign a browser in "
               "as themselves.")


class SignIns:
    """The lobby's requests about browsers; ``page(guest)`` is the web door's address to show ``guest``, or
    ``None`` where it is not offered to them."""

    def __init__(self, store: Storage, page: Callable[[Guest], str | None]) -> None:
        self.store = store
        self.page = page
        self._made = RateWindow(CODES_PER_MINUTE)

    @property
    def handlers(self) -> dict[type, Callable[[Asker, Any], Any]]:
        return {AskBrowserCode: self.code, AskBrowsers: self.browsers, RevokeBrowser: self.revoke}

    def offered(self, guest: Guest) -> bool:
        return guest.fingerprint is not None and self.page(guest) is not None

    def _key(self, asker: Asker) -> str | None:
        """The asker's key, where browsers are offered to them (else they are told why not)."""
        if not self.offered(asker.guest):
            asker.refuse(NOT_OFFERED)
            return None
        return asker.guest.fingerprint

    async def code(self, asker: Asker, request: AskBrowserCode) -> None:
        """A fresh code (the key's last one no longer works), with the page's address."""
        fingerprint, page = self._key(asker), self.page(asker.guest)
        if fingerprint is None or page is None:
            return
        if not self._made.allow(fingerprint):
            asker.refuse("Too many codes asked for: wait a minute, then ask again.")
            return
        for _ in range(CODE_DRAWS):
            code = new_code()
            if await self.store.browsers.add_code(code, fingerprint, asker.visitor.name):
                asker.answer(BrowserCode(shown_code(code), f"{page}/?code={code}", CODE_LIFE))
                return
        asker.refuse("Sorry: no code could be made just now; try again in a moment.")

    async def browsers(self, asker: Asker, request: AskBrowsers) -> None:
        fingerprint = self._key(asker)
        if fingerprint is not None:
            asker.answer(await self._listed(fingerprint))

    async def revoke(self, asker: Asker, request: RevokeBrowser) -> None:
        """The browser is signed out on every server (its tabs closed there); the browsers left."""
        fingerprint = self._key(asker)
        if fingerprint is not None:
            await self.store.browsers.revoke(request.id, fingerprint)
            asker.answer(await self._listed(fingerprint))

    async def _listed(self, fingerprint: str) -> Browsers:
        signed_in = await self.store.browsers.of_key(fingerprint)
        return Browsers(tuple(SignedInBrowser(each.id, each.linked_at, each.last_seen, each.address[:64],
                                              each.agent[:60]) for each in signed_in))
