"""Runs in the server process.

How one session ends: the first reason wins, the child leaves or is ended and always reaped.

Anything may ask a session to end (the player quitting, the clock, a flood, the server
shutting down); the first reason asked is the one logged, with what the player reads.
A child is given a moment to leave by itself (so it restores the player's terminal), then
terminated, killed if it must be, and reaped. A child that failed under the player (killed,
its CPU or memory limit reached, an internal error) leaves the player a reset terminal and one
line saying which, and the log a reason (its report, a traceback, is logged apart).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

from ...link.child_config import OUT_OF_MEMORY
from ...rules.wording import minutes
from .spawn import Child

log = logging.getLogger("soluna.server")

#: Time a child has to leave by itself (restoring the player's terminal) when the server ends a session.
LEAVE_GRACE = 3.0
#: What a terminal needs after a program that could not restore it: first CAN and ST, which end whatever escape
#: sequence a child killed in mid-frame left open (else the next sequence is read as its tail and lost), then no
#: mouse reports (any kind), no bracketed paste, focus or resize reports, the keyboard protocol popped, line wrap
#: on, the main screen, the cursor shown, plain text.
TERMINAL_RESET = (b"\x18\x1b\\"
                  b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l\x1b[?2004l\x1b[?1004l"
                  b"\x1b[?2048l\x1b[<u\x1b[?7h\x1b[?1049l\x1b[?25h\x1b[0m")
#: Why a game stopped, as its player is told, for the signals a player may see end it.
KILLED_BY: dict[int, str] = {signal.SIGXCPU: "it used up its CPU time", signal.SIGKILL: "it was killed"}
#: Why a game stopped, as its player is told, for the exit statuses a child may give (any other: an internal error).
FAILED_BECAUSE: dict[int, str] = {OUT_OF_MEMORY: "it ran out of memory"}
#: The reason of a session whose child left by itself (the player quit, or it closed its terminal).
QUIT = "quit"


class Ending:
    """Why a session ended, what its player is told, and how its child went."""

    def __init__(self) -> None:
        #: The reason logged (the first one asked for), ``None`` while the session runs.
        self.reason: str | None = None
        #: The line shown to the player as the channel closes, if any.
        self.farewell: str | None = None
        #: The child's exit status (negative: the signal that ended it; ``None``: not reaped, or no child).
        self.status: int | None = None
        self._asked = asyncio.Event()

    def request(self, reason: str, farewell: str | None = None) -> None:
        """End the session; only the first request's reason and farewell count."""
        if self.reason is None:
            self.reason = reason
            self.farewell = farewell
        self._asked.set()

    @property
    def requested(self) -> bool:
        return self._asked.is_set()

    async def wait(self) -> None:
        await self._asked.wait()

    @property
    def refused(self) -> bool:
        """The session was refused before any game (its log line goes to the throttled log)."""
        return (self.reason or "").startswith("refused")

    @property
    def child_failed(self) -> bool:
        """The child did not end well (killed, or an exit status other than 0): its terminal may need a reset."""
        return self.status != 0

    @property
    def exit_status(self) -> int:
        """The channel's exit status: 0 only when the player quit and the child went cleanly."""
        return 0 if self.status == 0 and self.reason == QUIT else 1

    def explain_failure(self, hold_time: float) -> None:
        """One line for a player whose game stopped under them: killed (a signal, its CPU limit), out of memory,
        or an internal error."""
        if self.reason != QUIT or self.farewell is not None or not self.child_failed:
            return
        self.farewell = (f"Sorry: your game stopped unexpectedly ({self._why()}). Connect again: a match in play "
                         f"keeps your seat for {minutes(hold_time)}.")

    def _why(self) -> str:
        if self.status is not None and self.status > 0:
            return FAILED_BECAUSE.get(self.status, "it hit an internal error")
        number = -self.status if self.status is not None else 0
        return KILLED_BY.get(number, f"it was ended by {signal.Signals(number).name}"
                             if number in signal.valid_signals() else "it would not stop")

    def how_it_ended(self) -> str:
        """The end as the log line says it: the reason, or what became of a child that failed."""
        reason = self.reason or "unknown"
        if reason == QUIT and self.status not in (0, None):
            if self.status < 0:
                name = signal.Signals(-self.status).name if -self.status in signal.valid_signals() else self.status
                reason = f"child killed by {name}" + (" (CPU limit)" if self.status == -signal.SIGXCPU else "")
            elif self.status == OUT_OF_MEMORY:
                reason = f"child ran out of memory (status {self.status})"
            else:
                reason = f"child failed (status {self.status})"
        return reason


async def retire_child(child: Child, grace: float, number: int) -> tuple[int | None, bool]:
    """Give a running child ``grace`` seconds to leave by itself, then end it (terminate, kill) and reap it.

    Returns its exit status (``None`` if it would not die) and whether it had left by itself.
    """
    if grace > 0 and child.running:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(child.wait()), grace)
    left = not child.running
    status = None
    try:
        status = await child.stop()
    except TimeoutError:
        log.warning("session %d: child %d would not die", number, child.pid)
    return status, left
