"""Runs in the zygote.

A warm process that forks session children, so Textual and the app are imported once, here.

Started by the server as ``python -m soluna_tui.online.zygote FD`` (FD: a
``SOCK_SEQPACKET`` socket). It imports the app and says ``ready``; then for each
``spawn`` request (the terminal and link descriptors travel with it) it forks a
child, and answers with the child's pid and a pidfd, so the server can signal
and watch the child without any pid-reuse race. It reaps its children and
reports how each ended. When the server goes away it ends every child and exits.

It stays single-threaded (forking is only safe so) and its environment is the
server's choice, never a client's: Textual reads some settings once, at import.
"""

from __future__ import annotations

import gc
import json
import os
import selectors
import signal
import socket
import sys
import time
from collections.abc import Callable

from ..link.child_config import ChildConfig
from .child import run

STOP_GRACE = 2.0


def preload(rehearsed: bool = True) -> None:
    """Import everything a child needs: Textual, the app, its screens and widgets; then, with ``rehearsed``, play a
    session headless (``rehearsal.py``), so what every session would build the same way is built once, here.

    Then freeze what there is out of the garbage collector's sight: children never pay to scan
    it again, and its pages stay shared between them (a collection would write to every object).
    """
    from ..app.soluna_app import preload as preload_app
    from . import child_app  # noqa: F401  (imported for what it imports)

    preload_app()  # the screens the app imports when first used, so no session imports them itself
    if rehearsed:
        from .rehearsal import rehearse

        try:
            rehearse()
        except Exception as error:  # noqa: BLE001 - sessions start without the rehearsal's gain, as before it
            print(f"soluna: the zygote's rehearsal failed ({type(error).__name__}: {error}); sessions start "
                  "without it", file=sys.stderr)
    gc.collect()
    gc.freeze()


class Zygote:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.children: set[int] = set()
        self.selector = selectors.DefaultSelector()
        self.wake_read, self.wake_write = os.pipe()
        os.set_blocking(self.wake_read, False)
        os.set_blocking(self.wake_write, False)

    def send(self, message: dict[str, object], fds: list[int] | tuple[int, ...] = ()) -> None:
        socket.send_fds(self.sock, [json.dumps(message).encode()], list(fds))

    def serve(self) -> None:
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.signal(signal.SIGTERM, lambda *_: None)
        signal.set_wakeup_fd(self.wake_write)
        self.selector.register(self.sock, selectors.EVENT_READ)
        self.selector.register(self.wake_read, selectors.EVENT_READ)
        self.send({"op": "ready"})
        while True:
            for key, _ in self.selector.select():
                if key.fileobj is self.sock:
                    if not self._request():
                        self._shutdown()
                        return
                else:
                    if signal.SIGTERM in os.read(self.wake_read, 512):
                        self._shutdown()
                        return
                    self._reap()

    def _request(self) -> bool:
        """Handle one request; ``False`` once the server has gone."""
        try:
            data, fds, _, _ = socket.recv_fds(self.sock, 65536, 4)
        except OSError:
            return False
        if not data:
            return False
        try:
            request = json.loads(data)
            operation, config = request.get("op"), ChildConfig(**request.get("config", {}))
            if operation == "spawn" and len(fds) == 2:
                self._spawn(request["ref"], lambda: self._become_child(config, fds[0], fds[1]))
            elif operation == "house" and len(fds) == 1:
                self._spawn(request["ref"], lambda: self._become_house(config, fds[0]))
            else:
                self.send({"op": "failed", "ref": request.get("ref"), "error": "a malformed request"})
        except (ValueError, TypeError, KeyError) as error:
            self.send({"op": "failed", "ref": None, "error": f"a malformed request: {error}"})
        finally:
            for fd in fds:
                os.close(fd)
        return True

    def _spawn(self, ref: int, become: Callable[[], None]) -> None:
        """Fork a process that runs ``become`` (which never returns) and tell the server its pid and a pidfd."""
        try:
            pid = os.fork()
        except OSError as error:
            self.send({"op": "failed", "ref": ref, "error": f"cannot fork: {error.strerror}"})
            return
        if pid == 0:
            become()
        self.children.add(pid)
        pidfd = os.pidfd_open(pid)  # the child cannot have been reaped yet: only this process reaps it
        try:
            self.send({"op": "spawned", "ref": ref, "pid": pid}, [pidfd])
        finally:
            os.close(pidfd)

    def _leave_the_zygote(self) -> None:
        """In a forked process: drop the zygote's state and start a session of its own."""
        signal.set_wakeup_fd(-1)
        for number in (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(number, signal.SIG_DFL)
        self.selector.close()
        self.sock.close()
        os.close(self.wake_read)
        os.close(self.wake_write)
        os.setsid()

    def _become_house(self, config: ChildConfig, control_fd: int) -> None:
        """In the forked house: drop the zygote's state, serve the sessions the server brings; never returns."""
        status = 1
        try:
            self._leave_the_zygote()
            from .house import run as run_house

            status = run_house(config, control_fd)
        finally:
            os._exit(status)

    def _become_child(self, config: ChildConfig, terminal_fd: int, link_fd: int) -> None:
        """In the forked child: drop the zygote's state, take the terminal, run the app; never returns."""
        status = 1
        try:
            self._leave_the_zygote()
            for target in (0, 1, 2):
                os.dup2(terminal_fd, target)
            os.close(terminal_fd)
            status = run(config, link_fd)
        finally:
            os._exit(status)

    def _reap(self) -> None:
        while self.children:
            try:
                pid, wait_status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            self.children.discard(pid)
            try:
                self.send({"op": "exited", "pid": pid, "status": os.waitstatus_to_exitcode(wait_status)})
            except OSError:
                pass  # the server has gone; the children are being ended anyway

    def _shutdown(self) -> None:
        """End every child: politely, then firmly; reap them all."""
        for number in (signal.SIGTERM, signal.SIGKILL):
            for pid in list(self.children):
                try:
                    os.kill(pid, number)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + STOP_GRACE
            while self.children and time.monotonic() < deadline:
                self._reap()
                time.sleep(0.02)


def main(argv: list[str]) -> int:
    sock = socket.socket(fileno=int(argv[0]))
    preload()
    try:
        Zygote(sock).serve()
    except (BrokenPipeError, ConnectionResetError):
        return 0  # the server went away (stopped before it heard us): nothing left to serve, nothing to say
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
