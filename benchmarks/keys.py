"""What one keystroke costs the app's process: CPU (all threads, from /proc) and bytes written to the terminal.

Usage: python benchmarks/keys.py [--keys 40] [--warmup 8] [--sizes 80x24,160x50] [--matches 2] [--no-ssh]

Runs the installed game (``soluna`` next to this Python) on a real pseudo-terminal and sends each kind
of key many times, one at a time (each after the screen has settled), after a warm-up. For each key it
reads the process's CPU time before and after (the sum of ``/proc/PID/task/*/schedstat``, nanoseconds,
every thread) and counts the bytes the process wrote to the terminal, and the frames (the terminal
answers the synchronized-output query, as most do, so each frame is bracketed and can be counted).

The same is measured, in the same run, on a bare Textual reference app (12 focusable widgets in a grid
with a ``:focus`` rule; the arrows move the focus; ``p`` toggles a CSS class on all 12, as a pick once
did; ``m`` takes a widget out of the grid and makes another taller, a new layout, as a move once did).

The kinds: moving between towers, picking a tower up or putting it back, a move on the mover's screen
(two players on one terminal: pick, step, the measured Enter, then ``u`` to take it back), a round's
last move with the review it opens over the board (the second round of each game), a move on the
opponent's and a spectator's screen (a real ``soluna serve`` on 127.0.0.1 with asyncssh clients; each
session child's CPU read from /proc), the SSH lobby (the menu, and a setting), the dialog keys (a
setting on the new-match screen, and the next field), and cold start (CPU and wall time to the first
full frame, against the bare app's). The targets are printed beside the figures: in milliseconds as
the issue set them, and scaled by the reference's 80x24 arrow measured in the same run against the
10.7 ms it took then (the machine's speed moves by half within minutes; the scaled target holds).
Exit status 1 only when something could not be measured (a screen never showed, a process died),
never for a target missed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import os
import random
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pyte

#: The terminal's answer to "do you support synchronized output (mode 2026)?": yes, currently reset.
SYNC_QUERY, SYNC_ANSWER = b"\x1b[?2026$p", b"\x1b[?2026;2$y"
FRAME_START = b"\x1b[?2026h"
#: A key has been dealt with when nothing was written for this long and the CPU time stands still.
QUIET_SECONDS, STILL_SECONDS, STILL_NS = 0.08, 0.03, 60_000
KEY_TIMEOUT, SCREEN_TIMEOUT = 5.0, 30.0
RIGHT, DOWN, UP = "\x1b[C", "\x1b[B", "\x1b[A"

REFERENCE_APP = r'''
from textual.app import App
from textual.containers import Grid
from textual.widgets import Static

CELL = "╭─{n}─╮\n│ ☾ │\n╰─1M╯"
TALL = "╭─{n}─╮\n│ ☾ │\n│═══│\n│═══│\n╰─3M╯"


class Cell(Static, can_focus=True):
    pass


class Reference(App):
    CSS = """
    Grid { grid-size: 6; grid-gutter: 1 2; height: 1fr; }
    Cell { height: auto; color: $foreground-muted; }
    Cell:focus { background: $boost; color: $text-accent; text-style: bold; }
    Cell.-picked { color: $text-warning; }
    Cell.-lit { color: $text-success; }
    Cell.-dim { color: $foreground 30%; }
    """
    BINDINGS = [("left", "step(-1)", "Left"), ("right", "step(1)", "Right"), ("p", "pick", "Pick"),
                ("m", "move", "Move"), ("q", "quit", "Quit")]

    def compose(self):
        with Grid():
            for n in range(12):
                yield Cell(CELL.format(n=n % 10))
        yield Static("reference ready")

    def on_mount(self):
        self.cells = list(self.query(Cell))
        self.cells[0].focus()
        self.picked = False
        self.moved = False

    def action_step(self, by):
        index = self.cells.index(self.focused) if self.focused in self.cells else 0
        self.set_focus(self.cells[(index + by) % 12], scroll_visible=False)

    def action_pick(self):
        self.picked = not self.picked
        for index, cell in enumerate(self.cells):
            cell.set_class(self.picked and cell is self.focused, "-picked")
            cell.set_class(self.picked and cell is not self.focused and index % 2 == 0, "-lit")
            cell.set_class(self.picked and cell is not self.focused and index % 2 == 1, "-dim")

    def action_move(self):
        self.moved = not self.moved
        self.cells[11].display = not self.moved
        self.cells[10].update((TALL if self.moved else CELL).format(n=0))


Reference().run()
'''


# ---- measuring a process ---------------------------------------------------------------------


def cpu_ns(pid: int) -> int:
    """CPU time every thread of ``pid`` has used so far, in nanoseconds (schedstat), or from the
    coarser clock ticks of /proc/PID/stat where schedstat is missing."""
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        raise ProcessLookupError(pid) from None
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as stream:
                total += int(stream.read().split()[0])
        except (OSError, ValueError, IndexError):
            try:
                with open(f"/proc/{pid}/task/{task}/stat") as stream:
                    fields = stream.read().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) * 1_000_000_000 // os.sysconf("SC_CLK_TCK")
            except (OSError, ValueError, IndexError):
                continue
    return total


@dataclass
class Sample:
    """What one key cost."""

    cpu_ms: float
    written: int
    frames: int


@dataclass
class Figures:
    samples: list[Sample] = field(default_factory=list)

    def add(self, sample: Sample) -> None:
        self.samples.append(sample)

    @property
    def cpu_ms(self) -> float:
        return statistics.mean(sample.cpu_ms for sample in self.samples)

    @property
    def median_ms(self) -> float:
        return statistics.median(sample.cpu_ms for sample in self.samples)

    @property
    def kilobytes(self) -> float:
        return statistics.mean(sample.written for sample in self.samples) / 1024

    @property
    def frames(self) -> float:
        return statistics.mean(sample.frames for sample in self.samples)


class MeasureError(Exception):
    """Something could not be measured (a screen never showed, a process went away)."""


# ---- a program on a pseudo-terminal ------------------------------------------------------------


class Terminal:
    """``argv`` on a fresh pseudo-terminal, read through pyte as a terminal would show it."""

    def __init__(self, argv: Sequence[str], columns: int, lines: int, pass_fds: Sequence[int] = ()) -> None:
        self.screen = pyte.Screen(columns, lines)
        self.stream = pyte.ByteStream(self.screen)
        self.started = time.perf_counter()
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        self.master = master
        env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8", "COLORTERM": "truecolor"}
        env.pop("NO_COLOR", None)
        self.process = subprocess.Popen(list(argv), stdin=slave, stdout=slave, stderr=slave, env=env,
                                        start_new_session=True, close_fds=True, pass_fds=tuple(pass_fds))
        os.close(slave)
        self.written = 0
        self.frames = 0
        self._tail = b""

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def read(self, wait: float) -> int:
        """Read what arrives within ``wait`` seconds; the number of bytes."""
        ready, _, _ = select.select([self.master], [], [], wait)
        if not ready:
            return 0
        try:
            data = os.read(self.master, 1 << 16)
        except OSError:
            data = b""
        if not data:
            raise MeasureError(f"{self.process.args[0]} ended; its screen:\n{self.text}")
        self.written += len(data)
        seen = self._tail + data
        self.frames += seen.count(FRAME_START) - self._tail.count(FRAME_START)
        if SYNC_QUERY in seen and SYNC_QUERY not in self._tail:
            self.send(SYNC_ANSWER.decode())
        self._tail = seen[-16:]
        self.stream.feed(data)
        return len(data)

    def wait_for(self, predicate: Callable[[str], bool], what: str, timeout: float = SCREEN_TIMEOUT) -> None:
        deadline = time.perf_counter() + timeout
        while not predicate(self.text):
            if time.perf_counter() > deadline:
                raise MeasureError(f"never saw {what}; the screen:\n{self.text}")
            self.read(0.05)

    def settle(self) -> None:
        """Read until nothing was written for a while and the process's CPU time stands still."""
        deadline = time.perf_counter() + KEY_TIMEOUT
        while time.perf_counter() < deadline:
            quiet_since = time.perf_counter()
            while time.perf_counter() - quiet_since < QUIET_SECONDS:
                if self.read(QUIET_SECONDS / 4):
                    quiet_since = time.perf_counter()
            before = cpu_ns(self.pid)
            time.sleep(STILL_SECONDS)
            if cpu_ns(self.pid) - before < STILL_NS and not self.read(0):
                return
        raise MeasureError("the program never settled")

    def key(self, keys: str) -> Sample:
        """Send ``keys`` and measure until it has settled."""
        written, frames, before = self.written, self.frames, cpu_ns(self.pid)
        self.send(keys)
        self.settle()
        return Sample((cpu_ns(self.pid) - before) / 1e6, self.written - written, self.frames - frames)

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        os.close(self.master)


