"""Draw docs/screenshot-large.svg: a match in play at 160x50, as the README shows it.

    python docs/make_screenshot.py

A seeded match between two players, five moves in, analysis on and a tower in hand.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from soluna_tui.app import SolunaApp  # noqa: E402
from soluna_tui.match_setup import MatchSetup  # noqa: E402
from soluna_tui.rules import MatchOptions, Move  # noqa: E402
from soluna_tui.widgets.board import JUMP_KEYS  # noqa: E402

SIZE = (160, 50)
SEED = 7
#: Moves that leave stacks of every height and symbol on the table.
MOVES = ("1S>1S", "1*>1M", "1C>1M", "1M>1*", "2C>2S")
#: Then: analysis on, and the third tower (2*) picked up.
KEYS = ("A", "3", "enter")


async def keys_for(app: SolunaApp, move: Move) -> list[str]:
    towers = app.game.match.position.towers
    mover = towers.index(move.mover)
    target = next(slot for slot, tower in enumerate(towers) if tower == move.target and slot != mover)
    return [JUMP_KEYS[mover], "enter", JUMP_KEYS[target], "enter"]


async def draw(target: Path) -> None:
    setup = MatchSetup(MatchOptions(), ("Ann", "Bob"), None, SEED)
    with tempfile.TemporaryDirectory() as data_dir:
        app = SolunaApp(setup=setup, data_dir=Path(data_dir), computer_pause=0, reveal_pause=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            for move in MOVES:
                await pilot.press(*await keys_for(app, Move.parse(move)))
            await pilot.press(*KEYS)
            for _ in range(20):
                await app.workers.wait_for_complete()
                await pilot.pause()
            app.save_screenshot(target.name, str(target.parent))


if __name__ == "__main__":
    asyncio.run(draw(HERE / "screenshot-large.svg"))
