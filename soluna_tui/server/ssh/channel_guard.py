"""Runs in the server process.

The channel requests a session acts on: each paid for from a budget, ``env`` early, few and short.

A client may send window changes, signals, breaks or ``env`` as fast as it likes; asyncssh
would act on every one. ``GuardedChannel`` asks first, and ``RequestBudget`` answers: within
the request rate (past it, the session is cut off), and ``env`` only before the game starts,
at most ``ENV_VARIABLES`` of them, each at most ``ENV_BYTES`` long.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from typing import Protocol

from ...compat.asyncssh_internals import adopt_class, ask_before_requests
from ..config import Limits
from ..gate import TokenBucket
from ..sessions.client_env import ENV_BYTES, ENV_VARIABLES
from .quiet_asyncssh import asyncssh

#: The channel requests that start a session; ``env`` after one of them is refused.
STARTING_REQUESTS = frozenset({"shell", "exec", "subsystem"})


class Verdict(enum.Enum):
    """What becomes of one channel request."""

    ACT = "act"
    REFUSE = "refuse"
    #: Refused, and the session is cut off: more requests than the budget allows.
    CUT_OFF = "cut off"


class RequestBudget:
    """Which of one session's channel requests are acted on, and how many were refused."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.bucket = TokenBucket(limits.request_rate, limits.request_burst, clock)
        self.start_asked = False
        self.env_taken = 0
        self.refused = 0

    def judge(self, request: str, size: int) -> Verdict:
        """Pay for a request of ``size`` bytes named ``request`` and say what becomes of it."""
        if not self.bucket.take():
            return self.refuse(Verdict.CUT_OFF)
        if request == "env":
            if self.start_asked or self.env_taken >= ENV_VARIABLES or size > ENV_BYTES:
                return self.refuse()
            self.env_taken += 1
        elif request in STARTING_REQUESTS:
            self.start_asked = True
        return Verdict.ACT

    def refuse(self, verdict: Verdict = Verdict.REFUSE) -> Verdict:
        """Count a refused request (the session's log line says how many)."""
        self.refused += 1
        return verdict


class RequestJudge(Protocol):
    def request_allowed(self, request: str, size: int) -> bool: ...


class GuardedChannel(asyncssh.SSHServerChannel[bytes]):
    """A session channel that asks its session before acting on any channel request.

    asyncssh keeps every ``env`` request a client sends and acts on every window change, signal or
    break, however many come, and it has no public hook before it does
    (``compat.asyncssh_internals.ask_before_requests`` makes one): a request the session refuses is
    answered "failure" and never reaches asyncssh's handler. The channel itself is made by asyncssh's
    public ``create_server_channel``, then given this class, so asyncssh sets it up exactly as it would
    its own.
    """

    game_session: RequestJudge

    @classmethod
    def guarding(cls, chan: asyncssh.SSHServerChannel[bytes], session: RequestJudge) -> GuardedChannel:
        guarded = adopt_class(chan, cls)
        guarded.game_session = session
        return guarded

    def request_allowed(self, request: str, size: int) -> bool:
        return self.game_session.request_allowed(request, size)


ask_before_requests(GuardedChannel, GuardedChannel.request_allowed)
