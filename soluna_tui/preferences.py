"""What the player chose last time: the theme and the new-match settings.

Kept in the data directory next to the saves, written atomically; an unreadable
file is moved aside and the defaults apply.
"""

from __future__ import annotations

from pathlib import Path

from .match_setup import MatchSetup
from .rules import SolunaError
from .saves import SaveError, default_data_dir, document_text, move_aside, read_json_document, write_atomically

PREFERENCES_FORMAT = "soluna-preferences"
PREFERENCES_VERSION = 1
PREFERENCES_FILE = "preferences.json"


class Preferences:
    """The remembered theme and last match setup (either may be unknown)."""

    def __init__(self, data_dir: Path | None = None) -> None:
        self.path = (Path(data_dir) if data_dir is not None else default_data_dir()) / PREFERENCES_FILE
        self.theme: str | None = None
        self.last_setup: MatchSetup | None = None
        self._load()

    def _load(self) -> None:
        if not self.path.exists():
            return
        try:
            document = read_json_document(self.path, PREFERENCES_FORMAT, PREFERENCES_VERSION)
            theme = document.get("theme")
            self.theme = theme if isinstance(theme, str) else None
            setup = document.get("last_setup")
            self.last_setup = MatchSetup.from_dict(setup) if setup is not None else None
        except (SaveError, SolunaError, TypeError):
            try:
                move_aside(self.path)
            except OSError:
                pass

    def remember(self, *, theme: str | None = None, setup: MatchSetup | None = None) -> None:
        """Update and write; a disk that refuses only means it is not remembered."""
        if theme is not None:
            self.theme = theme
        if setup is not None:
            self.last_setup = setup.with_seed(None)
        text = document_text(PREFERENCES_FORMAT, PREFERENCES_VERSION, {
            "theme": self.theme,
            "last_setup": self.last_setup.to_dict() if self.last_setup is not None else None,
        })
        try:
            write_atomically(self.path, text)
        except OSError:
            pass
