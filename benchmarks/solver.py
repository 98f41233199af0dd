"""Solver speed: the project's solver against a plain memoised minimax, both cold, same run.

Usage: python benchmarks/solver.py [--starts-16 N] [--starts-18 N] [--large]

For 12, 16 and 18 discs it solves seeded drops with a fresh cache each time and
prints the time of each solver and the ratio (ours / baseline; the target is at
most 0.10 on 16 and 18 discs). Peak memory of the project's solver is measured
in a separate pass with tracemalloc (so timings are not slowed by it).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import tracemalloc
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from soluna_tui.rules import Position, Solver, drop  # noqa: E402

Towers = tuple[tuple[int, int], ...]


def baseline_children(towers: Towers) -> set[Towers]:
    """Every position one move away, as sorted (height, symbol) tuples: the plain way."""
    children = set()
    for i, (height_a, symbol_a) in enumerate(towers):
        for j, (height_b, symbol_b) in enumerate(towers):
            if i != j and (height_a == height_b or symbol_a == symbol_b):
                rest = [tower for k, tower in enumerate(towers) if k not in (i, j)]
                rest.append((height_a + height_b, symbol_a))
                children.add(tuple(sorted(rest, key=lambda tower: (-tower[0], tower[1]))))
    return children


@cache
def baseline_solve(towers: Towers) -> tuple[bool, int]:
    """Plain memoised minimax on canonical towers: (mover wins, plies), winner fastest, loser longest."""
    results = [baseline_solve(child) for child in baseline_children(towers)]
    if not results:
        return (False, 0)
    losing = [plies for wins, plies in results if not wins]
    if losing:
        return (True, min(losing) + 1)
    return (False, max(plies for _, plies in results) + 1)


def as_towers(position: Position) -> Towers:
    return tuple((tower.height, int(tower.symbol)) for tower in position.towers)


def timed(function, *args) -> tuple[object, float]:
    gc.collect()
    started = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - started


def run_baseline(position: Position) -> tuple[bool, int]:
    baseline_solve.cache_clear()
    return baseline_solve(as_towers(position))


def run_ours(position: Position) -> tuple[bool, int]:
    verdict = Solver().verdict(position)
    return (verdict.wins, verdict.plies)


def peak_memory_mb(position: Position) -> tuple[float, int]:
    gc.collect()
    tracemalloc.start()
    solver = Solver()
    solver.verdict(position)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20, solver.positions_solved


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts-12", type=int, default=20)
    parser.add_argument("--starts-16", type=int, default=3)
    parser.add_argument("--starts-18", type=int, default=2)
    parser.add_argument("--large", action="store_true", help="also time 20, 22 and 24 discs (ours only)")
    args = parser.parse_args()
    print(f"{'discs':>5} {'starts':>6} {'baseline s':>11} {'ours s':>8} {'ratio':>7} "
          f"{'base pos':>9} {'our pos':>8} {'peak MB':>8}")
    worst_ratio = {}
    for discs, count in ((12, args.starts_12), (16, args.starts_16), (18, args.starts_18)):
        rng = random.Random(discs)
        starts = [drop(discs, rng) for _ in range(count)]
        base_total = ours_total = 0.0
        base_positions = our_positions = 0
        peak = 0.0
        for start in starts:
            expected, base_seconds = timed(run_baseline, start)
            base_positions += baseline_solve.cache_info().currsize
            got, our_seconds = timed(run_ours, start)
            if got != expected:
                print(f"MISMATCH on {start}: baseline {expected}, ours {got}")
                return 1
            base_total += base_seconds
            ours_total += our_seconds
            megabytes, solved = peak_memory_mb(start)
            peak = max(peak, megabytes)
            our_positions += solved
        baseline_solve.cache_clear()
        ratio = ours_total / base_total
        worst_ratio[discs] = ratio
        print(f"{discs:>5} {count:>6} {base_total:>11.2f} {ours_total:>8.3f} {ratio:>7.3f} "
              f"{base_positions // count:>9} {our_positions // count:>8} {peak:>8.1f}")
    if args.large:
        for discs in (20, 22, 24):
            start = drop(discs, random.Random(discs))
            _, seconds = timed(run_ours, start)
            megabytes, solved = peak_memory_mb(start)
            print(f"{discs:>5} {1:>6} {'-':>11} {seconds:>8.3f} {'-':>7} {'-':>9} {solved:>8} {megabytes:>8.1f}")
    verdict = all(worst_ratio[discs] <= 0.10 for discs in (16, 18))
    print(f"target (ratio <= 0.10 on 16 and 18 discs): {'met' if verdict else 'NOT met'}")
    return 0 if verdict else 1


if __name__ == "__main__":
    raise SystemExit(main())
