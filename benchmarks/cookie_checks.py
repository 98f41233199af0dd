"""Cookie checks flooded from one address, against a player's keys: what the web door's sign-in cookie costs.

Usage: python benchmarks/cookie_checks.py [--rate 800] [--seconds 15] [--keys 40]

Starts ``soluna serve`` with its web door on free loopback ports (as ``ssh_load.py`` does), one SSH player in a
game against the computer and ``--matches`` two-player matches over SSH. The player presses the game scene's keys
(a key every quarter second or so, each timed until its effect is on the screen, read through pyte) and the
matches' players move in turn (each move timed until it shows on the opponent's screen: through the server and
its database, as ``ssh_load.py``'s match scene): ``--keys`` keys and up to ``--moves`` moves a match on a quiet
server, then as many again while one address (127.0.0.77) asks for the page ``--rate`` times a second, each
time with a cookie that looks like a sign-in's (a new one each time, so that nothing can be remembered: the
worst case), for at most ``--seconds``. It prints how many requests were answered a second and how (200: the
page, as not signed in; 429: refused before any database work), the server process's CPU while it lasted, and
the keys and moves on the quiet server and during the flood.

Everything is bounded: at most 2,000 requests a second for at most 60 s, 20 concurrent requests, 5 s for any
key or request, 5 minutes in all. The load generator runs on the same machine as the server, so it takes its
share of the two cores too.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import tempfile
import time
from collections import Counter

import aiohttp
from ssh_load import (
    GAME_KEYS,
    KEY_TIMEOUT,
    OPEN_TIMEOUT,
    SshPlayer,
    Times,
    cpu_seconds,
    describe,
    into_scene,
    next_expectation,
    pair_up,
    play_match,
    start_server,
)

FLOODER = "127.0.0.77"
MAX_RATE, MAX_SECONDS, AT_ONCE, TOTAL_TIMEOUT = 2000, 60.0, 20, 300.0
#: The pause between two of the player's keys (random within half of it either side).
KEY_PAUSE = 0.25


async def press_keys(player: SshPlayer, keys: int, rng: random.Random) -> list[float]:
    """``keys`` of the game scene's keys, each timed to its effect on the screen."""
    times = []
    for step in range(keys):
        key, shown = next_expectation(player, "game", step % len(GAME_KEYS))
        await player.press(key)
        times.append(await player.until(shown, KEY_TIMEOUT))
        await asyncio.sleep(rng.uniform(0.5, 1.5) * KEY_PAUSE)
    return times


async def flood(port: int, rate: float, seconds: float, stop: asyncio.Event) -> tuple[Counter[str], float]:
    """The page asked for ``rate`` times a second from one address, each time with a new sign-in-like cookie,
    until ``stop`` or ``seconds``: the answers by status, and the seconds it lasted."""
    answers: Counter[str] = Counter()
    gate = asyncio.Semaphore(AT_ONCE)
    connector = aiohttp.TCPConnector(local_addr=(FLOODER, 0), limit=AT_ONCE)
    timeout = aiohttp.ClientTimeout(total=KEY_TIMEOUT)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        async def one() -> None:
            try:
                async with http.get(f"http://127.0.0.1:{port}/",
                                    headers={"Cookie": f"soluna_sign_in={secrets.token_urlsafe(32)}"}) as answer:
                    await answer.read()
                    answers[str(answer.status)] += 1
            except (aiohttp.ClientError, TimeoutError) as error:
                answers[type(error).__name__] += 1
            finally:
                gate.release()

        tasks = set()
        started = time.perf_counter()
        sent = 0
        while not stop.is_set() and (now := time.perf_counter()) - started < seconds:
            due = int((now - started) * rate)
            while sent < due and not stop.is_set():
                await gate.acquire()
                task = asyncio.get_running_loop().create_task(one())
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                sent += 1
            await asyncio.sleep(0.002)
        lasted = time.perf_counter() - started
        await asyncio.gather(*tasks)
    return answers, lasted


