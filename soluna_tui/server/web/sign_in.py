"""Runs in the server process.

A browser signed in as a keyed player: the code typed on the page, checked slowly when wrong and limited; the
cookie that brings the browser back signed in; signing out; and the tabs signed in on this server, each closed
with one line once its sign-in is gone (revoked from the SSH lobby or signed out, on any server of the fleet, or
run out).

A code is tried only within limits, cheapest first: a few a minute from one address and a few a second on this
server (in memory, before the store is asked anything), then in the store, where every server counts the same
tries: per address, per key whose code the first letters name, and in all. A wrong code is answered after
``WRONG_DELAY`` seconds, and costs one HMAC, never a slow hash. A cookie is checked against the store when it is
shown, and the verdict (signed in as whom, or not) remembered for ``VERDICT_LIFE`` seconds: a sign-out here
forgets it at once, and so does any server's word that a sign-in went (its tabs take who they are from the
cookie alone). One address may have its cookies checked ``CHECKS_PER_WINDOW`` times in ``CHECK_WINDOW``
seconds; past that it is answered at once that it asks too often (``TooManyChecks``), with no work in the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from aiohttp import web

from ...rules.wording import minutes
from ..gate import RateWindow, TokenBucket, client_key
from ..storage import Storage
from ..storage.browsers import BROWSERS, BrowserSignIn
from ..storage.secrets import ADDRESS_GUESSES
from ..storage.sign_ins import ALL_SCOPE, ALL_TRIES, KEY_TRIES, SIGN_IN_LIFE, key_scope, new_token, token_hash

log = logging.getLogger("soluna.server")

#: The cookie a signed-in browser keeps.
COOKIE = "soluna_sign_in"
#: Seconds before a wrong code is answered.
WRONG_DELAY = 2.0
#: Codes tried a minute from one address, and a second on this server (at once: ``SERVER_BURST``), before the store.
PER_ADDRESS_MINUTE, SERVER_RATE, SERVER_BURST = 10, 2.0, 30
#: Seconds between checks that this server's signed-in tabs are still signed in (a revocation is told at once).
CHECK_EVERY = 60.0
#: Seconds a cookie's verdict is remembered (forgotten sooner when a sign-in goes), and the most remembered at once.
VERDICT_LIFE, VERDICTS_KEPT = 10.0, 10_000
#: Cookie checks one address may ask within ``CHECK_WINDOW`` seconds (a browser asks one or two a page).
CHECKS_PER_WINDOW, CHECK_WINDOW = 30, 10.0
TOO_MANY_CHECKS = "Too many requests from your address: wait a few seconds, then reload the page."
WRONG = ("That code is not right, or it has run out or been used: in the lobby over SSH, "
         "\"Play in a browser\" shows a new one.")
SLOW_DOWN = "Too many codes tried from your address: wait a minute, then try again."
BUSY = "Too many codes are being tried on this server right now: try again in a minute."
#: A signed-in tab's last line once its sign-in is gone.
SIGNED_OUT = ("Signed out: this browser's sign-in was revoked, or has run out. Reload the page to play as a guest, "
              "or sign in again with a new code.")
#: Browsers and systems named in the lobby's list of browsers, in the order they are looked for in a User-Agent.
BROWSER_NAMES = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"),
                 ("Chromium/", "Chromium"), ("Safari/", "Safari"))
SYSTEM_NAMES = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
                ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))


def agent_words(agent: str) -> str:
    """A browser as the lobby lists it: ``Firefox on Linux``, or the start of what it said it was."""
    browser = next((name for mark, name in BROWSER_NAMES if mark in agent), None)
    system = next((name for mark, name in SYSTEM_NAMES if mark in agent), None)
    if browser or system:
        return " on ".join(part for part in (browser or "a browser", system) if part)
    return re.sub(r"[^ -~]", "", agent)[:24] or "a browser"


class TooManyChecks(ValueError):
    """An address asks about its cookies faster than a browser does: answered at once, the store not asked."""


@dataclass(frozen=True)
class SignedIn:
    """A code that was right: the browser's new cookie, and who it is signed in as."""

    token: str
    sign_in: BrowserSignIn


