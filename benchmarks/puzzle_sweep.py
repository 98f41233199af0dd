"""The full puzzle check: every puzzle for seeds 0-999 has exactly one winning move, its solution,
among at least its difficulty's floor of legal moves, within its difficulty's plies.

Usage: python benchmarks/puzzle_sweep.py [--seeds N] [--difficulty D]

(The test suite checks a sample of these seeds; this script checks them all, for every
difficulty unless one is named, and prints how long it took and how the puzzles spread:
min/median/max legal moves to choose from and plies to the end.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from soluna_tui.rules import shared_solver  # noqa: E402
from soluna_tui.rules.puzzles import ANY, DIFFICULTIES, MIN_CHOICES, Puzzle, make_puzzle  # noqa: E402


def spread(values: list[int]) -> str:
    return f"{min(values)}/{statistics.median(values):g}/{max(values)}"


def is_sound(puzzle: Puzzle) -> bool:
    """Exactly one winning move, the solution, in the plies promised, with the floor of choices."""
    low, high = DIFFICULTIES.get(puzzle.difficulty, (1, 99))
    winning = [item.move for item in shared_solver.analyse(puzzle.position).winning_moves]
    return (winning == [puzzle.solution]
            and shared_solver.verdict(puzzle.position).plies == puzzle.plies
            and low <= puzzle.plies <= high
            and len(puzzle.position.legal_moves) >= max(2, MIN_CHOICES[puzzle.difficulty]))


def sweep(difficulty: str, seeds: int) -> bool:
    started = time.perf_counter()
    choices, plies, bad = [], [], []
    for seed in range(seeds):
        puzzle = make_puzzle(seed, difficulty)
        if not is_sound(puzzle):
            bad.append(seed)
        choices.append(len(puzzle.position.legal_moves))
        plies.append(puzzle.plies)
    elapsed = time.perf_counter() - started
    print(f"{difficulty:<7} {seeds} puzzles in {elapsed:5.1f} s; legal moves min/median/max {spread(choices):<9} "
          f"(floor {MIN_CHOICES[difficulty]}); plies {spread(plies)}")
    if bad:
        print(f"        FAILED for seeds {bad[:20]}{'...' if len(bad) > 20 else ''}")
    return not bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--difficulty", choices=(ANY, *DIFFICULTIES), default=None,
                        help="one difficulty (default: each in turn)")
    args = parser.parse_args()
    difficulties = [args.difficulty] if args.difficulty else [ANY, *DIFFICULTIES]
    if not all([sweep(difficulty, args.seeds) for difficulty in difficulties]):
        return 1
    print("every puzzle has exactly one winning move, its solution, among its floor of choices")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
