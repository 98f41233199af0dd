"""The matches in play, as the lobby lists them (``#lobby-matches``): Enter watches one, or takes back a held seat.

Each match is a row kept by its code: a change repaints its lines only (``show``); a match chosen goes up as
``MatchesInPlay.Chosen``, the screen deciding what it means with the settings beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.message import Message

from ...link.messages import ListedMatch
from ...widgets.row_list import RowList


def describe(entry: ListedMatch) -> str:
    """One line about a match in play: who, which round, the stars, who watches, who is away
    (or, where this player's own seat is held, that Enter takes it back)."""
    players, stars = entry.players, entry.stars
    if entry.yours:
        return (f"Your seat: {players[0]} vs {players[1]}, round {entry.round}, "
                f"stars {stars[0]}-{stars[1]} (Enter returns)")
    text = f"{players[0]} vs {players[1]}: round {entry.round}, stars {stars[0]}-{stars[1]}"
    watchers = entry.watchers
    if watchers:
        text += f", {watchers} watching"
    away = [name for name, gone in zip(players, entry.away, strict=True) if gone]
    if away:
        text += f" ({' and '.join(away)} away)"
    return text


def held_seat(matches: Sequence[ListedMatch]) -> ListedMatch | None:
    """The first match in play where this player's seat is held for them."""
    return next((entry for entry in matches if entry.yours), None)


class MatchesInPlay(RowList[ListedMatch]):
    """The matches in play, a line each (wrapped where the list is narrow), kept by their code."""

    #: Enter as the list's own key, shown in the footer for what it does here (or a seat held taken back).
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "select", "Watch")]

    class Chosen(Message):
        """Enter on a match in play."""

        def __init__(self, entry: ListedMatch) -> None:
            super().__init__()
            self.entry = entry

    def __init__(self) -> None:
        super().__init__(id="lobby-matches")
        self.matches: tuple[ListedMatch, ...] = ()

    def show(self, matches: tuple[ListedMatch, ...]) -> None:
        """The matches in play in the list, when it shows: only the lines that changed are repainted."""
        self.matches = matches
        self.show_rows([(entry.code, entry) for entry in matches])

    def row_text(self, value: ListedMatch, width: int) -> str:
        return describe(value)

    @on(RowList.Selected)
    def _chosen(self, event: RowList.Selected) -> None:
        event.stop()
        if event.index < len(self.matches):
            self.post_message(self.Chosen(self.matches[event.index]))
