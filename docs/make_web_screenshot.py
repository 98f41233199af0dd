"""Take the README's pictures of the web door: docs/web-screenshot.png (a desktop's window) and
docs/web-phone-screenshot.png (a phone's).

    python docs/make_web_screenshot.py [desktop] [phone]

Headless Chromium (Debian's ``chromium`` package, driven by Playwright as the browser tests drive it) signs in
as a guest and plays an SSH player; some moves in, the guest picks up the tower that may go on the most others,
and the picture is taken, in the font the page ships:
- desktop: a 900x640 window (about 100 columns by 30 lines); the guest joins the SSH player's match and plays by
  the keyboard, five moves in picks the tower up with the mouse;
- phone: a phone's 390x844 with touch (43 columns by 38 lines); the guest creates the match by taps and plays by
  taps, four moves in taps the tower up.
Without an argument, both.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tests.server.helpers import SshTerminal, play_a_move  # noqa: E402
from tests.web.browser import (  # noqa: E402
    BrowserTerminal,
    browser_joins,
    browser_missing,
    chromium,
    open_phone_tab,
    pick_up_by_mouse,
    sign_in,
)
from tests.web.helpers import page_url, web_server  # noqa: E402
from tests.web.phone import phone_creates_a_match, ssh_player_joins, tap_a_move, tap_up  # noqa: E402

TARGETS = {"desktop": HERE / "web-screenshot.png", "phone": HERE / "web-phone-screenshot.png"}
#: Moves played before the picture: the SSH player opens the desktop's match (the guest is to move after an odd
#: number), the phone's guest opens the phone's (after an even number).
MOVES = {"desktop": 5, "phone": 4}


def the_busiest_move(server, code: str):
    """The legal move of the tower with the most places to go (the most towers lit once it is picked up)."""
    moves = server.lobby.tables[code].match.position.legal_moves
    takers = Counter(move.mover for move in moves)
    return max(moves, key=lambda move: takers[move.mover])


async def take(tab: BrowserTerminal, target: Path) -> None:
    """The picture, once the game is quiet and the page has drawn what it received."""
    await tab.pump(1.0, quiet=0.2)
    await tab.page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    await tab.screenshot(target)
    print(f"{target}: {tab.screen.columns}x{tab.screen.lines}")


async def desktop(server, browser) -> None:
    ann = await SshTerminal.open(server.port, username="ann", columns=100, lines=30)
    try:
        await ann.wait_for_text("Welcome, ann")
        code, bob = await browser_joins(server, browser, ann)
        for _ in range(MOVES["desktop"]):
            await play_a_move(server, code, [ann, bob])
        await pick_up_by_mouse(bob, server, code, the_busiest_move(server, code))
        await take(bob, TARGETS["desktop"])
    finally:
        await ann.close()


async def phone(server, browser) -> None:
    ann = await SshTerminal.open(server.port, username="ann", columns=100, lines=30)
    try:
        bob = await open_phone_tab(browser, page_url(server))
        await sign_in(bob, "bob")
        code = await phone_creates_a_match(bob)
        await ssh_player_joins(server, ann, code)
        for _ in range(MOVES["phone"]):
            if server.lobby.tables[code].match.to_move == 0:
                await tap_a_move(server, code, bob)
            else:
                await play_a_move(server, code, [bob, ann])
        await tap_up(server, code, bob, the_busiest_move(server, code))
        await take(bob, TARGETS["phone"])
    finally:
        await ann.close()


async def main(which: list[str]) -> None:
    missing = browser_missing()
    if missing is not None:
        sys.exit(f"make_web_screenshot: {missing}")
    for name in which:
        with tempfile.TemporaryDirectory() as data_dir:
            async with web_server(Path(data_dir)) as server, chromium() as browser:
                await (desktop if name == "desktop" else phone)(server, browser)


if __name__ == "__main__":
    asked = sys.argv[1:] or list(TARGETS)
    unknown = [name for name in asked if name not in TARGETS]
    if unknown:
        sys.exit(f"make_web_screenshot: no picture called {unknown[0]!r} (desktop, phone)")
    asyncio.run(main(asked))
