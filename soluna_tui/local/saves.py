"""The unfinished match, saved after every move, resumed on the next start.

Written and read with the careful helpers of ``files``: a crash mid-write leaves
the previous save intact, and a save that cannot be read is moved aside, never
deleted, and the app goes on.

Two copies of the game on one data directory never write over each other: each
running copy holds a lock on its own save slot. The first copy plays the saved
match (``current-match.json``); another copy started meanwhile saves its match
in the next free slot (``current-match-2.json``...), offered on a later start.

A saved match that stops the game as it is resumed (a bug) is not offered again and again:
a marker is written as the match is resumed and cleared once it is on the screen, so one
found on the next start means the resume failed, and the save is moved aside.
"""

from __future__ import annotations

import math
import os
import time
import weakref
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..rules import Match, SolunaError
from ..rules.clock import MatchClock, clock_face
from ..rules.end_reason import EndReason, gave_up_words
from ..rules.json_fields import read_items
from .files import (
    SaveError,
    default_data_dir,
    document_text,
    move_aside,
    read_json_document,
    remove_leftovers,
    try_lock,
    write_atomically,
)
from .judgements import RoundVerdicts, verdicts_from_document, verdicts_to_document
from .match_setup import MatchSetup, clean_name

SAVE_FORMAT = "soluna-save"
SAVE_VERSION = 1
CURRENT_SAVE = "current-match.json"
#: Save slots for copies of the game running at once on one data directory (the first is CURRENT_SAVE).
SAVE_SLOTS = 9
#: Beside a save while its match is being resumed (``current-match.resuming``): left behind, the resume failed.
RESUMING_SUFFIX = ".resuming"


class ResumeFailed(SaveError):
    """The saved match stopped the game the last time it was resumed: it is set aside, not offered again."""


@dataclass
class SavedMatch:
    """What is saved: who plays, the match itself, the hints used so far, and analysis mode; with a
    finished match, the verdicts of its positions the game solved reviewing it (``judgements``). A match
    with a clock keeps it stopped (each player's time left: it runs again when the match is shown), and how
    the match ended when that is not on the board (lost on time)."""

    setup: MatchSetup
    match: Match
    hints_used: tuple[int, int] = (0, 0)
    analysis: bool = False
    verdicts: tuple[RoundVerdicts, ...] = ()
    clock: MatchClock | None = None
    ended: EndReason | None = None

    def to_document(self) -> dict[str, Any]:
        """What ``from_document`` reads back (a save file's body; over SSH, what the server keeps)."""
        document = {
            "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "setup": self.setup.to_dict(),
            "match": self.match.to_dict(),
            "hints_used": list(self.hints_used),
            "analysis": self.analysis,
        }
        if self.verdicts:
            document["verdicts"] = verdicts_to_document(self.verdicts)
        if self.clock is not None:
            document["clock"] = self.clock.to_document()
        if self.ended is not None:
            document["ended"] = self.ended.value
        return document

    def to_json(self) -> str:
        return document_text(SAVE_FORMAT, SAVE_VERSION, self.to_document())

    @classmethod
    def from_document(cls, document: dict[str, Any]) -> SavedMatch:
        try:
            setup = MatchSetup.from_dict(document.get("setup"))
            match = Match.from_dict(_with_clean_players(document.get("match")))
            hints = read_items(document, "hints_used", int, where="the saved match", error=SaveError, count=2,
                               default=[0, 0])
            if min(hints) < 0:
                raise SaveError("the hint counts are malformed")
        except (SolunaError, TypeError) as error:
            raise SaveError(f"the saved match is damaged: {error}") from None
        try:
            verdicts = verdicts_from_document(document["verdicts"], match) if "verdicts" in document else ()
            ended = EndReason(document["ended"]) if "ended" in document else None
        except ValueError as error:
            raise SaveError(f"the saved match is damaged: {error}") from None
        return cls(setup, match, (hints[0], hints[1]), document.get("analysis") is True, verdicts,
                   _read_clock(document, setup), ended)


def _read_clock(document: dict[str, Any], setup: MatchSetup) -> MatchClock | None:
    """The saved match's clock, stopped; a fresh one for a setup with a clock and none saved (``SaveError`` for a
    clock that is not one, or not the setup's)."""
    if "clock" not in document:
        return MatchClock.fresh(setup.clock) if setup.clock is not None else None
    clock = MatchClock.from_document(document["clock"])
    if clock is None or clock.setting != setup.clock or not all(0 <= left < math.inf for left in clock.left):
        raise SaveError("the saved match is damaged: its clock is malformed")
    return replace(clock, running=None, since=None)  # it runs again from when the match is shown


