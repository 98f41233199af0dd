"""The files of ours in the data directory, read and written carefully; shared by every store.

Writes are atomic (a temporary file in the same directory, then a rename), so a
crash mid-write leaves the previous file intact (and its temporary file, removed by
the next copy of the game to write that file). A file that cannot be read is
moved aside, never deleted. Every file of ours is read by one careful reader:
only a regular file of sane size, only plain finite numbers.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

APP_NAME = "soluna-tui"
#: No file of ours comes near this (a full stats file is a few hundred kilobytes).
MAX_DOCUMENT_BYTES = 8 * 1024 * 1024
#: No number in a file of ours has more digits than this (seeds, counters, hint counts).
MAX_NUMBER_DIGITS = 20
#: How long an update waits for another copy of the game to finish its own (they take milliseconds).
LOCK_WAIT_SECONDS = 5.0


class SaveError(ValueError):
    """A file of ours (a save, the stats, the preferences) that cannot be used (corrupt, foreign,
    from a newer version) or cannot be written."""


def default_data_dir() -> Path:
    """The per-user data directory (platformdirs), e.g. ``~/.local/share/soluna-tui``."""
    return Path(user_data_dir(APP_NAME, appauthor=False))


def write_atomically(path: Path, text: str | bytes, keep_access: bool = False) -> None:
    """Replace ``path`` with ``text`` all at once: temporary file, flush, fsync, rename.

    With ``keep_access`` the new file keeps the old one's mode and (as root) owner, so whoever read it still
    can (a new file: mode 0644 and, as root, the folder's owner); else it is private to this user (0600).
    An owner's file kept so is never a symbolic link: one planted there is refused (``SaveError``), not followed.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(text.encode("utf-8") if isinstance(text, str) else text)
            if keep_access:
                _give_access(stream.fileno(), path)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _give_access(handle: int, path: Path) -> None:
    """The open file ``handle`` gets ``path``'s mode and owner (as root), or those of a new file in its folder."""
    try:
        status = os.lstat(path)
        mode = stat.S_IMODE(status.st_mode)
        if stat.S_ISLNK(status.st_mode):
            raise SaveError(f"{path.name} is {_kind_of(status.st_mode)}, not a file")
    except FileNotFoundError:
        status, mode = os.stat(path.parent), 0o644
    os.fchmod(handle, mode)
    if os.geteuid() == 0:
        os.fchown(handle, status.st_uid, status.st_gid)


def remove_leftovers(path: Path) -> None:
    """Remove what writes of ``path`` killed half-way left (``write_atomically``'s temporary files; a kill -9
    or a power cut skips its clean-up). Only for a caller that alone writes ``path`` now (it holds its lock):
    another copy's write in progress has a temporary file too."""
    for leftover in path.parent.glob(f".{path.name}.*.tmp"):
        with suppress(OSError):
            leftover.unlink()


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


#: An error message is one line of at most this many characters, whatever the input it quotes.
MESSAGE_LIMIT = 300
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def one_line(message: str) -> str:
    """``message`` as one short line: long quoted input shortened, control characters dropped."""
    shortened = _QUOTED.sub(lambda quoted: _shorten_quoted(quoted.group()), message)
    flat = "".join(char if char.isprintable() else " " for char in shortened)
    return flat if len(flat) <= MESSAGE_LIMIT else shorten(flat, MESSAGE_LIMIT)


def _shorten_quoted(quoted: str) -> str:
    return quoted if len(quoted) <= 42 else f"{quoted[0]}{shorten(quoted[1:-1])}{quoted[-1]}"


def _kind_of(mode: int) -> str:
    for test, kind in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a pipe"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a regular file"


def _check_regular(name: str, status: os.stat_result) -> None:
    if not stat.S_ISREG(status.st_mode):
        raise SaveError(f"{name} is {_kind_of(status.st_mode)}, not a file")
    if status.st_size > MAX_DOCUMENT_BYTES:
        raise SaveError(f"{name} is too large to be a Soluna file ({status.st_size // 1024 // 1024} MB)")


def read_document_bytes(path: Path, shown: str | None = None, follow_links: bool = True) -> bytes:
    """The bytes of ``path`` if it is a regular file of sane size; ``SaveError`` otherwise.

    A pipe or a device (say a link to /dev/zero) is refused before it is read, so it can
    neither hang the game nor fill its memory; the opened file is checked again in case it
    was swapped meanwhile, and never more than the limit is read. ``shown``: how messages name the file
    (its name unless told: a path the user typed is named as typed). Without ``follow_links`` a symbolic link
    is refused, not read (an owner's command run as root reads nothing a link planted in the data folder names).
    """
    name = path.name if shown is None else shown
    try:
        _check_regular(name, os.stat(path) if follow_links else os.lstat(path))
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
                         | (0 if follow_links else os.O_NOFOLLOW))
    except OSError as error:
        if error.errno == errno.ELOOP and not follow_links:
            raise SaveError(f"{name} is a symbolic link, not a file") from None
        raise SaveError(f"cannot read {name}: {error.strerror}") from None
    try:
        _check_regular(name, os.fstat(handle))
        chunks, size = [], 0
        while chunk := os.read(handle, 1024 * 1024):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_DOCUMENT_BYTES:
                raise SaveError(f"{name} is too large to be a Soluna file")
        return b"".join(chunks)
    except OSError as error:
        raise SaveError(f"cannot read {name}: {error.strerror}") from None
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
def file_lock(path: Path, what: str, wait: float = LOCK_WAIT_SECONDS, follow_links: bool = True) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created if need be) while another copy of the game may
    change the same file; ``SaveError`` if that copy keeps it longer than ``wait`` seconds.

    Where no lock file can be made (a read-only or missing folder) there is nothing to protect:
    whatever writes there fails on its own, so this goes on without a lock. Without ``follow_links`` a
    symbolic link at ``path`` is refused (``SaveError``): nothing is created where it points.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | (0 if follow_links else os.O_NOFOLLOW), 0o644)
    except OSError as error:
        if error.errno == errno.ELOOP and not follow_links:
            raise SaveError(f"{path.name} is a symbolic link, not a file") from None
        handle = None
    if handle is None:
        yield
        return
    try:
        deadline = time.monotonic() + wait
        while not try_lock(handle):
            if time.monotonic() > deadline:
                raise SaveError(f"{what} is busy: another copy of Soluna has kept it locked for {wait:.0f} s")
            time.sleep(0.005)
        yield
    finally:
        os.close(handle)  # closing releases the lock


def try_lock(handle: int) -> bool:
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
