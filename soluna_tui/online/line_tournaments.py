"""Runs in the child.

The lobby in lines' tournaments (a part of ``line_lobby.py``): ``tournaments`` lists them by number, ``tournament 2``
tells the second's standings and its round, ``join 2`` enters it (or comes back once paused), ``withdraw 2`` leaves
it. A pairing needs nothing here: the server seats the player and says so, as for a quick match.
"""

from __future__ import annotations

from ..link.messages import (
    AskTournament,
    AskTournaments,
    JoinTournament,
    TournamentLine,
    TournamentPage,
    Tournaments,
    WithdrawTournament,
)
from ..rules.wording import points
from .line_pairing import PairingPart
from .screens.tournament import state_words
from .screens.tournaments import entry_words, tournament_words

#: The standings ``tournament N`` reads out (the leaders).
STANDINGS_TOLD = 5


class TournamentsPart(PairingPart):
    """The tournaments, by the numbers the last list gave them."""

    tournament_list: tuple[TournamentLine, ...] = ()

    def _cmd_tournaments(self, argument: str) -> None:
        self._send(AskTournaments())

    def _tournaments(self, message: Tournaments) -> None:
        self.tournament_list = message.tournaments
        if not message.tournaments:
            self._say("No tournament is announced here yet.")
            return
        self._say(*(f"{number}: {tournament_words(line, line.starts_at - message.now)}."
                    for number, line in enumerate(message.tournaments, start=1)),
                  "tournament 1 tells the first's standings; join 1 enters it, withdraw 1 leaves it.")

    def _numbered(self, argument: str) -> TournamentLine | None:
        """The tournament numbered ``argument`` in the last list (``None``, and what to type, when none)."""
        if argument.isascii() and argument.isdigit() and 1 <= int(argument) <= len(self.tournament_list):
            return self.tournament_list[int(argument) - 1]
        self._say("Which tournament? Type tournaments for the list, then tournament, join or withdraw and its number.")
        return None

    def _cmd_tournament(self, argument: str) -> None:
        line = self._numbered(argument)
        if line is not None:
            self._send(AskTournament(line.id))

    def _cmd_join(self, argument: str) -> None:
        """``join 2``: the second tournament listed; ``join ABCD``: a match by its code."""
        if not (argument.isascii() and argument.isdigit()):
            super()._cmd_join(argument)
            return
        line = self._numbered(argument)
        if line is not None:
            self._send(JoinTournament(line.id))

    def _cmd_withdraw(self, argument: str) -> None:
        """``withdraw 2``: the second tournament listed, where no challenge from this player is open (then it is the
        challenge's, as before)."""
        if (not (argument.isascii() and argument.isdigit()) or not self.tournament_list
                or any(not line.incoming for line in self.challenges)):
            super()._cmd_withdraw(argument)
            return
        line = self._numbered(argument)
        if line is not None:
            self._send(WithdrawTournament(line.id))

    def _tournament_page(self, page: TournamentPage) -> None:
        line = page.tournament
        left = page.next_at - page.now if page.next_at is not None else None
        standings = [f"{standing.rank}. {standing.name}{' (you)' if standing.you else ''}, "
                     f"{points(standing.points)}{', paused' if standing.paused else ''}"
                     for standing in page.standings[:STANDINGS_TOLD]]
        number = next((index for index, each in enumerate(self.tournament_list, start=1) if each.id == line.id), None)
        self._say(f"{line.name}: {state_words(page, left)} {entry_words(line)}.",
                  *(["Standings: " + "; ".join(standings) + "."] if standings else []),
                  _you_words(page, number))


def _you_words(page: TournamentPage, number: int | None) -> str:
    """What this player may type about the tournament: join, come back, withdraw."""
    line = page.tournament
    if line.state in ("finished", "cancelled") or number is None:
        return ""
    if page.paused:
        return f"You are paused: join {number} plays on from the next pairing."
    if line.joined:
        return f"You are in: you are seated at each pairing. withdraw {number} leaves."
    return f"join {number} enters (with an SSH key): you are seated at each pairing."
