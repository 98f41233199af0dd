"""A browser signed in across two ``soluna serve`` processes on one PostgreSQL: a code shown in the SSH lobby of one
server signs a browser in at the other's web door, as the key's player; signed out from the first server's lobby,
the browser's game on the second closes at once.
"""

from __future__ import annotations

import re

import asyncssh

from soluna_tui.server.web.sign_in import SIGNED_OUT

from ..server.helpers import TIMEOUT, wait_until
from ..server.test_coming_back_e2e import last_line
from ..web.sign_in_helpers import Browser, code_shown, keyed_player
from .test_fleet import fleet, known

WEB_DOOR = re.compile(r"web door open on http://127\.0\.0\.1:(\d+)")


def web_port(log: list[str]) -> int:
    found = [WEB_DOOR.search(line) for line in log]
    return next(int(match.group(1)) for match in found if match is not None)


async def test_a_code_shown_on_one_server_signs_a_browser_in_at_the_others_web_door(tmp_path,
                                                                                     postgres_database) -> None:
    ann_key = asyncssh.generate_private_key("ssh-ed25519")
    async with fleet(tmp_path, postgres_database, "--web", "0") as (first, second, key):
        await wait_until(lambda: any(WEB_DOOR.search(line) for line in second.log), what="the web door open")
        ann = await keyed_player(first.port, "ann", ann_key, **known(key))
        browser = Browser(web_port(second.log))
        try:
            code = await code_shown(ann)
            await ann.wait_for_text(f"Open http://127.0.0.1:{web_port(first.log)}/?code=")  # its own server's door
            status, _ = await browser.sign_in(code)
            assert status == 303 and "Signed in as ann" in await browser.page()
            tab = await browser.tab()
            try:
                await tab.wait_for_text("Welcome, ann", "You play rated, as ann")
                await ann.press("escape", "b")
                await ann.wait_for_text("Firefox on Linux · 127.0.0.1 · seen just now")
                await ann.press("enter")
                await ann.wait_for_text("Sign out Firefox on Linux at 127.0.0.1?")
                await ann.press("down", "enter")
                await ann.wait_for_text("Signed out: Firefox on Linux")
                assert SIGNED_OUT in last_line(await tab.wait_closed(timeout=TIMEOUT))  # closed on the other server
            finally:
                await tab.close()
        finally:
            await browser.close()
            await ann.close()
