"""A real SSH client on loopback with a pyte screen, and a server started for one test."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import os
import re
import resource
import sys
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import asyncssh
import pytest

from soluna_tui.play.looks import JUMP_KEYS
from soluna_tui.rules.clock import PRESETS
from soluna_tui.server.config import Limits, ServerConfig
from soluna_tui.server.rating_model import RANKED_AFTER, RANKED_OPPONENTS
from soluna_tui.server.sessions.houses import HousedChild
from soluna_tui.server.ssh.ssh_server import SolunaServer

from ..clean_up import within
from ..quick_screen import QuickByteStream, QuickScreen
from ..warm_zygotes import mother_address, warm

#: Every wait in these tests gives up after this long: a guard against a hang, never a speed claim (those are the
#: benchmarks'). 30 s: with 14 workers on 2 cores at a slow hour, a phone's lobby waited over 15 s for the
#: server's word on its clocks; the waits end as soon as the screen matches.
TIMEOUT = 30.0
HOST_KEY = asyncssh.generate_private_key("ssh-ed25519")
#: An end-to-end test on SQLite only (the ``database`` fixture's other store left out): for behaviour the lobby gives
#: whatever the store, whose store calls are proved on both stores by tests/storage and the lobby's own tests
#: (tests/server/test_lobby.py, test_pairing_lobby.py, test_talk.py: in-process, a fraction of the cost). Where the
#: behaviour depends on the database (the fleet, outages, a restart, locks), the test keeps both.
on_sqlite_only = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


class AnonymousClient(asyncssh.SSHClient):
    """Keyboard-interactive with no prompts, as the server offers to anyone."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts) -> list[str]:
        return []


def client_options(username: str = "ann", **options) -> dict:
    """No known hosts, no agent, no keys, no user config: nothing of this machine's SSH setup."""
    defaults = {"known_hosts": None, "agent_path": None, "client_keys": None, "config": None, "username": username,
                "client_factory": AnonymousClient, "connect_timeout": TIMEOUT}
    return {**defaults, **options}


@contextlib.asynccontextmanager
async def running_server(tmp_path: Path, spawn: str = "zygote", proxy_from: tuple = (), clocks: tuple = PRESETS,
                         ranked_after: int = RANKED_AFTER, database: str | None = None,
                         ranked_opponents: int = RANKED_OPPONENTS, established: tuple[str, ...] = (),
                         **limits) -> AsyncIterator[SolunaServer]:
    """A server on 127.0.0.1, any free port, an in-memory host key, a computer without pauses."""
    config = ServerConfig(data_dir=tmp_path, host="127.0.0.1", port=0, host_key=HOST_KEY, spawn=spawn,
                          limits=replace(Limits(), **limits), computer_pause=0, reveal_pause=0,
                          proxy_from=proxy_from, clocks=clocks, ranked_after=ranked_after, database=database,
                          ranked_opponents=ranked_opponents, established=established)
    server = warm(SolunaServer(config))
    await server.start()
    try:
        yield server
    finally:
        await within(server.close(), "closing the server", TIMEOUT)


