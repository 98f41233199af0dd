"""A slow-header flood on the web door while players play: does the server keep its players and let newcomers in?

Usage: python benchmarks/web_flood.py [--players 50] [--connections 4100] [--seconds 20] [--open-files 1024]

Starts ``soluna serve`` with its web door on free loopback ports (as ``ssh_load.py`` does), its limit on open files
set to ``--open-files`` (soft and hard, as systemd's ``LimitNOFILE`` sets them) and its per-address limits at their
defaults. ``--players`` players (half over SSH, half in a browser tab's websocket, each from an address of its own)
play the computer. Then three scenes of ``--seconds`` each: a quiet server; ``--connections`` slow-header
connections from one address (127.1.0.1); as many from 50 addresses (127.1.0.1 to 127.1.0.50). Each flooding
connection sends the start of a request's headers and a header line every ``DRIBBLE`` seconds, never the end (a
"slowloris"), and once the server closes it, opens again after ``--retry`` seconds (5; slowloris tools wait 15,
``--retry 1`` makes it a flood of new connections too): the flood holds as many as the server lets it. The flood
runs in a process of its own, so its thousands of connections never hold up the event loop that times the players,
and at the lowest priority (niceness 19): on this one machine it would otherwise take a core of the two from the
server and the players' sessions, which a real attacker's machine does not. Meanwhile every player presses the game
scene's keys (about one a second each, each timed from the write until its effect is on the player's screen, read
through pyte), and every ``NEWCOMER_EVERY`` seconds a newcomer from a new address connects over SSH (timed until
its lobby's welcome shows) and another asks for the page over HTTP (timed until the whole page is read).

Printed for each scene: the flood's connections opened, how many its process saw closed within 0.2 s and how
long the others lasted; the server's open files at most (of its limit), the CPU of the server's own process and
of the players' client, and the load average; players' keys (median, p95, max); the newcomers' times; the log's
growth in lines a second, and whether it holds a traceback or "Too many open files". Targets: keys' p95 under
100 ms, every newcomer in within 2 s, the log at most ``--log-target`` (5) lines a second, no traceback.

Everything is bounded: at most 100 players, 5,000 flooding connections, 60 s a scene, 5 s for any key or
newcomer, 10 minutes in all. The load generator runs on the same machine as the server: its flood takes its share
of the two cores too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field

import aiohttp
from ssh_load import (
    DOOR_NAMES,
    DOORS,
    KEY_TIMEOUT,
    OPEN_TIMEOUT,
    Player,
    Server,
    SshPlayer,
    Times,
    cpu_seconds,
    describe,
    into_scene,
    own_cpu_seconds,
    percentile,
    play,
    raise_open_files,
    start_server,
)

MAX_PLAYERS, MAX_CONNECTIONS, MAX_SECONDS, TOTAL_TIMEOUT = 100, 5000, 60.0, 600.0
KEY_TARGET, NEWCOMER_TARGET = 0.100, 2.0
#: Seconds between a flooding connection's header lines; between two newcomers.
DRIBBLE, NEWCOMER_EVERY = 3.0, 2.0
#: A flooding connection closed within this many seconds of opening, without a byte: refused at once.
AT_ONCE = 0.2
FLOODERS = [f"127.1.0.{number}" for number in range(1, 51)]
#: The flood's process runs at the lowest priority: on this one machine it would otherwise take a core of the two
#: from the server and the players' sessions, which a real attacker's machine does not.
FLOOD_NICENESS = 19


@dataclass
class Flood:
    """What the flooding connections met: opened, refused at once, or held (and for how long)."""

    opened: int = 0
    failed: Counter[str] = field(default_factory=Counter)
    refused: int = 0
    held: list[float] = field(default_factory=list)


async def slow_headers(port: int, source: str, retry: float, stop: asyncio.Event, flood: Flood) -> None:
    """One flooding connection from ``source``, over and over until ``stop``: headers begun, never ended."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), KEY_TIMEOUT)
        except (OSError, TimeoutError) as error:
            flood.failed[type(error).__name__] += 1
            await asyncio.sleep(retry)
            continue
        flood.opened += 1
        opened = time.perf_counter()
        with contextlib.suppress(OSError):
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        while not stop.is_set():
            try:
                if not await asyncio.wait_for(reader.read(1024), DRIBBLE):
                    break
            except TimeoutError:
                with contextlib.suppress(OSError):
                    writer.write(b"X-Slow: yes\r\n")
            except OSError:
                break
        lasted = time.perf_counter() - opened
        if not stop.is_set():
            if lasted < AT_ONCE:
                flood.refused += 1
            else:
                flood.held.append(lasted)
        writer.close()
        await asyncio.sleep(retry)


