"""Two-player matches on the server's disk: every change is written, so nothing is lost.

``matches/active/CODE.json`` holds a match in play or held for an absent player;
when it ends (won, forfeited, abandoned) it moves to
``matches/finished/STAMP-CODE.json``. Writes are atomic (``write_atomically``) and
run one at a time on a worker thread, never on the event loop; a newer state of
the same match replaces one not yet written. A file that cannot be read at start
is moved aside, never deleted.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..saves import SaveError, move_aside, read_json_document, write_atomically

ARCHIVE_FORMAT = "soluna-server-match"
ARCHIVE_VERSION = 1

log = logging.getLogger("soluna.server")


class MatchArchive:
    """The folder of active and finished matches, written in order off the event loop."""

    def __init__(self, folder: Path) -> None:
        self.active_dir = folder / "active"
        self.finished_dir = folder / "finished"
        self._pending: dict[Path, Callable[[], None]] = {}
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
        self._queue(path, lambda: write_atomically(path, text))

    def finish(self, code: str, document: dict[str, Any]) -> None:
        """File a match that has ended under ``finished/`` and drop its active file (in that order)."""
        text = _as_text(document)
        active = self._active_path(code)
        self._pending.pop(active, None)
        finished = self.finished_dir / f"{time.strftime('%Y%m%d-%H%M%S')}-{code}.json"
        self._queue(finished, lambda: _write_new(finished, text))
        self._queue(active, lambda: active.unlink(missing_ok=True))

    def _queue(self, path: Path, job: Callable[[], None]) -> None:
        self._pending[path] = job
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_all())

    async def _write_all(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending:
            path = next(iter(self._pending))
            job = self._pending.pop(path)
            try:
                await loop.run_in_executor(None, job)
            except OSError as error:
                log.warning("cannot write %s: %s", path, error.strerror or error)

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