class SshTerminal:
    """An interactive SSH session with a PTY, its output fed to a pyte screen."""

    #: The screen's lines as last worked out (pyte works them out afresh each time it is asked), until more comes.
    _display: list[str] | None = None

    def __init__(self, connection: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess,
                 columns: int, lines: int) -> None:
        self.connection = connection
        self.process = process
        self.screen = QuickScreen(columns, lines)
        self.stream = QuickByteStream(self.screen)
        self.received = bytearray()
        self.closed = False

    @classmethod
    async def open(cls, port: int, username: str = "ann", columns: int = 80, lines: int = 24,
                   env: dict[str, str] | None = None, term: str = "xterm-256color", **options) -> SshTerminal:
        connection = await asyncssh.connect("127.0.0.1", port, **client_options(username, **options))
        process = await connection.create_process(term_type=term, term_size=(columns, lines), encoding=None,
                                                  env=env or {})
        return cls(connection, process, columns, lines)

    @property
    def display(self) -> list[str]:
        """The screen's lines."""
        if self._display is None:
            self._display = self.screen.display
        return self._display

    @property
    def text(self) -> str:
        return "\n".join(self.display)

    @property
    def shown(self) -> str:
        """The screen's lines that hold something, for failure messages."""
        return "\n".join(line.rstrip() for line in self.display if line.strip())

    async def pump(self, seconds: float, quiet: float | None = None) -> None:
        """Read whatever arrives for ``seconds``; with ``quiet``, stop sooner once output has come and
        then none for ``quiet`` seconds."""
        deadline = time.monotonic() + seconds
        came = False
        while not self.closed and (left := deadline - time.monotonic()) > 0:
            wait = min(left, quiet) if came and quiet is not None else left
            try:
                data = await self.read(wait)
            except TimeoutError:
                return  # the time is up, or the output has been quiet long enough
            self._feed(data)
            came = True

    async def read(self, timeout: float) -> bytes:
        """What the session sends next (``b""`` at its end); ``TimeoutError`` if nothing comes in ``timeout`` s."""
        return await asyncio.wait_for(self.process.stdout.read(65536), timeout)

    def _feed(self, data: bytes) -> None:
        if not data:
            self.closed = True
            return
        self.received += data
        self.stream.feed(data)
        self._display = None

    async def wait_for(self, predicate: Callable[[str], bool], timeout: float = TIMEOUT) -> str:
        """Read until ``predicate(screen text)`` holds; ``AssertionError`` with the screen if it never does."""
        deadline = time.monotonic() + timeout
        while not predicate(self.text):
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                raise AssertionError(f"the screen never matched; it shows:\n{self.shown}")
            try:
                data = await self.read(min(left, 0.5))
            except TimeoutError:
                continue
            self._feed(data)
        return self.text

    async def wait_for_text(self, *texts: str, timeout: float = TIMEOUT) -> str:
        return await self.wait_for(lambda screen: all(text in screen for text in texts), timeout)

    @property
    def sidebar(self) -> str:
        """The panel beside the board (the last 30 columns), its lines joined: a notice there reads as one line."""
        return " ".join(" ".join(line[-30:].split()) for line in self.display if line[-30:].strip())

    async def wait_for_notice(self, line: str, timeout: float = TIMEOUT) -> None:
        """Read until the notice lines beside the board show ``line`` whole (not cut short)."""
        await self.wait_for(lambda _: line in self.sidebar, timeout)

    async def wait_closed(self, timeout: float = TIMEOUT) -> bytes:
        """Read to the end of the session; everything it sent."""
        deadline = time.monotonic() + timeout
        while not self.closed:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"the session never ended; the screen shows:\n{self.shown}")
            try:
                data = await self.read(left)
            except TimeoutError:
                continue
            self._feed(data)
        await self.finished(timeout)
        return bytes(self.received)

    async def finished(self, timeout: float) -> None:
        """The session's end, once all it sent is read."""
        await asyncio.wait_for(self.process.wait_closed(), timeout)

    def send(self, data: str | bytes) -> None:
        self.process.stdin.write(data.encode() if isinstance(data, str) else data)

    async def press(self, *keys: str, pause: float | None = None) -> None:
        """Send keys one at a time: each once the app has answered the one before (``answered``), or
        ``pause`` seconds apart where a test needs its keys that far apart."""
        for key in keys:
            self.send(KEYS.get(key, key))
            await (self.answered() if pause is None else self.pump(pause))

    async def answered(self) -> None:
        """Read until the app has drawn what the last key changed: output came, then none for 20 ms;
        at most 0.15 s (a key that changes nothing draws nothing)."""
        await self.pump(0.15, quiet=0.02)

    def resize(self, columns: int, lines: int) -> None:
        self.screen.resize(lines, columns)
        self._display = None
        self.process.change_terminal_size(columns, lines)

    async def close(self) -> None:
        self.connection.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.connection.wait_closed(), TIMEOUT)


class Terminals:
    """Every terminal a test opens on one server, each closed at the end (``terminals``)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.opened: list[SshTerminal] = []

    async def open(self, username: str, key: asyncssh.SSHKey | None = None, **options) -> SshTerminal:
        """A player's terminal: ``key`` is their SSH key, if they come with one."""
        terminal = await SshTerminal.open(self.port, username=username,
                                          **({"client_keys": [key]} if key is not None else {}), **options)
        self.opened.append(terminal)
        return terminal


@contextlib.asynccontextmanager
async def terminals(port: int) -> AsyncIterator[Terminals]:
    opened = Terminals(port)
    try:
        yield opened
    finally:
        for terminal in opened.opened:
            await terminal.close()


KEYS = {"enter": "\r", "down": "\x1b[B", "up": "\x1b[A", "right": "\x1b[C", "left": "\x1b[D", "tab": "\t",
        "escape": "\x1b", "space": " "}


def session_named(server: SolunaServer, name: str):
    """The server's session of the player called ``name`` (there must be exactly one)."""
    sessions = [session for session in server.sessions if session.name == name and session.child.process is not None]
    assert len(sessions) == 1, [session.name for session in server.sessions]
    return sessions[0]


