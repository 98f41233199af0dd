"""A guest on a phone's page plays by taps: the lobby's settings and menu tapped, each tower found on the screen by
its key and tapped to pick it up and to put it down (``test_web_phone.py``, ``docs/make_web_screenshot.py``)."""

from __future__ import annotations

import asyncio
import re

from soluna_tui.online.screens.lobby import QUICK
from soluna_tui.rules import Move
from soluna_tui.rules.position import MAX_DISCS
from soluna_tui.server.ssh.ssh_server import SolunaServer

from ..server.helpers import SshTerminal, move_keys, server_places, wait_until
from ..server.test_lobby_e2e import JOIN_KEYS
from ..server.test_places_e2e import shows_places
from .browser import BrowserTerminal, Cell

#: A tower's top border with its key (``╭───1───╮``; the cursor's ``┍━━1━━┑``, a lit one's ``╭──▸1◂──╮``, the
#: one in hand ``╔══1══╗``), at any size.
TOWER_TOP = re.compile(r"[╭┍┏╔][─━═]*▸?(\w)◂?[─━═]*[╮┑┓╗]")
#: The match's code as the lobby shows its creator.
MATCH_CODE = re.compile(r"Your match code:\s+((?:[A-Z] ){3}[A-Z])")
#: How a finished match is told on every screen: the winner and the score.
RESULT = re.compile(r"(\w+) wins the match (\d+-\d+)")
#: Taps on a setting before the test gives up on it: each tap takes it to its next value, round and round (the
#: discs, 2 to 24, have the most values).
MOST_TAPS = MAX_DISCS
#: A frame of a 60 Hz screen, in seconds: a dragged finger's moves come this far apart.
FRAME = 1 / 60
#: The shortest match: one star wins, four discs (one round of three moves at most).
SHORT_MATCH = (("Stars to win", "1"), ("Discs", "4"))


def words(text: str) -> str:
    """The screen's words, one space apart: a line the narrow screen wraps reads whole."""
    return " ".join(text.split())


def line_with(lines: list[str], text: str) -> Cell:
    """The first cell of ``text`` on the screen (its column and line, counted from 0)."""
    for row, line in enumerate(lines):
        column = line.find(text)
        if column >= 0:
            return column, row
    raise AssertionError(f"{text!r} is not on the screen:\n" + "\n".join(lines))


def tower_cell(lines: list[str], key: str) -> Cell:
    """A cell inside the tower whose key is ``key``: just under the key on its top border."""
    found = [(match.start(1), row + 1) for row, line in enumerate(lines) for match in TOWER_TOP.finditer(line)
             if match.group(1) == key]
    assert len(found) == 1, f"the tower {key!r} is on the screen {len(found)} times:\n" + "\n".join(lines)
    return found[0]


async def tap(phone: BrowserTerminal, cell: Cell) -> None:
    """A tap on ``cell`` of the screen as read, once the page's terminal is the size the game was told (a tap
    lands on the cell the game drew there)."""
    async def same_size() -> bool:
        drawn = await phone.page.evaluate("[textualTerminal.terminal.cols, textualTerminal.terminal.rows]")
        return tuple(drawn) == (phone.screen.columns, phone.screen.lines)

    await wait_until(same_size, what="the page's terminal the size the game was told")
    await phone.tap(*cell)


async def swipe(phone: BrowserTerminal, column: int, lines: int) -> None:
    """A finger put on ``column`` of the screen's middle line and dragged ``lines`` lines up (down if negative), half
    a line a frame (a screen's 60 a second, as a finger's moves come), then lifted (Chromium's own touch events:
    Playwright has taps but no drags)."""
    left, top, width, height = await phone.cell_box()
    x, y = left + (column + 0.5) * width, top + (phone.screen.lines // 2 + 0.5) * height
    moves = max(1, abs(lines) * 2)  # half a line a move
    session = await phone.page.context.new_cdp_session(phone.page)
    try:
        await session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for move in range(1, moves + 1):
            point = {"x": x, "y": y - lines * height * move / moves}
            await session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
            await asyncio.sleep(FRAME)
        await session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        await session.detach()


async def tap_setting(phone: BrowserTerminal, label: str, value: str) -> None:
    """Tap the lobby's setting ``label`` until it shows ``value`` (a tap moves it to its next value)."""
    pattern = re.compile(re.escape(label) + r"\s+◂ (.+?) ▸")

    def shown(text: str) -> str | None:
        found = pattern.search(text)
        return found.group(1) if found else None

    for _ in range(MOST_TAPS):
        now = shown(await phone.wait_for(lambda text: shown(text) is not None))
        if now == value:
            return
        await tap(phone, line_with(phone.display, label))
        await phone.wait_for(lambda text, was=now: shown(text) not in (None, was))
    raise AssertionError(f"{label!r} never showed {value!r} in {MOST_TAPS} taps")


async def phone_creates_a_match(phone: BrowserTerminal, settings: tuple[tuple[str, str], ...] = ()) -> str:
    """From the lobby, by taps alone: each of ``settings`` (a label and its value) tapped to its value, and "Create
    a match": the match's code."""
    # Once the server has said what it offers: the menu and the settings gain a line each (finding an opponent,
    # challenges), and what was tapped before moved down.
    await phone.wait_for_text(QUICK[1], "Challenges")
    for label, value in settings:
        await tap_setting(phone, label, value)
    await tap(phone, line_with(phone.display, "Create a match"))
    text = await phone.wait_for(lambda text: MATCH_CODE.search(text) is not None)
    found = MATCH_CODE.search(text)
    assert found is not None
    return found.group(1).replace(" ", "")


async def ssh_player_joins(server: SolunaServer, terminal: SshTerminal, code: str) -> None:
    """The SSH player joins the match by its code, typed in the lobby's field, and the match begins."""
    await terminal.wait_for_text("Welcome,")
    await terminal.press(*JOIN_KEYS, pause=0.05)
    await terminal.wait_for_text("Type the four-letter code")
    await terminal.press(*code.lower(), "enter")
    await wait_until(lambda: server.lobby.tables[code].match is not None, what="the match beginning")


async def tap_up(server: SolunaServer, code: str, phone: BrowserTerminal, move: Move | None = None) -> str:
    """The phone's player, to move, taps the tower of ``move`` (the first legal move if ``None``), and it is in
    hand, the towers it may go on lit: the key of the tower to tap to end the move."""
    match = server.lobby.tables[code].match
    move = move or match.position.legal_moves[0]
    mover, target = move_keys(match, move)
    await phone.wait_for_text("Your move")
    await shows_places(phone, server_places(match.round.table))  # laid out: every tower where it stays
    await tap(phone, tower_cell(phone.display, mover))
    await phone.wait_for(lambda text: f"▸{target}◂" in text and f"put {move.mover} on a lit tower" in words(text))
    return target


async def tap_a_move(server: SolunaServer, code: str, phone: BrowserTerminal) -> None:
    """The phone's player, to move, taps the tower of the first legal move, then the lit tower it goes on; once the
    server has the move."""
    version = server.lobby.tables[code].version
    target = await tap_up(server, code, phone)
    await tap(phone, tower_cell(phone.display, target))
    await wait_until(lambda: server.lobby.tables[code].version == version + 1, what="the server taking the move")
