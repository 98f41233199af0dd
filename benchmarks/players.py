"""Win rates of each computer level against ``random`` and against ``perfect``.

Usage: python benchmarks/players.py [--rounds N] [--discs N]

Each pairing plays N seeded rounds on fresh drops, the level opening every other
round, and prints the level's share of rounds won.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from soluna_tui.rules import LEVELS, Round, choose_move, drop  # noqa: E402


def play_round(levels: tuple[str, str], discs: int, opener: int, rng: random.Random) -> int:
    """Play one round between two levels; return the winner (0 or 1)."""
    game = Round(drop(discs, rng), opener)
    while not game.is_over:
        game.play(choose_move(levels[game.to_move], game.position, rng))
    return game.outcome.winner


def win_rate(level: str, opponent: str, rounds: int, discs: int) -> float:
    rng = random.Random(f"{level}-{opponent}")
    won = sum(play_round((level, opponent), discs, index % 2, rng) == 0 for index in range(rounds))
    return won / rounds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--discs", type=int, default=12)
    args = parser.parse_args()
    started = time.perf_counter()
    print(f"{args.rounds} rounds per pairing, {args.discs} discs, openers alternating")
    print(f"{'level':>8} {'vs random':>10} {'vs perfect':>11}")
    for level in LEVELS:
        against_random = win_rate(level, "random", args.rounds, args.discs)
        against_perfect = win_rate(level, "perfect", args.rounds, args.discs)
        print(f"{level:>8} {against_random:>10.1%} {against_perfect:>11.1%}")
    print(f"({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