async def wait_until(condition: Callable[[], bool | Awaitable[bool]], timeout: float = TIMEOUT,
                     what: str = "the condition") -> None:
    """Until ``condition`` holds, looked at every 50 ms; it may be a coroutine function (what the store says: the
    server writes some things a moment after it has acted)."""
    deadline = time.monotonic() + timeout
    while not await _holds(condition):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} never held")
        await asyncio.sleep(0.05)


async def _holds(condition: Callable[[], bool | Awaitable[bool]]) -> bool:
    held = condition()
    return await held if inspect.isawaitable(held) else held


def process_gone(pid: int) -> bool:
    """No such process any more, not even a zombie: it has been reaped."""
    return not os.path.exists(f"/proc/{pid}")


def child_gone(child) -> bool:
    """A session's child has ended: its own process reaped, or, in a house of sessions, its session ended there and
    told (the house lives on with the others)."""
    if isinstance(child, HousedChild):
        return not child.running
    return process_gone(child.pid)


# ---- hostile clients: channels at the protocol level, and a server in its own process ------------


async def open_bare_session(connection: asyncssh.SSHClientConnection) -> asyncssh.SSHClientChannel:
    """A session channel opened with no PTY, shell or command asked for (what a hostile client can do).

    asyncssh's client API always asks for something, so this opens the channel as ``create_session`` does
    and stops there.
    """
    chan = asyncssh.SSHClientChannel(connection, asyncio.get_running_loop(), "strict", None, "strict",
                                     2 * 1024 * 1024, 32768)
    await asyncio.wait_for(chan._open(b"session"), TIMEOUT)
    chan._session = asyncssh.SSHClientSession()
    chan._session.connection_made(chan)
    return chan


def send_request(chan: asyncssh.SSHClientChannel, request: bytes, *args: bytes) -> None:
    """A channel request sent as is, no answer wanted (``args`` already encoded, e.g. with ``packet.String``)."""
    chan._send_request(request, *args)


async def ask(chan: asyncssh.SSHClientChannel, request: bytes, *args: bytes) -> bool:
    """A channel request sent as is; whether the server said yes."""
    return bool(await asyncio.wait_for(chan._make_request(request, *args), TIMEOUT))


class ServedProcess:
    """``soluna serve`` running in its own process: its port, its log lines, its CPU time and memory."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.port = 0
        self.log: list[str] = []
        self._reader: asyncio.Task | None = None

    async def _read_log(self) -> None:
        while line := await self.process.stderr.readline():
            self.log.append(line.decode(errors="replace").rstrip("\n"))

    @property
    def pid(self) -> int:
        return self.process.pid

    def cpu_seconds(self) -> float:
        """User and system CPU time of the server process itself (not its zygote or sessions)."""
        with open(f"/proc/{self.pid}/stat") as stream:
            fields = stream.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mib(self) -> float:
        with open(f"/proc/{self.pid}/status") as stream:
            for line in stream:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        raise AssertionError("no VmRSS for the server")


@contextlib.asynccontextmanager
async def served(tmp_path: Path, *flags: str, open_files: int | None = None,
                 real_zygote: bool = False) -> AsyncIterator[ServedProcess]:
    """``soluna serve`` in a process of its own on 127.0.0.1 (for figures about the server alone); ``open_files``:
    its limit on open files (soft and hard, as systemd's ``LimitNOFILE`` sets them). Its zygote is forked warm by
    this worker's mother (``tests/warm_zygotes.py``), its lines in the server's stderr; ``real_zygote``: the one
    ``soluna serve`` starts itself, for a test about it."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(path for path in sys.path if path)}

    def limit_open_files() -> None:
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    command = ["-m", "soluna_tui.cli", "serve"] if real_zygote else ["-m", "tests.warm_zygotes", "serve",
                                                                     await asyncio.to_thread(mother_address)]
    process = await asyncio.create_subprocess_exec(
        sys.executable, *command, "--allow-root", "--host", "127.0.0.1", "--port", "0",
        "--data-dir", str(tmp_path), *flags, stderr=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL,
        env=environment, preexec_fn=limit_open_files if open_files is not None else None)
    server = ServedProcess(process)
    try:
        deadline = time.monotonic() + 60
        while not server.port:
            line = await asyncio.wait_for(process.stderr.readline(), max(deadline - time.monotonic(), 0.1))
            assert line, "soluna serve exited before listening"
            server.log.append(line.decode().rstrip("\n"))
            found = re.search(r"listening on 127\.0\.0\.1 port (\d+)", server.log[-1])
            server.port = int(found.group(1)) if found else 0
        server._reader = asyncio.get_running_loop().create_task(server._read_log())
        yield server
    finally:
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), TIMEOUT)
            except TimeoutError:
                process.kill()
                await process.wait()
        if server._reader is not None:
            await asyncio.wait_for(server._reader, TIMEOUT)