def cycle(term: Terminal, steps: Sequence[tuple[str, bool]], count: int, warmup: int) -> Figures:
    """Repeat ``steps`` (keys, whether measured) until ``count`` measured keys after ``warmup``."""
    figures, measured = Figures(), 0
    while measured < count + warmup:
        for keys, timed in steps:
            sample = term.key(keys)
            if timed:
                measured += 1
                if measured > warmup:
                    figures.add(sample)
    return figures


def reference_arrow(size: tuple[int, int] = (80, 24), count: int = 30, warmup: int = 8) -> Figures:
    """The reference app's arrow key (a bare Textual app's key: the yardstick other scripts print beside their
    figures). The fixed Python loop of ``ssh_load.py`` misses much of how this machine's speed moves: on
    2026-12-07 the loop took 0.15-0.16 s all afternoon while this arrow went from 6.7 ms of CPU to 16-28 ms."""
    term = Terminal([sys.executable, "-c", REFERENCE_APP], *size)
    try:
        term.wait_for(lambda text: "reference ready" in text, "the reference app")
        term.settle()
        return cycle(term, [(RIGHT, True)], count, warmup)
    finally:
        term.close()


# ---- the local runs ----------------------------------------------------------------------------


def soluna() -> Path:
    path = Path(sys.executable).parent / "soluna"
    if not path.exists():
        raise SystemExit("install the package first (pip install .): the soluna command is missing")
    return path