async def flood_until_told(port: int, sources: list[str], connections: int, retry: float) -> None:
    """The flood in a process of its own (``--flood``), so its thousands of connections never hold up the event
    loop that times the players' keys: until SIGTERM, then what it met, as JSON on standard output."""
    os.nice(FLOOD_NICENESS)  # the attacker's CPU is not the server's: it takes what the server leaves
    stop, flood = asyncio.Event(), Flood()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await asyncio.gather(*(slow_headers(port, sources[index % len(sources)], retry, stop, flood)
                           for index in range(connections)))
    print(json.dumps({"opened": flood.opened, "failed": dict(flood.failed), "refused": flood.refused,
                      "held": flood.held}))


async def start_flood(port: int, sources: list[str], args: argparse.Namespace) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--flood", str(port), ",".join(sources), "--connections", str(args.connections),
        "--retry", str(args.retry), stdout=asyncio.subprocess.PIPE)


async def end_flood(process: asyncio.subprocess.Process) -> Flood:
    process.send_signal(signal.SIGTERM)
    output, _ = await asyncio.wait_for(process.communicate(), 30)
    found = json.loads(output)
    return Flood(found["opened"], Counter(found["failed"]), found["refused"], found["held"])


async def newcomers(server: Server, first: int, stop: asyncio.Event, times: dict[str, list[float]],
                    failures: Counter[str]) -> None:
    """Every ``NEWCOMER_EVERY`` seconds, one newcomer over SSH (to its lobby) and one over HTTP (the page), each
    from a new address."""
    number = first
    while not stop.is_set():
        await asyncio.sleep(NEWCOMER_EVERY)
        await asyncio.gather(ssh_newcomer(server, number, times, failures),
                             page_newcomer(server, number + 1, times, failures))
        number += 2


async def ssh_newcomer(server: Server, number: int, times: dict[str, list[float]], failures: Counter[str]) -> None:
    started = time.perf_counter()
    try:
        player = await asyncio.wait_for(SshPlayer.connect(server, number), KEY_TIMEOUT)
        try:
            await player.until(lambda text: "Welcome," in text, KEY_TIMEOUT)
            times.setdefault("a newcomer over SSH, to its lobby", []).append(time.perf_counter() - started)
        finally:
            await player.close()
    except (OSError, TimeoutError, ConnectionError) as error:
        failures[f"SSH newcomer: {type(error).__name__}"] += 1
    except Exception as error:  # asyncssh's refusals
        failures[f"SSH newcomer: {type(error).__name__}: {error}"] += 1


async def page_newcomer(server: Server, number: int, times: dict[str, list[float]], failures: Counter[str]) -> None:
    started = time.perf_counter()
    connector = aiohttp.TCPConnector(local_addr=(Player.address(number), 0))
    timeout = aiohttp.ClientTimeout(total=KEY_TIMEOUT)
    try:
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http, \
                http.get(f"http://127.0.0.1:{server.web_port}/") as answer:
            await answer.read()
            if answer.status != 200:
                raise ConnectionError(f"status {answer.status}")
        times.setdefault("a newcomer over HTTP, the page", []).append(time.perf_counter() - started)
    except (OSError, TimeoutError, ConnectionError, aiohttp.ClientError) as error:
        failures[f"HTTP newcomer: {type(error).__name__}"] += 1


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def log_lines(server: Server) -> list[str]:
    return server.log.read_text(errors="replace").splitlines()