async def keep_the_name(terminal: SshTerminal) -> None:
    """A key's first visit: the lobby asks which name to be known by; Enter keeps the one offered."""
    await terminal.wait_for_text("You came with an SSH key")
    await terminal.press("enter")
    await terminal.wait_for_text("on every visit with this key")


class Clock:
    """A clock that moves only when a test moves it (``clock.now += seconds``)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def refill_attack(port: int, connections: int, addresses: list[str], seconds: float, pause: float) -> dict:
    """Hold ``connections`` connections from ``addresses`` (in turn) that open a session channel and never start a
    game, each opened again as soon as the server closes it (``pause`` seconds after a refusal).

    Says ``holding`` on standard output once every connection has been tried; stops after ``seconds`` or when its
    standard input closes, and then prints what happened as one JSON line before it lets its connections go (so a
    slow or stuck teardown of 64 connections never keeps the counts from the test).
    """
    counts = {"opened": 0, "refused": 0, "closed_by_server": 0}
    tried: set[int] = set()
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), loop.call_soon_threadsafe(stop.set)), daemon=True).start()

    async def hold(number: int) -> None:
        address = addresses[number % len(addresses)]
        while True:
            try:
                connection = await asyncio.wait_for(asyncssh.connect(
                    "127.0.0.1", port, **client_options("mallory", local_addr=(address, 0))), TIMEOUT)
            except (OSError, asyncssh.Error, TimeoutError):
                counts["refused"] += 1
                tried.add(number)
                await asyncio.sleep(pause)
                continue
            counts["opened"] += 1
            tried.add(number)
            try:
                await open_bare_session(connection)
                await connection.wait_closed()
                counts["closed_by_server"] += 1
            except (OSError, asyncssh.Error, TimeoutError):
                pass
            finally:
                connection.close()

    async def say_when_holding() -> None:
        while len(tried) < connections:
            await asyncio.sleep(0.05)
        print("holding", flush=True)

    tasks = [loop.create_task(hold(number)) for number in range(connections)]
    tasks.append(loop.create_task(say_when_holding()))
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
    print(json.dumps(counts), flush=True)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return counts


def move_keys(match, move) -> tuple[str, str]:
    """The keys of the places ``move`` goes from and onto: towers keep their places (and keys) all round."""
    placed = match.round.table.resolve(move)
    return JUMP_KEYS[placed.mover_slot], JUMP_KEYS[placed.target_slot]


async def play_a_move(server, code: str, players: list[SshTerminal]) -> None:
    """The player to move plays the first legal move, by the towers' keys; once the server has it."""
    await wait_until(lambda: server.lobby.tables[code].match is not None, what="the match beginning")
    table = server.lobby.tables[code]
    match, version = table.match, table.version
    move = match.position.legal_moves[0]
    mover, target = move_keys(match, move)
    terminal = players[match.to_move]
    await terminal.wait_for_text("Your move")
    await terminal.press(mover, "enter", target, "enter", pause=0.05)
    await wait_until(lambda: server.lobby.tables[code].version == version + 1, what=f"the server taking {move}")


#: A tower's bottom border with its notation, at any size (``╰─1S╯`` up to ``╰────1S─────╯``), the
#: cursor's (``┕━1S┙``) too.
TOWER_BOTTOM = re.compile(r"[┗╰┕][━─]*(\d{1,2}[SM*C])[━─]*[┛╯┙]")


#: A place's base line: a tower's bottom border (as ``TOWER_BOTTOM``), or the footprint an emptied place leaves.
PLACE_BASE = re.compile(r"[┗╰┕][━─]*(\d{1,2}[SM*C])[━─]*[┛╯┙]|(┈{3,})")


def places_on_board(lines: list[str]) -> list[str | None]:
    """Every place on the board in the order the board lays them out (row by row, left to right): its
    tower as notation, or ``None`` where the place is empty (no tower may be in hand)."""
    sidebar = next((line.find("╭─ Soluna") for line in lines if "╭─ Soluna" in line), -1)
    return [tower or None for line in lines
            for tower, _empty in PLACE_BASE.findall(line[:sidebar] if sidebar > 0 else line)]


def server_places(table) -> list[str | None]:
    """The places of a table (an ``Arrangement``) as ``places_on_board`` reads them from a screen."""
    return [str(tower) if tower is not None else None for tower in table]


def towers_on_board(lines: list[str]) -> list[str]:
    """The towers drawn on the board (left of the side panel), as notation, in the order they are read."""
    sidebar = next((line.find("╭─ Soluna") for line in lines if "╭─ Soluna" in line), -1)
    return [tower for line in lines for tower in TOWER_BOTTOM.findall(line[:sidebar] if sidebar > 0 else line)]
