"""The lines' door over SSH (``online/line_session.py``) in parts: its runner, which solves in threads at the lowest
priority and answers on the event loop. The whole door is driven over SSH in ``test_screen_reader_e2e.py``."""

from __future__ import annotations

import asyncio
import os
import threading

from soluna_tui.online.line_session import SOLVING_NICENESS, LoopRunner


async def test_the_runner_solves_at_the_lowest_priority_and_answers_on_the_loop_unless_called_off() -> None:
    loop = asyncio.get_running_loop()
    runner = LoopRunner(loop)
    ours = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    answered: asyncio.Future[tuple[int, int]] = loop.create_future()

    def job(budget) -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    runner.solve(job, 1.0, lambda niceness: answered.set_result((niceness, threading.get_ident())))
    niceness, thread = await asyncio.wait_for(answered, 10)
    assert niceness == SOLVING_NICENESS and thread == threading.get_ident()  # told on the loop's own thread
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == ours  # the solving thread's only

    heard: list[object] = []
    gate = threading.Event()
    call_off = runner.solve(lambda budget: gate.wait(5), 1.0, heard.append)
    call_off()
    gate.set()
    await asyncio.sleep(0.2)
    assert heard == []  # called off: never heard, even when the answer comes after