async def scene(name: str, server: Server, players: list[Player], sources: list[str], args: argparse.Namespace,
                first_newcomer: int, rng: random.Random) -> bool:
    """One scene: the flood from ``sources`` (none: a quiet server) while the players play and newcomers come;
    its figures printed, and whether it met every target."""
    stop = asyncio.Event()
    assert server.web_port is not None
    flooding = await start_flood(server.web_port, sources, args) if sources else None
    most_files = open_files(server.process.pid)

    async def watch_files() -> None:
        nonlocal most_files
        while not stop.is_set():
            most_files = max(most_files, open_files(server.process.pid))
            await asyncio.sleep(0.1)

    watching = asyncio.create_task(watch_files())
    # This process's own collections would pause every player's timing at once (50 pyte screens are a lot of
    # objects): what exists now is kept out of them, as ssh_load.py does.
    gc.collect()
    gc.freeze()
    await asyncio.sleep(3.0 if sources else 0)  # the flood at its height before anything is timed
    lines_before, started = len(log_lines(server)), time.perf_counter()
    server_cpu, client_cpu = cpu_seconds([server.process.pid]), own_cpu_seconds()
    times: Times = {}
    failures: list[str] = []
    arrivals: dict[str, list[float]] = {}
    refused: Counter[str] = Counter()
    arriving = asyncio.create_task(newcomers(server, first_newcomer, stop, arrivals, refused))
    keys = max(1, round(args.seconds / args.interval))
    await asyncio.gather(*(play(player, "game", keys, args.interval, random.Random(rng.random()), times, failures)
                           for player in players))
    lasted = time.perf_counter() - started
    server_cpu = (cpu_seconds([server.process.pid]) - server_cpu) / lasted
    client_cpu = (own_cpu_seconds() - client_cpu) / lasted
    lines = log_lines(server)[lines_before:]
    stop.set()
    flood = await end_flood(flooding) if flooding is not None else Flood()
    await asyncio.gather(arriving, watching)

    keyed = [seconds for found in times.values() for seconds in found]
    print(f"{name}:")
    if sources:
        held = flood.held
        print(f"  flood: {args.connections} slow-header connections from {len(sources)} address"
              f"{'es' if len(sources) > 1 else ''}: {flood.opened} opened in {lasted + 3:.0f} s; as the flood's "
              f"process saw them, {flood.refused} closed within {AT_ONCE:g} s, {len(held)} later "
              + (f"(median {sorted(held)[len(held) // 2]:.1f} s, longest {max(held):.1f} s)" if held else "")
              + (f"; connecting failed: {dict(flood.failed)}" if flood.failed else ""))
    print(f"  the server's open files: at most {most_files} of its limit {args.open_files}; the server's own process "
          f"used {server_cpu:.2f} cores, the players' client (their screens) {client_cpu:.2f} cores; load "
          f"average {os.getloadavg()[0]:.1f}")
    met = not failures
    if keyed:
        print(f"  players' keys: {describe(keyed)}")
        for door in ("ssh", "web"):
            mine = [seconds for (seen, _), found in times.items() if seen == door for seconds in found]
            print(f"    over {DOOR_NAMES[door]}: {describe(mine)}")
        met = met and percentile(keyed, 0.95) < KEY_TARGET
    if failures:
        print(f"  {len(failures)} keys never showed ({', '.join(sorted(set(failures)))})")
    for what, found in sorted(arrivals.items()):
        print(f"  {what}: {describe(found, 'newcomers')}")
        met = met and max(found) <= NEWCOMER_TARGET
    if refused:
        print(f"  newcomers who did not get in: {dict(refused)}")
        met = False
    tracebacks = sum("Traceback" in line for line in lines)
    no_files = sum("Too many open files" in line for line in lines)
    if sources:
        print(f"  the flood opened {flood.opened / (lasted + 3):.0f} connections a second (at the lowest priority)")
    print(f"  the log: {len(lines)} lines in {lasted:.0f} s ({len(lines) / lasted:.1f} a second), {tracebacks} "
          f"tracebacks, {no_files} 'Too many open files'")
    for line in lines[:args.show_log]:
        print(f"    {line[:160]}")
    met = met and tracebacks == 0 and no_files == 0 and len(lines) / lasted <= args.log_target
    print(f"  targets (keys p95 < {KEY_TARGET * 1000:.0f} ms, newcomers within {NEWCOMER_TARGET:.0f} s, "
          f"the log at most {args.log_target:g} lines a second, no traceback): {'met' if met else 'NOT met'}")
    return met


