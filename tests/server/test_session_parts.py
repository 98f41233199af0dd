"""A session's parts that need no SSH: its clock, its channel-request budget and how it ends."""

from __future__ import annotations

import asyncio
import signal
import sys

import pyte
import pytest

from soluna_tui.link.child_config import FAILED, OUT_OF_MEMORY
from soluna_tui.server.config import Limits
from soluna_tui.server.sessions.client_env import ENV_BYTES, ENV_VARIABLES
from soluna_tui.server.sessions.ending import TERMINAL_RESET, Ending, retire_child
from soluna_tui.server.sessions.session_clock import LEAST_WAIT, IdleWarning, SessionClock, TimeUp
from soluna_tui.server.sessions.spawn import STOP_GRACE, ExecChild
from soluna_tui.server.ssh.channel_guard import RequestBudget, Verdict

from .helpers import Clock, process_gone

LIMITS = Limits(input_rate=100, idle_timeout=900, idle_warning=60, session_time=3600, request_rate=2)


# ---- the session's clock: input budget, idle warning and timeout, the longest session -------------


def test_input_within_the_budget_is_taken_and_a_flood_is_not() -> None:
    clock = Clock()
    session = SessionClock(LIMITS, clock)
    clock.now += 10
    assert session.typed(LIMITS.input_burst)  # a paste of the whole burst at once
    clock.now += 1
    assert session.typed(100)  # a second's worth has come back
    assert not session.typed(1)
    clock.now += 5
    assert not session.typed(600)  # five seconds' worth came back, not six


def test_bytes_are_not_activity_only_what_the_player_did_is() -> None:
    clock = Clock()
    session = SessionClock(LIMITS, clock)
    for _ in range(180):  # a NUL every five seconds, for fifteen minutes
        clock.now += 5
        assert session.typed(1)
    assert session.due() == TimeUp("idle timeout", "Closed after 15 minutes without a key press.")
    session.active()
    assert session.due() is None and session.last_active == clock.now


def test_an_idle_session_is_warned_once_then_closed() -> None:
    clock = Clock()
    session = SessionClock(LIMITS, clock)
    assert session.due() is None
    assert session.wait() == 840  # the warning is the first thing due
    clock.now += 840
    assert session.due() == IdleWarning(idle=840, left=60)
    assert session.due() is None  # once per idle spell
    assert session.wait() == 60
    clock.now += 59.99
    assert session.due() is None
    clock.now += 0.01
    assert session.due() == TimeUp("idle timeout", "Closed after 15 minutes without a key press.")


def test_a_key_press_puts_off_the_timeout_and_the_next_idle_spell_is_warned_again() -> None:
    clock = Clock()
    session = SessionClock(LIMITS, clock)
    clock.now += 850
    assert isinstance(session.due(), IdleWarning)
    session.active()
    assert session.due() is None and session.wait() == 840
    clock.now += 899
    assert session.due() == IdleWarning(idle=899, left=1)  # warned late (the clock was not looked at): still once
    clock.now += 1
    assert session.due() == TimeUp("idle timeout", "Closed after 15 minutes without a key press.")


def test_a_short_timeout_is_said_to_the_second_and_warned_when_it_says() -> None:
    clock = Clock()
    session = SessionClock(Limits(idle_timeout=90, idle_warning=30), clock)
    assert session.wait() == 60  # warned 30 seconds before the end, as the warning says
    clock.now += 60
    assert session.due() == IdleWarning(idle=60, left=30)
    clock.now += 30
    assert session.due() == TimeUp("idle timeout", "Closed after 1 min 30 s without a key press.")


def test_the_longest_session_ends_however_busy_the_player() -> None:
    clock = Clock()
    session = SessionClock(LIMITS, clock)
    for _ in range(7):
        clock.now += 500
        session.active()
        assert session.due() is None
    assert session.wait() == 100  # the session's end comes before the idle warning now
    clock.now += 100
    assert session.due() == TimeUp("session time limit", "This session reached its limit of 60 minutes. "
                                                         "Thanks for playing!")
    assert session.lasted() == 3600


def test_the_clock_is_never_looked_at_in_a_busy_loop() -> None:
    clock = Clock()
    session = SessionClock(LIMITS, clock)
    clock.now += 10_000
    assert session.wait() == LEAST_WAIT


# ---- channel requests: a budget, and env only early, few and short ---------------------------------


def test_env_is_taken_only_before_the_game_starts_a_few_short_ones_at_most() -> None:
    clock = Clock()
    budget = RequestBudget(Limits(request_rate=1000), clock)
    assert budget.judge("env", ENV_BYTES + 1) is Verdict.REFUSE
    assert [budget.judge("env", 20) for _ in range(ENV_VARIABLES)] == [Verdict.ACT] * ENV_VARIABLES
    assert budget.judge("env", 20) is Verdict.REFUSE
    assert budget.judge("pty-req", 40) is Verdict.ACT
    assert budget.judge("shell", 0) is Verdict.ACT
    assert budget.env_taken == ENV_VARIABLES and budget.refused == 2
    budget = RequestBudget(Limits(request_rate=1000), clock)
    assert budget.judge("exec", 30) is Verdict.ACT
    assert budget.judge("env", 20) is Verdict.REFUSE and budget.refused == 1


def test_a_flood_of_requests_past_the_burst_cuts_the_session_off() -> None:
    clock = Clock()
    budget = RequestBudget(LIMITS, clock)
    assert all(budget.judge("window-change", 16) is Verdict.ACT for _ in range(LIMITS.request_burst))
    assert budget.judge("window-change", 16) is Verdict.CUT_OFF and budget.refused == 1
    clock.now += 10
    assert budget.judge("window-change", 16) is Verdict.ACT  # a dragged window, ten seconds later


