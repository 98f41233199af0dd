"""The web door hardened as the SSH door is: its own origin only, messages bounded and paced, garbage and silence
closed, the idle close's last line, no file but the page's, and the page's security headers."""

from __future__ import annotations

import ipaddress
import logging
import re
import time

import aiohttp
import pytest

from soluna_tui.server.admin.bans import CLOSED_LINE, REFUSED_LINE
from soluna_tui.server.web.door import GARBAGE, MESSAGE_BURST, MESSAGE_RATE, NOT_HERE

from ..server.helpers import TIMEOUT, SshTerminal, play_a_move, wait_until
from ..server.test_bans_e2e import FEW_SECONDS, ban
from ..server.test_coming_back_e2e import last_line
from ..server.test_lobby_e2e import JOIN_KEYS, create
from .helpers import WebTerminal, page_url, web_server


async def web_match(server, ann: SshTerminal, bob: WebTerminal) -> str:
    """ann (over SSH) creates a match and bob (in a browser) joins it: its code."""
    await ann.wait_for_text("Welcome, ann")
    code = await create(ann)
    await bob.wait_for_text("Welcome, bob")
    await bob.press(*JOIN_KEYS, pause=0.05)
    await bob.wait_for_text("Type the four-letter code")
    await bob.press(code.lower(), "enter")
    await wait_until(lambda: server.lobby.tables[code].match is not None, what="the match beginning")
    return code


@pytest.mark.parametrize("origin", ["http://evil.example", "null", None])
async def test_a_websocket_from_another_origin_or_none_is_refused(tmp_path, origin: str | None) -> None:
    async with web_server(tmp_path) as server, aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(page_url(server, "/ws/mallory"), origin=origin)
        assert refused.value.status == 403
        assert server.sessions == [] and server.gate.connections == 0


async def test_a_dns_rebinding_page_is_refused_whatever_its_host_header_says(tmp_path) -> None:
    """A page at an attacker's name, made to resolve to this server: its Host and its Origin agree, and are not
    this server's, so it gets no websocket, no page and no sign-in."""
    async with web_server(tmp_path) as server, aiohttp.ClientSession() as http:
        assert server.web is not None
        rebound = f"rebind.attacker.example:{server.web.port}"
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(page_url(server, "/ws/mallory"), origin=f"http://{rebound}",
                                  headers={"Host": rebound})
        assert refused.value.status == 403
        async with http.get(page_url(server, "/?name=mallory"), headers={"Host": rebound}) as answer:
            assert answer.status == 421 and await answer.text() == NOT_HERE
            assert "Content-Security-Policy" in answer.headers
        async with http.post(page_url(server, "/sign-in"), data={"code": "ABCD-EFGHJK"},
                             headers={"Host": rebound, "Origin": f"http://{rebound}"}) as answer:
            assert answer.status == 421
        assert server.sessions == []


async def test_the_page_plays_at_localhost_and_at_the_names_its_owner_gives(tmp_path) -> None:
    async with web_server(tmp_path, host_names=("soluna.test",)) as server, aiohttp.ClientSession() as http:
        assert server.web is not None
        port = server.web.port
        for host in (f"soluna.test:{port}", f"localhost:{port}", f"127.0.0.1:{port}"):
            async with http.get(page_url(server, "/?name=ann"), headers={"Host": host}) as answer:
                assert answer.status == 200
                assert f'data-session-websocket-url="ws://{host}/ws/ann"' in await answer.text()
        ann = await WebTerminal.open(port, name="ann", origin=f"http://soluna.test:{port}",
                                     headers={"Host": f"soluna.test:{port}"})
        try:
            await ann.wait_for_text("Welcome, ann")
        finally:
            await ann.close()


