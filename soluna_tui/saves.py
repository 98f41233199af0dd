"""The unfinished match, saved after every move, resumed on the next start.

Writes are atomic (a temporary file in the same directory, then a rename), so a
crash mid-write leaves the previous save intact. A save that cannot be read is
moved aside, never deleted, and the app goes on. Every file of ours is read by
one careful reader: only a regular file of sane size, only plain finite numbers.

Two copies of the game on one data directory never write over each other: each
running copy holds a lock on its own save slot. The first copy plays the saved
match (``current-match.json``); another copy started meanwhile saves its match
in the next free slot (``current-match-2.json``...), offered on a later start.
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
import tempfile
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from .match_setup import MatchSetup, clean_name
from .rules import Match, SolunaError

APP_NAME = "soluna-tui"
SAVE_FORMAT = "soluna-save"
SAVE_VERSION = 1
CURRENT_SAVE = "current-match.json"
#: Save slots for copies of the game running at once on one data directory (the first is CURRENT_SAVE).
SAVE_SLOTS = 9
#: No file of ours comes near this (a full stats file is a few hundred kilobytes).
MAX_DOCUMENT_BYTES = 8 * 1024 * 1024
#: No number in a file of ours has more digits than this (seeds, counters, hint counts).
MAX_NUMBER_DIGITS = 20
#: How long an update waits for another copy of the game to finish its own (they take milliseconds).
LOCK_WAIT_SECONDS = 5.0


class SaveError(ValueError):
    """A save file that cannot be used (corrupt, foreign, from a newer version) or cannot be written."""


def default_data_dir() -> Path:
    """The per-user data directory (platformdirs), e.g. ``~/.local/share/soluna-tui``."""
    return Path(user_data_dir(APP_NAME, appauthor=False))


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` all at once: temporary file, flush, fsync, rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def move_aside(path: Path) -> Path:
    """Rename a bad file to ``NAME.corrupt-TIMESTAMP`` (never deleted) and return the new path."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
    os.replace(path, target)
    return target