# ---- the end: first reason wins, what the player reads, what the log says ---------------------------


async def test_the_first_reason_to_end_is_the_one_kept() -> None:
    ending = Ending()
    assert not ending.requested
    ending.request("idle timeout", "Closed after 15 minutes without a key press.")
    ending.request("the client disconnected")
    await asyncio.wait_for(ending.wait(), 1)
    assert ending.requested and ending.reason == "idle timeout"
    assert ending.farewell == "Closed after 15 minutes without a key press."


@pytest.mark.parametrize(("reason", "status", "logged", "exit_status"), [
    ("quit", 0, "quit", 0),
    ("quit", 5, "child failed (status 5)", 1),
    ("quit", OUT_OF_MEMORY, "child ran out of memory (status 3)", 1),
    ("quit", -signal.SIGKILL, "child killed by SIGKILL", 1),
    ("quit", -signal.SIGXCPU, "child killed by SIGXCPU (CPU limit)", 1),
    ("quit", None, "quit", 1),
    ("idle timeout", -signal.SIGTERM, "idle timeout", 1),
    (None, None, "unknown", 1),
])
def test_how_a_session_ended_is_said_in_its_log_line(reason, status, logged, exit_status) -> None:
    ending = Ending()
    ending.reason, ending.status = reason, status
    assert ending.how_it_ended() == logged
    assert ending.exit_status == exit_status


@pytest.mark.parametrize(("status", "why"), [
    (-signal.SIGXCPU, "it used up its CPU time"),
    (-signal.SIGKILL, "it was killed"),
    (-signal.SIGSEGV, "it was ended by SIGSEGV"),
    (None, "it would not stop"),
    (OUT_OF_MEMORY, "it ran out of memory"),
    (FAILED, "it hit an internal error"),
])
def test_a_game_that_failed_under_the_player_gets_one_line(status, why) -> None:
    ending = Ending()
    ending.request("quit")
    ending.status = status
    ending.explain_failure(hold_time=300)
    assert ending.farewell == (f"Sorry: your game stopped unexpectedly ({why}). Connect again: a match in play "
                               "keeps your seat for 5 minutes.")


@pytest.mark.parametrize(("reason", "farewell", "status"), [
    ("quit", None, 0),  # the player quit
    ("server shutdown", None, -signal.SIGKILL),  # the server ended it, and says so its own way
    ("quit", "Slow down", -signal.SIGKILL),  # a farewell already chosen stays
])
def test_no_apology_when_the_game_did_not_fail_under_the_player(reason, farewell, status) -> None:
    ending = Ending()
    ending.request(reason, farewell)
    ending.status = status
    ending.explain_failure(hold_time=300)
    assert ending.farewell == farewell


async def child_running(*code: str) -> ExecChild:
    """A real process as a session's child, running Python ``code`` (it says ``ready`` once it has set up)."""
    process = await asyncio.create_subprocess_exec(sys.executable, "-c", "\n".join(code),
                                                   stdout=asyncio.subprocess.PIPE, start_new_session=True)
    assert await asyncio.wait_for(process.stdout.readline(), 15) == b"ready\n"
    return ExecChild(process)


async def test_a_child_that_leaves_within_the_grace_is_not_signalled() -> None:
    child = await child_running("import time", "print('ready', flush=True)", "time.sleep(0.2)")
    assert await retire_child(child, grace=10, number=1) == (0, True)


async def test_a_child_that_stays_is_terminated_and_reaped() -> None:
    child = await child_running("import time", "print('ready', flush=True)", "time.sleep(60)")
    status, left = await asyncio.wait_for(retire_child(child, grace=0.2, number=1), 15)
    assert (status, left) == (-signal.SIGTERM, False)
    assert process_gone(child.pid)


async def test_a_child_deaf_to_terminate_is_killed_and_reaped() -> None:
    child = await child_running("import signal, time", "signal.signal(signal.SIGTERM, signal.SIG_IGN)",
                                "print('ready', flush=True)", "time.sleep(60)")
    started = asyncio.get_running_loop().time()
    status, left = await asyncio.wait_for(retire_child(child, grace=0, number=1), 15)
    assert (status, left) == (-signal.SIGKILL, False)
    assert asyncio.get_running_loop().time() - started >= STOP_GRACE
    assert process_gone(child.pid)


#: A frame cut anywhere, as a child killed while it writes leaves it: in a colour, after a lone escape, in a
#: title or clipboard string, inside a character.
CUT_FRAMES = [b"", b"\x1b", b"\x1b[", b"\x1b[38;2;1", b"\x1b[?100", b"\x1b]0;Solu", b"\x1b]52;c;YWJj", b"\xe2\x94"]


@pytest.mark.parametrize("cut", CUT_FRAMES)
def test_the_terminal_reset_works_after_a_frame_cut_anywhere(cut: bytes) -> None:
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    stream.feed(b"\x1b[?1049h\x1b[?1000h\x1b[?1003h\x1b[?1006h\x1b[?2004h\x1b[?25l\x1b[?7l" + cut)
    stream.feed(TERMINAL_RESET + b"Sorry")
    private_modes = {mode >> 5 for mode in screen.mode if mode >> 5}
    assert private_modes == {7, 25}  # line wrap and the cursor on; no mouse, paste or alternate screen
    assert "Sorry" in screen.display[0]