async def test_the_public_url_is_the_only_origin_and_the_page_names_its_websocket(tmp_path) -> None:
    async with web_server(tmp_path, public_url="https://soluna.example.org") as server, \
            aiohttp.ClientSession() as http:
        async with http.get(page_url(server, "/?name=ann")) as response:
            page = await response.text()
        assert 'data-session-websocket-url="wss://soluna.example.org/ws/ann"' in page
        assert "connect-src 'self' wss://soluna.example.org" in response.headers["Content-Security-Policy"]
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await http.ws_connect(page_url(server, "/ws/ann"), origin=page_url(server, "").rstrip("/"))
        assert server.web is not None
        ann = await WebTerminal.open(server.web.port, name="ann", origin="https://soluna.example.org")
        try:
            await ann.wait_for_text("Welcome, ann")
        finally:
            await ann.close()


async def test_the_page_loads_only_this_server_s_files_under_a_strict_policy_and_shows_only_the_title(
        tmp_path) -> None:
    async with web_server(tmp_path) as server, aiohttp.ClientSession() as http:
        own = page_url(server, "").rstrip("/")
        async with http.get(page_url(server, "/")) as response:
            assert response.status == 200
            assert '<input id="name" name="name"' in await response.text()
        async with http.get(page_url(server, "/?name=ann")) as response:
            page = await response.text()
            headers = response.headers
        policy = headers["Content-Security-Policy"]
        assert "script-src 'self';" in policy and "default-src 'none'" in policy
        assert "frame-ancestors 'none'" in policy and headers["X-Frame-Options"] == "DENY"
        assert headers["X-Content-Type-Options"] == "nosniff"
        # No address sent to another site; this one's own forms keep their Origin (``no-referrer`` makes it "null").
        assert headers["Referrer-Policy"] == "same-origin"
        assert '<div class="splash">Soluna</div>' in page
        for leak in ("python", "soluna_tui", "serve", str(tmp_path), "textual-serve"):
            assert leak not in page.lower()
        assert "<script>" not in page and "onclick" not in page.lower()  # no inline script: the policy allows none
        loaded = re.findall(r'(?:src|href)="([^"]+)"', page)
        assert sorted(loaded) == ["/", "/static/soluna.css", "/static/soluna.js", "/static/textual.js",
                                  "/static/xterm.css", "data:,"]  # data:, the page's (empty) icon: none asked for
        for path in ("/static/soluna.css", "/static/xterm.css", "/static/textual.js", "/static/soluna.js",
                     "/static/RobotoMono.ttf", "/static/SolunaSymbols.ttf", "/static/SolunaSymbols-LICENSE.txt"):
            async with http.get(page_url(server, path)) as response:
                assert response.status == 200, path
                assert response.headers["X-Content-Type-Options"] == "nosniff"
                body = await response.read()
            if path.endswith(".css"):  # what a stylesheet loads: only the fonts beside it (its comments name sites)
                assert b"@import" not in body
                assert re.findall(rb"url\(([^)]*)\)", body) in (
                    [], [b'"/static/RobotoMono.ttf"', b'"/static/SolunaSymbols.ttf"']), path
            else:
                assert re.findall(rb"https?://[^\s\"')]+", body) == [], path  # nothing from another site
        websocket = re.search(r'data-session-websocket-url="([^"]+)"', page).group(1)
        assert websocket == own.replace("http", "ws", 1) + "/ws/ann"
        assert re.findall(r"https?://", page) == []
        for path in ("/static/app_index.html", "/static/..%2F..%2Fpyproject.toml", "/static/", "/download/1",
                     "/pyproject.toml", "/static/js/textual.js"):
            async with http.get(page_url(server, path)) as response:
                assert response.status == 404, path
                assert "Content-Security-Policy" in response.headers
        async with http.get(page_url(server, "/ws")) as response:  # a signed-in tab's websocket: from the page only
            assert response.status == 403 and "Content-Security-Policy" in response.headers


