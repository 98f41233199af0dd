"""Who is online, in the SSH lobby: a line a person (the name, a keyed player's rating or "guest", what they
are doing), in the place of the matches in play. Attributes down: the lobby hands it the people as the app
keeps them; it lays its lines out again only when what they say has changed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len, set_cell_size

from ..link.messages import Doing, OnlinePerson
from ..rules.strengths import level_words
from .menu import Menu

#: Cells for the name (a name is at most 16, and this player's is marked), and for the rating or "guest".
NAME_CELLS, STANDING_CELLS = 22, 5
#: The line's width while the list has no size yet (the lobby's list, less its scroll bar).
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


class PeopleList(Menu):
    """The people online, one line each; ``show`` hands it who they are now."""

    def __init__(self, *, ascii_mode: bool = False, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)  # names are shown as they are, never read as markup
        self._ellipsis = "..." if ascii_mode else "…"
        self._texts: tuple[str, ...] = ()
        self._people_numbers: tuple[int, ...] = ()
        #: Who is listed, as last handed: their lines are made again for the width the list is laid out at.
        self._people: tuple[Sequence[OnlinePerson], int | None] = ((), None)

    def show(self, people: Sequence[OnlinePerson], you: int | None) -> None:
        """The people to list, in order; the highlight stays on the person it was on."""
        self._people = (people, you)
        width = self.scrollable_content_region.width - 2 if self.size.width else DEFAULT_WIDTH
        lines = tuple(person_line(person, person.id == you, max(width, 20), self._ellipsis) for person in people)
        if lines == self._texts:
            return
        highlighted, numbers = self.highlighted, self._people_numbers
        was = numbers[highlighted] if highlighted is not None and highlighted < len(numbers) else None
        self._texts, self._people_numbers = lines, tuple(person.id for person in people)
        self.fit_height(len(lines))
        self.set_options(lines)
        if lines:
            self.highlighted = (self._people_numbers.index(was) if was in self._people_numbers
                                else min(highlighted or 0, len(lines) - 1))

    def on_resize(self) -> None:
        """Laid out (first shown, with the lines made for ``DEFAULT_WIDTH``) or at another width: the lines made
        again for it, so that a phone's lines are cut to its width rather than wrapped."""
        self.show(*self._people)

    def on_focus(self) -> None:
        """Shown and focused at once (``o`` in the lobby): brought into view once it has a place, where the lobby
        scrolls (a phone's); focused before it is laid out, it would scroll nowhere."""
        self.call_after_refresh(self.scroll_visible, animate=False, immediate=True)
