"""Export: a match as text, each move judged by the solver, from a file, the data directory or a store."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from soluna_tui.cli import main
from soluna_tui.export import match_from_store
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.saves import SavedMatch, SaveStore
from soluna_tui.play.match_text import export_match
from soluna_tui.rules import Match, MatchOptions, Solver
from soluna_tui.rules.teaching import Judgement, review_round
from soluna_tui.server.storage import DEFAULT_FILE, open_storage

from ..fresh import modules_after
from .conftest import finished_match, match_in_play, seats

MOVE_LINE = re.compile(r"^\s+(\d+)\. (\S+)\s+(\S+)(?: \S>\S)?\s+(win|loss) in (\d+)\s+(.+?)( \?\??)?$")


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
    assert f"Result: bob won the match {match.stars[1]}-{match.stars[0]}." in text  # the winner's stars first
    first_blunder = reviews[0].first_blunder
    if first_blunder is not None:
        assert f"First blunder: move {first_blunder.ply + 1}, {match.players[first_blunder.player]}" in text


def test_a_match_in_play_and_a_forfeit_say_so():
    playing = match_in_play()
    assert "Result: not over (round 1, stars 0-0)." in export_match(playing)
    assert f"In play: {playing.players[playing.to_move]} to move." in export_match(playing)
    playing.forfeit(0)
    text = export_match(playing)
    assert "Result: ann forfeited; bob won the match (stars 0-0)." in text
    assert "ann forfeited during this round." in text


def test_a_round_too_deep_to_judge_in_time_is_listed_unjudged():
    text = export_match(match_in_play(), solver=Solver(), seconds_per_round=0)
    assert "not judged" in text and not _judged_lines(text)
    assert str(match_in_play().rounds[0].moves[0]) in text


async def test_a_finished_match_in_the_store_exports_with_its_ratings(store, database):
    match = match_in_play()
    await store.matches.create("ABCD", match.options.to_dict(), seats(), match.to_dict())
    ended = finished_match(winner=0)
    filed = await store.matches.finish("ABCD", 1, ended.to_dict(), "won")
    found = await match_from_store(database, None, "ABCD", None)
    assert found.match.to_dict() == ended.to_dict()
    assert found.details[0].startswith(f"Server match ABCD (#{filed.id}), won, finished ")
    after = [change.after.shown for change in filed.rating_changes]
    assert found.details[1] == f"Ratings: ann 1000 -> {after[0]}, bob 1000 -> {after[1]}"
    assert (await match_from_store(database, None, None, filed.id)).match.to_dict() == ended.to_dict()


async def test_a_resignation_in_the_store_exports_as_one(store, database):
    match = match_in_play()
    await store.matches.create("ABCD", match.options.to_dict(), seats(), match.to_dict())
    match.forfeit(1)
    filed = await store.matches.finish("ABCD", 1, match.to_dict(), "resigned")
    found = await match_from_store(database, None, "ABCD", None)
    assert found.details[0].startswith(f"Server match ABCD (#{filed.id}), won, by resignation, finished ")


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["export", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_soluna_export_reads_the_unfinished_match_of_the_data_directory(tmp_path, capsys):
    status, out, err = _run(capsys, "--data-dir", str(tmp_path))
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and "no unfinished match" in err and "--last" in err
    setup = MatchSetup(names=("Ann", "Bob"))
    SaveStore(tmp_path).save(SavedMatch(setup, match_in_play()))
    status, out, err = _run(capsys, "--data-dir", str(tmp_path))
    assert status == 0 and err == ""
    assert out.startswith("Soluna: ann vs bob\nUnfinished match: two players\n") and _judged_lines(out)


def test_soluna_export_reads_match_files_and_refuses_others_in_one_line(tmp_path, capsys):
    document = tmp_path / "match.json"
    document.write_text(json.dumps(finished_match().to_dict()))
    status, out, _ = _run(capsys, str(document))
    assert status == 0 and "won the match" in out
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
    await store.matches.create("ABCD", match.options.to_dict(), seats(), match.to_dict())
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
    assert "textual" not in modules_after(f"import {module}")



# ---- the store is only read ------------------------------------------------------------------------

def run_sql(database: str, sql: str, params: tuple = ()) -> list[tuple]:
    """One statement on the test's database, outside the store (as another program would)."""
    if database.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(database, autocommit=True) as connection:
            cursor = connection.execute(sql.replace("?", "%s"), params)
            return cursor.fetchall() if cursor.description is not None else []
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(database)) as connection, connection:
        return connection.execute(sql, params).fetchall()


