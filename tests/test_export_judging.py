"""``soluna export`` judges every move with what the game already solved, and shows its progress.

The game keeps the verdicts its review found with each finished match (``judgements``); export
judges from them without solving again, and solves only what is missing. On a terminal a
progress bar runs on stderr; elsewhere stderr stays silent.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from soluna_tui.export import judge_match, judge_round, last_finished_match, positions_to_judge
from soluna_tui.local.judgements import known_verdicts, verdicts_from_document, verdicts_to_document
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.saves import FinishedStore, SavedMatch, SaveError, SaveStore
from soluna_tui.local.table import LocalTable
from soluna_tui.rules import Match, MatchOptions, Solver
from soluna_tui.rules.teaching import review_round


def played_match(seed: int, discs: int = 8, stars: int = 2) -> Match:
    """A match played to its end with random legal moves."""
    rng = random.Random(seed)
    match = Match(MatchOptions.preset("online", stars_to_win=stars, discs=discs), ("Ann", "Bob"), seed=seed)
    while not match.is_over:
        if match.between_rounds:
            match.start_next_round(match.next_opener())
        match.play(rng.choice(match.position.legal_moves))
    return match


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(4, 9))
def test_judging_from_the_positions_verdicts_is_the_review_itself(seed: int, discs: int) -> None:
    match = played_match(seed, discs)
    assert judge_match(match) == [review_round(played) for played in match.rounds]


def test_with_every_verdict_kept_nothing_is_solved_again() -> None:
    match = played_match(3, discs=10)
    solver = Solver()
    known = known_verdicts(match, solver)
    assert not any(verdict for round_verdicts in known for verdict in round_verdicts)  # it solves nothing itself
    for played in match.rounds:
        review_round(played, solver)  # the game's review
    known = known_verdicts(match, solver)
    fresh = Solver()
    assert judge_match(match, known, fresh) == [review_round(played) for played in match.rounds]
    assert fresh.positions_solved == 0


def test_only_the_missing_verdicts_are_solved() -> None:
    match = played_match(5, discs=10)
    solver = Solver()
    for played in match.rounds:
        review_round(played, solver)
    known = [list(round_verdicts) for round_verdicts in known_verdicts(match, solver)]
    known[0][-2] = None  # one late position of round 1 was never solved
    fresh = Solver()
    steps: list[int] = []
    assert judge_match(match, known, fresh, step=lambda: steps.append(1)) == [review_round(p) for p in match.rounds]
    assert 0 < fresh.positions_solved < 20 and len(steps) == positions_to_judge(match)


def test_a_round_that_takes_too_long_is_not_judged() -> None:
    match = played_match(7, discs=14, stars=1)
    assert judge_round(match.rounds[0], solver=Solver(), seconds=0) is None


def test_kept_verdicts_are_checked_against_the_match() -> None:
    match = played_match(9, discs=6)
    solver = Solver()
    for played in match.rounds:
        review_round(played, solver)
    document = verdicts_to_document(known_verdicts(match, solver))
    assert verdicts_from_document(json.loads(json.dumps(document)), match) == known_verdicts(match, solver)
    for damage in (lambda d: d[0].append("win in 1"), lambda d: d[0].__setitem__(0, "win in 99"),
                   lambda d: d[0].__setitem__(0, "draw"), lambda d: d[0].__setitem__(-1, "win in 1"),
                   lambda d: d.append([]), lambda d: d[0].__setitem__(0, 1.5)):
        damaged = json.loads(json.dumps(document))
        damage(damaged)
        with pytest.raises(ValueError):
            verdicts_from_document(damaged, match)


def test_a_finished_match_kept_by_the_game_carries_its_verdicts_to_export(tmp_path: Path) -> None:
    setup = MatchSetup(MatchOptions(stars_to_win=1, discs=9), ("Ann", "Bob"), None, 11)
    table = LocalTable(setup, setup.new_match(), SaveStore(tmp_path))
    rng = random.Random(1)
    while not table.match.is_over:
        table.play(rng.choice(table.match.position.legal_moves), table.match.to_move)
    assert last_finished_match(tmp_path).verdicts == ()  # kept at once, before any review
    solver = Solver()
    for played in table.match.rounds:
        review_round(played, solver)  # as the game's review solves them
    table.judged(solver)
    found = last_finished_match(tmp_path)
    assert len(FinishedStore(tmp_path).paths()) == 1 and found.verdicts == known_verdicts(table.match, solver)
    fresh = Solver()
    assert judge_match(found.match, found.verdicts, fresh) == [review_round(p) for p in found.match.rounds]
    assert fresh.positions_solved == 0


def test_a_saved_match_with_verdicts_that_do_not_fit_is_damaged(tmp_path: Path) -> None:
    match = played_match(2, discs=6, stars=1)
    document = json.loads(SavedMatch(MatchSetup(), match).to_json())
    document["verdicts"] = [["win in 3"]]
    with pytest.raises(SaveError, match="damaged"):
        SavedMatch.from_document(document)


# ---- what the player sees ------------------------------------------------------------------------------

def keep_finished(folder: Path, discs: int) -> None:
    setup = MatchSetup(MatchOptions(stars_to_win=1, discs=discs), ("Ann", "Bob"), None, 11)
    FinishedStore(folder).keep(SavedMatch(setup, played_match(11, discs, stars=1)))


def test_a_progress_bar_runs_on_stderr_when_it_is_a_terminal(tmp_path: Path) -> None:
    keep_finished(tmp_path, discs=16)
    primary, secondary = os.openpty()
    try:
        with (tmp_path / "out.txt").open("w") as out:
            process = subprocess.run([sys.executable, "-m", "soluna_tui.cli", "export", "--last", "--data-dir",
                                      str(tmp_path)], stdout=out, stderr=secondary, timeout=120,
                                     env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "100"})
        os.close(secondary)
        shown = b""
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(primary)
    assert process.returncode == 0
    assert b"Judging every move" in shown and b"positions" in shown
    text = (tmp_path / "out.txt").read_text()
    assert text.startswith("Soluna: Ann vs Bob\nFinished match: two players") and "Judging" not in text


def test_no_progress_is_written_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    keep_finished(tmp_path, discs=12)
    result = subprocess.run([sys.executable, "-m", "soluna_tui.cli", "export", "--last", "--data-dir",
                             str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stderr == "" and "Accuracy" in result.stdout
