"""Runs in the server process.

Sessions in houses: ``soluna serve --sessions-per-process N`` forks a house (``online/house.py``) from the zygote
and seats up to N sessions' apps in it, instead of a process each. Sessions whose terminals differ (their
environments: ``TERM``, ``COLORTERM``, ``NO_COLOR``) live in different houses, since a process has one
environment. A house takes no new session once it has used half its CPU time (its limit counts all its
sessions' time together), and is closed when its last session has ended. A session in lines (``screen-reader``)
is forked alone, as with N = 1.

Each session is a ``HousedChild``: ended, waited for and told of its terminal's size through the house's socket.
A house that dies (a crash of the process, its memory limit) ends every session in it with a killed child's
status, so each player is told their game stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import json
import logging
import os
import signal
import socket

from ...link.child_config import ChildConfig
from .spawn import SPAWN_TIMEOUT, STOP_GRACE, Child, ExecSpawner, ForkedChild, Spawner, SpawnError, ZygoteSpawner

log = logging.getLogger("soluna.server")

#: A house's CPU time (of all its sessions' together) past which it takes no new session.
RETIRING_SHARE = 0.5
#: The status of a session whose house died under it (as a child killed would have).
HOUSE_DIED = -signal.SIGKILL
#: The largest message a house sends, in bytes.
MESSAGE_LIMIT = 4096
#: Clock ticks a second, for a house's CPU time in ``/proc``.
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used (user and system), from ``/proc``; 0 if it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


class HousedChild(Child):
    """A session in a house, as the server sees a session's child."""

    def __init__(self, house: House, ref: int) -> None:
        self.house = house
        self.ref = ref
        self.pid = house.pid
        self.status: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        #: The house said the player's terminal may not have had all the app wrote (a client that was not reading).
        self.terminal_unfinished = False

    def signal(self, number: int) -> None:
        """Terminate: the app asked to leave; kill: ended at once (and the house with it if it cannot)."""
        if self.running:
            force = number == signal.SIGKILL
            self.house.send({"op": "end", "session": self.ref, "force": force})
            if force:
                asyncio.get_running_loop().call_later(STOP_GRACE, self._unended)

    def _unended(self) -> None:
        """A session still running after it was ended at once: its house does not answer; it is killed."""
        if self.running:
            log.warning("house %d did not end a session it was told to: killed", self.pid)
            self.house.kill()

    @property
    def running(self) -> bool:
        return not self.status.done()

    async def wait(self) -> int | None:
        return await asyncio.shield(self.status)

    def resized(self) -> None:
        self.house.send({"op": "resize", "session": self.ref})

    def ended(self, status: int | None) -> None:
        if not self.status.done():
            self.status.set_result(status)


