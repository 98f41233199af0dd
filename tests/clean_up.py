"""Clean-ups with a bound: a fixture whose clean-up hangs fails, naming what hung, instead of holding its worker
until the per-test limit; a process that does not stop when asked is killed."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import threading
from collections.abc import Awaitable, Iterator

#: Seconds one step of a clean-up may take (a lobby's close waits at most 5 s for its guests' requests).
CLEAN_UP_WAIT = 20.0


async def within(step: Awaitable[object], what: str, seconds: float = CLEAN_UP_WAIT) -> None:
    """Await ``step``; ``AssertionError`` naming ``what`` if it has not finished after ``seconds``."""
    try:
        await asyncio.wait_for(step, seconds)
    except TimeoutError:
        raise AssertionError(f"{what} did not finish within {seconds:g} s") from None


def stopped(process: subprocess.Popen, grace: float = CLEAN_UP_WAIT) -> int:
    """``process`` asked to stop (SIGTERM) and killed if it has not after ``grace`` seconds; its exit status."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            return process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
    return process.wait()


@contextlib.contextmanager
def killed_after(process: subprocess.Popen, seconds: float) -> Iterator[None]:
    """``process`` is killed if it still runs after ``seconds`` inside this block: a blocking read of its output
    then ends (a process that starts and says nothing would hold the read, and the test, for good)."""
    timer = threading.Timer(seconds, lambda: process.poll() is None and process.kill())
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
