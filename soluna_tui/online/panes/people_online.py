"""Who is online, as the lobby lists them in the matches' place (``o``; ``#lobby-online``): Enter challenges one,
``i`` shows their card.

The people, how many the server counts and which is this player are handed down (``show``) and drawn when the
list shows (``draw``); a person chosen goes up as ``PeopleOnline.Chosen``.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.message import Message

from ...link.messages import OnlinePerson
from ...widgets.people_list import PeopleList
from ...widgets.row_list import RowList
from ..screens.player_card import CardWanted


class PeopleOnline(PeopleList):
    """The people online, one line each, and their count."""

    #: Enter as the list's own key, shown in the footer for what it does here.
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "select", "Challenge"), Binding("i", "card", "Card")]

    class Chosen(Message):
        """Enter on someone online (``yourself``: on this player's own line)."""

        def __init__(self, person: OnlinePerson, yourself: bool) -> None:
            super().__init__()
            self.person, self.yourself = person, yourself

    def __init__(self, *, ascii_mode: bool = False) -> None:
        super().__init__(ascii_mode=ascii_mode, id="lobby-online")
        #: Who is online, as the server last said: the people, how many it counts (``None`` until it has said),
        #: and which is this player.
        self.people: tuple[OnlinePerson, ...] = ()
        self.total: int | None = None
        self.you: int | None = None

    def show_people(self, people: tuple[OnlinePerson, ...], total: int, you: int | None) -> None:
        """Who is online now (drawn by ``draw``, when the list shows)."""
        self.people, self.total, self.you = people, total, you

    def draw(self) -> None:
        self.show(self.people, self.you)

    def action_card(self) -> None:
        """``i``: the card of the person highlighted."""
        index = self.highlighted
        if index is not None and index < len(self.people):
            person = self.people[index]
            self.post_message(CardWanted(person.id, person.name))

    @on(RowList.Selected)
    def _chosen(self, event: RowList.Selected) -> None:
        event.stop()
        if event.index < len(self.people):
            person = self.people[event.index]
            self.post_message(self.Chosen(person, person.id == self.you))
