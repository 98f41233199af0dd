"""Slow work and timers for the line mode, in threads: no event loop, nothing of Textual.

The line mode's core asks a ``Runner`` to solve (the computer's move, a hint, a review) and to call it back
later (a clock running out). ``ThreadRunner`` does both with threads for a terminal; another door (over SSH)
may hand the core a runner of its own. A job gets a ``Budget`` that gives up after its seconds and as soon as
it is called off, as ``screens/solver_work.py`` gives the game screen's workers: a search never outlives the
question it answers, and an answer called off is never heard.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar

from ..rules import SearchAborted

if TYPE_CHECKING:
    from ..rules.solver import Budget

Answer = TypeVar("Answer")


class CallOff(Protocol):
    """Calls off a job or a timer (nothing happens if it has already run)."""

    def __call__(self) -> None: ...


class Runner(Protocol):
    """Where the core's slow work and timers run."""

    def solve(self, job: Callable[[Budget], Answer], seconds: float | None,
              done: Callable[[Answer | None], None]) -> CallOff:
        """Run ``job`` with a budget of ``seconds`` (no limit: ``None``) off the caller's thread; hand its answer,
        or ``None`` when the search gave up, to ``done``, unless called off first."""

    def later(self, seconds: float, then: Callable[[], None]) -> CallOff:
        """Call ``then`` after ``seconds``, unless called off first."""


class ThreadRunner:
    """Each job in a daemon thread of its own (a quit never waits for a search), each timer a ``threading.Timer``."""

    def solve(self, job: Callable[[Budget], Answer], seconds: float | None,
              done: Callable[[Answer | None], None]) -> CallOff:
        called_off = threading.Event()

        def run() -> None:
            from ..rules.solver import Budget

            try:
                answer: Answer | None = job(Budget(seconds, cancelled=called_off.is_set))
            except SearchAborted:
                answer = None
            if not called_off.is_set():
                done(answer)

        threading.Thread(target=run, name="line-mode-solver", daemon=True).start()
        return called_off.set

    def later(self, seconds: float, then: Callable[[], None]) -> CallOff:
        timer = threading.Timer(max(0.0, seconds), then)
        timer.daemon = True
        timer.start()
        return timer.cancel