async def run(args: argparse.Namespace) -> int:
    raise_open_files(args.connections + 2 * args.players)
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as data_dir:
        args.doors, args.spawn = ("ssh", "web"), "zygote"
        # Room for every player and the newcomers; the per-address limits back at their defaults.
        server = start_server(data_dir, args.players + 10, args, "--max-per-ip", "3", "--max-new-per-minute", "12",
                              open_files=args.open_files)
        players: list[Player] = []
        try:
            opening = asyncio.Semaphore(4)

            async def open_one(number: int) -> None:
                async with opening:
                    player = await asyncio.wait_for(DOORS[("ssh", "web")[number % 2]].connect(server, number),
                                                    OPEN_TIMEOUT)
                    players.append(player)
                    await asyncio.wait_for(into_scene(player, "game"), OPEN_TIMEOUT * 2)

            await asyncio.gather(*(open_one(number) for number in range(args.players)))
            for player in players:
                await player.settle()
            print(f"{len(players)} players ({(len(players) + 1) // 2} over SSH, {len(players) // 2} in a browser tab) "
                  f"playing the computer on {os.cpu_count()} CPUs; the server's limit on open files {args.open_files}")
            met = True
            scenes = (("a quiet server", []), ("one address floods", FLOODERS[:1]), ("50 addresses flood", FLOODERS))
            for number, (name, sources) in enumerate(scenes):
                met = await scene(name, server, players, sources, args, 1000 + 100 * number, rng) and met
            log = server.log.read_text(errors="replace")
            bounds = re.findall(r"refusing new connections: .*", log)
            if bounds:
                print(f"the bound on open files was reached {len(bounds)} times: {bounds[0]}")
            return 0 if met else 1
        finally:
            await asyncio.gather(*(player.close() for player in players), return_exceptions=True)
            server.process.send_signal(signal.SIGTERM)
            try:
                server.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.process.kill()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=50, help="players playing the computer, half over SSH")
    parser.add_argument("--connections", type=int, default=4100, help="slow-header connections the flood keeps up")
    parser.add_argument("--seconds", type=float, default=20, help="each scene's length")
    parser.add_argument("--interval", type=float, default=1.0, help="mean seconds between a player's keys")
    parser.add_argument("--retry", type=float, default=5.0,
                        help="seconds a flooding connection waits to open again once closed")
    parser.add_argument("--open-files", type=int, default=1024, help="the server's limit on open files (LimitNOFILE)")
    parser.add_argument("--log-target", type=float, default=5.0, help="the most log lines a second that passes")
    parser.add_argument("--show-log", type=int, default=0, help="print this many of each scene's log lines")
    parser.add_argument("--flood", nargs=2, metavar=("PORT", "SOURCES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.flood:  # the flood's own process
        port, sources = args.flood
        asyncio.run(flood_until_told(int(port), sources.split(","), min(args.connections, MAX_CONNECTIONS),
                                     max(args.retry, 0.05)))
        return 0
    if not 2 <= args.players <= MAX_PLAYERS or not 1 <= args.connections <= MAX_CONNECTIONS \
            or not 1 <= args.seconds <= MAX_SECONDS or args.interval < 0.2 or args.retry < 0.05 \
            or not 256 <= args.open_files <= 65536:
        parser.error(f"2-{MAX_PLAYERS} players, 1-{MAX_CONNECTIONS} connections, 1-{MAX_SECONDS:.0f} s a scene, an "
                     "interval of at least 0.2 s, a retry of at least 0.05 s, a limit of 256-65536 open files")
    return asyncio.run(asyncio.wait_for(run(args), TOTAL_TIMEOUT))


if __name__ == "__main__":
    raise SystemExit(main())
