"""A keyed SSH player signs a browser in as themselves: a one-time code shown in the SSH lobby, typed on the web
door's page; the browser then plays rated under the key's name and comes back signed in by its cookie, until it
signs out or the SSH lobby signs it out.

A real server on 127.0.0.1 with its web door, real asyncssh clients, aiohttp for the page and its websockets, every
terminal read by pyte.
"""

from __future__ import annotations

import asyncssh

from ..server.helpers import session_named, wait_until
from .helpers import web_server
from .sign_in_helpers import Browser, code_shown, keyed_player

ANN = asyncssh.generate_private_key("ssh-ed25519")


async def test_a_code_from_the_ssh_lobby_signs_a_browser_in_as_the_keys_player(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        ann = await keyed_player(server.port, "ann", ANN)
        browser = Browser(server.web.port)
        try:
            code = await code_shown(ann)
            await ann.wait_for_text(f"Open http://127.0.0.1:{server.web.port}/?code={code.replace('-', '')}")
            status, _ = await browser.sign_in(code.lower().replace("-", " "))
            assert status == 303 and browser.cookie is not None
            assert "Signed in as ann" in await browser.page()
            tab = await browser.tab()
            try:
                await tab.wait_for_text("Welcome, ann", "You play rated, as ann")
                await wait_until(lambda: len([s for s in server.sessions if s.name == "ann"]) == 2,
                                 what="ann on both doors")
                assert {s.fingerprint for s in server.sessions} == {ANN.get_fingerprint("sha256")}
            finally:
                await tab.close()
        finally:
            await browser.close()
            await ann.close()
