"""The values the game screen hands its widgets: plain, immutable, drawn as they are."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..rules import PlacedMove, Round, Tower

#: The keys that jump to towers 1, 2, 3...: digits, then letters no other key uses.
JUMP_KEYS = "1234567890bcefgimoptvxyz"


def place_keys(placed: PlacedMove) -> str:
    """The keys of the places a move went from and onto, as the board labels them: ``2>1``."""
    return f"{JUMP_KEYS[placed.mover_slot]}>{JUMP_KEYS[placed.target_slot]}"


def move_words(played: Round, ply: int) -> str:
    """Move ``ply`` (0-based) of a round as players read it: its notation, and the keys of its places
    where alike towers leave the notation in doubt (``1S>1S 2>1``)."""
    placed = played.placed_at(ply)
    if played.table_at(ply).is_ambiguous(placed.move):
        return f"{placed.move} {place_keys(placed)}"
    return str(placed.move)


class NoteKind(StrEnum):
    """What a mark under a tower says (its value names the style it is drawn in: ``note-win``...)."""

    WIN = "win"
    LOSS = "loss"
    HINT = "hint"
    NONE = "none"


#: A mark under a tower: its text and kind.
Note = tuple[str, str]
#: No mark.
NO_NOTE: Note = ("", "")


@dataclass(frozen=True)
class TowerLook:
    """Everything a place on the board shows; the screen computes it, the widget only draws it.

    A look without a tower is an empty place (its tower was moved onto another); ``last`` marks
    both places of the latest move, where it came from and where it went.
    """

    tower: Tower | None = None
    label: str = ""
    picked: bool = False
    target: bool = False
    dimmed: bool = False
    last: bool = False
    hinted: bool = False
    note: str = ""
    note_kind: str = ""


@dataclass(frozen=True)
class TallyInfo:
    """What the panel shows; the game screen fills it in from the match."""

    names: tuple[str, str] = ("Player 1", "Player 2")
    stars: tuple[int, int] = (0, 0)
    stars_to_win: int = 4
    round_number: int = 1
    to_move: int | None = 0
    rules: str = "box rules"
    mode: str = "two players"
    seed: int | None = None
    hints: bool = True
    status: str = ""
    #: Keep a line for ``status`` even while it is empty (the computer plays: "thinking" comes and goes).
    status_line: bool = False
    #: For each player away from a match over SSH, when (``time.monotonic()``) the held seat runs out.
    away: tuple[float | None, float | None] = (None, None)
    #: What this terminal's player needs to come back after losing the connection ("code ABCD, secret ...").
    comeback: str = ""
    #: This terminal's player, marked "(you)", where the other plays elsewhere (names may look alike).
    you: int | None = None
    #: How many watch the match (over SSH), and the names of those who do not hide.
    spectators: int = 0
    spectator_names: tuple[str, ...] = ()
    #: Each seat's rating, shown beside the name (over SSH, a keyed player's; ``None``: none shown).
    ratings: tuple[int | None, int | None] = (None, None)


@dataclass(frozen=True)
class HistoryEntry:
    """One line: a round's heading (``ply`` 0, its start) or the position after move ``ply``."""

    round_number: int
    ply: int
    text: str
    heading: bool = False
