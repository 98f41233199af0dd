"""Bring a server's JSON match archive (``matches/active``, ``matches/finished``) into the store, once.

The files are only read: nothing is moved or deleted, so the old server could still use them.
Everything is written in one transaction with a mark naming the folder, so an import runs once
per folder however many servers start (they wait for each other) and a failed one leaves nothing
half-done. Finished matches are filed oldest first, so ratings grow as they would have.
A file that cannot be read is named in the report and left where it is.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from ...local.files import SaveError, read_json_document
from ...rules import Match, SolunaError
from .base import Storage
from .finished import RESULTS
from .records import Change, ImportReport, SeatRecord, StorageError, seats_text
from .secrets import hash_secret

#: The files ``soluna serve`` wrote before it had a database.
ARCHIVE_FORMAT = "soluna-server-match"
ARCHIVE_VERSION = 1

log = logging.getLogger("soluna.storage")


@dataclass(frozen=True)
class _ArchivedMatch:
    path: Path
    code: str
    result: str
    seats: tuple[SeatRecord, ...]
    match: dict[str, Any]
    saved_at: float
    over: bool


async def import_json_archive(store: Storage, folder: Path) -> ImportReport:
    """Import ``folder/active`` and ``folder/finished`` unless this folder was imported before."""
    found = await asyncio.to_thread(_read_archive, Path(folder))
    if found is None:
        return ImportReport(0, 0, ())
    folder, active, finished, skipped = found
    mark = f"json-archive:{folder}"
    async with store.transaction() as tx:
        await store.lock(tx, "soluna-import")
        if await tx.fetch("SELECT 1 FROM imports WHERE name = ?", (mark,)):
            return ImportReport(0, 0, (), already_done=True)
        brought = 0
        for item in active:
            if item.over:  # the server stopped between filing it and removing it: finished/ has it
                continue
            if await tx.fetch("SELECT 1 FROM matches WHERE code = ?", (item.code,)):
                skipped.append(f"{item.path.name} (code {item.code} is in play already)")
                continue
            match = Match.from_dict(item.match)
            await tx.execute(
                "INSERT INTO matches (code, version, options, seats, document, created_at, updated_at) "
                "VALUES (?, 1, ?, ?, ?, ?, ?)",
                (item.code, json.dumps(match.options.to_dict()), seats_text(item.seats),
                 json.dumps(item.match, ensure_ascii=False), item.saved_at, item.saved_at))
            await tx.announce(Change(item.code, 1))
            brought += 1
        filed = 0
        for item in sorted(finished, key=lambda each: (each.saved_at, each.path.name)):
            try:
                await store.finished.file(tx, item.code, item.result, item.seats, item.match, item.saved_at,
                                          item.saved_at)
            except StorageError as error:
                skipped.append(f"{item.path.name} ({error})")
                continue
            filed += 1
        report = ImportReport(brought, filed, tuple(skipped))
        await tx.execute("INSERT INTO imports (name, done_at, detail) VALUES (?, ?, ?)",
                         (mark, store.clock(), json.dumps({"active": brought, "finished": filed,
                                                           "skipped": list(report.skipped)})))
    log.info("imported %d matches in play and %d finished from %s (%d files skipped)",
             brought, filed, folder, len(skipped))
    return report


def _read_archive(folder: Path) -> tuple[Path, list[_ArchivedMatch], list[_ArchivedMatch], list[str]] | None:
    """The folder's full path, every readable archive file and the names of the others (off the event loop);
    ``None`` when there is no archive."""
    folder = folder.resolve()
    if not (folder / "active").is_dir() and not (folder / "finished").is_dir():
        return None
    skipped: list[str] = []
    found: dict[str, list[_ArchivedMatch]] = {"active": [], "finished": []}
    for kind, matches in found.items():
        directory = folder / kind
        if not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.json")):
            try:
                matches.append(_read_one(path, finished=kind == "finished"))
            except (SaveError, SolunaError, StorageError) as error:
                skipped.append(f"{path.name} ({error})")
    return folder, found["active"], found["finished"], skipped


def _read_one(path: Path, finished: bool) -> _ArchivedMatch:
    document = read_json_document(path, ARCHIVE_FORMAT, ARCHIVE_VERSION)
    code, players, result = document.get("code"), document.get("players"), document.get("result")
    if not isinstance(code, str) or not code or not isinstance(players, list) or len(players) != 2:
        raise StorageError("not a two-player match with a code")
    try:
        seats = tuple(_seat(player) for player in players)
    except (KeyError, TypeError, AttributeError):
        raise StorageError("its players are malformed") from None
    match = Match.from_dict(document.get("match"))
    if finished and result not in RESULTS:
        raise StorageError(f"unknown result {result!r}")
    return _ArchivedMatch(path, code, str(result), seats, document["match"], _saved_at(document, path),
                          match.is_over)


def _seat(player: dict[str, Any]) -> SeatRecord:
    """An archived seat; the plain secret old archives kept is hashed (the store never keeps it plain)."""
    seat = SeatRecord.from_dict(player)
    secret = player.get("secret")
    if seat.secret_hash is None and isinstance(secret, str) and secret:
        seat = replace(seat, secret_hash=hash_secret(secret))
    return seat


def _saved_at(document: dict[str, Any], path: Path) -> float:
    """When the file was written: its ``saved_at``, else the file's own time."""
    stamp = document.get("saved_at")
    if isinstance(stamp, str):
        try:
            return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S%z").timestamp()
        except ValueError:
            pass
    return path.stat().st_mtime
