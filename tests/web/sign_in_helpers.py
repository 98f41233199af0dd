"""A keyed SSH player's code for a browser, and a browser (an aiohttp session with its cookie jar) using it."""

from __future__ import annotations

import re

import aiohttp
import asyncssh

from ..server.helpers import TIMEOUT, SshTerminal, keep_the_name
from .helpers import WebTerminal

#: What a browser says it is.
FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
#: A code as the lobby's dialog shows it.
SHOWN_CODE = re.compile(r"Your code: ([A-Z]{4}-[A-Z]{6})")


async def keyed_player(port: int, name: str, key: asyncssh.SSHKey, **options) -> SshTerminal:
    """A player over SSH with ``key``, their name kept with it, in the lobby."""
    terminal = await SshTerminal.open(port, username=name, client_keys=[key], **options)
    await keep_the_name(terminal)
    return terminal


async def code_shown(terminal: SshTerminal) -> str:
    """Play in a browser (``b``): the code the dialog shows."""
    await terminal.press("b")
    text = await terminal.wait_for(lambda screen: SHOWN_CODE.search(screen) is not None)
    found = SHOWN_CODE.search(text)
    assert found is not None
    return found.group(1)


class Browser:
    """A browser at one web door: its cookies, the pages it asks for, its tabs."""

    def __init__(self, port: int, address: str | None = None, agent: str = FIREFOX) -> None:
        """``address``: the one a trusted reverse proxy says it comes from (``X-Forwarded-For``)."""
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"
        self.headers = {"User-Agent": agent, **({"X-Forwarded-For": address} if address else {})}
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True), headers=self.headers)

    async def sign_in(self, code: str, origin: str | None = None) -> tuple[int, str]:
        """The code typed on the page and Sign in pressed: the answer's status (303 when signed in) and text."""
        async with self.http.post(f"{self.origin}/sign-in", data={"code": code}, allow_redirects=False,
                                  headers={"Origin": origin or self.origin},
                                  timeout=aiohttp.ClientTimeout(total=TIMEOUT)) as response:
            return response.status, await response.text()

    async def page(self, path: str = "/") -> str:
        async with self.http.get(f"{self.origin}{path}", timeout=aiohttp.ClientTimeout(total=TIMEOUT)) as response:
            return await response.text()

    async def sign_out(self) -> tuple[int, str]:
        """Sign out pressed: the answer's status (303 when done) and the cookie it sets."""
        async with self.http.post(f"{self.origin}/sign-out", allow_redirects=False, headers={"Origin": self.origin},
                                  timeout=aiohttp.ClientTimeout(total=TIMEOUT)) as response:
            return response.status, response.headers.get("Set-Cookie", "")

    @property
    def cookie(self) -> str | None:
        found = [cookie.value for cookie in self.http.cookie_jar if cookie.key == "soluna_sign_in"]
        return found[0] if found else None

    async def tab(self, columns: int = 80, lines: int = 24) -> WebTerminal:
        """A tab of the signed-in page: its websocket at ``/ws`` with the browser's cookie."""
        cookie = self.cookie
        return await WebTerminal.open(self.port, name=None, columns=columns, lines=lines,
                                      headers={**self.headers, **({"Cookie": f"soluna_sign_in={cookie}"} if cookie
                                                                  else {})})

    async def close(self) -> None:
        await self.http.close()
