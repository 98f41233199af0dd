"""The full puzzle check: every puzzle for seeds 0-999 has exactly one winning move, its solution.

Usage: python benchmarks/puzzle_sweep.py [--seeds N] [--difficulty D]

(The test suite checks a sample of these seeds; this script checks them all and
prints how long it took and how the puzzles spread over plies.)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from soluna_tui.rules import shared_solver  # noqa: E402
from soluna_tui.rules.puzzles import ANY, DIFFICULTIES, make_puzzle  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--difficulty", choices=(ANY, *DIFFICULTIES), default=ANY)
    args = parser.parse_args()
    started = time.perf_counter()
    plies = Counter()
    bad = []
    for seed in range(args.seeds):
        puzzle = make_puzzle(seed, args.difficulty)
        winning = [item.move for item in shared_solver.analyse(puzzle.position).winning_moves]
        if winning != [puzzle.solution] or shared_solver.verdict(puzzle.position).plies != puzzle.plies:
            bad.append(seed)
        plies[puzzle.plies] += 1
    elapsed = time.perf_counter() - started
    print(f"{args.seeds} puzzles ({args.difficulty}) in {elapsed:.1f} s; plies: "
          + ", ".join(f"{count}x{n}" for n, count in sorted(plies.items())))
    if bad:
        print(f"FAILED for seeds {bad[:20]}{'...' if len(bad) > 20 else ''}")
        return 1
    print("every puzzle has exactly one winning move, its solution")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