def reference_keys(size: tuple[int, int], args: argparse.Namespace) -> dict[str, Figures]:
    term = Terminal([sys.executable, "-c", REFERENCE_APP], *size)
    try:
        term.wait_for(lambda text: "reference ready" in text, "the reference app")
        term.settle()
        return {
            "arrow": cycle(term, [(RIGHT, True)], args.keys, args.warmup),
            "pick": cycle(term, [("p", True)], args.keys, args.warmup),
            "move": cycle(term, [("m", True)], args.keys, args.warmup),
        }
    finally:
        term.close()


def game_keys(size: tuple[int, int], args: argparse.Namespace, scratch: Path) -> dict[str, Figures]:
    """Two players on one terminal (nothing moves but for the keys sent): the arrows, a pick and its
    put back, then real moves, round after round (each round a fresh game of another seed)."""
    term = Terminal([str(soluna()), "play", "--seed", "1", "--data-dir", str(scratch / f"game-{size[0]}")], *size)
    try:
        term.wait_for(lambda text: "to move" in text and "Help" in text, "the game screen")
        term.settle()
        figures = {
            "arrow": cycle(term, [(RIGHT, True)], args.keys, args.warmup),
            "pick": cycle(term, [(" ", True), (" ", True)], args.keys, args.warmup),
        }
    finally:
        term.close()
    figures["move"] = local_moves(size, args, scratch)
    figures["round end"] = round_ends(size, args, scratch)
    return figures


def local_moves(size: tuple[int, int], args: argparse.Namespace, scratch: Path) -> Figures:
    """Random legal moves by keys (the mover's key, Enter, the target's key, then the measured Enter),
    every round from a fresh game; a round's first move is its warm-up and its last (which ends
    it) is left out."""
    from soluna_tui.rules import Match, MatchOptions

    figures = Figures()
    rng = random.Random(2)
    seed = 1
    while len(figures.samples) < args.keys:
        seed += 1
        match = Match(MatchOptions(), seed=seed)
        folder = scratch / f"moves-{size[0]}-{seed}"
        term = Terminal([str(soluna()), "play", "--seed", str(seed), "--no-review", "--data-dir", str(folder)],
                        *size)
        try:
            term.wait_for(lambda text: "to move" in text and "Help" in text, "the game screen")
            term.settle()
            played = match.round
            while not played.is_over and len(figures.samples) < args.keys:
                move = rng.choice(played.position.legal_moves)
                sample = move_by_keys(term, played, move)
                first = not played.moves
                played.play(move)
                if not first and not played.is_over:
                    figures.add(sample)
        finally:
            term.close()
    return figures


