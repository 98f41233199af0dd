"""Runs in the child (the zygote forks into ``run``; the server only builds its ``ChildConfig``, in ``link``).

One SSH session's child process: the Textual app on the session's pseudo-terminal (or, for the one command a
session may ask for, ``screen-reader``, the lobby and its matches in lines: ``line_session.py``).

Forked by the zygote (the app already imported) or started as
``python -m soluna_tui.online.child CONFIG_JSON LINK_FD`` with the terminal as its
standard streams. Either way it becomes the terminal's session leader, limits
its own memory and CPU time, keeps only the environment the server chose, and
never shows a traceback: an internal error is a report to the server's log and an
exit status that says what happened (the server tells the player in one line).
Past its memory limit a little more is kept back (``MEMORY_RESERVE_MB``), so that a
child that reached it can still restore the terminal, send its report and say so.
"""

from __future__ import annotations

import fcntl
import gc
import io
import os
import resource
import socket
import sys
import termios
import traceback
from typing import TYPE_CHECKING, Any

from ..link.child_config import FAILED, OUT_OF_MEMORY, ChildConfig
from ..link.messages import CRASH_REPORT_LIMIT, CrashReport
from ..link.protocol import encode

if TYPE_CHECKING:
    from .child_app import ChildApp

#: MiB of address space kept back past the memory limit, for the way out once the limit is reached.
MEMORY_RESERVE_MB = 32
MIB = 1024 * 1024
#: Fewer, larger young collections: a redraw allocates thousands of short-lived objects, and
#: collecting every 700 of them put 30 ms stalls into keystrokes (measured in benchmarks/ssh_load.py).
#: A young collection looks at every container still alive then, so the rarer they are, the more of a
#: frame's objects have gone by themselves first: every 100,000 takes a tenth less of a house's CPU a key than
#: every 20,000 did (100 sessions at 180 keys a second: 0.60-0.63 cores against 0.69-0.70; 200,000 saves no more).
GC_THRESHOLDS = (100_000, 50, 100)


def take_terminal() -> None:
    """Make the terminal on standard input this session's controlling terminal (after ``setsid``)."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def limit_resources(config: ChildConfig) -> None:
    """Cap address space and CPU time (a runaway search ends this session only), and no core files.

    The address space's hard limit is ``MEMORY_RESERVE_MB`` above the soft one: ``release_reserve`` lets the
    way out use it."""
    memory = config.memory_mb * MIB
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory + MEMORY_RESERVE_MB * MIB))
    resource.setrlimit(resource.RLIMIT_CPU, (config.cpu_seconds, config.cpu_seconds + 5))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def settle_in(config: ChildConfig) -> None:
    """Set the process up for sessions like ``config``'s: its limits, only the environment the server chose, the
    root folder as its own, fewer and larger young collections."""
    limit_resources(config)
    os.environ.clear()
    os.environ.update(config.environment)
    os.chdir("/")
    gc.set_threshold(*GC_THRESHOLDS)


def out_of_memory(error: BaseException) -> bool:
    """Whether ``error`` is the memory limit reached (an allocation, or a thread's stack, refused)."""
    return isinstance(error, MemoryError) or (isinstance(error, RuntimeError)
                                              and "can't start new thread" in str(error))


def failed_with(error: BaseException) -> tuple[int, str]:
    """The exit status and the report of an error the app did not handle (being handled now); the memory reserve
    released if it is the memory limit reached."""
    status = FAILED
    if out_of_memory(error):
        release_reserve()
        status = OUT_OF_MEMORY
    return status, traceback.format_exc()


def release_reserve() -> None:
    """The memory limit was reached: the way out (a traceback, the terminal restored) may use what was kept back."""
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
    except (MemoryError, ValueError, OSError):
        pass


def run(config: ChildConfig, link_fd: int) -> int:
    """Set the process up as a session's terminal program and run the app; the exit status.

    Never raises, never shows a traceback: whatever goes wrong is a report to the server and an exit status.
    """
    report_fd = os.dup(link_fd)  # the app closes the link as it exits; a crash report still needs a way out
    try:
        take_terminal()
        settle_in(config)
        if config.line_mode:
            from .line_session import run_in_lines

            status, errors = run_in_lines(config, link_fd)
        else:
            from ..screens.solver_work import solve_in_idle_time

            solve_in_idle_time()
            status, errors = _run_app(config, link_fd)
    except Exception as error:  # noqa: BLE001 - the terminal is a player's: never a traceback
        status, errors = failed_with(error)
    if status:
        report_crash(report_fd, errors)
    os.close(report_fd)
    return status


class PreparedApp:
    """A session's app, built to run: its errors kept for the crash report, and whether memory ran out under it."""

    def __init__(self, app: ChildApp, errors: io.StringIO) -> None:
        self.app = app
        self.errors = errors
        self.memory_ran_out = False

    def outcome(self) -> tuple[int, str]:
        """The exit status the app's end gives, and what it reported."""
        status = self.app.return_code or 0
        return (OUT_OF_MEMORY if status and self.memory_ran_out else status), self.errors.getvalue()


def prepared_app(config: ChildConfig, link_fd: int, app_class: type[ChildApp] | None = None,
                 **options: Any) -> PreparedApp:
    """The app of a session of ``config`` talking over ``link_fd`` (``app_class``, with ``options``; a
    ``ChildApp`` by default), its errors kept and the memory reserve released if memory runs out."""
    from rich.console import Console

    from ..compat.textual_internals import before_app_errors
    from .child_app import ChildApp
    from .rehearsal import take_rehearsed_stylesheet

    app = (app_class or ChildApp)(name=config.name, link=socket.socket(fileno=link_fd),
                                  ascii_mode=config.ascii_mode, computer_pause=config.computer_pause,
                                  reveal_pause=config.reveal_pause, **options)
    take_rehearsed_stylesheet(app)  # the zygote's, parsed once (none in a child of --spawn exec)
    app.activity_every = config.activity_every
    errors = io.StringIO()
    app.error_console = Console(file=errors, width=100, color_system=None, markup=False, highlight=False)
    prepared = PreparedApp(app, errors)

    def on_error(error: Exception) -> None:
        """Before the app's own handling of an error it did not expect: the reserve released if memory ran out."""
        if out_of_memory(error):
            release_reserve()
            prepared.memory_ran_out = True

    before_app_errors(app, on_error)
    return prepared


def _run_app(config: ChildConfig, link_fd: int) -> tuple[int, str]:
    prepared = prepared_app(config, link_fd)
    prepared.app.run()
    return prepared.outcome()


def report_crash(report_fd: int, text: str) -> None:
    """Send the traceback to the server's log, never to the player's screen."""
    try:
        with socket.socket(fileno=os.dup(report_fd)) as sock:
            sock.settimeout(2.0)
            sock.sendall(encode(CrashReport(text[-CRASH_REPORT_LIMIT:])))
    except OSError:
        pass


def main(argv: list[str]) -> int:
    """``python -m soluna_tui.online.child CONFIG_JSON LINK_FD`` (the exec way of starting a child)."""
    return run(ChildConfig.from_json(argv[0]), int(argv[1]))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
