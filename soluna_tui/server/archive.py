"""Two-player matches on the server's disk: every change is written, so nothing is lost.

``matches/active/CODE.json`` holds a match in play or held for an absent player;
when it ends (won, forfeited, abandoned) it moves to
``matches/finished/STAMP-CODE.json``. Writes are atomic (``write_atomically``) and
run one at a time on a worker thread, never on the event loop; a newer state of
the same match replaces one not yet written. Nothing is removed before what
replaces it is safely written: the active file of an ended match goes only once
its finished record is on disk. A write that fails (a full disk) is logged and
reported through ``on_failure``, once until a write of that match succeeds again,
so its players can be told. A file that cannot be read at start is moved aside,
never deleted.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..files import SaveError, move_aside, read_json_document, write_atomically

ARCHIVE_FORMAT = "soluna-server-match"
ARCHIVE_VERSION = 1

log = logging.getLogger("soluna.server")


#: Told, on the event loop, the code of a match that could not be written and why.
FailureReport = Callable[[str, str], None]


class MatchArchive:
    """The folder of active and finished matches, written in order off the event loop."""

    def __init__(self, folder: Path, on_failure: FailureReport | None = None) -> None:
        self.active_dir = folder / "active"
        self.finished_dir = folder / "finished"
        self.on_failure = on_failure
        self._pending: dict[Path, tuple[str, Callable[[], None]]] = {}
        self._failing: set[str] = set()
        self._writer: asyncio.Task | None = None

    def load_active(self) -> list[dict[str, Any]]:
        """Every readable active match document (at start, before the loop serves anyone)."""
        documents = []
        if not self.active_dir.is_dir():
            return documents
        for path in sorted(self.active_dir.glob("*.json")):
            try:
                documents.append(read_json_document(path, ARCHIVE_FORMAT, ARCHIVE_VERSION))
            except SaveError as error:
                self.set_aside(path, str(error))
        return documents

    def set_aside(self, path: Path, reason: str) -> None:
        try:
            log.warning("match file %s unusable (%s); moved to %s", path.name, reason, move_aside(path))
        except OSError as error:
            log.warning("match file %s unusable (%s) and cannot be moved aside: %s", path.name, reason, error)

    def _active_path(self, code: str) -> Path:
        return self.active_dir / f"{code}.json"

    def save(self, code: str, document: dict[str, Any]) -> None:
        """Write the state of a match in play (or held)."""
        text = _as_text(document)
        path = self._active_path(code)
        self._queue(code, path, lambda: write_atomically(path, text))

    def finish(self, code: str, document: dict[str, Any]) -> None:
        """File a match that has ended under ``finished/``, then drop its active file (only once that is written)."""
        text = _as_text(document)
        active = self._active_path(code)
        finished = self.finished_dir / f"{time.strftime('%Y%m%d-%H%M%S')}-{code}.json"

        def file_it() -> None:
            _write_new(finished, text)
            active.unlink(missing_ok=True)

        self._pending.pop(active, None)  # a state not yet written is replaced by the final one
        self._queue(code, active, file_it)

    def _queue(self, code: str, path: Path, job: Callable[[], None]) -> None:
        self._pending[path] = (code, job)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_all())

    async def _write_all(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending:
            path = next(iter(self._pending))
            code, job = self._pending.pop(path)
            try:
                await loop.run_in_executor(None, job)
            except OSError as error:
                self._failed(code, path, error.strerror or str(error))
            else:
                self._failing.discard(code)

    def _failed(self, code: str, path: Path, reason: str) -> None:
        log.warning("cannot write match %s (%s): %s", code, path, reason)
        if code in self._failing:
            return
        self._failing.add(code)
        if self.on_failure is not None:
            try:
                self.on_failure(code, reason)
            except Exception:  # noqa: BLE001 - a failing report must not stop the writes queued after it
                log.exception("match %s: reporting a failed write failed", code)

    async def flush(self) -> None:
        """Wait until everything queued is on disk."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)


def _as_text(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=1)


def _write_new(path: Path, text: str) -> None:
    """Write ``text`` at ``path``, or beside it when a file of that name exists (never overwrite an archive)."""
    target, counter = path, 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.stem}-{counter}{path.suffix}")
    write_atomically(target, text)
