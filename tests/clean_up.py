"""Clean-ups with a bound: a fixture whose clean-up hangs fails, naming what hung, instead of holding its worker
until the per-test limit."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

#: Seconds one step of a clean-up may take (a lobby's close waits at most 5 s for its guests' requests).
CLEAN_UP_WAIT = 20.0


async def within(step: Awaitable[object], what: str, seconds: float = CLEAN_UP_WAIT) -> None:
    """Await ``step``; ``AssertionError`` naming ``what`` if it has not finished after ``seconds``."""
    try:
        await asyncio.wait_for(step, seconds)
    except TimeoutError:
        raise AssertionError(f"{what} did not finish within {seconds:g} s") from None
