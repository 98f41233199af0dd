"""Runs in the child.

Player cards and tells in the lobby in lines: ``finger NAME`` (or ``card NAME``) asks the server for the card of
someone online (or on the leaderboard's last page read) by the number it tells them by, and says it in a few lines,
as the full screen's card reads; ``tell NAME TEXT`` says a line to them alone.
"""

from __future__ import annotations

from ..link.messages import AskCard, LeaderboardPage, PlayerCard, TellPerson
from ..link.safe_talk import ChatRefused, chat_line
from .line_state import LobbyState
from .line_words import LONGEST_NAME_TYPED, RECENT_TOLD
from .screens.player_card import card_text
from .screens.record import describe_recent


class CardsPart(LobbyState):
    """Cards asked for by name and told; tells said."""

    #: The last leaderboard page read (its players' cards may be asked for by name too).
    _board: LeaderboardPage | None = None

    def _cmd_finger(self, argument: str) -> None:
        name = argument.strip()
        if not name:
            self._say("Whose card? Type finger and a name, like finger bob (who tells who is online).")
            return
        wanted = name.casefold()
        person = next((each.id for each in self.online.people if each.name.casefold() == wanted), None)
        if person is None and self._board is not None:
            person = next((row.person for row in self._board.rows if row.name.casefold() == wanted), None)
        if person is None:
            self._say(f"No one called {name[:LONGEST_NAME_TYPED]} is online or on the leaderboard page read: type "
                      "who, or leaderboard.")
            return
        self._send(AskCard(person))

    def _cmd_card(self, argument: str) -> None:
        self._cmd_finger(argument)

    def _card(self, card: PlayerCard) -> None:
        recent = [f"{describe_recent(entry)}." for entry in card.recent[:RECENT_TOLD]]
        self._say(*card_text(card, drawn=False).splitlines(), *(["Recent matches:", *recent] if recent else []))

    def _cmd_tell(self, argument: str) -> None:
        name, _, text = argument.strip().partition(" ")
        if not name or not text.strip():
            self._say("Tell whom what? Type tell, a name and the line, like tell bob see you at eight.")
            return
        try:
            chat_line(text)
        except ChatRefused as refusal:
            self._say(f"Not told: {str(refusal).removeprefix('Not sent: ')}")  # not "Not told: Not sent: ..."
            return
        self._send(TellPerson(name[:LONGEST_NAME_TYPED], text.strip()))
