"""Who is online, in the SSH lobby: a line a person (the name, a keyed player's rating or "guest", what they
are doing), in the place of the matches in play. Attributes down: the lobby hands it the people as the app
keeps them; a ``RowList``, it repaints only the lines that changed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len, set_cell_size

from ..link.messages import Doing, OnlinePerson
from ..rules.strengths import level_words
from .row_list import RowList

#: Cells for the name (a name is at most 16, and this player's is marked), and for the rating or "guest".
NAME_CELLS, STANDING_CELLS = 22, 5
#: A line's width where none is given.
DEFAULT_WIDTH = 70
YOU = " (you)"


def doing_words(person: OnlinePerson) -> str:
    """What they are doing: ``in the lobby``, ``playing bob``, ``watching ann vs bob``..."""
    others = person.others
    if person.doing is Doing.PLAYING and others:
        return f"playing {others[0]}"
    if person.doing is Doing.WATCHING and len(others) == 2:
        return f"watching {others[0]} vs {others[1]}"
    if person.doing is Doing.COMPUTER:
        return f"playing the computer at {level_words(others[0])}" if others else "playing the computer"
    if person.doing is Doing.WAITING:
        return "waiting for an opponent"
    return "in the lobby" if person.doing is Doing.LOBBY else person.doing.value


def standing(person: OnlinePerson) -> str:
    """A keyed player's rating (``new`` before their first rated match), or ``guest``."""
    if not person.keyed:
        return "guest"
    return "new" if person.rating is None else str(person.rating)


def person_line(person: OnlinePerson, you: bool, width: int = DEFAULT_WIDTH, ellipsis: str = "…") -> str:
    """One person's line, ``width`` cells at most (what they are doing is cut short first, ``ellipsis`` after)."""
    name = person.name
    mark = YOU if you else ""
    if cell_len(name) + len(mark) > NAME_CELLS:
        name = set_cell_size(name, NAME_CELLS - len(mark) - cell_len(ellipsis)) + ellipsis
    line = f"{set_cell_size(name + mark, NAME_CELLS)} {standing(person):>{STANDING_CELLS}}  {doing_words(person)}"
    return line if cell_len(line) <= width else set_cell_size(line, width - cell_len(ellipsis)) + ellipsis


class PeopleList(RowList[tuple[OnlinePerson, bool]]):
    """The people online, a line each, kept by who they are (their number): ``show`` hands it who they are now, and
    only the lines of those who changed, came or went (and the lines they shifted) are repainted."""

    def __init__(self, *, ascii_mode: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self._ellipsis = "..." if ascii_mode else "…"

    def show(self, people: Sequence[OnlinePerson], you: int | None) -> None:
        """The people to list, in order; the highlight stays on the person it was on."""
        self.show_rows([(person.id, (person, person.id == you)) for person in people])

    def row_text(self, value: tuple[OnlinePerson, bool], width: int) -> str:
        person, yours = value
        return person_line(person, yours, max(width, 20), self._ellipsis)