class SignInDesk:
    """Codes checked and cookies read and written for the web door (``secure``: cookies for https only)."""

    def __init__(self, store: Storage, secure: bool, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.secure = secure
        self.clock = clock
        self._per_address = RateWindow(PER_ADDRESS_MINUTE)
        self._server = TokenBucket(SERVER_RATE, SERVER_BURST)
        self._checks = RateWindow(CHECKS_PER_WINDOW, CHECK_WINDOW, clock)
        #: Each cookie's hash and what the store said of it: until when it holds, and who (``None``: nobody).
        self._verdicts: dict[str, tuple[float, BrowserSignIn | None]] = {}

    async def redeem(self, typed: str, address: str, agent: str) -> SignedIn | str:
        """The code ``typed`` from ``address``: the browser signed in, or the one line saying why not."""
        client = client_key(address)
        if not self._per_address.allow(client):
            return SLOW_DOWN
        if not self._server.take():
            return BUSY
        holder = await self.store.browsers.holder(typed)
        limits = {f"address:{client}": ADDRESS_GUESSES, ALL_SCOPE: ALL_TRIES}
        if holder is not None:
            limits[key_scope(holder.fingerprint)] = KEY_TRIES
        tried = await self.store.secret_tries.take(limits)
        if tried.wait > 0:
            whose = {ALL_SCOPE: "by everyone just now", f"address:{client}": "from your address"}.get(
                tried.scope or "", "for that player")
            return f"Too many codes tried {whose}: try again in {minutes(max(1.0, tried.wait))}."
        token = new_token()
        sign_in = await self.store.browsers.redeem(typed, token_hash(token), address, agent_words(agent))
        if sign_in is None:
            await asyncio.sleep(WRONG_DELAY)
            return WRONG
        await self.store.secret_tries.give_back(list(tried.tries))
        log.info("a browser at %s signed in with a code as the player of key %s (sign-in %d)", address,
                 sign_in.fingerprint, sign_in.id)
        return SignedIn(token, sign_in)

    @staticmethod
    def token(request: web.Request) -> str | None:
        """The cookie the browser showed, if any."""
        token = request.cookies.get(COOKIE)
        return token if token and len(token) <= 100 else None

    async def signed_in(self, request: web.Request, address: str) -> BrowserSignIn | None:
        """Who the browser at ``address`` is signed in as, by its cookie (``None``: nobody): the verdict remembered,
        else the store's. ``TooManyChecks`` if the address asks too often."""
        token = self.token(request)
        if token is None:
            return None
        self.allow_check(address)
        hashed, now = token_hash(token), self.clock()
        remembered = self._verdicts.get(hashed)
        if remembered is not None and remembered[0] > now:
            return remembered[1]
        signed_in = await self.store.browsers.signed_in(hashed)
        self._verdicts.pop(hashed, None)
        if len(self._verdicts) >= VERDICTS_KEPT:
            del self._verdicts[next(iter(self._verdicts))]  # the oldest
        self._verdicts[hashed] = (now + VERDICT_LIFE, signed_in)
        return signed_in

    def allow_check(self, address: str) -> None:
        """``TooManyChecks`` if ``address`` has had its cookies checked too often lately (this one counts)."""
        if not self._checks.allow(client_key(address)):
            raise TooManyChecks(TOO_MANY_CHECKS)

    def forget_verdicts(self) -> None:
        """A sign-in went somewhere (revoked, signed out, run out): every cookie is asked of the store again."""
        self._verdicts.clear()

    def keep(self, response: web.StreamResponse, token: str) -> None:
        """The browser keeps its cookie (again) for the sign-in's whole life: HttpOnly, SameSite=Strict."""
        response.set_cookie(COOKIE, token, max_age=int(SIGN_IN_LIFE), path="/", httponly=True, samesite="Strict",
                            secure=self.secure)

    def forget(self, response: web.StreamResponse) -> None:
        """The browser forgets its cookie."""
        response.del_cookie(COOKIE, path="/", secure=self.secure, httponly=True, samesite="Strict")

    async def sign_out(self, request: web.Request) -> None:
        """The browser's sign-in is gone from the store (its tabs on every server closed)."""
        token = self.token(request)
        if token is not None:
            self._verdicts.pop(token_hash(token), None)  # at once, here, whatever the store says
            await self.store.browsers.sign_out(token_hash(token))


class SignedInTab(Protocol):
    """A tab as the watch sees it: the sign-in it plays under, and how it is closed once that is gone."""

    @property
    def sign_in(self) -> int | None: ...

    def signed_out(self) -> None: ...


class SignedInTabs:
    """The tabs signed in on this server (``tabs()``), checked against the store when any server says a sign-in
    went (``gone()`` is told first), and every ``CHECK_EVERY`` seconds (then also seen: their sign-ins live on
    while they play)."""

    def __init__(self, store: Storage, tabs: Callable[[], Iterable[SignedInTab]],
                 gone: Callable[[], None] = lambda: None) -> None:
        self.store = store
        self.tabs = tabs
        self.gone = gone
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="soluna-web-sign-ins")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _watch(self) -> None:
        with self.store.subscribe() as changes:
            while True:
                try:
                    change = await asyncio.wait_for(anext(changes), CHECK_EVERY)
                except TimeoutError:
                    change = None
                except StopAsyncIteration:
                    return
                if change is not None and change.code in (BROWSERS, None):
                    self.gone()
                if change is None or change.code in (BROWSERS, None):
                    try:
                        await self.check()
                    except Exception:  # noqa: BLE001 - a store down now is checked again later
                        log.warning("cannot check the browsers signed in", exc_info=True)

    async def check(self) -> None:
        """Each tab whose sign-in is gone is closed with one line."""
        tabs = [tab for tab in self.tabs() if tab.sign_in is not None]
        living = await self.store.browsers.seen({tab.sign_in for tab in tabs if tab.sign_in is not None})
        for tab in tabs:
            if tab.sign_in not in living:
                tab.signed_out()
