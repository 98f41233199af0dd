"""The guided round at 80x24 (a newcomer's first screen): step 3, a tower in hand, only its targets by symbol lit;
and the same in ASCII."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from ..app.helpers import make_app
from .helpers import idle


async def to_the_symbol_step(pilot: Pilot) -> None:
    await idle(pilot)
    await pilot.press("1", "enter", "3", "enter")  # 1S on 1M: by height; the computer replies
    await idle(pilot)
    await pilot.press("2", "enter")  # 1S in hand: the 2S is lit, the other 1s are not
    await idle(pilot)


@pytest.mark.parametrize("ascii_mode", [False, True])
def test_the_guided_round_s_symbol_step(snap_compare, tmp_path, ascii_mode: bool) -> None:
    app = make_app(tmp_path, offer_guided_round=True, ascii_mode=ascii_mode)
    assert snap_compare(app, terminal_size=(80, 24), run_before=to_the_symbol_step)