def everything_in(database: str) -> dict[str, list]:
    """Every table and every row of the database, to compare before and after a read."""
    if database.startswith("postgresql://"):
        tables = [name for (name,) in run_sql(database, "SELECT table_name FROM information_schema.tables "
                                                        "WHERE table_schema = current_schema()")]
    else:
        tables = [name for (name,) in run_sql(database, "SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {table: sorted(map(repr, run_sql(database, f"SELECT * FROM {table}"))) for table in sorted(tables)}


async def file_a_match(database: str) -> int:
    """A finished match in a store at ``database`` (closed again); its number."""
    store = await open_storage(database)
    try:
        match = match_in_play()
        await store.matches.create("ABCD", match.options.to_dict(), seats(), match.to_dict())
        return (await store.matches.finish("ABCD", 1, finished_match(winner=0).to_dict(), "won")).id
    finally:
        await store.close()


async def test_export_writes_nothing_into_the_store_it_reads(database, capsys):
    match_id = await file_a_match(database)
    before = everything_in(database)
    status, out, _ = await _in_thread(_run, capsys, "--database", database, "--id", str(match_id))
    assert status == 0 and "won the match" in out
    assert everything_in(database) == before


async def test_a_store_opened_to_read_refuses_every_write(database):
    await file_a_match(database)
    store = await open_storage(database, read_only=True)
    try:
        assert store.read_only and await store.schema_version() >= 1
        with pytest.raises(Exception, match="read-only|readonly"):
            await store.matches.create("WXYZ", {}, seats())
    finally:
        await store.close()


async def test_export_reads_a_server_s_latest_writes_and_leaves_no_file_beside_its_database(tmp_path, capsys):
    """While the server has it open, through its write-ahead log; once the server has closed it, as it is:
    SQLite makes -wal and -shm files beside a WAL database for any other reader, and leaves them."""
    path = tmp_path / DEFAULT_FILE
    store = await open_storage(str(path))
    try:
        match = match_in_play()
        await store.matches.create("ABCD", match.options.to_dict(), seats(), match.to_dict())
        status, out, _ = await _in_thread(_run, capsys, "--database", str(path), "--code", "ABCD")
        assert status == 0 and "Server match ABCD, in play" in out  # still only in the log
    finally:
        await store.close()
    assert os.listdir(tmp_path) == [DEFAULT_FILE]  # closed cleanly: the server's log is gone
    status, out, _ = await _in_thread(_run, capsys, "--database", str(path), "--code", "ABCD")
    assert status == 0 and "Server match ABCD, in play" in out
    assert os.listdir(tmp_path) == [DEFAULT_FILE]


@contextmanager
def read_only_folder(folder: Path) -> Iterator[None]:
    """``folder`` made read-only for this process: its mode, and for root (whom modes do not stop) the
    immutable attribute (``chattr +i``); the test is skipped where nothing stops this user writing there."""
    folder.chmod(0o555)
    immutable = os.geteuid() == 0 and shutil.which("chattr") is not None and subprocess.run(
        ["chattr", "+i", str(folder)], capture_output=True, check=False).returncode == 0
    try:
        try:
            (folder / "probe").touch()
        except OSError:
            yield
        else:
            (folder / "probe").unlink()
            pytest.skip("nothing keeps this user from writing in a folder here (root without chattr)")
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(0o755)


async def test_export_reads_a_database_in_a_read_only_folder(tmp_path, capsys):
    folder = tmp_path / "server"
    folder.mkdir()
    match_id = await file_a_match(str(folder / DEFAULT_FILE))
    with read_only_folder(folder):
        status, out, err = await _in_thread(_run, capsys, "--database", str(folder / DEFAULT_FILE),
                                            "--id", str(match_id))
    assert (status, err) == (0, "") and "won the match" in out
    assert os.listdir(folder) == [DEFAULT_FILE]


@pytest.mark.empty_database
async def test_an_empty_database_is_refused_and_left_empty(database, capsys):
    if not database.startswith("postgresql://"):
        Path(database).write_bytes(b"")  # once: a 90 KB Soluna database
    status, out, err = await _in_thread(_run, capsys, "--database", database, "--code", "ABCD")
    assert status == 1 and out == "" and err.count("\n") == 1
    assert "is not a Soluna server's database" in err
    assert everything_in(database) == {}
    if not database.startswith("postgresql://"):
        assert Path(database).stat().st_size == 0


@pytest.mark.empty_database
async def test_a_foreign_database_is_refused_and_left_as_it_was(database, capsys):
    run_sql(database, "CREATE TABLE accounts (owner TEXT, balance INTEGER)")
    run_sql(database, "INSERT INTO accounts VALUES ('ann', 10)")
    before = everything_in(database)
    status, _, err = await _in_thread(_run, capsys, "--database", database, "--id", "1")
    assert status == 1 and err.count("\n") == 1 and "is not a Soluna server's database" in err
    assert everything_in(database) == before  # once: 8 tables more


@pytest.mark.empty_database
async def test_a_store_at_an_older_schema_is_refused_not_migrated(database, capsys):
    from soluna_tui.server.storage.schema import CREATE_VERSION_TABLE, MIGRATIONS

    run_sql(database, CREATE_VERSION_TABLE)
    for statement in MIGRATIONS[0]:
        serial = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" if database.startswith("postgresql://") \
            else "INTEGER PRIMARY KEY AUTOINCREMENT"
        run_sql(database, statement.replace("{id}", serial))
    run_sql(database, "INSERT INTO schema_version (version, applied_at) VALUES (1, 0)")
    before = everything_in(database)
    status, _, err = await _in_thread(_run, capsys, "--database", database, "--id", "1")
    assert status == 1 and err.count("\n") == 1 and "schema version 1, older than" in err
    assert everything_in(database) == before


# ---- rows no server writes ---------------------------------------------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000
DAMAGE = {
    "document not JSON": ("document", "{ nope", "damaged"),
    "document nested 100,000 deep": ("document", DEEP, "damaged"),
    "document with a 5,000-digit number": ("document", '{"format": "soluna-match", "seed": ' + "7" * 5000 + "}",
                                           "damaged"),
    "document not a match": ("document", '{"format": "soluna-match", "version": 1}', "damaged"),
    "document a list": ("document", "[1, 2]", "damaged"),
    "seats not JSON": ("seats", "[{", "damaged"),
    "seats without names": ("seats", '[{"identity": "ann"}, {"identity": "bob"}]', "damaged"),
    "seats a string": ("seats", '"ann and bob"', "damaged"),
    "options not JSON": ("options", "{{", "damaged"),
    "rating changes without keys": ("rating_changes", '[{"fingerprint": "SHA256:ann"}]', "damaged"),
    "rating changes not a list": ("rating_changes", "7", "damaged"),
    "a rating of 1e300": ("rating_changes", json.dumps([{"fingerprint": "a", "before": {"mu": 1e300, "sigma": 1},
                                                         "after": {"mu": 25, "sigma": 8}}] * 2), "ratings"),
    "a rating of Infinity": ("rating_changes", '[{"fingerprint": "a", "before": {"mu": Infinity, "sigma": 1}, '
                                               '"after": {"mu": NaN, "sigma": 8}}, {"fingerprint": "b", "before": '
                                               '{"mu": 1, "sigma": 1}, "after": {"mu": 1, "sigma": 1}}]', "ratings"),
    "a time of 1e300": ("finished_at", 1e300, "time"),
    "a time in text": ("finished_at", "yesterday", "time"),
}


@pytest.mark.parametrize("damage", DAMAGE.values(), ids=DAMAGE.keys())
async def test_a_damaged_finished_row_is_one_line(database, capsys, damage):
    column, value, words = damage
    match_id = await file_a_match(database)
    if isinstance(value, str) and column == "finished_at" and database.startswith("postgresql://"):
        import psycopg

        with pytest.raises(psycopg.errors.DataError):  # PostgreSQL keeps text out of a number column itself
            run_sql(database, f"UPDATE finished_matches SET {column} = ? WHERE id = ?", (value, match_id))
        return
    run_sql(database, f"UPDATE finished_matches SET {column} = ? WHERE id = ?", (value, match_id))
    status, out, err = await _in_thread(_run, capsys, "--database", database, "--id", str(match_id))
    assert status == 1 and out == "", out
    assert err.count("\n") == 1 and err.startswith("soluna export: error: ") and len(err) < 320, err
    assert words in err and "Traceback" not in err


async def test_a_damaged_match_in_play_is_one_line(database, capsys):
    await file_a_match(database)
    store = await open_storage(database)
    await store.matches.create("WXYZ", match_in_play().options.to_dict(), seats(), match_in_play().to_dict())
    await store.close()
    run_sql(database, "UPDATE matches SET document = ? WHERE code = ?", (DEEP, "WXYZ"))
    status, out, err = await _in_thread(_run, capsys, "--database", database, "--code", "WXYZ")
    assert status == 1 and out == "" and err.count("\n") == 1 and "match WXYZ in the store is damaged" in err


ESCAPES = "\x1b[2J\x1b]0;owned\x07\x1b[31m"


async def test_escape_codes_in_a_stored_match_never_reach_the_terminal(database, capsys):
    match_id = await file_a_match(database)
    document = finished_match(winner=0).to_dict()
    document["players"] = [f"ann{ESCAPES}", "bob\r"]
    run_sql(database, "UPDATE finished_matches SET result = ?, code = ?, seats = ?, document = ? WHERE id = ?",
            (f"won{ESCAPES}", f"AB{ESCAPES}", json.dumps([{"name": f"ann{ESCAPES}"}, {"name": "bob\x9b"}]),
             json.dumps(document), match_id))
    status, out, err = await _in_thread(_run, capsys, "--database", database, "--id", str(match_id))
    assert status == 0 and err == ""
    assert not any(not char.isprintable() for char in out.replace("\n", "")), repr(out[:300])
    assert "Soluna: ann[2J]0;owned[31m vs bob" in out and "Server match AB[2J]0;owned[31m" in out


def test_a_match_you_won_against_the_computer_reads_right() -> None:
    """Issue 19: the export said "You wins the match"."""
    from soluna_tui.play.match_text import result_line

    match = Match(MatchOptions(stars_to_win=1), ("You", "Computer"), seed=2)
    while not match.is_over:
        match.play(match.position.legal_moves[0], match.to_move)
    winner = match.winner
    assert result_line(match) == (f"Result: {match.players[winner]} won the match "
                                  f"{match.stars[winner]}-{match.stars[1 - winner]}.")
    assert "You wins" not in result_line(match)
