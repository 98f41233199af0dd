"""The unfinished match, saved after every move, resumed on the next start.

Writes are atomic (a temporary file in the same directory, then a rename), so a
crash mid-write leaves the previous save intact. A save that cannot be read is
moved aside, never deleted, and the app goes on.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from .match_setup import MatchSetup
from .rules import Match, SolunaError

APP_NAME = "soluna-tui"
SAVE_FORMAT = "soluna-save"
SAVE_VERSION = 1
CURRENT_SAVE = "current-match.json"


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


def read_json_document(path: Path, expected_format: str, expected_version: int) -> dict[str, Any]:
    """The JSON object in ``path`` if it carries the expected format and version, else ``SaveError``."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise SaveError(f"cannot read {path.name}: {error.strerror}") from None
    try:
        document = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise SaveError(f"{path.name} is not valid JSON") from None
    except RecursionError:
        raise SaveError(f"{path.name} is nested too deeply to be a Soluna file") from None
    if not isinstance(document, dict) or document.get("format") != expected_format:
        raise SaveError(f"{path.name} is not a Soluna TUI file")
    if document.get("version") != expected_version:
        raise SaveError(f"{path.name} has version {document.get('version')!r}, this program reads {expected_version}")
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
            match = Match.from_dict(document.get("match"))
            hints = document.get("hints_used", [0, 0])
            if not (isinstance(hints, list) and len(hints) == 2 and all(type(n) is int and n >= 0 for n in hints)):
                raise SaveError("the hint counts are malformed")
        except (SolunaError, TypeError) as error:
            raise SaveError(f"the saved match is damaged: {error}") from None
        return cls(setup, match, (hints[0], hints[1]), document.get("analysis") is True)


class SaveStore:
    """The save of the unfinished match in one data directory."""

    def __init__(self, data_dir: Path | None = None) -> None:
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()

    @property
    def current_path(self) -> Path:
        return self.data_dir / CURRENT_SAVE

    def save(self, saved: SavedMatch) -> None:
        """Write the match (atomically); ``SaveError`` with the reason if the disk refuses."""
        try:
            write_atomically(self.current_path, saved.to_json())
        except OSError as error:
            raise SaveError(f"cannot save to {self.data_dir}: {error.strerror or error}") from None

    def load(self) -> SavedMatch | None:
        """The saved unfinished match, ``None`` if there is none, ``SaveError`` if it is unusable."""
        if not self.current_path.exists():
            return None
        document = read_json_document(self.current_path, SAVE_FORMAT, SAVE_VERSION)
        return SavedMatch.from_document(document)

    def move_aside(self) -> Path:
        return move_aside(self.current_path)

    def discard(self) -> None:
        """Forget the saved match (it is finished, or the player chose a new one)."""
        try:
            self.current_path.unlink(missing_ok=True)
        except OSError as error:
            raise SaveError(f"cannot remove {self.current_path}: {error.strerror or error}") from None