def document_text(format_name: str, version: int, body: dict[str, Any]) -> str:
    """A file of ours as JSON: what it is and its version first, so a reader can tell."""
    return json.dumps({"format": format_name, "version": version, **body}, ensure_ascii=False, indent=1)


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to about ``limit`` characters (an ellipsis in the middle), for messages quoting input."""
    if len(text) <= limit:
        return text
    keep = (limit - 3) // 2
    return f"{text[:keep]}...{text[-keep:]}"


def _kind_of(mode: int) -> str:
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a regular file"


def _check_regular(name: str, status: os.stat_result) -> None:
    if not stat.S_ISREG(status.st_mode):
        raise SaveError(f"{name} is {_kind_of(status.st_mode)}, not a file")
    if status.st_size > MAX_DOCUMENT_BYTES:
        raise SaveError(f"{name} is too large to be a Soluna file ({status.st_size // 1024 // 1024} MB)")


def read_document_bytes(path: Path) -> bytes:
    """The bytes of ``path`` if it is a regular file of sane size; ``SaveError`` otherwise.

    A pipe or a device (say a link to /dev/zero) is refused before it is read, so it can
    neither hang the game nor fill its memory; the opened file is checked again in case it
    was swapped meanwhile, and never more than the limit is read.
    """
    try:
        _check_regular(path.name, os.stat(path))
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as error:
        raise SaveError(f"cannot read {path.name}: {error.strerror}") from None
    try:
        _check_regular(path.name, os.fstat(handle))
        chunks, size = [], 0
        while chunk := os.read(handle, 1024 * 1024):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_DOCUMENT_BYTES:
                raise SaveError(f"{path.name} is too large to be a Soluna file")
        return b"".join(chunks)
    except OSError as error:
        raise SaveError(f"cannot read {path.name}: {error.strerror}") from None
    finally:
        os.close(handle)


class _OddNumber(ValueError):
    """A number no file of ours holds: infinite, not a number, or of absurd length."""


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _OddNumber(f"a number of {len(text.lstrip('-'))} digits")
    return int(text)


def _finite_number(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise _OddNumber(f"the number {shorten(text)}")
    return value


def _no_constant(text: str) -> float:
    raise _OddNumber(f"the number {text}")


def parse_json(raw: bytes, name: str) -> Any:
    """Strict JSON: UTF-8 (a byte order mark allowed), finite numbers of sane length; ``SaveError`` if not."""
    try:
        return json.loads(raw.decode("utf-8-sig"), parse_int=_whole_number, parse_float=_finite_number,
                          parse_constant=_no_constant)
    except _OddNumber as error:
        raise SaveError(f"{name} holds {error}, which no Soluna file has") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise SaveError(f"{name} is not valid JSON") from None
    except RecursionError:
        raise SaveError(f"{name} is nested too deeply to be a Soluna file") from None


@contextmanager
def file_lock(path: Path, what: str, wait: float = LOCK_WAIT_SECONDS) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if need be) while another copy of the game may
    change the same file; ``SaveError`` if that copy keeps it longer than ``wait`` seconds.

    Where no lock file can be made (a read-only or missing folder) there is nothing to protect:
    whatever writes there fails on its own, so this goes on without a lock.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        handle = None
    if handle is None:
        yield
        return
    try:
        deadline = time.monotonic() + wait
        while not _try_lock(handle):
            if time.monotonic() > deadline:
                raise SaveError(f"{what} is busy: another copy of Soluna has kept it locked for {wait:.0f} s")
            time.sleep(0.005)
        yield
    finally:
        os.close(handle)  # closing releases the lock


def _try_lock(handle: int) -> bool:
    """Take the exclusive lock on an open lock file if nobody holds it; True if taken."""
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:
        return True  # a file system without locks: go on as before locks existed
    return True


def read_json_document(path: Path, expected_format: str, expected_version: int) -> dict[str, Any]:
    """The JSON object in ``path`` if it carries the expected format and version, else ``SaveError``."""
    document = parse_json(read_document_bytes(path), path.name)
    if not isinstance(document, dict) or document.get("format") != expected_format:
        raise SaveError(f"{path.name} is not a Soluna TUI file")
    if document.get("version") != expected_version:
        version = shorten(repr(document.get("version")))
        raise SaveError(f"{path.name} has version {version}, this program reads {expected_version}")
    return document


@dataclass
class SavedMatch:
    """What is saved: who plays, the match itself, the hints used so far, and analysis mode."""

    setup: MatchSetup
    match: Match
    hints_used: tuple[int, int] = (0, 0)
    analysis: bool = False

    def to_json(self) -> str:
        return document_text(SAVE_FORMAT, SAVE_VERSION, {
            "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "setup": self.setup.to_dict(),
            "match": self.match.to_dict(),
            "hints_used": list(self.hints_used),
            "analysis": self.analysis,
        })

    @classmethod
    def from_document(cls, document: dict[str, Any]) -> SavedMatch:
        try:
            setup = MatchSetup.from_dict(document.get("setup"))
            match = Match.from_dict(_with_clean_players(document.get("match")))
            hints = document.get("hints_used", [0, 0])
            if not (isinstance(hints, list) and len(hints) == 2 and all(type(n) is int and n >= 0 for n in hints)):
                raise SaveError("the hint counts are malformed")
        except (SolunaError, TypeError) as error:
            raise SaveError(f"the saved match is damaged: {error}") from None
        return cls(setup, match, (hints[0], hints[1]), document.get("analysis") is True)


def _with_clean_players(document: Any) -> Any:
    """The match document with its player names cleaned like typed ones (no control characters)."""
    if isinstance(document, dict) and isinstance(document.get("players"), list):
        names = document["players"]
        cleaned = [clean_name(name, f"Player {seat + 1}") if isinstance(name, str) else name
                   for seat, name in enumerate(names)]
        return {**document, "players": cleaned}
    return document


def slot_file(slot: int) -> str:
    """The save of slot 1 is ``current-match.json``; later slots are ``current-match-2.json``..."""
    return CURRENT_SAVE if slot == 1 else CURRENT_SAVE.replace(".json", f"-{slot}.json")


class SaveStore:
    """The save of the unfinished match this copy of the game plays, in one data directory.

    The store claims a save slot on first use and holds its lock until ``release``: the
    first free slot that holds an unfinished match, else the first free one. ``elsewhere``
    tells whether another running copy holds the first slot (so this one saves apart).
    """

    def __init__(self, data_dir: Path | None = None) -> None:
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self._slot: int | None = None
        self._lock: weakref.finalize | None = None
        self.elsewhere = False

    def _claim(self) -> int:
        """This copy's slot (claimed once); 0 when every slot is held by other copies."""
        if self._slot is None:
            self._slot, handle = self._free_slot()
            if handle is not None:
                # Released with the store, at the latest: a store dropped without release() frees its slot.
                self._lock = weakref.finalize(self, os.close, handle)
        return self._slot

    def _free_slot(self) -> tuple[int, int | None]:
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError:
            return 1, None  # nothing can be saved here; the save itself will say why
        chosen: tuple[int, int] | None = None
        for slot in range(1, SAVE_SLOTS + 1):
            holds_match = os.path.lexists(self.data_dir / slot_file(slot))
            if chosen is not None and not holds_match:
                continue
            try:
                handle = os.open(self.data_dir / f"{slot_file(slot)[:-5]}.lock",
                                 os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError:
                return 1, None
            if not _try_lock(handle):
                os.close(handle)
                self.elsewhere = self.elsewhere or slot == 1
                continue
            if not holds_match:
                chosen = (slot, handle)
                continue
            if chosen is not None:
                os.close(chosen[1])
            return slot, handle
        return chosen if chosen is not None else (0, None)

    def release(self) -> None:
        """Let another copy of the game have this slot (the app is closing)."""
        if self._lock is not None:
            self._lock()
            self._lock = None

    @property
    def current_path(self) -> Path:
        """This copy's save file."""
        return self.data_dir / slot_file(max(self._claim(), 1))

    def save(self, saved: SavedMatch) -> None:
        """Write the match (atomically); ``SaveError`` with the reason if the disk refuses."""
        if self._claim() == 0:
            raise SaveError(f"{SAVE_SLOTS} other copies of Soluna are saving in {self.data_dir}: "
                            "this match is not saved")
        try:
            write_atomically(self.current_path, saved.to_json())
        except OSError as error:
            raise SaveError(f"cannot save to {self.data_dir}: {error.strerror or error}") from None

    def load(self) -> SavedMatch | None:
        """The saved unfinished match, ``None`` if there is none, ``SaveError`` if it is unusable."""
        if self._claim() == 0 or not os.path.lexists(self.current_path):
            return None
        document = read_json_document(self.current_path, SAVE_FORMAT, SAVE_VERSION)
        return SavedMatch.from_document(document)

    def move_aside(self) -> Path:
        return move_aside(self.current_path)

    def discard(self) -> None:
        """Forget the saved match (it is finished, or the player chose a new one)."""
        if self._claim() == 0:
            return
        try:
            self.current_path.unlink(missing_ok=True)
        except OSError as error:
            raise SaveError(f"cannot remove {self.current_path}: {error.strerror or error}") from None
