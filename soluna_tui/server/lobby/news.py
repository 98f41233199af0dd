"""Runs in the server process.

What a change to a match tells everyone at it, as a small value.

A change's ``News`` is kept with the match in the store, so that every server (the one that made
the change and those that learn of it from the store's notification) tells its own guests the
same: each player their seat's line, the spectators theirs, and a move as a move alone. The
store keeps it as JSON (``to_document``); read back, anything that is not news is no news.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class MovePlayed:
    """The one move a change made, and the moment (round, ply) it was played at."""

    round: int
    ply: int
    move: str


@dataclass(frozen=True)
class News:
    """Each seat's line, the spectators' line (``None``: nothing to say), and the move if that was all."""

    seats: tuple[str | None, str | None] = (None, None)
    watchers: str | None = None
    moved: MovePlayed | None = None

    @classmethod
    def to_all(cls, line: str) -> News:
        """The same line for both players and the spectators."""
        return cls((line, line), line)

    @classmethod
    def to_seat(cls, index: int, line: str, watchers: str | None = None) -> News:
        """A line for one player only (and, maybe, one for the spectators)."""
        seats = (line, None) if index == 0 else (None, line)
        return cls(seats, watchers)

    def for_seat(self, index: int | None) -> str | None:
        """The line for the player at seat ``index``, or the spectators' (``None``)."""
        return self.watchers if index is None else self.seats[index]

    def to_document(self) -> dict[str, Any]:
        """As the store keeps it (the shape every server of the fleet reads)."""
        moved = self.moved
        return {"seat": list(self.seats), "watchers": self.watchers,
                "moved": None if moved is None else {"round": moved.round, "ply": moved.ply, "move": moved.move}}

    @classmethod
    def from_document(cls, document: Any) -> News:
        """News as the store kept it; whatever is not news in it reads as nothing to say."""
        if not isinstance(document, dict):
            return NO_NEWS
        seats = document.get("seat")
        pair = tuple(_line(item) for item in seats) if isinstance(seats, list) and len(seats) == 2 else (None, None)
        return cls((pair[0], pair[1]), _line(document.get("watchers")), _move(document.get("moved")))


NO_NEWS = News()


def _line(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _move(value: Any) -> MovePlayed | None:
    if not isinstance(value, dict):
        return None
    round_number, ply, move = value.get("round"), value.get("ply"), value.get("move")
    if type(round_number) is not int or type(ply) is not int or not isinstance(move, str):
        return None
    return MovePlayed(round_number, ply, move)
