"""The ``soluna`` command line: analyze, help, and one-line errors."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from soluna_tui.cli import main
from soluna_tui.rules import Move, Position, Solver, drop


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = exit_.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("discs", [2, 5, 9, 12, 14])
def test_analyze_json_is_the_spec_object(capsys, discs: int) -> None:
    position = drop(discs, random.Random(discs))
    status, out, _ = run(capsys, "analyze", str(position), "--json")
    assert status == 0
    document = json.loads(out)
    assert list(document) == ["position", "to_move", "plies", "moves"]
    solver = Solver()
    verdict = solver.verdict(position)
    assert document["position"] == str(position)
    assert (document["to_move"], document["plies"]) == (verdict.outcome, verdict.plies)
    assert sorted(item["move"] for item in document["moves"]) == sorted(str(m) for m in position.legal_moves)
    for item in document["moves"]:
        after = Position.parse(item["result"])
        assert item["result"] == str(after) == str(position.play(Move.parse(item["move"])))
        child = solver.verdict(after)
        assert item["outcome"] == ("loss" if child.wins else "win") and item["plies"] == child.plies + 1


def test_analyze_accepts_aliases_and_several_arguments(capsys) -> None:
    status, out, _ = run(capsys, "analyze", "2sun", "1☾", "1 moon", "1stars", "--json")
    assert status == 0 and json.loads(out)["position"] == "2S 1M 1M 1*"


def test_analyze_table_lists_every_move(capsys) -> None:
    status, out, _ = run(capsys, "analyze", "2S 1M 1M 1*")
    assert status == 0
    assert "To move   loss in 2 plies" in out
    assert "1M>1M  2S 2M 1*  loss         2" in out
    assert "(4 towers, 5 discs)" in out


def test_analyze_blocked_position(capsys) -> None:
    status, out, _ = run(capsys, "analyze", "3S", "--json")
    assert status == 0 and json.loads(out) == {"position": "3S", "to_move": "loss", "plies": 0, "moves": []}


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["analyze", "1X"], "unknown symbol 'X'"),
        (["analyze", "30S"], "1 to 24"),
        (["analyze", "0M"], "height 0"),
        (["analyze"], "required: POSITION"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv: list[str], words: str) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and words in err and err.startswith("soluna")


def test_no_traceback_from_the_real_command() -> None:
    result = subprocess.run([sys.executable, "-m", "soluna_tui.cli", "analyze", "1S>1M"],
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


def test_help_explains_itself(capsys) -> None:
    status, out, _ = run(capsys, "analyze", "--help")
    assert status == 0 and "perfect play" in out and "--json" in out
    status, out, _ = run(capsys, "--help")
    assert status == 0 and "analyze" in out
