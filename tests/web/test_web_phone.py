"""A whole match on a phone: headless Chromium at a phone's 390x844 with touch, a guest who sets the match up and
plays it by taps alone against an SSH player who answers by keys, then the phone turned to landscape."""

from __future__ import annotations

import re
import time

from soluna_tui.terminal.sizes import WIDE_WIDTH

from ..server.helpers import SshTerminal, play_a_move, server_places
from ..server.test_places_e2e import shows_places
from .browser import PHONE, chromium, need_browser, open_phone_tab, sign_in
from .helpers import page_url, web_server
from .phone import RESULT, SHORT_MATCH, phone_creates_a_match, ssh_player_joins, swipe, tap_a_move, words

#: The least terminal the page gives a phone (soluna.js's LEAST_COLUMNS, LEAST_ROWS).
LEAST_COLUMNS, LEAST_ROWS = 40, 20
#: What the page sends without a key: a mouse report (a tap), the terminal's focus, its answer to a mode query.
NOT_A_KEY = re.compile(r"\x1b\[(<\d+;\d+;\d+[Mm]|I|O|\?\d+;\d+\$y)")
#: The mouse's wheel turned down (SGR report: button 64 is up, 65 down), and a press of its left button.
WHEEL_DOWN, WHEEL_UP, PRESS = re.compile(r"\x1b\[<65;\d+;\d+M"), re.compile(r"\x1b\[<64;\d+;\d+M"), "\x1b[<0;"
#: The help's first heading.
HELP_TOP = "THE RULES IN BRIEF"
#: Moves in a match of one round of four discs: at most three.
MOST_MOVES = 3


async def test_a_phone_guest_plays_a_whole_match_by_taps_against_an_ssh_player_and_turns_to_landscape(
        tmp_path) -> None:
    need_browser()
    async with web_server(tmp_path, hold_time=120) as server, chromium() as chrome:
        phone = await open_phone_tab(chrome, page_url(server))
        ann = await SshTerminal.open(server.port, username="ann")
        try:
            await sign_in(phone, "bob")
            await phone.wait_for_text("Welcome, bob")
            await phone.wait_for_text("2 online")  # ann is in: the match bob creates is hers to join
            columns, lines = phone.sizes[-1]
            assert LEAST_COLUMNS <= columns < WIDE_WIDTH and lines >= LEAST_ROWS, phone.sizes

            code = await phone_creates_a_match(phone, SHORT_MATCH)  # bob creates it, so bob opens
            await ssh_player_joins(server, ann, code)
            table = server.lobby.tables[code]
            assert [seat.name for seat in table.seats] == ["bob", "ann"]
            players = [phone, ann]

            started, moves, tapped = time.monotonic(), 0, 0
            while not server.lobby.tables[code].match.is_over:
                assert moves < MOST_MOVES, "a round of four discs lasts three moves at most"
                match = server.lobby.tables[code].match
                if match.to_move == 0:
                    await tap_a_move(server, code, phone)
                    tapped += 1
                else:
                    await play_a_move(server, code, players)
                moves += 1
                match = server.lobby.tables[code].match
                if not match.is_over:  # the match-over dialog covers the board
                    for terminal in players:
                        await shows_places(terminal, server_places(match.round.table))
            assert tapped >= 1 and not [typed for typed in phone.typed if not NOT_A_KEY.fullmatch(typed)], phone.typed

            match = server.lobby.tables[code].match
            told = f"{('bob', 'ann')[match.winner]} wins the match 1-0"
            for terminal in players:
                await terminal.wait_for(lambda text: "Match over" in text and told in words(text))
            assert {RESULT.search(words(terminal.text)).group(0) for terminal in players} == {told}
            took = time.monotonic() - started

            # Turned to landscape: a terminal of the new size, the match over still shown, the board behind it.
            asked = len(phone.sizes)
            await phone.page.set_viewport_size({"width": PHONE[1], "height": PHONE[0]})
            await phone.wait_for(lambda text: len(phone.sizes) > asked and told in words(text))
            landscape = phone.sizes[-1]
            assert landscape[0] > columns and landscape[1] >= LEAST_ROWS, phone.sizes
            assert (phone.screen.columns, phone.screen.lines) == landscape
            await phone.wait_for_text("Match over")
            await phone.page.locator('.keys button[data-key="escape"]').tap()  # closed from the row of keys
            await shows_places(phone, server_places(server.lobby.tables[code].match.round.table))
            assert server.lobby.tables[code].seated.keys() == {0, 1}  # bob is still at his seat
            assert phone.errors == []
            print(f"phone {columns}x{lines}, landscape {landscape[0]}x{landscape[1]}; "
                  f"{moves} moves ({tapped} by taps) in {took:.1f} s")
        finally:
            await ann.close()


async def test_a_finger_dragged_up_or_down_the_phone_scrolls_the_help_as_the_wheel_does(tmp_path) -> None:
    need_browser()
    async with web_server(tmp_path) as server, chromium() as chrome:
        phone = await open_phone_tab(chrome, page_url(server))
        await sign_in(phone, "bob")
        await phone.wait_for_text("Welcome, bob")
        await phone.page.locator('.keys button[data-key="?"]').tap()
        await phone.wait_for_text(HELP_TOP)
        phone.typed.clear()
        # Up the screen from its middle line: the help scrolls on, as under a wheel turned (two lines a step).
        await swipe(phone, phone.screen.columns // 2, 12)
        await phone.wait_for(lambda text: HELP_TOP not in text)
        assert [typed for typed in phone.typed if WHEEL_DOWN.fullmatch(typed)] and not [
            typed for typed in phone.typed if typed.startswith(PRESS) or WHEEL_UP.fullmatch(typed)], phone.typed
        await swipe(phone, phone.screen.columns // 2, -16)  # and back down, to the top (the help's end below)
        await phone.wait_for_text(HELP_TOP)
        assert [typed for typed in phone.typed if WHEEL_UP.fullmatch(typed)]
        assert phone.errors == []
