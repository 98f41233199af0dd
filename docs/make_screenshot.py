"""Draw the README's pictures: docs/screenshot.svg (80x24) and docs/screenshot-large.svg (160x50).

    python docs/make_screenshot.py

A seeded match between two players, five moves in (the towers in the places they kept, the
last move said under the board), a tower in hand; at 160x50 analysis is on too.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from soluna_tui.app.soluna_app import SolunaApp  # noqa: E402
from soluna_tui.local.match_setup import MatchSetup  # noqa: E402
from soluna_tui.play.looks import JUMP_KEYS  # noqa: E402
from soluna_tui.rules import MatchOptions, Move, Tower  # noqa: E402

SEED = 7
#: Moves that leave stacks of every height and symbol on the table.
MOVES = ("1S>1S", "1*>1M", "1C>1M", "1M>1*", "2C>2S")
#: Then: analysis on, and the 2* tower picked up.
PICKED = "2*"


async def keys_for(app: SolunaApp, move: Move) -> list[str]:
    """The keys of the places the move goes from and onto (towers keep their places all round)."""
    placed = app.game.picking_arrangement.resolve(move)
    return [JUMP_KEYS[placed.mover_slot], "enter", JUMP_KEYS[placed.target_slot], "enter"]


async def draw(target: Path, size: tuple[int, int], analysis: bool) -> None:
    setup = MatchSetup(MatchOptions(), ("Ann", "Bob"), None, SEED)
    with tempfile.TemporaryDirectory() as data_dir:
        app = SolunaApp(setup=setup, data_dir=Path(data_dir), computer_pause=0, reveal_pause=0)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for move in MOVES:
                await pilot.press(*await keys_for(app, Move.parse(move)))
            picked = app.game.picking_arrangement.first_slot(Tower.parse(PICKED))
            await pilot.press(*(["A"] if analysis else []), JUMP_KEYS[picked], "enter")
            for _ in range(20):
                await app.workers.wait_for_complete()
                await pilot.pause()
            app.save_screenshot(target.name, str(target.parent))


async def main() -> None:
    await draw(HERE / "screenshot.svg", (80, 24), analysis=False)
    await draw(HERE / "screenshot-large.svg", (160, 50), analysis=True)


if __name__ == "__main__":
    asyncio.run(main())
