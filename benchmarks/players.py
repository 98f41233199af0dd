"""The computer's strength ladder: win rates against the neighbours, ratings, and the swindler's gain.

Usage: nice python benchmarks/players.py [--rounds N] [--jobs N] [--discs N]

1. Every level, as the app plays it, plays each level one and two steps away N seeded rounds
   (each on a fresh drop, as round 1 of the box rules; openers alternating) and the table prints
   each level's share of rounds won against the next one up and the next one down (and, weighed
   exactly over every drop, against the next one up), and each level's accuracy over all those rounds:
   the share of its moves that kept the best outcome, judged as the round review judges a player's
   (``rules/teaching.py``), which "Match my strength" compares a player's accuracy with.
2. Each level gets a rating on the SSH server's openskill scale (``server/rating_model.py``): the
   ``mu`` under which the model's ``win_chance`` explains the rounds best (maximum likelihood),
   the ladder centred on a newcomer's 25, ``sigma`` its standard error, and the number players see.
   The table ends with the constants ``rules/strengths.py`` keeps.
3. Swindling, weighed exactly (no dice): over every lost start of the table, the share the top
   level wins against each strength when it swindles with the right model, with the typical
   opponent's, and when it plays as plain "perfect" or as the old "trap" instead.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from soluna_tui.rules import Position, Round, drop, every_drop, shared_solver  # noqa: E402
from soluna_tui.rules.players import choose_move, top_chances, trap_chances  # noqa: E402
from soluna_tui.rules.strengths import PERFECT, STRENGTHS, TYPICAL_OPPONENT, Model, Strength  # noqa: E402
from soluna_tui.rules.swindle import Policy, chances_to_win  # noqa: E402
from soluna_tui.rules.teaching import review_round  # noqa: E402
from soluna_tui.server.rating_model import START_MU, Rating, win_chance  # noqa: E402

Pairing = tuple[int, int]


def play_round(levels: tuple[str, str], discs: int, opener: int, rng: random.Random) -> Round:
    """Play one round between two levels (the first plays player 0); return it, over."""
    game = Round(drop(discs, rng), opener)
    while not game.is_over:
        game.play(choose_move(levels[game.to_move], game.position, rng))
    return game


class Played(NamedTuple):
    """A pairing's rounds: how many its first level won, and each level's moves that kept the best outcome
    and moves made (by the review's rule)."""

    won: int
    kept: tuple[int, int]
    made: tuple[int, int]


def rounds_won(pairing: Pairing, rounds: int, discs: int) -> Played:
    """``rounds`` between the levels of ``pairing`` (indices into STRENGTHS), the first level as player 0."""
    first, second = (STRENGTHS[index].level for index in pairing)
    rng = random.Random(f"{first}-{second}-{discs}")
    won, kept, made = 0, [0, 0], [0, 0]
    for index in range(rounds):
        game = play_round((first, second), discs, index % 2, rng)
        won += game.outcome.winner == 0
        review = review_round(game)
        for player in (0, 1):
            kept_now, made_now = review.kept_and_made(player)
            kept[player] += kept_now
            made[player] += made_now
    return Played(won, (kept[0], kept[1]), (made[0], made[1]))


def accuracies(played: dict[Pairing, Played]) -> list[float]:
    """Each level's share of best-outcome moves over every round it played."""
    kept, made = [0] * len(STRENGTHS), [0] * len(STRENGTHS)
    for pairing, result in played.items():
        for player, index in enumerate(pairing):
            kept[index] += result.kept[player]
            made[index] += result.made[player]
    return [k / m for k, m in zip(kept, made, strict=True)]


def fit(results: dict[Pairing, tuple[int, int]]) -> list[Rating]:
    """The ratings explaining ``results`` (wins, rounds per pairing) best, centred on START_MU."""
    count = len(STRENGTHS)
    mus, sigmas = [START_MU] * count, [1.0] * count

    def log_likelihood(values: list[float]) -> float:
        total = 0.0
        for (first, second), (won, played) in results.items():
            chance = win_chance(Rating(values[first], sigmas[first]), Rating(values[second], sigmas[second]))
            chance = min(max(chance, 1e-12), 1 - 1e-12)
            total += won * math.log(chance) + (played - won) * math.log(1 - chance)
        return total

    for _ in range(3):  # the sigmas enter the model's chances: fit, weigh the errors, fit again
        step = 8.0
        while step > 1e-4:
            moved = False
            for index in range(count):
                for delta in (step, -step):
                    trial = mus.copy()
                    trial[index] += delta
                    if log_likelihood(trial) > log_likelihood(mus):
                        mus, moved = trial, True
                        break
            if not moved:
                step /= 2
        shift = START_MU - sum(mus) / count
        mus = [mu + shift for mu in mus]
        sigmas = standard_errors(mus, sigmas, results)
    return [Rating(mu, sigma) for mu, sigma in zip(mus, sigmas, strict=True)]


def standard_errors(mus: list[float], sigmas: list[float], results: dict[Pairing, tuple[int, int]]) -> list[float]:
    """Each mu's standard error from the likelihood's curvature along it (the others held)."""
    information = [0.0] * len(mus)
    width = 1e-3
    for (first, second), (_, played) in results.items():
        def chance(shift: float, first: int = first, second: int = second) -> float:
            return win_chance(Rating(mus[first] + shift, sigmas[first]), Rating(mus[second], sigmas[second]))

        middle, slope = chance(0.0), (chance(width) - chance(-width)) / (2 * width)
        for index in (first, second):  # the chance moves as much, either way, with either mu
            information[index] += played * slope * slope / (middle * (1 - middle))
    return [1 / math.sqrt(value) for value in information]


def policy(strength: Strength, opponent: Model = TYPICAL_OPPONENT, discs: int = 12) -> Policy:
    """How a level plays, move by move, as ``chances_to_win`` weighs it."""
    if strength.is_perfect:
        return partial(top_chances, discs=discs, opponent=opponent, solver=shared_solver)
    return lambda outcomes: strength.chances(outcomes.verdicts)


def drops(discs: int, lost: bool = False) -> tuple[list[Position], list[int]]:
    """Every drop of ``discs`` up to renaming symbols (only those lost for the opener, if ``lost``), and how
    many of the ``2**discs`` drops each stands for."""
    found: dict[Hashable, Position] = {}
    counts: Counter[Hashable] = Counter()
    for start in every_drop(discs):
        if not lost or not shared_solver.verdict(start).wins:
            key = shared_solver.key(start)
            found.setdefault(key, start)
            counts[key] += 1
    return list(found.values()), [counts[key] for key in found]


def weighed(shares: list[float], counts: list[int]) -> float:
    return sum(share * count for share, count in zip(shares, counts, strict=True)) / sum(counts)


def exact_rate(low: Strength, high: Strength, discs: int) -> float:
    """``low``'s share of rounds against ``high`` over every drop, openers alternating, weighed exactly."""
    starts, counts = drops(discs)
    first = chances_to_win(starts, policy(low, discs=discs), policy(high, discs=discs), shared_solver)
    second = chances_to_win(starts, policy(high, discs=discs), policy(low, discs=discs), shared_solver)
    return (weighed(first, counts) + 1 - weighed(second, counts)) / 2


def swindles(discs: int) -> list[tuple[str, list[float]]]:
    """Against each strength: the share of lost starts won by each way of playing the top level."""
    starts, counts = drops(discs, lost=True)
    ways: list[tuple[str, Callable[[Strength], Policy]]] = [
        ("perfect", lambda _: lambda outcomes: PERFECT.chances(outcomes.verdicts)),
        ("old trap", lambda _: partial(trap_chances, solver=shared_solver)),
        ("swindle, typical", lambda _: policy(PERFECT, discs=discs)),
        ("swindle, known", lambda strength: policy(PERFECT, strength, discs)),
    ]
    rows = []
    for name, way in ways:
        shares = []
        for strength in STRENGTHS[:-1]:
            won = chances_to_win(starts, way(strength), policy(strength, discs=discs), shared_solver)
            shares.append(weighed(won, counts))
        rows.append((name, shares))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per pairing (default 2000)")
    parser.add_argument("--jobs", type=int, default=2, help="processes playing at once (default 2)")
    parser.add_argument("--discs", type=int, default=12)
    args = parser.parse_args()
    started = time.perf_counter()
    pairings = [(low, low + gap) for gap in (1, 2) for low in range(len(STRENGTHS) - gap)]
    with ProcessPoolExecutor(args.jobs) as pool:
        played = dict(zip(pairings, pool.map(partial(rounds_won, rounds=args.rounds, discs=args.discs), pairings),
                          strict=True))
    results = {pairing: (result.won, args.rounds) for pairing, result in played.items()}
    ratings = fit(results)
    accuracy = accuracies(played)
    print(f"{args.rounds} rounds per pairing, {args.discs} discs, openers alternating, "
          f"{len(pairings) * args.rounds} rounds in {time.perf_counter() - started:.0f} s")
    exact = [exact_rate(low, high, args.discs) for low, high in zip(STRENGTHS, STRENGTHS[1:], strict=False)]
    print(f"{'level':>10} {'vs next up':>10} {'(exact)':>8} {'vs next down':>12} {'mu':>6} {'sigma':>5} "
          f"{'rating':>6} {'accuracy':>8}")
    for index, (strength, rating) in enumerate(zip(STRENGTHS, ratings, strict=True)):
        last = index + 1 == len(STRENGTHS)
        up = "-" if last else f"{results[(index, index + 1)][0] / args.rounds:.1%}"
        exactly = "-" if last else f"{exact[index]:.1%}"
        down = f"{1 - results[(index - 1, index)][0] / args.rounds:.1%}" if index else "-"
        print(f"{strength.label:>10} {up:>10} {exactly:>8} {down:>12} {rating.mu:6.2f} {rating.sigma:5.2f} "
              f"{rating.shown:6d} {accuracy[index]:8.1%}")
    print("\nFor rules/strengths.py (mu, sigma, rating, accuracy):")
    for strength, rating, share in zip(STRENGTHS, ratings, accuracy, strict=True):
        print(f"    {strength.number}: {rating.mu:.2f}, {rating.sigma:.2f}, {rating.shown}, {share:.3f}")
    print(f"\nLost starts of {args.discs} discs won by the top level against each strength (exact):")
    print(f"{'':>17}" + "".join(f"{strength.label:>10}" for strength in STRENGTHS[:-1]))
    for name, shares in swindles(args.discs):
        print(f"{name:>17}" + "".join(f"{share:>10.2%}" for share in shares))
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
