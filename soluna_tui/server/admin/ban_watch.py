"""Runs in the server process.

The ban list kept current: its file looked at every second, read again when it changed, each new list handed on.

Looking costs one ``stat`` a second, off the event loop (a file on a network share may be slow to
answer). The file counts as changed when its size, times, inode or device do, so an editor's save,
an atomic rename (``soluna serve ban``) and a ``chmod`` are all noticed. Each reading logs one
line for the list, and at most one for its damaged lines and one for its entries that can never
match, however many there are (the first of each named); a file that cannot be read leaves the list as
it was (a ban list briefly unreadable must not let everyone in), and a file removed bans nobody.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from pathlib import Path

from ...local.files import SaveError, read_document_bytes
from .bans import BanList

log = logging.getLogger("soluna.server")

#: Seconds between two looks at the file: a change applies within about this long.
CHECK_INTERVAL = 1.0

#: What the file is taken to have been before the first look (any first look is a change).
NEVER_LOOKED = "never looked"
#: What tells one state of the file from another (``None``: there is no file; text: why it cannot be looked at).
Signature = tuple[int, int, int, int, int] | str | None


def read_ban_file(path: Path, follow_links: bool = True) -> bytes | None:
    """The file's bytes (a regular file of sane size), ``None`` if there is none; ``SaveError`` if unreadable
    (without ``follow_links``, if it is a symbolic link)."""
    if not os.path.lexists(path):
        return None
    return read_document_bytes(path, follow_links=follow_links)


def signature_of(path: Path) -> Signature:
    """The file's identity and times as ``stat`` gives them, ``None`` if it is missing, or why it cannot be seen."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as error:  # a folder it may not search, a network share gone away
        return f"cannot look at it ({error.strerror or error})"
    return status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns


class BanWatch:
    """The ban list as last read from ``path``; ``changed`` is called (on the event loop) with each new one."""

    def __init__(self, path: Path, changed: Callable[[BanList], None], interval: float = CHECK_INTERVAL) -> None:
        self.path = path
        self.changed = changed
        self.interval = interval
        self.bans = BanList()
        self._seen: Signature = NEVER_LOOKED
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Read the list now (before the server listens), then look again every ``interval`` seconds."""
        self.bans = self.read_if_changed() or self.bans
        if self._seen is None:
            log.info("ban list %s: none yet", self.path)
        self._task = asyncio.get_running_loop().create_task(self._watch())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            bans = await asyncio.to_thread(self.read_if_changed)
            if bans is not None:
                self.bans = bans
                self.changed(bans)

    def read_if_changed(self) -> BanList | None:
        """The list read again if the file changed since last time, else ``None``; each reading logged."""
        signature = signature_of(self.path)
        if signature == self._seen:
            return None
        first, self._seen = self._seen == NEVER_LOOKED, signature
        if isinstance(signature, str):
            log.warning("ban list %s: %s; the list as last read still applies", self.path, signature)
            return None
        try:
            data = read_ban_file(self.path)
        except SaveError as error:
            log.warning("ban list %s: %s; the list as last read still applies", self.path, error)
            return None
        if data is None:
            if not first:
                log.info("ban list %s removed: nobody is banned", self.path)
            return BanList()
        bans = BanList.parse(data)
        for warning in bans.warnings():
            log.warning("ban list %s: %s", self.path, warning)
        log.info("ban list %s read: %s", self.path, bans.summary())
        return bans
