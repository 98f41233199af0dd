"""Slow rules work (the solver, the computer's choices, puzzles) off the event loop, in one pattern.

A screen hands ``solve_in_worker`` a job that takes a ``Budget`` and returns the message to post
with its answer. The job runs in a thread worker; its budget gives up after ``seconds`` and as soon
as the worker is cancelled (the screen closed, a newer question in the same exclusive group), so
a search never outlives the question. A search that gives up posts ``aborted`` instead, and a
cancelled worker posts nothing: a screen only ever hears answers to questions still open.
"""

from __future__ import annotations

import contextvars
import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from textual.message import Message
from textual.worker import Worker, get_current_worker

from ..rules import SearchAborted

if TYPE_CHECKING:
    from ..rules.solver import Budget

#: The niceness of the threads that solve, raised in a session of ``soluna serve`` (``solve_in_idle_time``).
_solving_niceness = 0


def solve_in_idle_time() -> None:
    """From now on, solve at the lowest priority: this process is one session of many on a server, and the
    perfect level's proof of a large layout takes many CPU seconds (15 on 24 discs); at the lowest
    priority it takes only what the other players' sessions leave, and never slows their keys."""
    global _solving_niceness
    _solving_niceness = 19


class RunsWorkers(Protocol):
    """What ``solve_in_worker`` uses of the DOM node its worker belongs to (a screen; for the game screen's parts,
    the screen as they see it)."""

    def post_message(self, message: Message) -> bool:
        """Hand the node a message (from any thread)."""

    def run_worker(self, work: Callable[[], None], name: str | None = "", group: str = "default",
                   description: str = "", exit_on_error: bool = True, start: bool = True, exclusive: bool = False,
                   thread: bool = False) -> Worker[None]:
        """Run ``work`` in one of the node's workers."""


def solve_in_worker(node: RunsWorkers, job: Callable[[Budget], Message | None], *, seconds: float | None = None,
                    aborted: Message | None = None, group: str = "default", exclusive: bool = True) -> Worker[None]:
    """Run ``job`` in a thread worker of ``node`` and post the message it returns to ``node``.

    ``job`` gets a budget of ``seconds`` (no limit when ``None``) that also ends when the worker is
    cancelled; if the search gives up, ``aborted`` is posted (nothing when it is ``None``). A job
    returning ``None`` posts nothing, and nothing is posted once the worker is cancelled.
    """

    def run() -> None:
        from ..rules.solver import Budget

        if _solving_niceness:  # this thread only (a thread worker's own, gone with it)
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), _solving_niceness)
        worker = get_current_worker()
        budget = Budget(seconds, cancelled=lambda: worker.is_cancelled)
        try:
            answer = context.run(job, budget)  # in the asker's context: its solver (``rules.solver.ContextSolver``)
        except SearchAborted:
            answer = aborted
        if answer is not None and not worker.is_cancelled:
            node.post_message(answer)

    context = contextvars.copy_context()
    return node.run_worker(run, name=getattr(job, "__name__", ""), group=group, exclusive=exclusive, thread=True)


def pause_until(deadline: float, budget: Budget) -> None:
    """Wait (in a worker) until ``time.monotonic()`` reaches ``deadline``, or the budget's worker is cancelled."""
    while time.monotonic() < deadline and not budget.is_cancelled:
        time.sleep(0.02)
