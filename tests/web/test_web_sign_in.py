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

import aiohttp
import asyncssh

from soluna_tui.server.admin.bans import CLOSED_LINE, REFUSED_LINE
from soluna_tui.server.storage.sign_ins import CODE_LIFE, WRONG_PER_CODE
from soluna_tui.server.web.door import NOT_SIGNED_IN
from soluna_tui.server.web.sign_in import (
    BUSY,
    CHECKS_PER_WINDOW,
    PER_ADDRESS_MINUTE,
    SERVER_BURST,
    SIGNED_OUT,
    SLOW_DOWN,
    TOO_MANY_CHECKS,
    WRONG,
    WRONG_DELAY,
)

from ..server.helpers import TIMEOUT, SshTerminal, play_a_move, running_server, wait_until
from ..server.test_bans_e2e import FEW_SECONDS, ban
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


async def test_a_code_signs_in_once_and_not_after_it_runs_out(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        ann = await keyed_player(server.port, "ann", ANN)
        first, second, late = (Browser(server.web.port) for _ in range(3))
        try:
            code = await code_shown(ann)
            assert (await first.sign_in(code))[0] == 303
            began = time.monotonic()
            status, page = await second.sign_in(code)
            assert status == 403 and WRONG.replace('"', "&quot;") in page and second.cookie is None
            assert time.monotonic() - began >= WRONG_DELAY  # a used code is a wrong one: answered slowly
            await ann.press("n")  # a new code; it runs out
            code = await ann.wait_for(lambda screen: code not in screen and "Your code: " in screen)
            fresh = code.split("Your code: ")[1].split()[0]
            clock = server.store.clock
            server.store.clock = lambda: clock() + CODE_LIFE + 1
            try:
                assert (await late.sign_in(fresh))[0] == 403 and late.cookie is None
            finally:
                server.store.clock = clock
            assert (await late.sign_in(fresh))[0] == 403  # a code refused for its age is gone: not back in time
        finally:
            for browser in (first, second, late):
                await browser.close()
            await ann.close()


async def test_wrong_codes_are_answered_slowly_and_limited_per_address_per_code_and_key_and_in_all(tmp_path) -> None:
    async with web_server(tmp_path, proxy_from=PROXIED) as server:
        assert server.web is not None
        ann = await keyed_player(server.port, "ann", ANN)
        try:
            code = await code_shown(ann)
            # One address: five wrong tries (each answered slowly), then a wait however the code is typed.
            guesser = Browser(server.web.port, address="198.51.100.1")
            began = time.monotonic()
            answers = await asyncio.gather(*(guesser.sign_in(f"ZZZZ-ZZZZ{letter}Z") for letter in "ABCDE"))
            assert all(status == 403 and "That code is not right" in page for status, page in answers)
            assert time.monotonic() - began >= WRONG_DELAY
            status, page = await guesser.sign_in(code)
            assert status == 403 and "Too many codes tried from your address" in page
            answers = [await guesser.sign_in(code) for _ in range(PER_ADDRESS_MINUTE - 6 + 1)]
            assert SLOW_DOWN in answers[-1][1]  # and past a few a minute, before the store
            await guesser.close()
            # Many addresses at ann's code (its first letters known): spent after a few wrong tries, and ann's key
            # waits before the next, whichever address tries it.
            crowd = [Browser(server.web.port, address=f"198.51.100.{number}")
                     for number in range(2, 2 + WRONG_PER_CODE)]
            wrong = code[:-1] + ("A" if code[-1] != "A" else "B")
            await asyncio.gather(*(browser.sign_in(wrong) for browser in crowd))
            assert (await crowd[0].sign_in(code))[0] == 403 and crowd[0].cookie is None  # spent
            await ann.press("n")
            text = await ann.wait_for(lambda screen: code not in screen and "Your code: " in screen)
            fresh = text.split("Your code: ")[1].split()[0]
            status, page = await crowd[1].sign_in(fresh)
            assert status == 403 and "Too many codes tried for that player" in page
            for browser in crowd:
                await browser.close()
            # A crowd of addresses at once: past a burst, this server takes no more for a while (before the store).
            flood = [Browser(server.web.port, address=f"203.0.113.{number}") for number in range(1, SERVER_BURST + 12)]
            answers = await asyncio.gather(*(browser.sign_in("ABCD-EFGHJK") for browser in flood))
            assert sum(BUSY in page for _, page in answers) >= 5
            for browser in flood:
                await browser.close()
        finally:
            await ann.close()


async def test_the_cookie_brings_the_browser_back_signed_in_until_it_signs_out(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        ann = await keyed_player(server.port, "ann", ANN)
        browser = Browser(server.web.port)
        try:
            assert (await browser.sign_in(await code_shown(ann)))[0] == 303
            cookie = browser.cookie
            assert cookie is not None
            (kept,) = await server.store.browsers.of_key(ANN.get_fingerprint("sha256"))
            assert cookie not in repr(kept)  # kept hashed
            back = Browser(server.web.port)  # the same browser another day: its cookie only
            back.http.cookie_jar.update_cookies({"soluna_sign_in": cookie})
            assert "Signed in as ann" in await back.page()
            tab = await back.tab()
            try:
                await tab.wait_for_text("Welcome, ann", "You play rated, as ann")
                status, cookie_set = await back.sign_out()
                assert status == 303 and "soluna_sign_in=" in cookie_set and "Max-Age=0" in cookie_set  # forgotten
                assert SIGNED_OUT in last_line(await tab.wait_closed())  # and there: its open tab closed
            finally:
                await tab.close()
            assert await server.store.browsers.of_key(ANN.get_fingerprint("sha256")) == []
            page = await browser.page()  # the first browser had the same cookie: told, and forgotten
            assert "Your name" in page and "This browser was signed out." in page and browser.cookie is None
            again = await WebTerminal.open(server.web.port, name=None, headers={"Cookie": f"soluna_sign_in={cookie}"})
            try:
                assert NOT_SIGNED_IN in (await again.wait_closed()).decode()
            finally:
                await again.close()
            await back.close()
        finally:
            await browser.close()
            await ann.close()


def count_checks(server) -> list[str]:
    """Each cookie the store is asked about from now on (the store still answers)."""
    asked: list[str] = []
    browsers = server.store.browsers
    original = browsers.signed_in

    async def signed_in(token_hash: str):
        asked.append(token_hash)
        return await original(token_hash)

    browsers.signed_in = signed_in
    return asked


async def test_a_cookie_s_verdict_is_remembered_and_a_sign_out_forgets_it_at_once(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        ann = await keyed_player(server.port, "ann", ANN)
        browser = Browser(server.web.port)
        try:
            assert (await browser.sign_in(await code_shown(ann)))[0] == 303
            asked = count_checks(server)
            for _ in range(5):
                assert "Signed in as ann" in await browser.page()
            tab = await browser.tab()
            try:
                await tab.wait_for_text("Welcome, ann")
            finally:
                await tab.close()
            assert len(asked) == 1  # the store asked once for six checks
            cookie = browser.cookie
            assert (await browser.sign_out())[0] == 303
            again = Browser(server.web.port)  # the same cookie, at once after: not signed in any more
            again.http.cookie_jar.update_cookies({"soluna_sign_in": cookie})
            assert "This browser was signed out." in await again.page()
            await again.close()
            tab = await WebTerminal.open(server.web.port, name=None, headers={"Cookie": f"soluna_sign_in={cookie}"})
            try:
                assert NOT_SIGNED_IN in (await tab.wait_closed()).decode()
            finally:
                await tab.close()
        finally:
            await browser.close()
            await ann.close()


async def test_cookie_checks_are_limited_per_address_and_past_the_limit_cost_the_store_nothing(tmp_path) -> None:
    async with web_server(tmp_path, proxy_from=PROXIED) as server:
        assert server.web is not None
        ann = await keyed_player(server.port, "ann", ANN)
        player = Browser(server.web.port, address="198.51.100.1")
        flooder = Browser(server.web.port, address="203.0.113.66")
        try:
            assert (await player.sign_in(await code_shown(ann)))[0] == 303
            asked = count_checks(server)
            statuses = []
            for number in range(2 * CHECKS_PER_WINDOW):  # made-up cookies, a new one each time
                async with flooder.http.get(f"{flooder.origin}/", headers={"Cookie": f"soluna_sign_in=made{number}"},
                                            timeout=aiohttp.ClientTimeout(total=TIMEOUT)) as answer:
                    statuses.append((answer.status, await answer.text()))
            assert [status for status, _ in statuses] == [200] * CHECKS_PER_WINDOW + [429] * CHECKS_PER_WINDOW
            assert statuses[-1][1] == TOO_MANY_CHECKS
            assert len(asked) == CHECKS_PER_WINDOW  # nothing asked of the store past the limit
            async with flooder.http.post(f"{flooder.origin}/sign-out", allow_redirects=False,
                                         headers={"Origin": flooder.origin, "Cookie": "soluna_sign_in=made"},
                                         timeout=aiohttp.ClientTimeout(total=TIMEOUT)) as answer:
                assert answer.status == 429
            tab = await WebTerminal.open(server.web.port, name=None, headers={
                **flooder.headers, "Cookie": "soluna_sign_in=made"})
            try:
                assert TOO_MANY_CHECKS in (await tab.wait_closed()).decode()
            finally:
                await tab.close()
            assert "Your name" in await flooder.page()  # without a cookie there is nothing to check: the page
            assert "Signed in as ann" in await player.page()  # another address is checked as ever
            assert len(asked) == CHECKS_PER_WINDOW + 1
        finally:
            await player.close()
            await flooder.close()
            await ann.close()


async def test_the_ssh_lobby_lists_its_browsers_and_signs_one_out_closing_its_game(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        ann = await keyed_player(server.port, "ann", ANN)
        browser = Browser(server.web.port)
        try:
            assert (await browser.sign_in(await code_shown(ann)))[0] == 303
            tab = await browser.tab()
            try:
                await tab.wait_for_text("Welcome, ann")
                await ann.press("escape", "b")
                await ann.wait_for_text("Firefox on Linux · 127.0.0.1 · seen just now · linked")
                whole(ann, "Firefox on Linux · 127.0.0.1 · seen just now · linked")
                await ann.press("enter")
                await ann.wait_for_text("Sign out Firefox on Linux at 127.0.0.1?")
                await ann.press("down", "enter")
                await ann.wait_for_text("Signed out: Firefox on Linux at 127.0.0.1", "None yet.")
                assert SIGNED_OUT in last_line(await tab.wait_closed())
            finally:
                await tab.close()
            assert "Your name" in await browser.page()
        finally:
            await browser.close()
            await ann.close()


async def test_only_the_cookie_says_who_a_tab_is_and_only_the_pages_own_origin_signs_in(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        for headers in (None, {"Cookie": "soluna_sign_in=forged"}):
            tab = await WebTerminal.open(server.web.port, name=None, headers=headers)
            try:
                assert NOT_SIGNED_IN in (await tab.wait_closed()).decode()
            finally:
                await tab.close()
        ann = await keyed_player(server.port, "ann", ANN)
        browser = Browser(server.web.port)
        try:
            code = await code_shown(ann)
            status, _ = await browser.sign_in(code, origin="https://elsewhere.example")
            assert status == 403 and browser.cookie is None
            assert (await browser.sign_in(code))[0] == 303  # the code was not spent by the other site's try
            first = browser.cookie
            await ann.press("n")
            text = await ann.wait_for(lambda screen: code not in screen and "Your code: " in screen)
            assert (await browser.sign_in(text.split("Your code: ")[1].split()[0]))[0] == 303
            assert browser.cookie != first  # signed in again: the sign-in before is gone, not left listed
            assert len(await server.store.browsers.of_key(ANN.get_fingerprint("sha256"))) == 1
        finally:
            await browser.close()
            await ann.close()


async def test_play_in_a_browser_is_offered_to_keyed_ssh_players_where_there_is_a_web_door(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        guest = await SshTerminal.open(server.port, username="kim")
        try:
            await guest.wait_for_text("Welcome, kim")
            assert "Play in a browser" not in guest.text
        finally:
            await guest.close()
    async with running_server(tmp_path / "no-door") as server:
        ann = await keyed_player(server.port, "ann", ANN)
        try:
            await ann.wait_for_text("Find me an opponent")
            await ann.press("b")
            assert "Play in a browser" not in ann.text
        finally:
            await ann.close()


async def test_a_ban_of_the_key_closes_its_browsers_game_and_keeps_it_out(tmp_path) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        ann = await keyed_player(server.port, "ann", ANN)
        browser = Browser(server.web.port)
        try:
            assert (await browser.sign_in(await code_shown(ann)))[0] == 303
            tab = await browser.tab()
            try:
                await tab.wait_for_text("Welcome, ann")
                ban(tmp_path, "add", ANN.get_fingerprint("sha256"))
                assert CLOSED_LINE in last_line(await tab.wait_closed(timeout=FEW_SECONDS + TIMEOUT))
            finally:
                await tab.close()
            again = await browser.tab()
            try:
                assert REFUSED_LINE in (await again.wait_closed()).decode()
            finally:
                await again.close()
        finally:
            await browser.close()
            await ann.close()
