"""Runs in a house: a process the zygote forks to run several SSH sessions' apps side by side, on one event loop.

Why: a session forked alone writes to about 17 MiB of the zygote's pages (Python 3.11 writes a reference count on
every object it touches, and the code it runs), so each of them gets a private copy of those pages. Sessions that
share a process share those copies too: a session in a house costs its own objects, and its share of one copy
(docs/benchmarks.md, "Sessions in houses"). ``soluna serve --sessions-per-process N`` sets how many; 1 forks each
session alone, as before.

What a session gives up by living in a house: the memory limit is the house's (the sum of its sessions'), the CPU
limit is the house's and counts its sessions' time together, and a crash of the process (not of an app: that
ends its own session only) ends every session in it. The server keeps sessions of different terminals (their
environments differ) in different houses, and a house ends when its last session has.

The server talks to its house over a ``SOCK_SEQPACKET`` socket: ``session`` (a config, with the terminal and link
descriptors) is answered ``started``; ``resize`` says a session's terminal has a new size (a process can have one
controlling terminal only: no ``SIGWINCH`` reaches a house); ``end`` asks a session's app to leave, or with
``force`` ends it at once; ``close`` ends the house. The house says ``ended`` with each session's exit status.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any

from textual.drivers.linux_driver import LinuxDriver

from ..compat.textual_internals import OwnTerminalDriver, app_driver, print_to_the_process
from ..link.child_config import FAILED, ChildConfig
from ..rules.solver import use_own_solver
from ..terminal.driver import compact_driver
from .child import failed_with, prepared_app, report_crash, settle_in
from .child_app import ChildApp

#: Exit statuses of a session ended at once (``end`` with ``force``), as a killed child's would read.
ENDED_AT_ONCE = -9
#: Seconds a session's app has to leave when the house is closed, before its task is cancelled.
LEAVE_GRACE = 2.0
#: The largest request the server sends (a config), in bytes.
REQUEST_LIMIT = 65536


class TerminalWriter:
    """What an app writes to its terminal, handed to the terminal as fast as it takes it and never waited for.

    What the app writes while it runs (a frame's pieces) goes out together once it yields to the loop: one write
    to the terminal a frame, as Textual's writer thread flushes once its queue is empty.

    Textual's driver writes from a thread that waits while the terminal is full, and makes the app wait once 30
    writes are queued: in a process of its own, a player whose client stops reading stops only their own app. In a
    house the app's event loop is every housemate's, so here nothing waits: the bytes go out as the terminal takes
    them (the descriptor non-blocking, the loop told when it can take more). Past ``BACKLOG_LIMIT`` bytes unsent,
    further frames are dropped, and once the backlog has gone out the app draws its screen afresh
    (``repaint``): the player sees the screen as it is now, the frames between were never needed.
    """

    #: Bytes waiting for the terminal past which frames are dropped (a few whole screens).
    BACKLOG_LIMIT = 256 * 1024
    #: The most handed to the terminal at once.
    CHUNK = 65536

    def __init__(self, fd: int, repaint: Callable[[], None]) -> None:
        self.fd = fd
        self.repaint = repaint
        self.loop = asyncio.get_running_loop()
        self.loop_thread = threading.get_ident()
        self.backlog = bytearray()
        self.watching = False
        self.dropped = False
        self.closed = False
        self.unfinished = False
        self.sending_soon = False
        self.closing = False
        os.set_blocking(fd, False)

    def write(self, text: str) -> None:
        if threading.get_ident() != self.loop_thread:
            self.loop.call_soon_threadsafe(self.write, text)
            return
        if self.closed:
            return
        if len(self.backlog) > self.BACKLOG_LIMIT:
            self.dropped = True
            return
        self.backlog += text.encode("utf-8", "backslashreplace")
        if not self.watching and not self.sending_soon:  # a frame's pieces go out together, once the app yields
            self.sending_soon = True
            self.loop.call_soon(self._send_soon)

    def _send_soon(self) -> None:
        self.sending_soon = False
        self._send()

    def flush(self) -> None:
        """Nothing to do: what was written has been handed to the terminal, or waits for it to take more."""

    def _send(self) -> None:
        while self.backlog and not self.closed:
            try:
                sent = os.write(self.fd, self.backlog[:self.CHUNK])
            except BlockingIOError:
                break
            except OSError:  # the terminal has gone (the session is ending): nothing more to show
                self.close()
                return
            del self.backlog[:sent]
        if self.backlog and not self.watching:
            self.loop.add_writer(self.fd, self._send)
            self.watching = True
        elif not self.backlog:
            if self.watching:
                self.loop.remove_writer(self.fd)
                self.watching = False
            if self.dropped:
                self.dropped = False
                self.repaint()

    def close(self) -> None:
        if self.closed or self.closing:
            return
        self.closing = True
        self._send()  # what the app wrote last (its terminal restored), if the terminal takes it now
        if self.watching:
            self.loop.remove_writer(self.fd)
            self.watching = False
        #: Whether the terminal may not have had all the app wrote (its restoring, as the app ended, among it).
        self.unfinished = self.dropped or bool(self.backlog)
        self.closed = True
        self.backlog.clear()


class HouseDriver(OwnTerminalDriver, LinuxDriver):
    """Textual's Linux driver on a session's own terminal (``app.terminal_fd``), writing through a
    ``TerminalWriter``, never stopped by a suspend."""

    def __init__(self, app: Any, *, debug: bool = False, mouse: bool = True, size: tuple[int, int] | None = None
                 ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self.terminal_app = app
        self.terminal_writer = app.terminal_writer = TerminalWriter(app.terminal_fd, self.repaint)
        self.use_terminal(app.terminal_fd, self.terminal_writer)
        for number in (signal.SIGTSTP, signal.SIGCONT):  # Textual's, for a suspend: a house is never stopped
            signal.signal(number, signal.SIG_IGN)

    @property
    def can_suspend(self) -> bool:
        return False  # one session's suspend would stop the whole house

    def write(self, data: str) -> None:
        self.terminal_writer.write(data)

    def repaint(self) -> None:
        """Frames were dropped: the whole screen drawn again (the screen refreshed whole is a full update)."""
        self.terminal_app.screen.refresh()

    def close(self) -> None:
        super().close()
        self.terminal_writer.close()


class HousedApp(ChildApp):
    """A session's app in a house: on its own terminal, and leaving the house's garbage collection alone."""

    FREEZES_WHAT_LASTS = False
    #: What the app's driver writes through (made as it starts).
    terminal_writer: TerminalWriter | None = None

    def __init__(self, *, terminal_fd: int, **options: Any) -> None:
        self.terminal_fd = terminal_fd
        super().__init__(**options)
        print_to_the_process(self)

    def get_driver_class(self) -> type[Any]:
        return compact_driver(HouseDriver)


class HousedSession:
    """One session in the house: its app running in a task, and its exit status told as it ends."""

    def __init__(self, house: House, ref: int, config: ChildConfig, terminal_fd: int, link_fd: int) -> None:
        self.house = house
        self.ref = ref
        self.terminal_fd = terminal_fd
        self.prepared = prepared_app(config, link_fd, HousedApp, terminal_fd=terminal_fd)
        self.report_fd = os.dup(link_fd)  # the app closes the link as it exits; a crash report still needs a way
        self.task = asyncio.get_running_loop().create_task(self.run())

    @property
    def app(self) -> HousedApp:
        app = self.prepared.app
        assert isinstance(app, HousedApp)
        return app

    async def run(self) -> None:
        use_own_solver()  # this task's context, and every task and worker the app starts: its own solver
        errors = ""
        try:
            await self.app.run_async()
            status, errors = self.prepared.outcome()
        except asyncio.CancelledError:
            status = ENDED_AT_ONCE
        except Exception as error:  # noqa: BLE001 - the terminal is a player's: never a traceback
            status, errors = failed_with(error)
        self.app.close_link()  # as the app ends (never mounted: its socket, unused)
        if status > 0:
            report_crash(self.report_fd, errors)
        os.close(self.report_fd)
        loop = asyncio.get_running_loop()
        loop.remove_reader(self.terminal_fd)  # whatever the app left watched, before its number is given again
        loop.remove_writer(self.terminal_fd)
        os.close(self.terminal_fd)
        writer = self.app.terminal_writer
        self.house.ended(self, status, unfinished=writer is not None and writer.unfinished)

    def resized(self) -> None:
        driver = app_driver(self.app)
        if isinstance(driver, HouseDriver):
            driver.terminal_resized()

    def end(self, force: bool) -> None:
        """Ask the app to leave as a child asked to terminate would (``force``: at once)."""
        if force:
            self.task.cancel()
        else:
            self.app.exit()


class House:
    """The sessions of one house and the server's socket that brings them."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.sessions: dict[int, HousedSession] = {}
        self.closed: asyncio.Future[None] | None = None

    def send(self, message: dict[str, object]) -> None:
        with contextlib.suppress(OSError):
            self.sock.send(json.dumps(message).encode())

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        self.closed = loop.create_future()
        self.sock.setblocking(False)
        loop.add_reader(self.sock, self._readable)
        self.send({"op": "ready"})
        await self.closed
        loop.remove_reader(self.sock)
        for session in list(self.sessions.values()):
            session.end(force=False)
        tasks = [session.task for session in self.sessions.values()]
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=LEAVE_GRACE)
            for task in late:
                task.cancel()
            await asyncio.wait(late)

    def _readable(self) -> None:
        try:
            data, fds, _, _ = socket.recv_fds(self.sock, REQUEST_LIMIT, 2)
        except BlockingIOError:
            return
        except OSError:
            data, fds = b"", []
        taken = False
        try:
            if not data:
                self._close()
                return
            request = json.loads(data)
            operation = request.get("op")
            session = self.sessions.get(request.get("session", -1))
            if operation == "session" and len(fds) == 2:
                ref = int(request["ref"])
                self.sessions[ref] = HousedSession(self, ref, ChildConfig(**request["config"]), fds[0], fds[1])
                taken = True
                self.send({"op": "started", "ref": ref})
            elif operation == "resize" and session is not None:
                session.resized()
            elif operation == "end" and session is not None:
                session.end(bool(request.get("force")))
            elif operation == "close":
                self._close()
        except (ValueError, TypeError, KeyError) as error:
            print(f"soluna: a house got a malformed request ({error})", file=sys.stderr)
        finally:
            if not taken:
                for fd in fds:
                    os.close(fd)

    def _close(self) -> None:
        if self.closed is not None and not self.closed.done():
            self.closed.set_result(None)

    def ended(self, session: HousedSession, status: int, unfinished: bool) -> None:
        """``session`` has ended with ``status``; ``unfinished``: its terminal may not be as the app left it."""
        self.sessions.pop(session.ref, None)
        self.send({"op": "ended", "ref": session.ref, "status": status, "unfinished": unfinished})


def run(config: ChildConfig, control_fd: int) -> int:
    """Set the process up as a house of sessions like ``config``'s (its environment, its limits for all of them
    together) and serve the server's requests until it closes the house; the exit status."""
    sock = socket.socket(fileno=control_fd)
    try:
        settle_in(config)
        from ..screens.solver_work import solve_in_idle_time

        solve_in_idle_time()
        asyncio.run(House(sock).serve())
    except Exception:  # noqa: BLE001 - a house's failure is the server's log line, never a player's screen
        print(f"soluna: a house failed:\n{traceback.format_exc()}", file=sys.stderr)
        return FAILED
    finally:
        sock.close()
    return 0

