"""Many SSH players at once on loopback: memory per session and the keystroke-to-screen round trip.

Usage: python benchmarks/ssh_load.py [--sessions 50] [--keys 30] [--interval 1.0]
                                     [--scene game|lobby|match|meet] [--spawn zygote|exec]
                                     [--database sqlite|postgresql]

Starts ``soluna serve`` in its own process on a free loopback port (on its default
SQLite database), or with ``--database postgresql`` a PostgreSQL of its own (the
``pgserver`` wheel: no root, nothing to install) and two servers sharing it and one
host key, as behind a balancer, the sessions dealt to them in turn. It opens the
sessions (a few at a time), then every session presses keys at random moments
(on average one every ``--interval`` seconds, as a player would) and times each
one from the write to the moment the screen read through pyte shows its effect (each
screen is read to the end of its first frames before timing starts, so no key pays for
reading an earlier screen):
in the ``game`` scene three moves to the next tower (its frame changes) then a
tower picked up and put back (the status line changes), in the ``lobby`` scene
the stars to win going up by one, in the ``match`` scene two-player matches (in
pairs: one creates, the next joins by its code, so with two servers the players
of a match are on different servers) where the player to move plays a legal move
(read from the database) and it is timed until it shows on the opponent's
screen: the whole way through both servers and the database; in the ``meet`` scene
the same 25 matches (``--matches``) while every other session stays in the lobby with
who is online listed (``o``), and people come and go: every 2 s a newcomer connects
and leaves again, each timed until the lobby's count of who is online shows it on a
sample of the other lobbies' screens (arrival and departure alike), and a share of the
lobby (``--chatters``) talks: each opens the lobby's talk (``C``) and says a line every
10 s or so, each timed until it shows on a listener's screen. Memory per session is
the proportional set size (PSS, shared pages split fairly) of the session
processes, plus the server's and the zygote's growth, divided by the sessions.

Everything is bounded: at most 200 sessions and 500 keys each, 20 s to open a
session, 5 s for any key, 15 minutes in all. The client runs on the same
machine, so it takes its share of the CPU too. Target on a 2-core machine:
p95 under 100 ms with 50 sessions, and with 100 (``--sessions 100``); in the
match scene, 25 matches (the default 50 sessions), p95 under 300 ms. The
server gets limits that admit every session from this one address (and raises
its own open-file limit); this script raises its own too, so 200 sessions fit.
Typing goes through the session's input budget, never its channel-request
budget (a key is data, not a request), so neither ever refuses a key here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import asyncssh
import pyte

MAX_SESSIONS, MAX_KEYS = 200, 500
OPEN_TIMEOUT, KEY_TIMEOUT, TOTAL_TIMEOUT = 20.0, 5.0, 900.0
OPEN_AT_ONCE = 4
#: The p95 asked for: a key to its screen (game and lobby scenes), a move to the opponent's screen (match).
KEY_TARGET, MATCH_TARGET = 0.100, 0.300
#: The meet scene's p95 for who is online: a newcomer (from its connection, its child's start included) or one
#: who left, counted in other lobbies' titles (the list's changes are told at most twice a second).
ONLINE_TARGET = 2.0
STARS = re.compile(r"Stars to win\s+\S\s(\d)\s")
ONLINE = re.compile(r"Soluna · (\d+) online")
#: The meet scene: a newcomer every this many seconds, each watched for on this many lobbies' screens.
NEWCOMER_EVERY, WATCHERS = 2.0, 5
ARRIVED, LEFT = "who is online: a newcomer, to others' lobbies", "who is online: one who left, to others' lobbies"
#: The meet scene's talkers: a line every this many seconds on average, each timed to a listener's screen.
TALK_EVERY = 10.0
HEARD = "a line of talk, to a listener's screen"


class Anonymous(asyncssh.SSHClient):
    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts) -> list[str]:
        return []


class Player:
    """One SSH session with a PTY, its screen kept by pyte."""

    def __init__(self, connection, process) -> None:
        self.connection = connection
        self.process = process
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)

    @classmethod
    async def connect(cls, port: int, number: int) -> Player:
        # Each player from an address of its own on the loopback network (127.0.0.0/8 is all local), as
        # players are: joining by code is limited per address.
        connection = await asyncssh.connect("127.0.0.1", port, username=f"p{number}", known_hosts=None,
                                            agent_path=None, client_keys=None, config=None, client_factory=Anonymous,
                                            local_addr=(f"127.0.{number // 250}.{number % 250 + 2}", 0))
        process = await connection.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        return cls(connection, process)

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def until(self, predicate, timeout: float) -> float:
        """Seconds until ``predicate(screen)`` holds: until the bytes that made it hold arrived (a
        player's terminal draws them then; the time this script's pyte takes to read them is its own,
        not the server's); ``TimeoutError`` after ``timeout``."""
        started = arrived = time.perf_counter()
        deadline = started + timeout
        while not predicate(self.text):
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError
            data = await asyncio.wait_for(self.process.stdout.read(65536), left)
            arrived = time.perf_counter()
            if not data:
                raise ConnectionError("the session ended")
            self.stream.feed(data)
        return arrived - started

    async def settle(self, quiet: float = 0.3) -> None:
        """Read what the session still draws (the rest of its first frames) until it has been quiet
        for ``quiet`` seconds, so that no key is timed for reading an earlier screen."""
        while True:
            try:
                data = await asyncio.wait_for(self.process.stdout.read(65536), quiet)
            except TimeoutError:
                return
            if not data:
                raise ConnectionError("the session ended")
            self.stream.feed(data)

    def press(self, key: str) -> None:
        self.process.stdin.write(key.encode())

    def close(self) -> None:
        self.connection.close()


async def into_scene(player: Player, scene: str) -> None:
    await player.until(lambda text: "Welcome," in text and "Quit" in text, OPEN_TIMEOUT)
    if scene in ("match", "meet"):
        return
    if scene == "game":
        player.press("\r")  # Play the computer: the player opens, so nothing moves until a key
        await player.until(lambda text: "Your move" in text, OPEN_TIMEOUT)
    else:
        player.press("\t\t\t")  # from the menu to "Stars to win"
    await player.settle()


#: The game scene's keys, over and over: three moves between towers, a tower picked up and put back.
GAME_KEYS = ("\x1b[C", "\x1b[C", "\x1b[C", " ", " ")
KEY_NAMES = {"\x1b[C": "right arrow", " ": "space (pick up, put back)"}


def next_expectation(player: Player, scene: str, step: int) -> tuple[str, object]:
    """The key to press now and the test that its effect is on screen."""
    if scene == "game":
        key = GAME_KEYS[step % len(GAME_KEYS)]
        if key == " ":
            wanted = "on a lit tower" if "pick a tower up" in player.text else "pick a tower up"
            return key, lambda text: wanted in text
        before = player.text
        return key, lambda text: text != before  # the focus frame has moved to the next tower
    current = int(STARS.search(player.text).group(1))
    wanted = str(current % 7 + 1)
    return "\x1b[C", lambda text: (found := STARS.search(text)) is not None and found.group(1) == wanted


async def play(player: Player, scene: str, keys: int, interval: float, rng: random.Random,
               times: dict[str, list[float]], failures: list[str]) -> None:
    await asyncio.sleep(rng.uniform(0, interval))
    for step in range(keys):
        key, shown = next_expectation(player, scene, step)
        player.press(key)
        try:
            times.setdefault(KEY_NAMES[key], []).append(await player.until(shown, KEY_TIMEOUT))
        except (TimeoutError, ConnectionError) as error:
            failures.append(type(error).__name__)
            return
        await asyncio.sleep(rng.uniform(0.5, 1.5) * interval)


async def keys(player: Player, *pressed: str, pause: float = 0.2) -> None:
    for key in pressed:
        player.press(key)
        await asyncio.sleep(pause)


async def pair_up(first: Player, second: Player) -> str:
    """``first`` creates a match, ``second`` joins it by its code; the code."""
    await keys(first, "\x1b[B", "\r")
    await first.until(lambda text: "Your match code:" in text, OPEN_TIMEOUT)
    code = re.search(r"Your match code:\s+((?:[A-Z] ){3}[A-Z])", first.text).group(1).replace(" ", "")
    await keys(second, "\x1b[B", "\x1b[B", "\r")
    await second.until(lambda text: "Type the four-letter code" in text, OPEN_TIMEOUT)  # under the code field
    await keys(second, code.lower(), "\r")
    await first.until(lambda text: "Your move" in text or "Waiting for p" in text, OPEN_TIMEOUT)  # either opens
    return code


async def play_match(players: tuple[Player, Player], names: tuple[str, str], code: str, store, moves: int,
                     interval: float, rng: random.Random, times: dict[str, list[float]],
                     failures: list[str]) -> None:
    """Legal moves in turn until the first round is over (or ``moves``), each timed to the opponent's screen."""
    from soluna_tui.play.looks import JUMP_KEYS
    from soluna_tui.rules import Match

    await asyncio.sleep(rng.uniform(0, interval))
    for _ in range(moves):
        match = Match.from_dict((await store.matches.get(code)).document)
        if match.round.is_over:
            return
        position, seat = match.position, match.to_move
        move = rng.choice(position.legal_moves)
        # The towers keep their places (and keys) all round: the first of identical towers is taken.
        placed = match.round.table.resolve(move)
        mover, target = placed.mover_slot, placed.target_slot
        number = len(match.round.moves) + 1
        # The move in the opponent's list of moves, or in the round's review that a round's last move
        # opens over it (or the round's summary, once the review is closed).
        shown = re.compile(rf"\b{number}\. {names[seat]}\b|cannot move \(after {number} move")
        await keys(players[seat], JUMP_KEYS[mover], "\r", JUMP_KEYS[target], pause=0.1)
        players[seat].press("\r")
        try:
            times.setdefault("a move, to the opponent's screen", []).append(
                await players[1 - seat].until(lambda text, shown=shown: shown.search(text) is not None, KEY_TIMEOUT))
        except (TimeoutError, ConnectionError) as error:
            failures.append(type(error).__name__)
            return
        await asyncio.sleep(rng.uniform(0.5, 1.5) * interval)


def process_tree(root: int) -> list[int]:
    """``root`` and every descendant (from /proc/PID/task/*/children)."""
    found, queue = [], [root]
    while queue:
        pid = queue.pop()
        found.append(pid)
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                queue.extend(int(child) for child in (task / "children").read_text().split())
            except OSError:
                pass
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time the processes have used so far."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def memory_kib(pid: int) -> dict[str, int]:
    """Rss, Pss and private (USS) kibibytes of a process, from smaps_rollup."""
    values = {}
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[0].endswith(":") and parts[1].isdigit():
                values[parts[0][:-1]] = int(parts[1])
    except OSError:
        return {"Rss": 0, "Pss": 0, "Uss": 0}
    values["Uss"] = values.get("Private_Clean", 0) + values.get("Private_Dirty", 0)
    return values


def raise_open_files(sessions: int) -> None:
    """A socket per session, and some to spare (many systems start at 1024)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 256 + 4 * sessions
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted if hard == resource.RLIM_INFINITY else min(wanted, hard),
                                                    hard))


def start_server(data_dir: str, sessions: int, spawn: str, *flags: str) -> tuple[subprocess.Popen, int]:
    argv = [sys.executable, "-m", "soluna_tui.cli", "serve", "--allow-root", "--host", "127.0.0.1", "--port", "0",
            "--data-dir", data_dir, "--spawn", spawn, "--max-sessions", str(sessions),
            "--max-per-ip", str(sessions + 2), "--max-new-per-minute", str(2 * sessions + 10), *flags]
    server = subprocess.Popen(argv, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = server.stderr.readline()
        found = re.search(r"listening on 127\.0\.0\.1 port (\d+)", line)
        if found:
            return server, int(found.group(1))
        if not line and server.poll() is not None:
            break
    server.kill()
    raise SystemExit("soluna serve did not start")


async def run(args: argparse.Namespace) -> int:
    raise_open_files(args.sessions)
    capacity = args.sessions + (1 if args.scene == "meet" else 0)  # room for the meet scene's newcomer
    with tempfile.TemporaryDirectory() as data_dir, contextlib.ExitStack() as stack:
        servers: list[tuple[subprocess.Popen, int]] = []
        try:
            if args.database == "postgresql":
                url = args.database_url = stack.enter_context(postgresql(Path(data_dir) / "postgres"))
                flags = ("--database", url, "--host-key", str(Path(data_dir) / "shared_host_key"))
                for name in ("a", "b"):
                    (Path(data_dir) / name).mkdir()
                    servers.append(start_server(str(Path(data_dir) / name), capacity, args.spawn, *flags))
            else:
                servers.append(start_server(data_dir, capacity, args.spawn))
                args.database_url = str(Path(data_dir) / "soluna.sqlite3")
            return await measure(args, servers)
        finally:
            for server, _ in servers:
                server.send_signal(signal.SIGTERM)
            for server, _ in servers:
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    server.kill()


@contextlib.contextmanager
def postgresql(folder: Path):
    """A PostgreSQL of this run's own (its defaults: every commit waits for the disk); its URL."""
    try:
        import pgserver
    except ImportError:
        raise SystemExit("--database postgresql needs the pgserver wheel: pip install pgserver") from None
    folder.mkdir()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: no XDG_RUNTIME_DIR in a container
        server = pgserver.get_server(str(folder), cleanup_mode="delete")
    try:
        yield server.get_uri()
    finally:
        server.cleanup()


def all_processes(servers: list[tuple[subprocess.Popen, int]]) -> list[int]:
    return [pid for server, _ in servers for pid in process_tree(server.pid)]


async def measure(args: argparse.Namespace, servers: list[tuple[subprocess.Popen, int]]) -> int:
    await asyncio.sleep(0.5)
    baseline = {pid: memory_kib(pid) for pid in all_processes(servers)}
    rng = random.Random(args.seed)
    players: list = []
    opening: list[float] = []
    gate = asyncio.Semaphore(OPEN_AT_ONCE)

    async def open_one(number: int) -> None:
        async with gate:
            started = time.perf_counter()
            port = servers[number % len(servers)][1]  # dealt in turn, as a balancer would
            player = await asyncio.wait_for(Player.connect(port, number), OPEN_TIMEOUT)
            await asyncio.wait_for(into_scene(player, args.scene), OPEN_TIMEOUT * 2)
            opening.append(time.perf_counter() - started)
            players.append((number, player))

    await asyncio.gather(*(open_one(number) for number in range(args.sessions)))
    players = [player for _, player in sorted(players, key=lambda pair: pair[0])]
    await asyncio.sleep(1.0)
    # This process's own collections would pause every session's timing at once (50 pyte screens
    # are a lot of objects): what exists now is kept out of them.
    gc.collect()
    gc.freeze()
    tree = all_processes(servers)
    sessions = [pid for pid in tree if pid not in baseline]
    memory = {pid: memory_kib(pid) for pid in tree}
    grown = sum(memory[pid]["Pss"] - baseline[pid]["Pss"] for pid in baseline if pid in memory)
    children_pss = sum(memory[pid]["Pss"] for pid in sessions)
    times: dict[str, list[float]] = {}
    failures: list[str] = []
    started = time.perf_counter()
    relays = [server.pid for server, _ in servers]  # the servers' own processes: every session's bytes
    serving_cpu, relay_cpu, client_cpu = cpu_seconds(tree), cpu_seconds(relays), own_cpu_seconds()
    if args.scene == "match":
        await play_matches(args, servers, players, rng, times, failures)
    elif args.scene == "meet":
        await meet(args, servers, players, rng, times, failures)
    else:
        await asyncio.gather(*(play(player, args.scene, args.keys, args.interval, random.Random(rng.random()),
                                    times, failures) for player in players))
    elapsed = time.perf_counter() - started
    serving_cpu, client_cpu = cpu_seconds(tree) - serving_cpu, own_cpu_seconds() - client_cpu
    relay_cpu = cpu_seconds(relays) - relay_cpu
    for player in players:
        player.close()

    count = len(players)
    online = {name: times.pop(name) for name in (ARRIVED, LEFT, HEARD) if name in times}
    per_session = (children_pss + grown) / count / 1024
    every = [value for values in times.values() for value in values]
    where = "two servers on PostgreSQL" if len(servers) > 1 else "one server on SQLite"
    print(f"{count} sessions ({args.spawn}, {args.scene} scene, {where}) on {os.cpu_count()} CPUs; "
          f"{len(every)} keys in {elapsed:.0f} s ({len(every) / elapsed:.0f} keys/s in all)")
    print(f"opening a session (connect to first screen): median {statistics.median(opening) * 1000:.0f} ms, "
          f"slowest {max(opening) * 1000:.0f} ms")
    print(f"memory per session: {per_session:.1f} MiB (PSS of {len(sessions)} session processes "
          f"{children_pss / 1024:.0f} MiB + server and zygote growth {grown / 1024:.0f} MiB); "
          f"a session's RSS {statistics.median(memory[pid]['Rss'] for pid in sessions) / 1024:.0f} MiB, "
          f"private {statistics.median(memory[pid]['Uss'] for pid in sessions) / 1024:.1f} MiB")
    print(f"CPU while typing: the server side (server, zygote, sessions) {serving_cpu / elapsed:.2f} cores, "
          f"{serving_cpu / max(len(every), 1) * 1000:.0f} ms a key (the server's own process"
          f"{'es' if len(relays) > 1 else ''} {relay_cpu / elapsed:.2f} cores of it); "
          f"this load generator {client_cpu / elapsed:.2f} cores")
    if not every:
        print("no keystroke was timed")
        return 1
    if len(times) > 1:
        for name, values in sorted(times.items()):
            print(f"  {name}: {describe(values)}")
    print(f"keystroke to screen: {describe(every)}"
          + (f"; {len(failures)} keys never showed ({', '.join(sorted(set(failures)))})" if failures else ""))
    target = MATCH_TARGET if args.scene in ("match", "meet") else KEY_TARGET
    met = percentile(every, 0.95) < target and not failures
    print(f"target (p95 < {target * 1000:.0f} ms): {'met' if met else 'NOT met'}")
    if args.scene == "meet":
        for name, values in online.items():
            print(f"{name}: {describe(values, 'screens')}")
        current = ARRIVED in online and LEFT in online and all(
            percentile(online[name], 0.95) < ONLINE_TARGET for name in (ARRIVED, LEFT))
        print(f"who is online kept current (p95 < {ONLINE_TARGET:.0f} s): {'met' if current else 'NOT met'}")
        met = met and current
    return 0 if met else 1


async def play_matches(args: argparse.Namespace, servers: list[tuple[subprocess.Popen, int]], players: list[Player],
                       rng: random.Random, times: dict[str, list[float]], failures: list[str]) -> None:
    """Pair the sessions (neighbours: dealt to different servers), then play every match at once."""
    from soluna_tui.server.storage import open_storage

    store = await open_storage(args.database_url)
    try:
        pairs = [(players[index], players[index + 1]) for index in range(0, len(players) - 1, 2)]
        codes = []
        for first, second in pairs:  # one at a time: codes are typed, not rushed
            codes.append(await pair_up(first, second))
        await asyncio.gather(*(play_match(pair, (f"p{2 * index}", f"p{2 * index + 1}"), code, store, args.keys,
                                          args.interval, random.Random(rng.random()), times, failures)
                               for index, (pair, code) in enumerate(zip(pairs, codes, strict=True))))
    finally:
        await store.close()


async def meet(args: argparse.Namespace, servers: list[tuple[subprocess.Popen, int]], players: list[Player],
               rng: random.Random, times: dict[str, list[float]], failures: list[str]) -> None:
    """``--matches`` matches play while the other sessions list who is online and newcomers come and go."""
    playing, lobby = players[:2 * args.matches], players[2 * args.matches:]
    talkers = round(args.chatters * len(lobby))
    listener, talking, lobby = lobby[:1], lobby[1:1 + talkers], lobby[1 + talkers:]
    if len(lobby) < WATCHERS:
        raise SystemExit(f"the meet scene needs at least {2 * args.matches + talkers + 1 + WATCHERS} sessions")
    for player in lobby:
        player.press("o")
    for player in listener + talking:
        player.press("C")
    for player in lobby:
        await player.until(lambda text: "Who is online" in text, OPEN_TIMEOUT)
    for player in listener + talking:
        await player.until(lambda text: "Talk in the lobby" in text, OPEN_TIMEOUT)
    everyone = len(players)
    for player in lobby:  # every session is listed before anything is timed
        await player.until(lambda text: online_count(text) == everyone, OPEN_TIMEOUT)
    stop = asyncio.Event()

    async def newcomers() -> None:
        number = len(players)
        while not stop.is_set():
            await asyncio.sleep(NEWCOMER_EVERY)
            watchers = rng.sample(lobby, WATCHERS)
            port = servers[number % len(servers)][1]
            try:
                newcomer = await asyncio.wait_for(Player.connect(port, number), OPEN_TIMEOUT)
                await time_count(watchers, everyone + 1, ARRIVED, times)
                newcomer.close()
                await time_count(watchers, everyone, LEFT, times)
            except (TimeoutError, ConnectionError, OSError, asyncssh.Error) as error:
                failures.append(type(error).__name__)
                return
            number += 1

    said: dict[str, float] = {}  # a line's word, and when it was said

    async def talk(player: Player, number: int, talker: random.Random) -> None:
        for line in itertools.count():
            await asyncio.sleep(talker.uniform(0.5, 1.5) * TALK_EVERY)
            if stop.is_set():
                return
            word = f"w{number}x{line}"
            said[word] = time.perf_counter()
            player.press(f"hello {word}\r")

    async def listen() -> None:
        heard = listener[0]
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await heard.until(lambda text: any(word in text for word in said), 1.0)
            text = heard.text
            for word in [word for word in said if word in text]:
                times.setdefault(HEARD, []).append(time.perf_counter() - said.pop(word))

    arrivals = asyncio.create_task(newcomers())
    talks = [asyncio.create_task(talk(player, number, random.Random(rng.random())))
             for number, player in enumerate(talking)]
    listening = asyncio.create_task(listen())
    try:
        await play_matches(args, servers, playing, rng, times, failures)
    finally:
        stop.set()
        await asyncio.gather(arrivals, listening, *talks)
    if said:
        print(f"{len(said)} lines of talk never reached the listener (the lobby's talk is limited per room)")


def online_count(text: str) -> int | None:
    found = ONLINE.search(text)
    return int(found.group(1)) if found else None


async def time_count(watchers: list[Player], count: int, name: str, times: dict[str, list[float]]) -> None:
    """Each watcher's time until its lobby counts ``count`` online (measured from now, for all of them at once)."""
    started = time.perf_counter()

    async def seen(player: Player) -> None:
        await player.until(lambda text: online_count(text) == count, KEY_TIMEOUT + ONLINE_TARGET)
        times.setdefault(name, []).append(time.perf_counter() - started)

    await asyncio.gather(*(seen(player) for player in watchers))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def describe(values: list[float], counted: str = "keys") -> str:
    return (f"median {statistics.median(values) * 1000:.0f} ms, p95 {percentile(values, 0.95) * 1000:.0f} ms, "
            f"max {max(values) * 1000:.0f} ms over {len(values)} {counted}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--keys", type=int, default=30, help="keys each session presses")
    parser.add_argument("--interval", type=float, default=1.0, help="mean seconds between a session's keys")
    parser.add_argument("--scene", choices=("game", "lobby", "match", "meet"), default="game")
    parser.add_argument("--matches", type=int, default=25, help="matches played in the meet scene")
    parser.add_argument("--chatters", type=float, default=0.3,
                        help="the share of the meet scene's lobby that talks, a line every 10 s or so each")
    parser.add_argument("--spawn", choices=("zygote", "exec"), default="zygote")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite",
                        help="one server on its SQLite file, or two servers sharing a PostgreSQL of this run's own")
    args = parser.parse_args()
    if not 1 <= args.sessions <= MAX_SESSIONS or not 1 <= args.keys <= MAX_KEYS or args.interval < 0.05:
        parser.error(f"1-{MAX_SESSIONS} sessions, 1-{MAX_KEYS} keys, an interval of at least 0.05 s")
    return asyncio.run(asyncio.wait_for(run(args), TOTAL_TIMEOUT))


if __name__ == "__main__":
    raise SystemExit(main())