async def play(player: SshPlayer, pairs: list[tuple[SshPlayer, SshPlayer]], codes: list[str], store,
               args: argparse.Namespace, rng: random.Random) -> tuple[list[float], list[float]]:
    """The keys and the matches' next ``--moves`` moves, all at once: their times."""
    times: Times = {}
    failures: list[str] = []
    keys, _ = await asyncio.gather(
        press_keys(player, args.keys, rng),
        asyncio.gather(*(play_match(pair, code, store, args.moves, 0.5, random.Random(rng.random()), times, failures)
                         for pair, code in zip(pairs, codes, strict=True))))
    if failures:
        raise SystemExit(f"moves failed: {failures}")
    return keys, [seconds for found in times.values() for seconds in found]


async def run(args: argparse.Namespace) -> int:
    from soluna_tui.server.storage import open_storage

    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as data_dir:
        args.doors, args.spawn = ("ssh", "web"), "zygote"
        server = start_server(data_dir, 2 + 2 * args.matches, args)
        store = await open_storage(f"{data_dir}/soluna.sqlite3")
        try:
            assert server.web_port is not None
            player = await asyncio.wait_for(SshPlayer.connect(server, 1), OPEN_TIMEOUT)
            others = [await asyncio.wait_for(SshPlayer.connect(server, 2 + number), OPEN_TIMEOUT)
                      for number in range(2 * args.matches)]
            await into_scene(player, "game")
            for other in others:
                await into_scene(other, "match")
            pairs = [(others[index], others[index + 1]) for index in range(0, len(others), 2)]
            codes = [await pair_up(first, second) for first, second in pairs]
            for other in others:
                await other.settle()
            quiet_keys, quiet_moves = await play(player, pairs, codes, store, args, rng)
            stop = asyncio.Event()
            cpu_before, wall_before = cpu_seconds([server.process.pid]), time.perf_counter()
            flooding = asyncio.get_running_loop().create_task(flood(server.web_port, args.rate, args.seconds, stop))
            await asyncio.sleep(1.0)  # the flood at its pace
            flooded_keys, flooded_moves = await play(player, pairs, codes, store, args, rng)
            stop.set()
            answers, lasted = await flooding
            cpu = (cpu_seconds([server.process.pid]) - cpu_before) / (time.perf_counter() - wall_before)
            for each in (player, *others):
                await each.close()
        finally:
            await store.close()
            server.process.terminate()
            server.process.wait(10)
    print(f"quiet server:  keys {describe(quiet_keys)}")
    print(f"               moves to the opponent's screen {describe(quiet_moves, 'moves')}")
    answered = ", ".join(f"{count} {status}" for status, count in answers.most_common())
    print(f"cookie flood:  {sum(answers.values()) / lasted:.0f} requests a second from one address for {lasted:.1f} s "
          f"({answered}); the server process used {cpu:.0%} of a core")
    print(f"during it:     keys {describe(flooded_keys)}")
    print(f"               moves to the opponent's screen {describe(flooded_moves, 'moves')}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=800, help="requests a second from the one address")
    parser.add_argument("--seconds", type=float, default=15, help="the flood's longest time")
    parser.add_argument("--keys", type=int, default=40, help="keys timed, on the quiet server and during the flood")
    parser.add_argument("--matches", type=int, default=3, help="two-player matches played meanwhile")
    parser.add_argument("--moves", type=int, default=5, help="moves timed a match, quiet and during the flood")
    args = parser.parse_args()
    if not 1 <= args.rate <= MAX_RATE or not 1 <= args.seconds <= MAX_SECONDS or not 1 <= args.keys <= 200 \
            or not 1 <= args.matches <= 10 or not 1 <= args.moves <= 5:
        parser.error(f"a rate of 1-{MAX_RATE}, 1-{MAX_SECONDS:.0f} seconds, 1-200 keys, 1-10 matches, 1-5 moves")
    return asyncio.run(asyncio.wait_for(run(args), TOTAL_TIMEOUT))


if __name__ == "__main__":
    raise SystemExit(main())
