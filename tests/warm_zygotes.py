"""Zygotes forked from one warm process a test worker keeps, instead of a fresh Python for each test's server.

A server's zygote imports Textual and the app before it forks a session's child: 1.2 CPU-seconds, paid by each of
the suite's few hundred servers. Here one process a worker (the mother) imports them once, and each server's zygote
is forked from it, warm, in milliseconds. The zygote it becomes runs the server's own code (``Zygote.serve``) on the
socket the server handed over, as the one ``soluna serve`` starts does; only its start differs. The zygote's own start
is tested where it matters: ``tests/server/test_child_process.py``, and ``served(..., real_zygote=True)`` where a
test is about what ``soluna serve`` and its zygote print (``test_quiet_stderr.py``).

``soluna serve`` run as a process by a test (``served`` in ``tests/server/helpers.py``: a fleet, signals, its log)
gets its zygote from the same mother: it runs as ``python -m tests.warm_zygotes serve ADDRESS ARGS...`` (``soluna
serve ARGS...`` with a ``ServedZygoteSpawner``), and asks the mother at ADDRESS, a Unix socket, for its zygote; the
zygote writes its lines to that server's stderr, as one the server starts does (0.4-0.5 CPU-seconds a server saved:
a fleet test starts two).

Run as ``python -m tests.warm_zygotes FD LISTENER`` by ``Mother``; it ends when the worker's end of FD closes.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import select
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from soluna_tui.server.sessions.houses import HouseSpawner
from soluna_tui.server.sessions.spawn import READY_TIMEOUT, Spawner, ZygoteSpawner, base_environment
from soluna_tui.server.ssh.ssh_server import SolunaServer

ROOT = Path(__file__).resolve().parent.parent


class ForkedZygote:
    """A zygote forked by the mother, as much of ``asyncio.subprocess.Process`` as ``ZygoteSpawner`` uses: the mother
    reaps it, this process watches it through a pidfd."""

    def __init__(self, pid: int, pidfd: int) -> None:
        self.pid = pid
        self.pidfd = pidfd
        self.returncode: int | None = None

    def _check(self) -> None:
        if self.returncode is None and select.select([self.pidfd], [], [], 0)[0]:
            self.returncode = 0  # gone; its status went to the mother
            os.close(self.pidfd)

    async def wait(self) -> int:
        self._check()
        if self.returncode is None:
            loop = asyncio.get_running_loop()
            gone = loop.create_future()
            loop.add_reader(self.pidfd, lambda: gone.done() or gone.set_result(None))
            try:
                await gone
            finally:
                loop.remove_reader(self.pidfd)
            self._check()
        assert self.returncode is not None
        return self.returncode

    def kill(self) -> None:
        self._check()
        if self.returncode is None:
            signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)


def ask_for_zygote(sock: socket.socket, theirs: socket.socket, stderr: int | None = None) -> ForkedZygote:
    """A zygote forked by the mother at the other end of ``sock``, serving ``theirs`` (the server keeps the other
    end); with ``stderr``, its lines go there."""
    socket.send_fds(sock, [b"fork"], [theirs.fileno(), *([stderr] if stderr is not None else [])])
    data, fds, _, _ = socket.recv_fds(sock, 1024, 1)
    if not data or not fds:
        raise OSError("the warm zygotes' mother has gone")
    return ForkedZygote(json.loads(data)["pid"], fds[0])


class Mother:
    """A warm process of this worker, started when a server first asks for a zygote in its environment; ``address``:
    where the ``soluna serve`` processes the worker's tests start ask it for theirs."""

    def __init__(self, environment: dict[str, str]) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.folder = tempfile.mkdtemp(prefix="soluna-mother-")
        self.address = os.path.join(self.folder, "mother")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        listener.bind(self.address)
        listener.listen()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.warm_zygotes", str(theirs.fileno()), str(listener.fileno())],
            pass_fds=(theirs.fileno(), listener.fileno()), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            start_new_session=True, env=environment, cwd=ROOT)
        theirs.close()
        listener.close()
        ours.settimeout(READY_TIMEOUT)  # the first answer waits for the mother's imports
        self.sock = ours
        self.lock = threading.Lock()
        atexit.register(self.close)

    def fork_zygote(self, theirs: socket.socket) -> ForkedZygote:
        """A zygote serving ``theirs`` (the server keeps the other end)."""
        with self.lock:
            return ask_for_zygote(self.sock, theirs)

    def close(self) -> None:
        atexit.unregister(self.close)
        self.sock.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        with contextlib.suppress(OSError):
            os.unlink(self.address)
            os.rmdir(self.folder)


#: The mothers by the environment they (and the zygotes they fork) were started in: a test that changes what a
#: zygote imports (its PYTHONPATH) gets a mother of its own, as it would get a fresh zygote.
_mothers: dict[tuple[tuple[str, str], ...], Mother] = {}
_starting = threading.Lock()


def mother() -> Mother:
    environment = base_environment()
    key = tuple(sorted(environment.items()))
    with _starting:
        found = _mothers.get(key)
        if found is None or found.process.poll() is not None:
            found = _mothers[key] = Mother(environment)
        return found


class ForkedZygoteSpawner(ZygoteSpawner):
    """The server's zygote spawner, its zygote forked warm from this worker's mother."""

    async def _start_zygote(self, theirs: socket.socket) -> ForkedZygote:  # type: ignore[override]
        chosen = mother()  # in this thread: base_environment() reads this process's environment
        return await asyncio.to_thread(chosen.fork_zygote, theirs)


