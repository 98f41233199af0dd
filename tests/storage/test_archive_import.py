"""The JSON archive of an older server comes into the store once; its files stay as they were."""

from __future__ import annotations

import json
import time

from soluna_tui.local.saves import write_atomically
from soluna_tui.rules import Match
from soluna_tui.server.storage import import_json_archive
from soluna_tui.server.storage.archive_import import ARCHIVE_FORMAT, ARCHIVE_VERSION
from soluna_tui.server.storage.secrets import secret_matches

from .conftest import finished_match, match_in_play, seats


def _document(code: str, match: Match, result: str, second: str | None = "SHA256:bob") -> dict:
    return {"format": ARCHIVE_FORMAT, "version": ARCHIVE_VERSION, "code": code,
            "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "result": result,
            "players": [{key: value for key, value in seat.to_dict().items() if key in ("name", "identity",
                                                                                     "fingerprint", "hints")}
                        for seat in seats("SHA256:ann", second)],
            "match": match.to_dict()}


def _write(path, document: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(document, indent=1))


async def _archive(folder):
    """An archive as the server wrote it before it had a database: two matches in play (one with the plain
    secret those files kept), two finished, one damaged file."""
    held = _document("HELD", match_in_play(2), "playing", second=None)
    held["players"][1]["secret"] = "KQXPMR"
    _write(folder / "active" / "PLAY.json", _document("PLAY", match_in_play(1), "playing"))
    _write(folder / "active" / "HELD.json", held)
    _write(folder / "finished" / "20250101-120000-WONA.json", _document("WONA", finished_match(winner=0), "won"))
    forfeited = match_in_play(4)
    forfeited.forfeit(1)
    _write(folder / "finished" / "20250101-130000-FORF.json", _document("FORF", forfeited, "forfeit"))
    (folder / "active" / "BAD1.json").write_text("{ not json", encoding="utf-8")
    return {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()}


async def test_the_archive_is_imported_once_and_left_untouched(store, tmp_path):
    folder = tmp_path / "matches"
    files = await _archive(folder)
    report = await import_json_archive(store, folder)
    assert (report.active, report.finished, report.already_done) == (2, 2, False)
    assert [name.split(" ")[0] for name in report.skipped] == ["BAD1.json"]
    assert {stored.code for stored in await store.matches.active()} == {"PLAY", "HELD"}
    held = await store.matches.get("HELD")
    assert held.version == 1 and held.seats[1].fingerprint is None
    assert secret_matches("kqx-pmr", held.seats[1].secret_hash) and "KQXPMR" not in repr(held)  # hashed
    assert held.document == match_in_play(2).to_dict()
    finished = {item.code: item for item in await store.finished.newest()}
    assert (finished["WONA"].result, finished["WONA"].winner) == ("won", 0)
    assert (finished["FORF"].result, finished["FORF"].winner) == ("forfeit", 0)
    # Both players had keys; the forfeit came before a round was decided on the board: not rated.
    assert finished["WONA"].rated and not finished["FORF"].rated
    assert ({row.fingerprint: row.played for row in await store.ratings.leaderboard()}
            == {"SHA256:ann": 1, "SHA256:bob": 1})

    again = await import_json_archive(store, folder)
    assert again.already_done and (again.active, again.finished) == (0, 0)
    assert len(await store.finished.newest()) == 2
    assert {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()} == files


async def test_two_servers_importing_one_archive_at_once_import_it_once(open_store, tmp_path):
    import asyncio

    folder = tmp_path / "matches"
    await _archive(folder)
    first, second = await open_store(), await open_store()
    reports = await asyncio.gather(import_json_archive(first, folder), import_json_archive(second, folder))
    assert sorted(report.already_done for report in reports) == [False, True]
    assert len(await first.matches.active()) == 2 and len(await second.finished.newest()) == 2


async def test_a_match_already_in_play_in_the_store_is_not_overwritten(store, tmp_path):
    folder = tmp_path / "matches"
    await _archive(folder)
    mine = match_in_play(9)
    await store.matches.create("PLAY", mine.options.to_dict(), seats(), mine.to_dict())
    report = await import_json_archive(store, folder)
    assert report.active == 1 and any(name.startswith("PLAY.json") for name in report.skipped)
    assert (await store.matches.get("PLAY")).document == mine.to_dict()


async def test_no_archive_folder_imports_nothing_and_marks_nothing(store, tmp_path):
    report = await import_json_archive(store, tmp_path / "matches")
    assert (report.active, report.finished, report.already_done) == (0, 0, False)
    await _archive(tmp_path / "matches")
    assert (await import_json_archive(store, tmp_path / "matches")).active == 2
