"""The parts of a house of sessions (``online/house.py``) that need no server: what an app writes never waits for a
terminal that is not read."""

from __future__ import annotations

import asyncio
import os
import time

from soluna_tui.online.house import TerminalWriter

FRAME = "\x1b[H" + "x" * 4000  # a frame's worth of bytes


def read_what_is_there(fd: int) -> bytes:
    data = b""
    while True:
        try:
            data += os.read(fd, 65536)
        except BlockingIOError:
            return data


async def test_a_terminal_nobody_reads_never_holds_the_loop_and_is_drawn_afresh_once_read_again() -> None:
    master, terminal = os.openpty()
    os.set_blocking(master, False)
    redrawn: list[float] = []
    writer = TerminalWriter(terminal, lambda: redrawn.append(time.monotonic()))
    try:
        started = time.monotonic()
        for _ in range(500):  # 2 MB: far more than the terminal holds, and than the backlog keeps
            writer.write(FRAME)
        assert time.monotonic() - started < 1.0, "a write waited for the terminal"
        assert writer.dropped and len(writer.backlog) <= TerminalWriter.BACKLOG_LIMIT + len(FRAME.encode())
        assert not redrawn

        shown = b""
        deadline = time.monotonic() + 10
        while (writer.backlog or not redrawn) and time.monotonic() < deadline:
            shown += read_what_is_there(master)  # the player's client reads again
            await asyncio.sleep(0.01)
        assert not writer.backlog and len(redrawn) == 1, "drawn afresh once the backlog went out"
        assert not writer.dropped and not writer.watching
        shown += read_what_is_there(master)
        frame = len(FRAME.encode())
        assert shown.count(b"\x1b[H") < 500  # frames past the backlog's limit were dropped, not sent late
        assert TerminalWriter.BACKLOG_LIMIT - frame <= len(shown) <= TerminalWriter.BACKLOG_LIMIT + frame

        writer.write("after")
        await asyncio.sleep(0.05)
        assert read_what_is_there(master).endswith(b"after") and len(redrawn) == 1
    finally:
        writer.close()
        os.close(terminal)
        os.close(master)


async def test_a_terminal_gone_ends_the_writing_quietly() -> None:
    master, terminal = os.openpty()
    writer = TerminalWriter(terminal, lambda: None)
    os.close(master)
    writer.write(FRAME)  # EIO once it goes out: the session is ending
    await asyncio.sleep(0)
    assert writer.closed and not writer.backlog
    writer.write(FRAME)
    assert not writer.backlog
    os.close(terminal)