class House:
    """A house of sessions: its process, its socket, the sessions in it and those being seated."""

    def __init__(self, key: tuple[tuple[str, str], ...], capacity: int, cpu_limit: float) -> None:
        self.key = key
        self.capacity = capacity
        self.cpu_limit = cpu_limit
        self.process: ForkedChild | None = None
        self.sock: socket.socket | None = None
        self.sessions: dict[int, HousedChild] = {}
        #: Sessions being seated (their places taken from the moment the house was chosen for them), each told
        #: once the house has started it.
        self.seating: dict[int, asyncio.Future[None]] = {}
        self.refs = itertools.count(1)
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closing = False

    @property
    def pid(self) -> int:
        return self.process.pid if self.process is not None else 0

    def has_room(self) -> bool:
        if self.closing or len(self.sessions.keys() | self.seating.keys()) >= self.capacity:
            return False
        return self.process is None or cpu_seconds(self.pid) < self.cpu_limit * RETIRING_SHARE

    async def open(self, spawner: ZygoteSpawner, config: ChildConfig) -> None:
        """Fork the house from the zygote, with its limits those of all its sessions together; wait until ready."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        house_config = dataclasses.replace(config, memory_mb=config.memory_mb * self.capacity,
                                           cpu_seconds=config.cpu_seconds * self.capacity)
        try:
            self.process = await spawner.fork("house", house_config, [theirs.fileno()])
        except SpawnError:
            ours.close()
            self._gone()
            raise
        finally:
            theirs.close()
        ours.setblocking(False)
        self.sock = ours
        loop = asyncio.get_running_loop()
        loop.add_reader(ours, self._readable)
        self.watcher = loop.create_task(self._watch(self.process))  # kept: a task only weakly held would go
        try:
            await asyncio.wait_for(asyncio.shield(self.ready), SPAWN_TIMEOUT)
        except TimeoutError:
            self.kill()
            raise SpawnError("a house did not start in time") from None

    async def _watch(self, process: ForkedChild) -> None:
        """The house's end: every session still in it ends with the house's status (a signal's, as a session's own
        process killed by it would; a killed one's if the status is unknown)."""
        status = await process.wait()
        if self.sessions:
            log.warning("house %d ended (status %s) under %d sessions", process.pid, status, len(self.sessions))
        self._gone(HOUSE_DIED if not status else status)

    def claim(self) -> int:
        """A place in the house for a session about to be seated (``seat``), taken at once: sessions arriving
        together while the house starts are counted against its size."""
        ref = next(self.refs)
        self.seating[ref] = asyncio.get_running_loop().create_future()
        return ref

    async def seat(self, ref: int, terminal_fd: int, link_fd: int, config: ChildConfig) -> HousedChild:
        """Seat a session in the place ``ref`` claimed (its terminal and link descriptors, which the caller keeps)."""
        seated = self.seating[ref]
        try:
            try:
                await asyncio.wait_for(asyncio.shield(self.ready), SPAWN_TIMEOUT)
            except TimeoutError:
                raise SpawnError("a house did not start in time") from None
            child = HousedChild(self, ref)
            self.sessions[ref] = child
            request = {"op": "session", "ref": ref, "config": json.loads(config.to_json())}
            try:
                if self.sock is None:
                    raise OSError("the house has gone")
                socket.send_fds(self.sock, [json.dumps(request).encode()], [terminal_fd, link_fd])
                await asyncio.wait_for(seated, SPAWN_TIMEOUT)
            except (OSError, TimeoutError) as error:
                self.sessions.pop(ref, None)
                child.ended(None)
                raise SpawnError(f"a house could not take the session: {error}") from None
            return child
        finally:
            self.seating.pop(ref, None)

    def send(self, message: dict[str, object]) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.send(json.dumps(message).encode())

    def _readable(self) -> None:
        if self.sock is None:
            return
        try:
            data = self.sock.recv(MESSAGE_LIMIT)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the house has ended or is ending: its sessions end with its status (``_watch``)
            self._hang_up()
            return
        try:
            message = json.loads(data)
            operation = message.get("op")
            if operation == "ready" and not self.ready.done():
                self.ready.set_result(None)
            elif operation == "started":
                seated = self.seating.get(int(message["ref"]))
                if seated is not None and not seated.done():
                    seated.set_result(None)
            elif operation == "ended":
                child = self.sessions.pop(int(message["ref"]), None)
                if child is not None:
                    child.terminal_unfinished = bool(message.get("unfinished"))
                    child.ended(int(message["status"]))
                if not self.sessions and not self.seating:
                    self.close()
        except (ValueError, TypeError, KeyError) as error:
            log.warning("house %d said something malformed: %s", self.pid, error)

    def close(self) -> None:
        """No new session; the house ends (the sessions in it, if any, are asked to leave)."""
        self.closing = True
        self.send({"op": "close"})

    def kill(self) -> None:
        self.closing = True
        if self.process is not None:
            self.process.signal(signal.SIGKILL)

    def _hang_up(self) -> None:
        self.closing = True
        if self.sock is not None:
            with contextlib.suppress(ValueError):
                asyncio.get_running_loop().remove_reader(self.sock)
            self.sock.close()
            self.sock = None

    def _gone(self, status: int = HOUSE_DIED) -> None:
        """The house has gone (or never came): every session in it ended with ``status``, every seating refused."""
        self._hang_up()
        if not self.ready.done():
            self.ready.set_exception(SpawnError("the house has gone"))
            self.ready.exception()  # retrieved: a house that never came is the seating's error, not the loop's
        for child in self.sessions.values():
            child.ended(status)
        self.sessions.clear()
        for seated in self.seating.values():
            if not seated.done():
                seated.set_exception(SpawnError("the house has gone"))
                seated.exception()  # retrieved here: a seating waiting on it raises it all the same


class HouseSpawner(ZygoteSpawner):
    """The zygote's spawner, seating sessions ``capacity`` to a house."""

    def __init__(self, capacity: int) -> None:
        super().__init__()
        self.capacity = capacity
        self.houses: list[House] = []

    async def spawn(self, terminal_fd: int, link_fd: int, config: ChildConfig) -> Child:
        if config.line_mode:
            return await super().spawn(terminal_fd, link_fd, config)
        self.houses = [house for house in self.houses if not house.closing]
        key = tuple(sorted(config.environment.items()))
        house = next((house for house in self.houses if house.key == key and house.has_room()), None)
        opening = house is None
        if house is None:
            house = House(key, self.capacity, config.cpu_seconds * self.capacity)
            self.houses.append(house)
        ref = house.claim()
        try:
            if opening:
                await house.open(self, config)
        except SpawnError:
            house.seating.pop(ref, None)
            with contextlib.suppress(ValueError):
                self.houses.remove(house)
            raise
        return await house.seat(ref, terminal_fd, link_fd, config)

    async def close(self) -> None:
        for house in self.houses:
            house.close()
        await asyncio.sleep(0)
        await super().close()


def make_spawner(mode: str, sessions_per_process: int = 1) -> Spawner:
    """The spawner of ``mode`` (``zygote`` or ``exec``); forked sessions ``sessions_per_process`` to a house when
    that is above 1."""
    if mode == "exec":
        return ExecSpawner()
    if mode == "zygote":
        return HouseSpawner(sessions_per_process) if sessions_per_process > 1 else ZygoteSpawner()
    raise SpawnError(f"unknown spawn mode {mode!r}: use zygote or exec")
