"""Export: a match as text, each move judged by the solver, from a file, the data directory or a store."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from soluna_tui.cli import main
from soluna_tui.export import export_match, match_from_store
from soluna_tui.match_setup import MatchSetup
from soluna_tui.rules import Solver
from soluna_tui.rules.teaching import Judgement, review_round
from soluna_tui.saves import SavedMatch, SaveStore
from soluna_tui.server.storage import DEFAULT_FILE, open_storage

from .conftest import finished_match, match_in_play, seats

MOVE_LINE = re.compile(r"^\s+(\d+)\. (\S+)\s+(\S+)\s+(win|loss) in (\d+)\s+(.+?)( \?\??)?$")


def _judged_lines(text: str) -> list[re.Match]:
    return [found for line in text.splitlines() if (found := MOVE_LINE.match(line))]


def test_every_move_carries_the_solvers_outcome_and_judgement():
    match = finished_match(winner=1, discs=8, stars=2, seed=4)
    text = export_match(match)
    lines = _judged_lines(text)
    reviews = [review_round(played) for played in match.rounds]
    judged = [item for review in reviews for item in review.moves]
    assert len(lines) == len(judged) == sum(len(played.moves) for played in match.rounds)
    for line, item in zip(lines, judged, strict=True):
        assert int(line[1]) == item.ply + 1 and line[2] == match.players[item.player]
        assert line[3] == str(item.move)
        assert (line[4] == "win", int(line[5])) == (item.after.wins, item.after.plies)
        assert line[6] == item.judgement.value
        assert (line[7] or "").strip() == {Judgement.THREW: "??", Judgement.GAVE_IN: "?"}.get(item.judgement, "")
    assert text.count("cannot move") == len(match.rounds)
    assert f"Result: bob wins the match, {match.stars[0]}-{match.stars[1]}." in text
    first_blunder = reviews[0].first_blunder
    if first_blunder is not None:
        assert f"First blunder: move {first_blunder.ply + 1}, {match.players[first_blunder.player]}" in text


def test_a_match_in_play_and_a_forfeit_say_so():
    playing = match_in_play()
    assert "Result: not over (round 1, stars 0-0)." in export_match(playing)
    assert f"In play: {playing.players[playing.to_move]} to move." in export_match(playing)
    playing.forfeit(0)
    text = export_match(playing)
    assert "Result: ann forfeited; bob wins the match (stars 0-0)." in text
    assert "ann forfeited during this round." in text


def test_a_round_too_deep_to_judge_in_time_is_listed_unjudged():
    text = export_match(match_in_play(), solver=Solver(), seconds_per_round=0)
    assert "not judged" in text and not _judged_lines(text)
    assert str(match_in_play().rounds[0].moves[0]) in text


async def test_a_finished_match_in_the_store_exports_with_its_ratings(store, database):
    match = match_in_play()
    await store.create_match("ABCD", match.options.to_dict(), seats(), match.to_dict())
    ended = finished_match(winner=0)
    filed = await store.finish_match("ABCD", 1, ended.to_dict(), "won")
    found = await match_from_store(database, None, "ABCD", None)
    assert found.match.to_dict() == ended.to_dict()
    assert found.details[0].startswith(f"Server match ABCD (#{filed.id}), won, finished ")
    after = [change.after.shown for change in filed.rating_changes]
    assert found.details[1] == f"Ratings: ann 1000 -> {after[0]}, bob 1000 -> {after[1]}"
    assert (await match_from_store(database, None, None, filed.id)).match.to_dict() == ended.to_dict()


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["export", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_soluna_export_reads_the_unfinished_match_of_the_data_directory(tmp_path, capsys):
    status, out, err = _run(capsys, "--data-dir", str(tmp_path))
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "no unfinished match" in err
    setup = MatchSetup(names=("Ann", "Bob"))
    SaveStore(tmp_path).save(SavedMatch(setup, match_in_play()))
    status, out, err = _run(capsys, "--data-dir", str(tmp_path))
    assert status == 0 and err == ""
    assert out.startswith("Soluna: ann vs bob\nUnfinished game: two players\n") and _judged_lines(out)


def test_soluna_export_reads_match_files_and_refuses_others_in_one_line(tmp_path, capsys):
    document = tmp_path / "match.json"
    document.write_text(json.dumps(finished_match().to_dict()))
    status, out, _ = _run(capsys, str(document))
    assert status == 0 and "wins the match" in out
    for name, content in (("broken.json", "{ nope"), ("other.json", '{"format": "something"}'),
                          ("bad-match.json", '{"format": "soluna-match", "version": 1}')):
        (tmp_path / name).write_text(content)
        status, out, err = _run(capsys, str(tmp_path / name))
        assert status == 1 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    status, _, err = _run(capsys, str(tmp_path / "missing.json"))
    assert status == 1 and "cannot read" in err
    status, _, err = _run(capsys, str(document), "--code", "ABCD")
    assert status == 1 and "not both" in err


async def test_soluna_export_reads_a_servers_store(tmp_path, capsys):
    status, _, err = await _in_thread(_run, capsys, "--code", "ABCD", "--data-dir", str(tmp_path))
    assert status == 1 and "no server database" in err
    assert not (tmp_path / DEFAULT_FILE).exists()  # looking did not create one
    store = await open_storage(None, tmp_path)
    match = match_in_play()
    await store.create_match("ABCD", match.options.to_dict(), seats(), match.to_dict())
    await store.close()
    status, out, _ = await _in_thread(_run, capsys, "--code", "abcd", "--data-dir", str(tmp_path))
    assert status == 0 and "Server match ABCD, in play (version 1)" in out
    status, _, err = await _in_thread(_run, capsys, "--code", "ZZZZ", "--database", str(tmp_path / DEFAULT_FILE))
    assert status == 1 and "no match with the code ZZZZ" in err
    status, _, err = await _in_thread(_run, capsys, "--database", str(tmp_path / DEFAULT_FILE))
    assert status == 1 and "--code" in err


async def _in_thread(function, *args):
    """The command runs its own event loop, as it does from a shell."""
    import asyncio

    return await asyncio.to_thread(function, *args)


@pytest.mark.parametrize("module", ["soluna_tui.export", "soluna_tui.server.storage"])
def test_export_and_storage_import_no_textual(module):
    code = f"import sys, {module}; print('textual' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"