class ForkedHouseSpawner(HouseSpawner):
    """The server's spawner of houses of sessions, its zygote forked warm from this worker's mother."""

    _start_zygote = ForkedZygoteSpawner._start_zygote


def close_mothers() -> None:
    """End this worker's mothers and reap them (their CPU time, and their zygotes', counts as the run's)."""
    while _mothers:
        _mothers.popitem()[1].close()


def warm(server: SolunaServer) -> SolunaServer:
    """``server`` with its zygote forked warm (unless it starts its children with ``exec``)."""
    if server.config.spawn == "zygote":
        capacity = server.config.limits.sessions_per_process
        server.spawner = ForkedHouseSpawner(capacity) if capacity > 1 else ForkedZygoteSpawner()
    return server


def mother_address() -> str:
    """Where a ``soluna serve`` this worker starts asks for its zygote (``served``): the address of the mother for
    this worker's environment, started if need be."""
    return mother().address


# ---- a soluna serve process --------------------------------------------------------------------------------------


class ServedZygoteSpawner(ZygoteSpawner):
    """In a ``soluna serve`` process a test started: its zygote forked by the test worker's mother at ``address``,
    its stderr this process's, as a zygote this process started would have it."""

    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address

    async def _start_zygote(self, theirs: socket.socket) -> ForkedZygote:  # type: ignore[override]
        def ask() -> ForkedZygote:
            with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as sock:
                sock.settimeout(READY_TIMEOUT)
                sock.connect(self.address)
                return ask_for_zygote(sock, theirs, sys.stderr.fileno())

        return await asyncio.to_thread(ask)


class ServedHouseSpawner(HouseSpawner):
    """``ServedZygoteSpawner``'s zygote, seating sessions in houses (``--sessions-per-process``)."""

    def __init__(self, address: str, capacity: int) -> None:
        super().__init__(capacity)
        self.address = address

    _start_zygote = ServedZygoteSpawner._start_zygote


def serve(address: str, argv: list[str]) -> int:
    """``soluna serve ARGV...``, its zygote (with ``--spawn zygote``, the default) forked warm by the mother at
    ``address``."""
    from soluna_tui import cli
    from soluna_tui.server.ssh import ssh_server

    made = ssh_server.make_spawner
    def spawner(mode: str, sessions_per_process: int = 1) -> ZygoteSpawner | Spawner:
        if mode != "zygote":
            return made(mode, sessions_per_process)
        if sessions_per_process > 1:
            return ServedHouseSpawner(address, sessions_per_process)
        return ServedZygoteSpawner(address)

    ssh_server.make_spawner = spawner
    return cli.main(["serve", *argv])


# ---- the mother ----------------------------------------------------------------------------------------------


def _reap(*_: object) -> None:
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _become_zygote(server_end: int, stderr: int | None, ends: selectors.BaseSelector) -> None:
    """In the forked zygote: the mother's state dropped, a session of its own, then the zygote's loop; never returns."""
    from soluna_tui.online.zygote import Zygote

    status = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
        for end in list(ends.get_map().values()):  # the mother's sockets: the worker's, the listener, the askers'
            end.fileobj.close()  # type: ignore[union-attr]
        ends.close()
        if stderr is not None:  # the server's, as if it had started this zygote
            os.dup2(stderr, 2)
            os.close(stderr)
        os.setsid()
        os.chdir("/")
        try:
            Zygote(socket.socket(fileno=server_end)).serve()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server went away before it heard us
        status = 0
    finally:
        os._exit(status)


def main(argv: list[str]) -> int:
    from soluna_tui.online.zygote import preload

    if argv[0] == "serve":
        return serve(argv[1], argv[2:])
    worker = socket.socket(fileno=int(argv[0]))
    listener = socket.socket(fileno=int(argv[1]))
    preload()
    signal.signal(signal.SIGCHLD, _reap)
    ends = selectors.DefaultSelector()
    ends.register(worker, selectors.EVENT_READ)
    ends.register(listener, selectors.EVENT_READ)
    while True:
        for key, _events in ends.select():
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            if sock is listener:
                ends.register(listener.accept()[0], selectors.EVENT_READ)  # a soluna serve process asking
                continue
            data, fds, _, _ = socket.recv_fds(sock, 1024, 2)
            if not data:
                if sock is worker:
                    return 0  # the worker has gone
                ends.unregister(sock)
                sock.close()
                continue
            if not 1 <= len(fds) <= 2:
                for fd in fds:
                    os.close(fd)
                continue
            _fork(sock, fds, ends)


def _fork(asking: socket.socket, fds: list[int], ends: selectors.BaseSelector) -> None:
    """A zygote on ``fds`` (its socket to the server, and the server's stderr if given), told to ``asking``."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})  # not reaped before its pidfd is open
    pid = os.fork()
    if pid == 0:
        _become_zygote(fds[0], fds[1] if len(fds) > 1 else None, ends)
    for fd in fds:
        os.close(fd)
    try:
        pidfd = os.pidfd_open(pid)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
    try:
        socket.send_fds(asking, [json.dumps({"pid": pid}).encode()], [pidfd])
    finally:
        os.close(pidfd)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
