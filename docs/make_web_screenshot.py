"""Take the README's picture of the web door: docs/web-screenshot.png.

    python docs/make_web_screenshot.py

Headless Chromium (Debian's ``chromium`` package, driven by Playwright as the browser test drives it) signs in
as a guest, joins an SSH player's match and plays; five moves in, the guest picks up with the mouse the tower
that may go on the most others, and the picture is taken: the page at about 100 columns by 30 lines, in the
font the page ships.
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
from tests.web.browser import browser_joins, browser_missing, chromium, pick_up_by_mouse  # noqa: E402
from tests.web.helpers import web_server  # noqa: E402

TARGET = HERE / "web-screenshot.png"
#: Moves played before the picture (the SSH player opens, so the guest is to move after an odd number).
MOVES = 5


async def main() -> None:
    missing = browser_missing()
    if missing is not None:
        sys.exit(f"make_web_screenshot: {missing}")
    with tempfile.TemporaryDirectory() as data_dir:
        async with web_server(Path(data_dir)) as server, chromium() as browser:
            ann = await SshTerminal.open(server.port, username="ann", columns=100, lines=30)
            try:
                await ann.wait_for_text("Welcome, ann")
                code, bob = await browser_joins(server, browser, ann)
                for _ in range(MOVES):
                    await play_a_move(server, code, [ann, bob])
                moves = server.lobby.tables[code].match.position.legal_moves
                takers = Counter(move.mover for move in moves)  # the tower with the most places to go, lit
                await pick_up_by_mouse(bob, server, code, max(moves, key=lambda move: takers[move.mover]))
                await bob.pump(1.0, quiet=0.2)
                await bob.page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
                await bob.screenshot(TARGET)
                print(f"{TARGET}: {bob.screen.columns}x{bob.screen.lines}")
            finally:
                await ann.close()


if __name__ == "__main__":
    asyncio.run(main())