async def test_a_tab_that_sends_garbage_is_closed_with_one_line(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        mallory = await WebTerminal.open(server.web.port, name="mallory")
        try:
            await mallory.wait_for_text("Welcome, mallory")
            mallory.send_raw('["stdin", 1, 2, {"x": []}]')
            assert GARBAGE in last_line(await mallory.wait_closed())
            await wait_until(lambda: server.gate.sessions == 0 and server.gate.connections == 0,
                             what="the place given back")
        finally:
            await mallory.close()


async def test_a_message_nested_sixty_thousand_deep_closes_its_tab_with_one_line_and_no_traceback(
        tmp_path, caplog) -> None:
    caplog.set_level(logging.INFO)
    async with web_server(tmp_path) as server:
        assert server.web is not None
        mallory = await WebTerminal.open(server.web.port, name="mallory")
        ann = await WebTerminal.open(server.web.port, name="ann")
        try:
            await mallory.wait_for_text("Welcome, mallory")
            await ann.wait_for_text("Welcome, ann")
            mallory.send_raw("[" * 60_000)
            assert GARBAGE in last_line(await mallory.wait_closed())
            await wait_until(lambda: server.gate.sessions == 1 and server.gate.connections == 1,
                             what="mallory's place given back")
            await ann.press("tab")  # the other tab plays on
            assert not ann.closed
        finally:
            await mallory.close()
            await ann.close()
    assert not [record for record in caplog.records if record.exc_info or "Traceback" in record.getMessage()]
    about = [record.getMessage() for record in caplog.records if "nested deeper" in record.getMessage()]
    assert len(about) == 1, about


async def test_a_first_message_the_page_never_sends_closes_its_tab_with_the_one_line(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        mallory = await WebTerminal.open(server.web.port, name="mallory", size_first=False)
        try:
            mallory.send_raw("[" * 60_000)
            assert GARBAGE in (await mallory.wait_closed()).decode()
            await wait_until(lambda: server.gate.connections == 0, what="the place given back")
        finally:
            await mallory.close()


async def test_a_tab_that_never_says_its_size_is_closed_within_the_login_timeout(tmp_path) -> None:
    async with web_server(tmp_path, login_timeout=2) as server:
        assert server.web is not None
        quiet = await WebTerminal.open(server.web.port, name="quiet", size_first=False)
        try:
            started = time.monotonic()
            output = await quiet.wait_closed()
            assert "did not start a game within 2 seconds" in output.decode()
            assert time.monotonic() - started < 2 + 5.0  # its 2 s, and 5 s for a loaded machine to act on it
            assert server.gate.connections == 0 and server.sessions == []
        finally:
            await quiet.close()


async def test_the_idle_close_s_last_line_on_the_page_names_the_code_and_the_secret(tmp_path) -> None:
    async with web_server(tmp_path, hold_time=120, idle_timeout=8, idle_warning=4) as server:
        assert server.web is not None
        ann = await SshTerminal.open(server.port, username="ann")
        bob = await WebTerminal.open(server.web.port, name="bob")
        try:
            code = await web_match(server, ann, bob)
            line = last_line(await bob.wait_closed(timeout=30))  # bob presses nothing more
            assert "Closed after 8 seconds without a key press." in line
            found = re.search(r"join ([A-Z]{4}) with your secret ([A-Z]{6})", line)
            assert found is not None and found.group(1) == code, line
            assert f"join {code} with your secret {found.group(2)}" in " ".join(bob.text.split())  # on the screen
        finally:
            await ann.close()
            await bob.close()


async def test_a_flood_of_messages_is_read_at_its_pace_while_the_players_moves_arrive_as_usual(tmp_path) -> None:
    async with web_server(tmp_path, hold_time=120) as server:
        assert server.web is not None
        ann = await SshTerminal.open(server.port, username="ann")
        bob = await WebTerminal.open(server.web.port, name="bob")
        eve = await WebTerminal.open(server.web.port, name="eve")
        try:
            code = await web_match(server, ann, bob)
            await eve.wait_for_text("Welcome, eve")
            pings = 4 * MESSAGE_BURST
            flood_began = time.monotonic()
            for number in range(pings):
                eve.message("ping", str(number))
            slowest = 0.0
            for _ in range(4):
                began = time.monotonic()
                await play_a_move(server, code, [ann, bob])
                slowest = max(slowest, time.monotonic() - began)
            answered, elapsed = len(eve.texts), time.monotonic() - flood_began
            assert answered <= MESSAGE_BURST + MESSAGE_RATE * elapsed + 5, (answered, elapsed)
            assert slowest < 2.0, slowest  # a move takes well under a second unflooded
            await wait_until(lambda: len(eve.texts) == pings, timeout=pings / MESSAGE_RATE + TIMEOUT,
                             what="every ping answered, at the pace")
            assert eve.texts[-1] == f'["pong", "{pings - 1}"]' and not eve.closed  # held back, not cut off
        finally:
            for terminal in (ann, bob, eve):
                await terminal.close()


@pytest.mark.parametrize("trusted", [True, False])
async def test_the_forwarded_address_is_believed_only_from_a_configured_proxy(tmp_path, trusted: bool) -> None:
    proxies = (ipaddress.ip_network("127.0.0.1/32"),) if trusted else ()
    async with web_server(tmp_path, proxy_from=proxies) as server:
        assert server.web is not None
        ann = await WebTerminal.open(server.web.port, name="ann", headers={"X-Forwarded-For": "10.9.9.9, 203.0.113.7"})
        try:
            await ann.wait_for_text("Welcome, ann")
            assert [session.address for session in server.sessions] == ["203.0.113.7" if trusted else "127.0.0.1"]
        finally:
            await ann.close()


async def test_a_ban_closes_a_playing_tab_with_its_one_line_and_keeps_the_address_out(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        dan = await WebTerminal.open(server.web.port, name="dan")
        try:
            await dan.wait_for_text("Welcome, dan")
            ban(tmp_path, "add", "127.0.0.0/8")
            assert CLOSED_LINE in last_line(await dan.wait_closed(timeout=FEW_SECONDS + TIMEOUT))
        finally:
            await dan.close()
        again = await WebTerminal.open(server.web.port, name="dan")
        try:
            assert REFUSED_LINE in (await again.wait_closed()).decode()
            assert server.sessions == [] and server.gate.connections == 0
        finally:
            await again.close()


async def test_the_per_address_limit_counts_tabs_and_ssh_connections_together(tmp_path) -> None:
    async with web_server(tmp_path, per_ip=1) as server:
        assert server.web is not None
        ann = await SshTerminal.open(server.port, username="ann")
        try:
            await ann.wait_for_text("Welcome, ann")
            bob = await WebTerminal.open(server.web.port, name="bob")
            try:
                line = (await bob.wait_closed()).decode()
                assert "Slow down: at most 1 connections at once from one address." in line
            finally:
                await bob.close()
            assert [session.name for session in server.sessions] == ["ann"]
        finally:
            await ann.close()


async def test_a_tab_that_has_not_started_a_game_makes_room_for_an_ssh_player_as_an_ssh_connection_would(
        tmp_path) -> None:
    async with web_server(tmp_path, unstarted=1) as server:
        assert server.web is not None
        quiet = await WebTerminal.open(server.web.port, name="quiet", size_first=False)
        ann = None
        try:
            await wait_until(lambda: server.gate.unstarted == 1, what="the tab holding the unstarted place")
            ann = await SshTerminal.open(server.port, username="ann")
            await ann.wait_for_text("Welcome, ann")
            await quiet.wait_closed(timeout=7.5)  # well before the login timeout (20 s): closed to make room
            assert [session.name for session in server.sessions] == ["ann"]
        finally:
            await quiet.close()
            if ann is not None:
                await ann.close()
