"""``soluna export --last`` on a 24-disc match: with the verdicts the game kept, and without.

Usage: python benchmarks/export_last.py [--discs N] [--stars N] [--seed N]

Plays a match with random moves through the game's own table (kept in ``finished/`` when it
ends), reviews it as the game does and lets the table keep the verdicts; then times the
command twice in fresh processes: as the game left the file, and with the verdicts removed
(what export did before it could reuse them). CPU seconds of the child, so other work on the
machine does not blur the figures; prints both and their ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from soluna_tui.local.match_setup import MatchSetup  # noqa: E402
from soluna_tui.local.saves import FinishedStore, SaveStore  # noqa: E402
from soluna_tui.local.table import LocalTable  # noqa: E402
from soluna_tui.rules import MatchOptions  # noqa: E402
from soluna_tui.rules.teaching import review_round  # noqa: E402


def play_and_keep(folder: Path, discs: int, stars: int, seed: int) -> float:
    """Play a match to its end as the game does, review it, keep its verdicts; the review's CPU seconds."""
    setup = MatchSetup.against_computer("random", MatchOptions(discs=discs, stars_to_win=stars), seed=seed)
    table = LocalTable(setup, setup.new_match(), SaveStore(folder))
    rng = random.Random(seed)
    match = table.match
    while not match.is_over:
        if match.between_rounds:
            table.start_next_round(0 if match.opener_chooser is not None else None, None)
        table.play(rng.choice(match.position.legal_moves), match.to_move)
    started = time.process_time()
    for played in match.rounds:
        review_round(played)
    reviewed = time.process_time() - started
    table.judged()
    return reviewed


def export_cpu_seconds(folder: Path) -> tuple[float, str]:
    """CPU seconds of one ``soluna export --last`` in a fresh process, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run([sys.executable, "-m", "soluna_tui.cli", "export", "--last", "--seconds", "0",
                             "--data-dir", str(folder)], capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), result.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--discs", type=int, default=24)
    parser.add_argument("--stars", type=int, default=1)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        data_dir = Path(folder)
        reviewed = play_and_keep(data_dir, args.discs, args.stars, args.seed)
        kept = FinishedStore(data_dir).paths()[-1]
        document = json.loads(kept.read_text())
        moves = sum(len(played["moves"]) for played in document["match"]["rounds"])
        print(f"{args.discs} discs, {len(document['match']['rounds'])} round(s), {moves} moves; "
              f"the game's review took {reviewed:.1f} s CPU")
        with_verdicts, text = export_cpu_seconds(data_dir)
        del document["verdicts"]
        kept.write_text(json.dumps(document))
        without, same_text = export_cpu_seconds(data_dir)
    assert text == same_text, "the kept verdicts changed the export"
    print(f"export --last, verdicts kept by the game: {with_verdicts:.2f} s CPU")
    print(f"export --last, solving every position:    {without:.2f} s CPU")
    print(f"ratio: {without / with_verdicts:.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
