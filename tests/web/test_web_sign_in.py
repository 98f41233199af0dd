"""A keyed SSH player signs a browser in as themselves: a one-time code shown in the SSH lobby, typed on the web
door's page; the browser then plays rated under the key's name, with the key's settings, and comes back signed in
by its cookie, until it signs out or the SSH lobby signs it out.

A real server on 127.0.0.1 with its web door, real asyncssh clients, aiohttp for the page and its websockets, every
terminal read by pyte.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time

import asyncssh

from soluna_tui.server.storage.sign_ins import CODE_LIFE, WRONG_PER_CODE
from soluna_tui.server.web.door import NOT_SIGNED_IN
from soluna_tui.server.web.sign_in import BUSY, SERVER_BURST, SIGNED_OUT, SLOW_DOWN, WRONG, WRONG_DELAY

from ..server.helpers import SshTerminal, TIMEOUT, play_a_move, running_server, wait_until
from ..server.test_coming_back_e2e import last_line
from ..server.test_lobby_e2e import CREATE_KEYS, JOIN_KEYS, short_match_settings
from .helpers import WebTerminal, web_server
from .sign_in_helpers import Browser, code_shown, keyed_player

ANN, BOB = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
#: The web door behind a reverse proxy on this machine: a browser may say it comes from another address.
PROXIED = (ipaddress.ip_network("127.0.0.1/32"),)


def whole(terminal: SshTerminal, *lines: str) -> None:
    """Each of ``lines`` on one line of the screen, whole."""
    for line in lines:
        assert any(line in shown for shown in terminal.screen.display), (line, terminal.shown)


async def test_a_browser_signed_in_with_a_code_plays_a_rated_match_under_the_keys_name_with_its_settings(
        tmp_path) -> None:
    async with web_server(tmp_path, proxy_from=PROXIED, hold_time=120) as server:
        assert server.web is not None
        ann = await keyed_player(server.port, "ann", ANN)
        bob = await keyed_player(server.port, "bob", BOB)
        browser = Browser(server.web.port, address="10.0.0.7")  # another address than bob's: a rated match
        tab = None
        try:
            await short_match_settings(ann)  # one star, four discs: kept with ann's key
            code = await code_shown(ann)
            await ann.wait_for_text("None yet.", "n New code")
            whole(ann, f"Your code: {code}  (works once, ", f"Open http://127.0.0.1:{server.web.port}/?code="
                  f"{code.replace('-', '')}", "or type the code on that page where it asks for a name.",
                  "Browsers signed in as you:", "None yet.", "n New code")
            status, _ = await browser.sign_in(code.lower().replace("-", " "))  # as typed, in any case and spacing
            assert status == 303 and browser.cookie is not None
            assert "Signed in as ann" in await browser.page()
            tab = await browser.tab()
            await tab.wait_for_text("Welcome, ann", "You play rated, as ann", "Stars to win    ◂ 1 ▸",
                                    "Discs           ◂ 4 ▸")
            assert "Play in a browser" not in tab.text  # a browser signed in makes no codes for more browsers
            await ann.press("escape")
            await tab.press(*CREATE_KEYS, pause=0.05)
            text = await tab.wait_for_text("Your match code:")
            match = "".join(text.split("Your match code:")[1].split()[:4])
            await bob.press(*JOIN_KEYS, pause=0.05)
            await bob.wait_for_text("Type the four-letter code")
            await bob.press(match.lower(), "enter")
            await wait_until(lambda: server.lobby.tables[match].match is not None, what="the match beginning")
            while not server.lobby.tables[match].match.is_over:
                await play_a_move(server, match, [tab, bob])
            await tab.wait_for_text("Match over")
            (finished,) = await server.store.finished.newest()
            assert [seat.name for seat in finished.seats] == ["ann", "bob"]
            assert [change.fingerprint for change in finished.rating_changes] == [
                ANN.get_fingerprint("sha256"), BOB.get_fingerprint("sha256")]
        finally:
            for terminal in (tab, ann, bob):
                if terminal is not None:
                    await terminal.close()
            await browser.close()
