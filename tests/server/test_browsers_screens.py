"""Play in a browser on the child's side, at 80x24: the lobby's menu whole with it and every other entry, the dialog
with its code, link and browsers read whole, and what each key asks; the server is the test, at the other end of the
child's link."""

from __future__ import annotations

import time

from soluna_tui.link.messages import SignedInBrowser
from soluna_tui.link.protocol import Link
from soluna_tui.online.screens.browsers import BrowsersScreen, ago_words, browser_words
from soluna_tui.online.screens.lobby import LobbyScreen
from soluna_tui.screens.confirm import ConfirmScreen

from ..app.helpers import footer_keys, screen_text
from .test_child_app import FakeServer, settle, start, wait_for_screen
from .test_pairing_screens import EVERY_ENTRY, WELCOME

LINK = "https://soluna.example.org/?code=KQXMRTPLWZ"
FIREFOX = {"id": 3, "linked_at": 1_790_000_000.0, "last_seen": 0.0, "address": "203.0.113.77",
           "agent": "Firefox on Windows"}


def test_a_browser_reads_as_one_line() -> None:
    assert [ago_words(seconds) for seconds in (5, 125, 7300, 3 * 86400)] == [
        "just now", "2 min ago", "2 h ago", "3 days ago"]
    browser = SignedInBrowser(3, 1_790_000_000.0, 1_790_000_000.0 + 86400, "203.0.113.77", "Firefox on Windows")
    assert browser_words(browser, 1_790_000_000.0 + 86400 + 700) == (
        "Firefox on Windows · 203.0.113.77 · seen 11 min ago · linked 21 Sep")
    assert browser_words(browser, 0.0, ascii_mode=True).count(" - ") == 3


async def test_the_lobby_offers_play_in_a_browser_with_every_other_entry_whole_at_80x24() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({**WELCOME, "browser_link": True})
        server.send({"type": "lobby", "matches": [
            {"code": "ABCD", "players": ["ann", "bob"], "round": 1, "stars": [0, 0], "watchers": 0,
             "away": [True, False], "yours": True, "held": 200.0}],
            "computer": {"level": "5", "round": 1, "stars": [0, 0], "needs_secret": False}})
        await wait_for_screen(pilot, app, LobbyScreen, "Play in a browser")
        await settle(pilot)
        text = screen_text(app)
        menu = [line[:30] for line in text.splitlines()]  # the menu's column, not the footer's keys
        assert all(any(entry in line for line in menu) for entry in (*EVERY_ENTRY, "Play in a browser")), text
        assert "Your seat: ann vs bob" in text  # the list under them still shown


async def test_the_dialog_shows_the_code_its_link_and_the_browsers_and_signs_one_out() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({**WELCOME, "browser_link": True})
        await wait_for_screen(pilot, app, LobbyScreen, "Play in a browser")
        await pilot.press("b")
        code, listed = await server.expect("browser_code"), await server.expect("browsers")
        server.answer(code, {"type": "browser_code", "code": "KQXM-RTPLWZ", "link": LINK, "seconds": 300.0})
        server.answer(listed, {"type": "browsers", "browsers": [{**FIREFOX, "last_seen": time.time() - 130}]})
        await wait_for_screen(pilot, app, BrowsersScreen, "Firefox on Windows")
        lines = screen_text(app).splitlines()
        for line in ("Your code: KQXM-RTPLWZ  (works once, 4:5", f"Open {LINK}",
                     "Firefox on Windows · 203.0.113.77 · seen 2 min ago · linked 21 Sep"):
            assert any(line in shown for shown in lines), (line, "\n".join(lines))
        assert footer_keys(app) == {"New code": True, "Sign out browser": True, "Back": True}
        await pilot.press("enter")
        await wait_for_screen(pilot, app, ConfirmScreen, "Sign out Firefox on Windows at 203.0.113.77?")
        await pilot.press("down", "enter")
        revoke = await server.expect("revoke_browser")
        assert revoke["id"] == 3
        server.answer(revoke, {"type": "browsers", "browsers": []})
        await wait_for_screen(pilot, app, BrowsersScreen, "Signed out: Firefox on Windows at 203.0.113.77")
        assert "None yet." in screen_text(app)
        await pilot.press("n")
        again = await server.expect("browser_code")
        server.send({"type": "error", "text": "Too many codes asked for: wait a minute, then ask again.",
                     "answer_to": again["ask"]})
        await wait_for_screen(pilot, app, BrowsersScreen, "Too many codes asked for")
        await pilot.press("escape")
        await wait_for_screen(pilot, app, LobbyScreen)


async def test_play_in_a_browser_in_the_menu_leaves_tournaments_and_find_me_an_opponent_just_above_quit() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({**WELCOME, "browser_link": True})
        await wait_for_screen(pilot, app, LobbyScreen, "Play in a browser")
        await pilot.press("end", "up", "up", "up", "enter")  # over Tournaments and Find me an opponent
        await server.expect("browser_code")
        await wait_for_screen(pilot, app, BrowsersScreen)
        await pilot.press("escape")
        await wait_for_screen(pilot, app, LobbyScreen)
        await pilot.press("escape", "end", "up", "enter")  # where it always was
        await server.expect("seek")


async def test_the_dialog_says_when_its_code_was_used_and_offers_a_new_one() -> None:
    app, ours = await start()
    async with app.run_test(size=(80, 24)) as pilot:
        server = FakeServer(await Link.over(ours))
        server.send({**WELCOME, "browser_link": True})
        await wait_for_screen(pilot, app, LobbyScreen, "Play in a browser")
        await pilot.press("b")
        code, listed = await server.expect("browser_code"), await server.expect("browsers")
        server.answer(code, {"type": "browser_code", "code": "KQXM-RTPLWZ", "link": LINK, "seconds": 300.0})
        server.answer(listed, {"type": "browsers", "browsers": []})
        await wait_for_screen(pilot, app, BrowsersScreen, "Your code: KQXM-RTPLWZ  (works once")
        # While the code may be used, the dialog asks again; a browser more than before signed in with it.
        again = await server.expect("browsers")
        server.answer(again, {"type": "browsers", "browsers": [{**FIREFOX, "last_seen": time.time()}]})
        await wait_for_screen(pilot, app, BrowsersScreen, "Firefox on Windows · 203.0.113.77 · seen just now")
        said = " ".join(screen_text(app).replace("│", " ").split())
        assert "Your code KQXM-RTPLWZ was used: Firefox on Windows at 203.0.113.77 signed in. n makes a new " \
               "one." in said, said
        assert "works once" not in said
        # Tried as a new user: the spent code's link and "type the code on that page" stayed under the line saying
        # it was used; they go until a new code comes.
        assert LINK not in said and "type the code" not in said, said
        await pilot.press("n")
        fresh = await server.expect("browser_code")
        server.answer(fresh, {"type": "browser_code", "code": "ABCD-EFGHJK", "link": LINK, "seconds": 300.0})
        await wait_for_screen(pilot, app, BrowsersScreen, "Your code: ABCD-EFGHJK  (works once")
        assert LINK in " ".join(screen_text(app).replace("│", " ").split())
