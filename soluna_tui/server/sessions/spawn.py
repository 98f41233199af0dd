"""Runs in the server process.

Starting, signalling and reaping session children, from the server's event loop.

Two ways to start one, chosen with ``soluna serve --spawn``: ``zygote`` (default)
asks a warm process with the app imported to fork it (fast, and the pages of
Textual are shared between children); ``exec`` starts a fresh Python each time
(slower and heavier, but nothing is shared). Either way the server holds a
handle that can end the child (terminate, then kill) and knows when it is reaped.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from ...link.child_config import CHILD_MODULE, ZYGOTE_MODULE, ChildConfig

log = logging.getLogger("soluna.server")

STOP_GRACE = 2.0
REPORT_WAIT = 2.0
READY_TIMEOUT = 60.0
SPAWN_TIMEOUT = 15.0


class SpawnError(ValueError):
    """A child could not be started."""


def base_environment() -> dict[str, str]:
    """What every child's environment starts from: a UTF-8 locale, a plain PATH, the server's PYTHONPATH."""
    environment = {"PATH": os.defpath, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    python_path = os.environ.get("PYTHONPATH")
    if python_path:
        environment["PYTHONPATH"] = os.pathsep.join(str(Path(part).resolve()) for part in python_path.split(os.pathsep)
                                                    if part)
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
    return environment


class Child:
    """A running child: its pid, a way to signal it, its exit status once it is reaped."""

    pid: int

    def signal(self, number: int) -> None:
        raise NotImplementedError

    async def wait(self) -> int | None:
        """The exit status once the child is reaped (negative: the signal that ended it; None: unknown)."""
        raise NotImplementedError

    @property
    def running(self) -> bool:
        raise NotImplementedError

    def resized(self) -> None:
        """Its terminal has a new size (a child of its own hears of it from the terminal itself)."""

    async def stop(self, grace: float = STOP_GRACE) -> int | None:
        """End the child: terminate, and kill it if it has not gone after ``grace`` seconds; then reap."""
        if self.running:
            self.signal(signal.SIGTERM)
            try:
                return await asyncio.wait_for(asyncio.shield(self.wait()), grace)
            except TimeoutError:
                self.signal(signal.SIGKILL)
        return await asyncio.wait_for(self.wait(), grace + REPORT_WAIT)


class ExecChild(Child):
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.pid = process.pid

    def signal(self, number: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(number)

    @property
    def running(self) -> bool:
        return self.process.returncode is None

    async def wait(self) -> int | None:
        return await self.process.wait()


class ForkedChild(Child):
    """A child of the zygote, watched through a pidfd; the zygote reaps it and reports the status."""

    def __init__(self, pid: int, pidfd: int, report: asyncio.Future[int]) -> None:
        self.pid = pid
        self.pidfd = pidfd
        self.report = report
        loop = asyncio.get_running_loop()
        self._gone = loop.create_future()
        loop.add_reader(pidfd, self._exited)

    def _exited(self) -> None:
        asyncio.get_running_loop().remove_reader(self.pidfd)
        if not self._gone.done():
            self._gone.set_result(None)

    def signal(self, number: int) -> None:
        if self.pidfd >= 0 and not self._gone.done():
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self.pidfd, number)

    @property
    def running(self) -> bool:
        return not self._gone.done()

    async def wait(self) -> int | None:
        await asyncio.shield(self._gone)
        try:
            return await asyncio.wait_for(asyncio.shield(self.report), REPORT_WAIT)
        except TimeoutError:
            return None  # the zygote is gone; init reaps the orphan
        finally:
            self.close()

    def close(self) -> None:
        if self.pidfd >= 0:
            with contextlib.suppress(ValueError):
                asyncio.get_running_loop().remove_reader(self.pidfd)
            os.close(self.pidfd)
            self.pidfd = -1
            if not self._gone.done():
                self._gone.set_result(None)


class Spawner:
    async def start(self) -> None:
        """Get ready to start children (the zygote imports the app here)."""

    async def spawn(self, terminal_fd: int, link_fd: int, config: ChildConfig) -> Child:
        """A child on ``terminal_fd`` (its standard streams) talking over ``link_fd``; the caller keeps both."""
        raise NotImplementedError

    async def close(self) -> None:
        """Stop starting children (the zygote ends any left)."""


class ExecSpawner(Spawner):
    async def spawn(self, terminal_fd: int, link_fd: int, config: ChildConfig) -> Child:
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", CHILD_MODULE, config.to_json(), str(link_fd),
                stdin=terminal_fd, stdout=terminal_fd, stderr=terminal_fd, pass_fds=(link_fd,),
                start_new_session=True, env=config.environment, cwd="/",
            )
        except OSError as error:
            raise SpawnError(f"cannot start a child: {error.strerror or error}") from None
        return ExecChild(process)


class ZygoteSpawner(Spawner):
    def __init__(self) -> None:
        self._process: asyncio.subprocess.Process | None = None
        self._sock: socket.socket | None = None
        self._ready: asyncio.Future[None] | None = None
        self._pending: dict[int, asyncio.Future[tuple[int, int]]] = {}
        self._reports: dict[int, asyncio.Future[int]] = {}
        self._refs = itertools.count(1)
        self._starting: asyncio.Lock | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def start(self) -> None:
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self._sock is not None:
                return
            await self._launch()

    async def _launch(self) -> None:
        loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self._process = await self._start_zygote(theirs)
        except OSError as error:
            ours.close()
            raise SpawnError(f"cannot start the zygote: {error.strerror or error}") from None
        finally:
            theirs.close()
        ours.setblocking(False)
        self._sock = ours
        self._ready = loop.create_future()
        loop.add_reader(ours, self._readable)
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), READY_TIMEOUT)
        except (TimeoutError, SpawnError):
            self._lost()
            raise SpawnError("the zygote did not start (see the log above)") from None
        log.info("zygote %d ready", self._process.pid)

    async def _start_zygote(self, theirs: socket.socket) -> asyncio.subprocess.Process:
        """The zygote's process, its end of the socket (``theirs``) handed to it; it says ``ready`` once warm."""
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", ZYGOTE_MODULE, str(theirs.fileno()),
            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            start_new_session=True, env=base_environment(), cwd="/",
        )

    def _readable(self) -> None:
        if self._sock is None or self._ready is None:  # closed under a reading already queued
            return
        try:
            data, fds, _, _ = socket.recv_fds(self._sock, 65536, 2)
        except BlockingIOError:
            return
        except OSError:
            data, fds = b"", []
        if not data:
            for fd in fds:
                os.close(fd)
            self._lost()
            return
        message = json.loads(data)
        operation = message.get("op")
        if operation == "ready":
            self._ready.set_result(None)
        elif operation == "spawned":
            pid = message["pid"]
            self._reports[pid] = asyncio.get_running_loop().create_future()
            self._resolve(message.get("ref"), (pid, fds[0]))
        elif operation == "failed":
            self._resolve(message.get("ref"), SpawnError(message.get("error", "the zygote refused")))
        elif operation == "exited":
            report = self._reports.pop(int(message["pid"]), None)
            if report is not None and not report.done():
                report.set_result(message["status"])

    def _resolve(self, ref: int | None, outcome: tuple[int, int] | Exception) -> None:
        future = self._pending.pop(ref, None) if ref is not None else None
        if future is None or future.done():
            if isinstance(outcome, tuple):
                os.close(outcome[1])
            return
        if isinstance(outcome, Exception):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)

    def _lost(self) -> None:
        """The zygote has gone: fail what waits on it; the next spawn starts a new one."""
        if self._sock is None:
            return
        asyncio.get_running_loop().remove_reader(self._sock)
        self._sock.close()
        self._sock = None
        if self._ready is not None and not self._ready.done():
            self._ready.set_exception(SpawnError("the zygote exited"))
        for future in self._pending.values():
            if not future.done():
                future.set_exception(SpawnError("the zygote exited"))
        self._pending.clear()
        log.warning("the zygote has exited; a new one starts with the next session")

    async def spawn(self, terminal_fd: int, link_fd: int, config: ChildConfig) -> Child:
        return await self.fork("spawn", config, [terminal_fd, link_fd])

    async def fork(self, operation: str, config: ChildConfig, fds: list[int]) -> ForkedChild:
        """Ask the zygote to fork: a session's child (``spawn``, with its terminal and link) or a house of
        sessions (``house``, with its end of the house's socket; ``house.py``)."""
        if self._sock is None:
            await self.start()
        ref = next(self._refs)
        future: asyncio.Future[tuple[int, int]] = asyncio.get_running_loop().create_future()
        self._pending[ref] = future
        request = {"op": operation, "ref": ref, "config": json.loads(config.to_json())}
        if self._sock is None:
            raise SpawnError("the zygote is not running")
        try:
            socket.send_fds(self._sock, [json.dumps(request).encode()], fds)
        except OSError as error:
            self._pending.pop(ref, None)
            raise SpawnError(f"cannot reach the zygote: {error.strerror or error}") from None
        try:
            pid, pidfd = await asyncio.wait_for(future, SPAWN_TIMEOUT)
        except TimeoutError:
            self._pending.pop(ref, None)
            raise SpawnError("the zygote did not answer in time") from None
        return ForkedChild(pid, pidfd, self._reports.get(pid) or asyncio.get_running_loop().create_future())

    async def close(self) -> None:
        self._lost_quietly()
        if self._process is not None and self._process.returncode is None:
            try:
                await asyncio.wait_for(self._process.wait(), 10)
            except TimeoutError:
                self._process.kill()
                await self._process.wait()

    def _lost_quietly(self) -> None:
        if self._sock is not None:
            asyncio.get_running_loop().remove_reader(self._sock)
            self._sock.close()
            self._sock = None