def move_by_keys(term: Terminal, played, move) -> Sample:
    """``move`` of the round ``played`` typed as a player does (the mover's key, Enter, the target's key, Enter):
    the last Enter's figures."""
    mover_key, target_key = slot_keys(played.start, played.moves, move)
    for key in (mover_key, "\r", target_key):
        term.key(key)
    return term.key("\r")


def round_ends(size: tuple[int, int], args: argparse.Namespace, scratch: Path) -> Figures:
    """A round's last move on the mover's screen, with the review it opens over the board (two players on one
    terminal). Each game plays its first round, closes its review, has the loser open the second, and measures
    the second round's last move: a process's first dialog also reads the dialogs' styles, once, and that is
    not a round's end (a session of ``soluna serve`` reads them as it starts)."""
    from soluna_tui.rules import Match, MatchOptions

    figures = Figures()
    rng = random.Random(3)
    seed = 100
    while len(figures.samples) < max(3, args.keys // 8):
        seed += 1
        match = Match(MatchOptions(), seed=seed)
        folder = scratch / f"ends-{size[0]}-{seed}"
        term = Terminal([str(soluna()), "play", "--seed", str(seed), "--data-dir", str(folder)], *size)
        try:
            term.wait_for(lambda text: "to move" in text and "Help" in text, "the game screen")
            term.settle()
            for round_number in (1, 2):
                played = match.round
                while not played.is_over:
                    move = rng.choice(played.position.legal_moves)
                    sample = move_by_keys(term, played, move)
                    match.play(move)
                term.wait_for(lambda text, number=round_number: f"Round {number} review" in text, "the round's review")
                if round_number == 2:
                    figures.add(sample)
                    break
                term.key("\r")  # the review closed: who opens next, the loser choosing
                term.wait_for(lambda text: "Round over" in text, "the round-over dialog")
                loser = match.round.outcome.loser
                term.key("\r")  # the first choice: the loser opens
                match.start_next_round(loser, loser)
                term.wait_for(lambda text: "to move" in text and "Round over" not in text, "the second round")
                term.settle()
        finally:
            term.close()
    return figures


def dialog_keys(size: tuple[int, int], args: argparse.Namespace, scratch: Path) -> dict[str, Figures]:
    """The new-match dialog: a setting's value (right), and the next field (down, then back up)."""
    term = Terminal([str(soluna()), "--data-dir", str(scratch / f"dialog-{size[0]}")], *size)
    try:
        term.wait_for(lambda text: "Guided round" in text, "the guided round a fresh data directory starts with")
        term.send("n")  # skipped: the new-match dialog follows
        term.wait_for(lambda text: "Stars to win" in text and "Start" in text, "the new-match dialog")
        term.settle()
        for _ in range(4):  # Mode, Computer level, Player 1 name, Rules (whichever show): down to a setting
            term.key(DOWN)
        return {
            "dialog": cycle(term, [(RIGHT, True)], args.keys, args.warmup),
            "dialog field": cycle(term, [(DOWN, True), (UP, True)], args.keys, args.warmup),
        }
    finally:
        term.close()


def cold_start(size: tuple[int, int], runs: int, scratch: Path) -> tuple[Figures, Figures, float, float]:
    """CPU to the first full frame of the game and of a bare Textual app, and their wall-time medians."""
    bare_app = ("from textual.app import App\nfrom textual.widgets import Footer, Static\n"
                "class Bare(App):\n    BINDINGS = [('q', 'quit', 'Quit')]\n"
                "    def compose(self):\n        yield Static('bare app ready')\n        yield Footer()\n"
                "Bare().run()\n")
    game_figures, bare_figures = Figures(), Figures()
    game_walls, bare_walls = [], []
    for run in range(runs + 1):
        for argv, markers, figures, walls in (
            ([sys.executable, "-c", bare_app], ("bare app ready", "Quit"), bare_figures, bare_walls),
            ([str(soluna()), "play", "--seed", "1", "--data-dir", str(scratch / f"cold-{size[0]}-{run}")],
             ("to move", "Pick", "Quit"), game_figures, game_walls),
        ):
            term = Terminal(argv, *size)
            try:
                term.wait_for(lambda text, markers=markers: all(marker in text for marker in markers),
                              f"the first frame of {argv[0]}")
                wall = time.perf_counter() - term.started
                cpu = cpu_ns(term.pid) / 1e6
            finally:
                term.close()
            if run:  # the first of each warms the disk cache
                figures.add(Sample(cpu, term.written, term.frames))
                walls.append(wall)
    return game_figures, bare_figures, statistics.median(game_walls), statistics.median(bare_walls)


# ---- over SSH ----------------------------------------------------------------------------------


def process_tree(root: int) -> set[int]:
    found, queue = set(), [root]
    while queue:
        pid = queue.pop()
        found.add(pid)
        for task in Path(f"/proc/{pid}/task").glob("*"):
            with contextlib.suppress(OSError):
                queue.extend(int(child) for child in (task / "children").read_text().split())
    return found


class Session:
    """An SSH player: an asyncssh client with a PTY, its screen kept by pyte, and its child's pid."""

    def __init__(self, connection, process, columns: int, lines: int, pid: int) -> None:
        self.connection = connection
        self.process = process
        self.screen = pyte.Screen(columns, lines)
        self.stream = pyte.ByteStream(self.screen)
        self.pid = pid
        self.written = 0
        self.frames = 0
        self._reader = asyncio.get_running_loop().create_task(self._read())
        self.last_data = time.perf_counter()

    @classmethod
    async def open(cls, port: int, server_pid: int, name: str, size: tuple[int, int]) -> Session:
        from soluna_tui.server.ssh.quiet_asyncssh import asyncssh

        class Anonymous(asyncssh.SSHClient):
            def kbdint_auth_requested(self) -> str:
                return ""

            def kbdint_challenge_received(self, name, instructions, lang, prompts) -> list[str]:
                return []

        before = process_tree(server_pid)
        connection = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None, agent_path=None,
                                            client_keys=None, config=None, client_factory=Anonymous)
        process = await connection.create_process(term_type="xterm-256color", term_size=size, encoding=None,
                                                  env={"COLORTERM": "truecolor"})
        deadline = time.perf_counter() + SCREEN_TIMEOUT
        while not (new := process_tree(server_pid) - before):
            if time.perf_counter() > deadline:
                raise MeasureError(f"no session process appeared for {name}")
            await asyncio.sleep(0.05)
        session = cls(connection, process, *size, max(new))
        await session.wait_for(lambda text: "Welcome," in text, f"{name}'s lobby")
        return session

    async def _read(self) -> None:
        tail = b""
        while data := await self.process.stdout.read(1 << 16):
            self.written += len(data)
            seen = tail + data
            self.frames += seen.count(FRAME_START) - tail.count(FRAME_START)
            if SYNC_QUERY in seen and SYNC_QUERY not in tail:
                self.process.stdin.write(SYNC_ANSWER)
            tail = seen[-16:]
            self.stream.feed(data)
            self.last_data = time.perf_counter()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def send(self, keys: str) -> None:
        self.process.stdin.write(keys.encode())

    async def wait_for(self, predicate: Callable[[str], bool], what: str, timeout: float = SCREEN_TIMEOUT) -> None:
        deadline = time.perf_counter() + timeout
        while not predicate(self.text):
            if time.perf_counter() > deadline or self._reader.done():
                raise MeasureError(f"never saw {what}; the screen:\n{self.text}")
            await asyncio.sleep(0.02)

    async def settle(self) -> None:
        deadline = time.perf_counter() + KEY_TIMEOUT
        while time.perf_counter() < deadline:
            await asyncio.sleep(QUIET_SECONDS / 4)
            if time.perf_counter() - self.last_data < QUIET_SECONDS:
                continue
            before = cpu_ns(self.pid)
            await asyncio.sleep(STILL_SECONDS)
            if cpu_ns(self.pid) - before < STILL_NS and time.perf_counter() - self.last_data >= QUIET_SECONDS:
                return
        raise MeasureError("a session never settled")

    def mark(self) -> tuple[int, int, int]:
        return self.written, self.frames, cpu_ns(self.pid)

    def since(self, mark: tuple[int, int, int]) -> Sample:
        written, frames, cpu = mark
        return Sample((cpu_ns(self.pid) - cpu) / 1e6, self.written - written, self.frames - frames)

    async def key(self, keys: str) -> Sample:
        mark = self.mark()
        self.send(keys)
        await self.settle()
        return self.since(mark)

    async def press(self, *keys: str) -> None:
        for key in keys:
            self.send(key)
            await self.settle()

    async def close(self) -> None:
        self._reader.cancel()
        self.connection.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.connection.wait_closed(), 5)