def _with_clean_players(document: Any) -> Any:
    """The match document with its player names cleaned like typed ones (no control characters)."""
    if isinstance(document, dict) and isinstance(document.get("players"), list):
        names = document["players"]
        cleaned = [clean_name(name, f"Player {seat + 1}") if isinstance(name, str) else name
                   for seat, name in enumerate(names)]
        return {**document, "players": cleaned}
    return document


def describe_saved(saved: SavedMatch) -> str:
    """Where an unfinished saved match stands, as the offer to resume it says it (in three lines at most)."""
    match = saved.match
    names, stars = match.players, match.stars
    mode = saved.setup.mode_label
    if match.round_number == 1 and match.round.ply == 0:
        return f"You have a match set up, not started yet:\n{names[0]} vs {names[1]} ({mode})."
    state = "between rounds" if match.round.is_over else f"move {match.round.ply + 1}"
    text = (f"You have an unfinished match:\n{names[0]} {stars[0]} - {stars[1]} {names[1]}, "
            f"round {match.round_number}, {state} ({mode}).")
    clock = saved.clock
    if clock is not None:  # stopped while the game was closed: it runs again once resumed
        text += (f"\nClock {clock.setting.label}, stopped: {names[0]} {clock_face(clock.left[0])}, "
                 f"{names[1]} {clock_face(clock.left[1])}.")
    return text


def slot_file(slot: int) -> str:
    """The save of slot 1 is ``current-match.json``; later slots are ``current-match-2.json``..."""
    return CURRENT_SAVE if slot == 1 else CURRENT_SAVE.replace(".json", f"-{slot}.json")


def read_save(path: Path) -> SavedMatch:
    """The saved match in ``path``; ``SaveError`` if it cannot be read or is not one."""
    return SavedMatch.from_document(read_json_document(path, SAVE_FORMAT, SAVE_VERSION))


def read_unfinished(data_dir: Path) -> tuple[Path, SavedMatch] | None:
    """The first saved unfinished match in ``data_dir``, read as it is, whoever plays it: nothing is
    locked, created or moved (``soluna export`` while the game runs). ``SaveError`` if it is unusable."""
    for slot in range(1, SAVE_SLOTS + 1):
        path = data_dir / slot_file(slot)
        if os.path.lexists(path):
            return path, read_save(path)
    return None


class SaveStore:
    """The save of the unfinished match this copy of the game plays, in one data directory.

    The store claims a save slot on first use and holds its lock until ``release``: the
    first free slot that holds an unfinished match, else the first free one. ``elsewhere``
    tells whether another running copy holds the first slot (so this one saves apart).
    """

    def __init__(self, data_dir: Path | None = None) -> None:
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self._slot: int | None = None
        self._lock: weakref.finalize[[int], SaveStore] | None = None
        self.elsewhere = False

    def _claim(self) -> int:
        """This copy's slot (claimed once); 0 when every slot is held by other copies."""
        if self._slot is None:
            self._slot, handle = self._free_slot()
            if handle is not None:
                # Released with the store, at the latest: a store dropped without release() frees its slot.
                self._lock = weakref.finalize(self, os.close, handle)
                # Nobody else writes this slot while its lock is held: what a killed write left goes.
                remove_leftovers(self.current_path)
                remove_leftovers(self._resuming_path)
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
            if not try_lock(handle):
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
        """The saved unfinished match, ``None`` if there is none, ``SaveError`` if it is unusable
        (``ResumeFailed`` if it stopped the game the last time it was resumed)."""
        if self._claim() == 0:
            return None
        if not os.path.lexists(self.current_path):
            self.resumed()  # a marker without its save is of no use to anyone
            return None
        if os.path.lexists(self._resuming_path):
            raise ResumeFailed("the game stopped on an internal error the last time it was resumed")
        return read_save(self.current_path)

    def move_aside(self) -> Path:
        """Set the save aside (never deleted) with its resume marker, if any; the save's new path."""
        moved = move_aside(self.current_path)
        self.resumed()
        return moved

    @property
    def _resuming_path(self) -> Path:
        return self.current_path.with_suffix(RESUMING_SUFFIX)

    def resuming(self) -> None:
        """The saved match is about to be put on the screen: if that stops the game, the next start will know."""
        with suppress(OSError):  # a disk that refuses the marker refuses the save too: nothing to protect
            write_atomically(self._resuming_path, time.strftime("%Y-%m-%dT%H:%M:%S%z\n"))

    def resumed(self) -> None:
        """The resumed match is on the screen (or set aside): the marker goes."""
        with suppress(OSError):
            self._resuming_path.unlink(missing_ok=True)

    def keep_finished(self, saved: SavedMatch, replacing: Path | None = None) -> Path:
        """Keep a finished match for replay (the last few, in ``finished/``), or write it again over
        ``replacing``; the file it is in. ``SaveError`` if the disk refuses."""
        return FinishedStore(self.data_dir).keep(saved, replacing)

    def withdraw_finished(self, path: Path) -> None:
        """The kept match was taken back: it is not finished after all, and no longer kept."""
        FinishedStore(self.data_dir).withdraw(path)

    def discard(self) -> None:
        """Forget the saved match (it is finished, or the player chose a new one)."""
        if self._claim() == 0:
            return
        try:
            self.current_path.unlink(missing_ok=True)
        except OSError as error:
            raise SaveError(f"cannot remove {self.current_path}: {error.strerror or error}") from None
        self.resumed()


