"""Zygotes forked from one warm process a test worker keeps, instead of a fresh Python for each test's server.

A server's zygote imports Textual and the app before it forks a session's child: 1.2 CPU-seconds, paid by each of
the suite's few hundred servers. Here one process a worker (the mother) imports them once, and each server's zygote
is forked from it, warm, in milliseconds. The zygote it becomes runs the server's own code (``Zygote.serve``) on the
socket the server handed over, as the one ``soluna serve`` starts does; only its start differs. The zygote's own start
is tested where it matters (``tests/server/test_child_process.py`` and every test running ``soluna serve`` as a
process keep the real one).

Run as ``python -m tests.warm_zygotes FD`` by ``forked_zygote_spawner``; it ends when the worker's end of FD closes.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

from soluna_tui.server.sessions.spawn import READY_TIMEOUT, ZygoteSpawner, base_environment
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


class Mother:
    """A warm process of this worker, started when a server first asks for a zygote in its environment."""

    def __init__(self, environment: dict[str, str]) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.process = subprocess.Popen([sys.executable, "-m", "tests.warm_zygotes", str(theirs.fileno())],
                                        pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, start_new_session=True, env=environment, cwd=ROOT)
        theirs.close()
        ours.settimeout(READY_TIMEOUT)  # the first answer waits for the mother's imports
        self.sock = ours
        self.lock = threading.Lock()
        atexit.register(self.close)

    def fork_zygote(self, theirs: socket.socket) -> ForkedZygote:
        """A zygote serving ``theirs`` (the server keeps the other end)."""
        with self.lock:
            socket.send_fds(self.sock, [b"fork"], [theirs.fileno()])
            data, fds, _, _ = socket.recv_fds(self.sock, 1024, 1)
        if not data or not fds:
            raise OSError("the warm zygotes' mother has gone")
        return ForkedZygote(json.loads(data)["pid"], fds[0])

    def close(self) -> None:
        atexit.unregister(self.close)
        self.sock.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


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


def close_mothers() -> None:
    """End this worker's mothers and reap them (their CPU time, and their zygotes', counts as the run's)."""
    while _mothers:
        _mothers.popitem()[1].close()


def warm(server: SolunaServer) -> SolunaServer:
    """``server`` with its zygote forked warm (unless it starts its children with ``exec``)."""
    if server.config.spawn == "zygote":
        server.spawner = ForkedZygoteSpawner()
    return server


# ---- the mother ----------------------------------------------------------------------------------------------


def _reap(*_: object) -> None:
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _become_zygote(server_end: int, mother_end: socket.socket) -> None:
    """In the forked zygote: the mother's state dropped, a session of its own, then the zygote's loop; never returns."""
    from soluna_tui.online.zygote import Zygote

    status = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
        mother_end.close()
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

    sock = socket.socket(fileno=int(argv[0]))
    preload()
    signal.signal(signal.SIGCHLD, _reap)
    while True:
        data, fds, _, _ = socket.recv_fds(sock, 1024, 1)
        if not data:
            return 0  # the worker has gone
        if len(fds) != 1:
            for fd in fds:
                os.close(fd)
            continue
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})  # not reaped before its pidfd is open
        pid = os.fork()
        if pid == 0:
            _become_zygote(fds[0], sock)
        os.close(fds[0])
        try:
            pidfd = os.pidfd_open(pid)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
        try:
            socket.send_fds(sock, [json.dumps({"pid": pid}).encode()], [pidfd])
        finally:
            os.close(pidfd)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
