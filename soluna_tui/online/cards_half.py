"""Runs in the child.

The session app's cards half: a player's card (``i`` on a name: who is online, the leaderboard, the players at the
match shown) asked of the server by the number it tells them by, shown, and a tell begun from it in the talk's line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..link.messages import AskCard, Message, PlayerCard
from .linked_app import LinkedApp
from .remote_table import RemoteTable
from .screens import lobby_wish
from .screens.player_card import CardWanted, PlayerCardScreen
from .talk_half import TalkHalf

#: ``I`` where no name is chosen.
NO_NAME = "No player here: i shows the card of a name chosen in a list, I that of a player at a match."


class CardsHalf:
    """Cards asked of the server and shown; a tell begun from one."""

    def __init__(self, app: LinkedApp, talk: TalkHalf) -> None:
        self.app = app
        self.talk = talk

    @property
    def wishes(self) -> dict[type[lobby_wish.LobbyWish], Callable[[Any], None]]:
        return {CardWanted: self._card_wanted}

    @property
    def handlers(self) -> dict[type[Message], Callable[[Any], None]]:
        return {PlayerCard: self._heard_card}

    def _card_wanted(self, wish: CardWanted) -> None:
        """A card shown (asked again on a card already shown: the next player at its table)."""
        shown = self.app.screen
        if isinstance(shown, PlayerCardScreen):
            card = shown
        else:
            card = PlayerCardScreen(wish.player_name, wish.others, self.app.ascii_mode)
            self.app.push_screen(card, self._card_closed)
        self.app.ask(AskCard(wish.person), card, card.refused)

    def at_the_table(self) -> None:
        """``I`` at a match between players: the opponent's card (the first player's, watching; ``i`` again, the
        other's)."""
        game = self.app.game
        table = game.table if game is not None else None
        if not isinstance(table, RemoteTable) or len(table.seat_people) != 2:
            self.app.notify(NO_NAME)
            return
        seats = [(index, person.person, name) for index, (person, name)
                 in enumerate(zip(table.seat_people, table.match.players, strict=True)) if person.person is not None]
        if not seats:
            self.app.notify("No card to show here: neither player's card can be asked for.")
            return
        _, person, name = next((each for each in seats if each[0] != table.my_seat), seats[0])
        self._card_wanted(CardWanted(person, name, tuple((number, shown) for _, number, shown in seats)))

    def _heard_card(self, message: PlayerCard) -> None:
        asked = self.app.asker(message)
        if asked is not None and isinstance(asked.screen, PlayerCardScreen):
            asked.screen.show_card(message)

    def _card_closed(self, tell: str | None) -> None:
        """The card closed with ``t``: a tell to its player begun in the talk's line."""
        if tell:  # once the screen under the card is back (and has given its focus back)
            self.app.call_after_refresh(self.talk.begin, tell)