#: Finished matches kept for replay and ``soluna export --last``, in ``DATA_DIR/finished/``.
FINISHED_DIR = "finished"
FINISHED_KEPT = 50


@dataclass(frozen=True)
class FinishedFile:
    """One kept finished match: its file, and the match (``None`` with ``problem`` when it cannot be read)."""

    path: Path
    saved: SavedMatch | None
    problem: str = ""


def describe_finished(kept: FinishedFile) -> str:
    """One kept finished match in a line (the finished matches' list, and ``replays`` in lines): when it ended, who
    played, who won, the stars and how, if not on the board (``You resigned``, ``Bob ran out of time``), or why the
    file cannot be read."""
    try:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(kept.path.stat().st_mtime))
    except OSError:
        when = "?"
    if kept.saved is None:
        return f"{when}  {kept.path.name}: cannot be read ({kept.problem})"
    match = kept.saved.match
    names, stars = match.players, match.stars
    winner = f"{names[match.winner]} won" if match.winner is not None else "unfinished"
    how = (f", {names[match.forfeited_by]} {gave_up_words(kept.saved.ended)}" if match.forfeited_by is not None
           else "")
    return (f"{when}  {names[0]} vs {names[1]}: {winner}, {stars[0]}-{stars[1]}{how} "
            f"({kept.saved.setup.mode_label})")


class FinishedStore:
    """The last ``FINISHED_KEPT`` finished matches of this data directory, one save document each.

    File names sort by when the match ended, so the newest is the last name; beyond the bound the
    oldest go first. Each file is written atomically, like a save. A file that cannot be read is
    moved aside when the list is read or the oldest are let go, never deleted (and, no longer
    named ``.json``, never counted among the kept)."""

    def __init__(self, data_dir: Path | None = None) -> None:
        self.folder = (Path(data_dir) if data_dir is not None else default_data_dir()) / FINISHED_DIR

    def keep(self, saved: SavedMatch, replacing: Path | None = None) -> Path:
        """Write a finished match (over ``replacing``, if given); ``SaveError`` with the reason if the disk refuses."""
        if replacing is None:
            stamp = time.time_ns()
            name = f"{time.strftime('%Y%m%d-%H%M%S', time.gmtime(stamp / 1e9))}-{stamp % 1_000_000_000:09d}.json"
        path = replacing if replacing is not None else self.folder / name
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomically(path, saved.to_json())
        except OSError as error:
            raise SaveError(f"cannot keep the finished match in {self.folder}: {error.strerror or error}") from None
        for old in self.paths()[:-FINISHED_KEPT]:
            if self.read(old, set_aside=True).saved is not None:
                with suppress(OSError):
                    old.unlink()
        return path

    def withdraw(self, path: Path) -> None:
        """Forget a kept match that was taken back (it is no longer finished); ``SaveError`` if the disk refuses."""
        try:
            path.unlink(missing_ok=True)
        except OSError as error:
            raise SaveError(f"cannot remove {path}: {error.strerror or error}") from None

    def paths(self) -> list[Path]:
        """The kept files, oldest first."""
        try:
            return sorted(path for path in self.folder.iterdir()
                          if path.suffix == ".json" and not path.name.startswith("."))
        except OSError:
            return []

    def read(self, path: Path, set_aside: bool = False) -> FinishedFile:
        """The match kept in ``path``; a file that cannot be read is moved aside if ``set_aside``."""
        try:
            return FinishedFile(path, read_save(path))
        except SaveError as error:
            if not set_aside:
                return FinishedFile(path, None, str(error))
            try:
                moved = move_aside(path)
            except OSError as move_error:
                return FinishedFile(path, None, f"{error}; it could not be moved aside ({move_error.strerror})")
            return FinishedFile(moved, None, f"{error}; set aside, not deleted")

    def newest_first(self) -> list[FinishedFile]:
        """Every kept match, the last to end first; files that cannot be read are moved aside."""
        return [self.read(path, set_aside=True) for path in reversed(self.paths())]

    def last(self) -> SavedMatch | None:
        """The match that ended last, ``None`` if none was kept; ``SaveError`` if it cannot be read
        (left where it is: this only reads)."""
        paths = self.paths()
        if not paths:
            return None
        found = self.read(paths[-1])
        if found.saved is None:
            raise SaveError(f"{paths[-1]}: {found.problem}")
        return found.saved