def slot_keys(start, moves, move) -> tuple[str, str]:
    """The keys of the mover's and the target's towers as the screens show them: places kept for the
    round where the board keeps still (``soluna_tui.rules.places``, earlier ``soluna_tui.play.slots``), else the
    canonical order."""
    from soluna_tui.play.looks import JUMP_KEYS

    try:
        from soluna_tui.rules.places import arrange
    except ImportError:
        try:
            from soluna_tui.play.slots import arrange
        except ImportError:
            arrange = None
    if arrange is None:  # a board that re-sorts its towers after every move
        position = start
        for played in moves:
            position = position.play(played)
        towers = list(position.towers)
    else:
        towers = list(arrange(start, moves))
    mover = towers.index(move.mover)
    target = next(slot for slot, tower in enumerate(towers) if tower == move.target and slot != mover)
    return JUMP_KEYS[mover], JUMP_KEYS[target]


@contextlib.asynccontextmanager
async def serving(data: Path):
    """``soluna serve`` on a free loopback port with its own SQLite database: (port, pid, store)."""
    from soluna_tui.server.storage import open_storage

    data.mkdir()
    argv = [sys.executable, "-m", "soluna_tui.cli", "serve", "--allow-root", "--host", "127.0.0.1", "--port", "0",
            "--data-dir", str(data), "--max-per-ip", "20", "--max-new-per-minute", "100",
            # Each screen's CPU is read from its own process: a session apart, as a house's apps run the same code.
            "--sessions-per-process", "1"]
    server = subprocess.Popen(argv, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        port = 0
        deadline = time.monotonic() + 60
        while not port and time.monotonic() < deadline:
            line = server.stderr.readline()
            if found := re.search(r"listening on 127\.0\.0\.1 port (\d+)", line):
                port = int(found.group(1))
            elif not line and server.poll() is not None:
                break
        if not port:
            raise MeasureError("soluna serve did not start")
        store = await open_storage(str(data / "soluna.sqlite3"))
        try:
            yield port, server.pid, store
        finally:
            await store.close()
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


async def ssh_keys(size: tuple[int, int], args: argparse.Namespace, scratch: Path) -> dict[str, Figures]:
    """The lobby's keys, then matches (each on a server of its own, so its spectator finds it first)."""
    figures = {name: Figures() for name in ("lobby", "lobby setting", "mover", "opponent", "spectator")}
    rng = random.Random(1)
    async with serving(scratch / f"lobby-{size[0]}") as (port, pid, _):
        lobby = await Session.open(port, pid, "lea", size)
        await lobby.settle()
        for _ in range(args.warmup):
            await lobby.key(DOWN)
            await lobby.key(UP)
        for _ in range(args.keys // 2):
            figures["lobby"].add(await lobby.key(DOWN))
            figures["lobby"].add(await lobby.key(UP))
        await lobby.press("\t", "\t", "\t")  # from the menu to "Stars to win"
        for step in range(args.keys + args.warmup):
            sample = await lobby.key(RIGHT)
            if step >= args.warmup:
                figures["lobby setting"].add(sample)
        await lobby.close()
    for number in range(args.matches):
        async with serving(scratch / f"match-{size[0]}-{number}") as (port, pid, store):
            await play_match(port, pid, size, store, rng, figures, number)
    return figures


async def play_match(port: int, server_pid: int, size: tuple[int, int], store, rng: random.Random,
                     figures: dict[str, Figures], number: int) -> None:
    """Two players and a spectator; the first round's moves, each measured on all three screens
    (the first two moves of a match are its warm-up; the move that ends the round is left out)."""
    from soluna_tui.rules import Match

    ann = await Session.open(port, server_pid, f"ann{number}", size)
    bob = await Session.open(port, server_pid, f"bob{number}", size)
    eve = await Session.open(port, server_pid, f"eve{number}", size)
    sessions = (ann, bob, eve)
    try:
        await ann.press(DOWN, "\r")
        await ann.wait_for(lambda text: "Your match code:" in text, "the match code")
        code = re.search(r"Your match code:\s+((?:[A-Z] ){3}[A-Z])", ann.text).group(1).replace(" ", "")
        await bob.press(DOWN, DOWN, "\r")
        await bob.wait_for(lambda text: "Type the four-letter code" in text, "the code field")
        await bob.press(code.lower(), "\r")
        await ann.wait_for(lambda text: "Your move" in text, "ann's first move")
        await eve.wait_for(lambda text: f"ann{number} vs bob{number}" in text, "the match listed")
        await eve.press(DOWN, DOWN, DOWN, "\r", "\r")
        await eve.wait_for(lambda text: "You are watching" in text, "the spectator's board")
        for session in sessions:
            await session.settle()
        players = (ann, bob)
        for ply in range(40):
            match = Match.from_dict((await store.matches.get(code)).document)
            played = match.round
            if played.is_over:
                return
            move = rng.choice(played.position.legal_moves)
            ends = played.position.after(move).is_blocked
            mover_key, target_key = slot_keys(played.start, played.moves, move)
            mover, opponent = players[match.to_move], players[1 - match.to_move]
            await mover.press(mover_key, "\r", target_key)
            for session in sessions:
                await session.settle()
            marks = [session.mark() for session in (mover, opponent, eve)]
            mover.send("\r")
            if ends:  # the round is over: its dialogs cover the moves list (and the move is not measured)
                for session in sessions:
                    await session.settle()
                return
            shown = re.compile(rf"\b{ply + 1}\. {'ann' if match.to_move == 0 else 'bob'}{number}\b")
            for session in (opponent, eve):
                await session.wait_for(lambda text, shown=shown: shown.search(text) is not None,
                                       f"move {ply + 1} on every screen")
            for session in sessions:
                await session.settle()
            if ply >= 2:
                for name, session, mark in zip(("mover", "opponent", "spectator"), (mover, opponent, eve), marks,
                                               strict=True):
                    figures[name].add(session.since(mark))
    finally:
        for session in sessions:
            await session.close()


# ---- the report ----------------------------------------------------------------------------------

#: (kind, what it is, CPU target in ms, bytes target in KB, which reference it is compared with)
ROWS = (
    ("arrow", "move between towers", 5, 1, "arrow"),
    ("pick", "pick a tower up / put it back", 8, 4, "pick"),
    ("move", "a move, the mover's screen (this terminal)", 15, 4, "move"),
    ("round end", "a round's last move, with its review", None, None, "move"),
    ("mover", "a move, the mover's screen (over SSH)", 15, 4, "move"),
    ("opponent", "a move, the opponent's screen (over SSH)", 15, 4, "move"),
    ("spectator", "a move, a spectator's screen (over SSH)", 15, 4, "move"),
    ("lobby", "SSH lobby: the menu (down, up)", 5, None, "arrow"),
    ("lobby setting", "SSH lobby: a setting (right)", 5, None, "arrow"),
    ("dialog", "new-match dialog: a setting (right)", 5, None, "arrow"),
    ("dialog field", "new-match dialog: next field (down, up)", 5, None, "arrow"),
)
#: The reference app's arrow at 80x24 when the targets were set (issue 15, on this machine): each target
#: in milliseconds is also read as a ratio to the reference's 80x24 arrow measured in this run, next to
#: the keys it is compared with, which holds however fast the machine is now (its speed moves by half
#: within minutes). The reference's pick and move are no yardstick: this reference's pick and move
#: cost less against its arrow than the issue's did (17 and 22 ms then).
YARDSTICK_WHEN_SET = 10.7
YARDSTICK_SIZE = (80, 24)


def report(size: tuple[int, int], figures: dict[str, Figures], reference: dict[str, Figures], yardstick: Figures,
           cold: tuple[Figures, Figures, float, float] | None) -> None:
    print(f"\n{size[0]}x{size[1]}")
    print(f"  {'key':<44} {'CPU/key':>8} {'median':>7} {'KB/key':>7} {'frames':>6} {'ref.':>8} {'ratio':>6}  target")
    for kind, label, cpu_target, kb_target, against in ROWS:
        if kind not in figures or not figures[kind].samples:
            continue
        got, ref = figures[kind], reference[against]
        targets = []
        if cpu_target is not None:
            targets.append(f"<= {cpu_target} ms {'met' if got.cpu_ms <= cpu_target else 'NOT met'}")
            scaled = cpu_target / YARDSTICK_WHEN_SET * yardstick.cpu_ms
            targets.append(f"scaled {scaled:.1f} ms {'met' if got.cpu_ms <= scaled else 'NOT met'}")
        if kb_target is not None:
            targets.append(f"<= {kb_target} KB {'met' if got.kilobytes <= kb_target else 'NOT met'}")
        print(f"  {label:<44} {got.cpu_ms:>5.1f} ms {got.median_ms:>4.1f} ms {got.kilobytes:>5.2f} KB "
              f"{got.frames:>6.1f} {ref.cpu_ms:>5.1f} ms {got.cpu_ms / ref.cpu_ms:>6.2f}  {', '.join(targets)}")
    for kind in ("arrow", "pick", "move"):
        ref = reference[kind]
        print(f"  {'reference app: ' + kind:<44} {ref.cpu_ms:>5.1f} ms {ref.median_ms:>4.1f} ms "
              f"{ref.kilobytes:>5.2f} KB {ref.frames:>6.1f}")
    print(f"  {'reference app: arrow at 80x24 (the yardstick)':<44} {yardstick.cpu_ms:>5.1f} ms: the targets scaled "
          f"by {yardstick.cpu_ms / YARDSTICK_WHEN_SET:.2f} (it took {YARDSTICK_WHEN_SET} ms when they were set)")
    if cold is not None:
        game, bare, game_wall, bare_wall = cold
        ratio = game.cpu_ms / bare.cpu_ms
        print(f"  {'cold start to the first frame (CPU)':<44} {game.cpu_ms:>5.0f} ms {game.median_ms:>4.0f} ms "
              f"{'':>7} {'':>6} {bare.cpu_ms:>5.0f} ms {ratio:>6.2f}  <= 1.2x {'met' if ratio <= 1.2 else 'NOT met'}")
        print(f"  {'cold start to the first frame (wall, median)':<44} {game_wall * 1000:>5.0f} ms {'':>7} "
              f"{'':>7} {'':>6} {bare_wall * 1000:>5.0f} ms {game_wall / bare_wall:>6.2f}")


def sizes(text: str) -> list[tuple[int, int]]:
    found = []
    for part in text.split(","):
        columns, lines = part.lower().split("x")
        found.append((int(columns), int(lines)))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=40, help="measured keys of each kind (after the warm-up)")
    parser.add_argument("--warmup", type=int, default=8, help="keys of each kind sent first, not measured")
    parser.add_argument("--sizes", type=sizes, default=[(80, 24), (160, 50)])
    parser.add_argument("--matches", type=int, default=2, help="matches played over SSH at each size")
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--no-ssh", action="store_true", help="leave out the SSH lobby and the remote moves")
    parser.add_argument("--only", default="", help="comma-separated: reference,game,dialog,ssh,cold")
    args = parser.parse_args()
    if not 1 <= args.keys <= 500 or not 0 <= args.warmup <= 100 or not 1 <= args.matches <= 10:
        parser.error("1-500 keys, 0-100 warm-up keys, 1-10 matches")
    only = set(filter(None, args.only.split(","))) or {"reference", "game", "dialog", "ssh", "cold"}
    if args.no_ssh:
        only.discard("ssh")
    import compileall

    import soluna_tui

    compileall.compile_dir(Path(soluna_tui.__file__).parent, quiet=1)
    print(f"keys.py: {args.keys} keys of each kind after {args.warmup} of warm-up; CPU of every thread of the "
          f"app's process; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    try:
        with tempfile.TemporaryDirectory() as folder:
            scratch = Path(folder)
            for size in args.sizes:
                reference = reference_keys(size, args)
                yardstick = (reference if size == YARDSTICK_SIZE else reference_keys(YARDSTICK_SIZE, args))["arrow"]
                figures: dict[str, Figures] = {}
                if "game" in only:
                    figures.update(game_keys(size, args, scratch))
                if "dialog" in only:
                    figures.update(dialog_keys(size, args, scratch))
                if "ssh" in only:
                    figures.update(asyncio.run(ssh_keys(size, args, scratch)))
                cold = cold_start(size, args.cold_runs, scratch) if "cold" in only else None
                report(size, figures, reference, yardstick, cold)
    except MeasureError as error:
        print(f"keys.py: could not measure: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
