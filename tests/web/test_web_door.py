"""The web door over real websockets: a browser guest in the same lobby as SSH players."""

from __future__ import annotations

from .helpers import WebTerminal, web_server


async def test_a_browser_guest_reaches_the_lobby_under_the_name_typed(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        ann = await WebTerminal.open(server.web.port, name="ann")
        try:
            await ann.wait_for_text("Welcome, ann")
        finally:
            await ann.close()
