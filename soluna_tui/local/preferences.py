"""What the player chose last time: the theme, the new-match settings, the computer's pause, whether the
guided round was done (or skipped), so it is offered once, and whether the game is played in lines for a screen
reader (``soluna --screen-reader``, docs/accessibility.md), and whether the full screen shows the terminal's cursor on
the focus (``--cursor-follows-focus``).

Kept in the data directory next to the saves, written atomically; an unreadable
file is moved aside and the defaults apply, and a theme this game does not know is
said and ignored. Each change re-reads the file under a
lock and writes only what this copy of the game changed, so a second copy running
with older choices never resets the first one's.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, TypeGuard

from ..rules import SolunaError
from ..rules.json_fields import read_field
from .files import (
    SaveError,
    default_data_dir,
    document_text,
    file_lock,
    move_aside,
    read_json_document,
    remove_leftovers,
    shorten,
    write_atomically,
)
from .match_setup import MatchSetup

#: The computer's pauses offered, in seconds (any other, from the preferences file, is offered too).
PAUSES = (0.0, 0.5, 1.0, 2.0, 3.0)


def pause_label(seconds: float) -> str:
    """``none``, ``0.5 s``, ``1 s``."""
    return "none" if seconds == 0 else f"{seconds:g} s"


def pause_choices(current: float) -> list[tuple[str, float]]:
    """The pauses offered, with ``current`` among them."""
    return [(pause_label(seconds), seconds) for seconds in sorted({*PAUSES, current})]


def known_themes() -> frozenset[str]:
    """The names of the themes the game offers (Textual's own)."""
    from textual.theme import BUILTIN_THEMES

    return frozenset(BUILTIN_THEMES)

PREFERENCES_FORMAT = "soluna-preferences"
PREFERENCES_VERSION = 1
PREFERENCES_FILE = "preferences.json"
PREFERENCES_LOCK = "preferences.lock"
#: The longest pause the computer may be asked to take before it moves, in seconds.
LONGEST_PAUSE = 10.0


class Preferences:
    """The remembered theme, last match setup and computer's pause (each may be unknown)."""

    def __init__(self, data_dir: Path | None = None) -> None:
        folder = Path(data_dir) if data_dir is not None else default_data_dir()
        self.path = folder / PREFERENCES_FILE
        self.lock_path = folder / PREFERENCES_LOCK
        #: Why the file could not be read, and where it went (``None`` when all is well).
        self.problem: str | None = None
        self.theme: str | None = None
        self.last_setup: MatchSetup | None = None
        #: Seconds the computer waits before it moves (0 to ``LONGEST_PAUSE``).
        self.computer_pause: float | None = None
        #: The guided round was done or skipped: it is not offered again at start-up.
        self.guided_round_done = False
        #: Play in lines for a screen reader (``--screen-reader``; ``--no-screen-reader`` turns it off again).
        self.screen_reader = False
        #: Show the terminal's real cursor on the focus, for a braille display (``--cursor-follows-focus``).
        self.cursor_follows_focus = False
        self._adopt(self._read())

    def _read(self) -> dict[str, Any]:
        """The choices in the file now; a damaged file is moved aside (``problem`` says so)."""
        if not os.path.lexists(self.path):
            return {}
        try:
            document = read_json_document(self.path, PREFERENCES_FORMAT, PREFERENCES_VERSION)
            theme = read_field(document, "theme", str, type(None), where=PREFERENCES_FILE, error=SaveError,
                               default=None)
            setup = document.get("last_setup")
            pause = document.get("computer_pause")
            guided = read_field(document, "guided_round_done", bool, where=PREFERENCES_FILE, error=SaveError,
                                default=False)
            reader = read_field(document, "screen_reader", bool, where=PREFERENCES_FILE, error=SaveError,
                                default=False)
            cursor = read_field(document, "cursor_follows_focus", bool, where=PREFERENCES_FILE, error=SaveError,
                                default=False)
            choices = {"theme": theme, "last_setup": MatchSetup.from_dict(setup) if setup is not None else None,
                       "computer_pause": float(pause) if _is_pause(pause) else None, "guided_round_done": guided,
                       "screen_reader": reader, "cursor_follows_focus": cursor}
        except (SaveError, SolunaError, TypeError) as error:
            try:
                self.problem = f"Preferences unreadable: {error}; they were moved to {move_aside(self.path)}."
            except OSError:
                self.problem = f"Preferences unreadable: {error}."
            return {}
        if theme is not None and theme not in known_themes():
            # The rest of the file is sound: only the theme is dropped, and said (one that exists no more, a typo).
            self.problem = f"Preferences: unknown theme {shorten(theme)!r}, the default theme is used."
            choices["theme"] = None
        return choices

    def _adopt(self, choices: dict[str, Any]) -> None:
        self.theme = choices.get("theme", self.theme)
        self.last_setup = choices.get("last_setup", self.last_setup)
        self.computer_pause = choices.get("computer_pause", self.computer_pause)
        self.guided_round_done = choices.get("guided_round_done", self.guided_round_done)
        self.screen_reader = choices.get("screen_reader", self.screen_reader)
        self.cursor_follows_focus = choices.get("cursor_follows_focus", self.cursor_follows_focus)

    def remember(self, *, theme: str | None = None, setup: MatchSetup | None = None,
                 computer_pause: float | None = None, guided_round_done: bool | None = None,
                 screen_reader: bool | None = None, cursor_follows_focus: bool | None = None) -> None:
        """Write this change over the file as it is now; a disk that refuses only means it is not remembered."""
        changed: dict[str, Any] = {}
        if screen_reader is not None:
            changed["screen_reader"] = screen_reader
        if cursor_follows_focus is not None:
            changed["cursor_follows_focus"] = cursor_follows_focus
        if guided_round_done is not None:
            changed["guided_round_done"] = guided_round_done
        if theme is not None:
            changed["theme"] = theme
        if setup is not None:
            changed["last_setup"] = setup.with_seed(None)
        if computer_pause is not None:
            if not _is_pause(computer_pause):
                raise ValueError(f"the computer's pause must be 0 to {LONGEST_PAUSE:g} seconds")
            changed["computer_pause"] = float(computer_pause)
        try:
            with file_lock(self.lock_path, PREFERENCES_FILE, wait=1.0):
                remove_leftovers(self.path)  # of a write killed half-way: nobody else writes it now
                self._adopt({**self._read(), **changed})
                write_atomically(self.path, document_text(PREFERENCES_FORMAT, PREFERENCES_VERSION, {
                    "theme": self.theme,
                    "last_setup": self.last_setup.to_dict() if self.last_setup is not None else None,
                    "computer_pause": self.computer_pause,
                    "guided_round_done": self.guided_round_done,
                    "screen_reader": self.screen_reader,
                    "cursor_follows_focus": self.cursor_follows_focus,
                }))
        except (OSError, SaveError):
            self._adopt(changed)


def _is_pause(value: object) -> TypeGuard[float]:
    """A number of seconds the computer may pause (a damaged file's string or NaN is not)."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and 0 <= value <= LONGEST_PAUSE)
