"""What the game screen asks of the dialogs about its match (round over, match over), by what they do.

The game screen asks whichever screen is shown, without importing the dialogs' modules (they are
imported only when a round ends): a screen that has the method is asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ..rules import Match


@runtime_checkable
class DescribesMatch(Protocol):
    """A dialog about where the match stands, which goes once the match has moved past it (decided elsewhere)."""

    def still_true(self, match: Match) -> bool:
        """Whether this dialog still describes ``match``."""
        ...


@runtime_checkable
class ShowsResultNotes(Protocol):
    """The match-over summary: lines about the finished match that come after it opened (the ratings)."""

    def show_notes(self, notes: tuple[str, ...]) -> None:
        """Draw ``notes`` (whenever they come)."""
        ...
