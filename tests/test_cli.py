"""The ``soluna`` command line: analyze, help, and one-line errors."""

from __future__ import annotations

import json
import os
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
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1


def test_help_explains_itself(capsys) -> None:
    status, out, _ = run(capsys, "analyze", "--help")
    assert status == 0 and "perfect play" in out and "--json" in out
    status, out, _ = run(capsys, "--help")
    assert status == 0 and "analyze" in out


def test_a_height_of_4301_digits_is_one_line_not_a_traceback(capsys) -> None:
    status, out, err = run(capsys, "analyze", "1" * 4301 + "S")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "far too tall" in err and len(err) < 200


@pytest.mark.parametrize("argv", [
    ["analyze", "1" + "Q" * 240_000],
    ["analyze", "1S " * 80_000],
    ["analyze", "1S>" + "2M" * 120_000],
    ["analyze", "1S", "\x1b[2J" * 60_000],
    ["play", "--seed", "9" * 240_000],
    ["puzzle", "--difficulty", "x" * 240_000],
    ["x" * 240_000],
])
def test_an_error_quotes_a_huge_input_shortened_on_one_line(capsys, argv: list[str]) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and len(err) <= 320 and err.startswith("soluna")
    assert "\x1b" not in err and ("..." in err or "80000" in err)


def test_puzzles_need_a_table_with_choices(capsys) -> None:
    status, _, err = run(capsys, "puzzle", "--json", "--discs", "4")
    assert status == 2 and "5 to 16" in err


@pytest.mark.parametrize("argv", [
    ["analyze", "3S 3M 2S 2M 1* 1C 1S 1M", "--json"],
    ["analyze", "3S 3M 2S 2M 1* 1C 1S 1M"],
    ["puzzle", "--json", "--seed", "3"],
    ["stats", "--json"],
    ["stats"],
])
def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path, argv: list[str]) -> None:
    """``soluna ... | head -c 0``: the pipe is closed before anything is written."""
    if argv[0] == "stats":
        argv = [*argv, "--data-dir", str(tmp_path)]
    reader, writer = os.pipe()
    os.close(reader)
    try:
        result = subprocess.run([sys.executable, "-m", "soluna_tui.cli", *argv], stdout=writer,
                                stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(writer)
    assert result.stderr == "" and result.returncode == 141


def test_stats_json_from_a_hostile_file_is_one_line_of_news(tmp_path) -> None:
    (tmp_path / "stats.json").write_text('{"format": "soluna-stats", "version": 1, "matches": [], '
                                         '"puzzles": {"solved": ' + "7" * 4301 + "}}")
    os.mkfifo(tmp_path / "preferences.json")  # never read by stats, never in the way
    result = subprocess.run([sys.executable, "-m", "soluna_tui.cli", "stats", "--json", "--data-dir", str(tmp_path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and json.loads(result.stdout)["puzzles"]["solved"] == 0
    assert result.stderr.count("\n") == 1 and "moved to" in result.stderr and len(result.stderr) < 320


def test_play_exits_non_zero_when_the_app_crashes(monkeypatch, tmp_path, capsys) -> None:
    """A crash is a bug: the shell (and a script running ``soluna play``) must see it failed."""
    from soluna_tui.app import soluna_app as app_module
    from soluna_tui.terminal import sizes as terminal

    class Crash(RuntimeError):
        pass

    def crash(self) -> None:
        raise Crash("boom")

    run_app = app_module.SolunaApp.run
    monkeypatch.setattr(terminal, "refusal", lambda: None)
    monkeypatch.setattr(app_module.SolunaApp, "run", lambda self: run_app(self, headless=True, size=(100, 30)))
    monkeypatch.setattr(app_module.SolunaApp, "on_mount", crash)
    assert main(["play", "--seed", "1", "--data-dir", str(tmp_path)]) == 1
    said = capsys.readouterr().err
    reports = list(tmp_path.glob("crash-*.log"))
    assert said.count("\n") == 1 and "internal error" in said and "Traceback" not in said
    assert len(reports) == 1 and str(reports[0]) in said and "Crash" in reports[0].read_text()
    assert "saved" not in said  # it stopped before the match was ever saved: no promise of a save
    monkeypatch.setattr(app_module.SolunaApp, "on_mount", lambda self: self.call_after_refresh(self.exit))
    assert main(["play", "--seed", "1", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().err == ""


def test_the_collector_rests_while_soluna_loads_then_works_for_every_command(monkeypatch, capsys) -> None:
    """``soluna`` (the installed entry point, ``launch``) loads with the garbage collector off; a command
    other than the game turns it on at once, the game once its first frame is drawn."""
    import gc

    from soluna_tui import cli, launch

    build_parser = cli.build_parser
    enabled_when_parsing: list[bool] = []

    def watched_build_parser(**kwargs):
        enabled_when_parsing.append(gc.isenabled())
        return build_parser(**kwargs)

    monkeypatch.setattr(sys, "argv", ["soluna", "analyze", "2sun", "1moon"])
    monkeypatch.setattr(cli, "build_parser", watched_build_parser)
    try:
        assert launch.main() == 0
        assert enabled_when_parsing == [True] and gc.isenabled()  # on again before the command did anything
        assert "2S" in capsys.readouterr().out
    finally:
        gc.enable()


async def test_the_game_turns_the_collector_on_once_drawn(tmp_path) -> None:
    import gc

    from soluna_tui.app.soluna_app import SolunaApp
    from soluna_tui.local.match_setup import MatchSetup

    gc.disable()  # as ``launch`` leaves it
    try:
        app = SolunaApp(setup=MatchSetup(seed=1), data_dir=tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert gc.isenabled()
            assert (tmp_path / "current-match.json").exists()  # the new match, written once drawn
    finally:
        gc.enable()


@pytest.mark.parametrize("given", ["/missing.json", "./no/such/match.json", "no-such-match.json"])
def test_export_names_a_missing_file_by_the_path_as_given(capsys, tmp_path, monkeypatch, given: str) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "export", given)
    assert status == 1 and out == ""
    assert err == f"soluna export: error: cannot read {given}: No such file or directory\n"
