"""Between two rounds of a match in lines: who opens the next one (the rules, the computer or the loser of the
round chooses), what is awaited said as a question, the commands ``next``, ``open`` and ``second``, and the
solver's advice on the choice (``hint`` between rounds, as in the round-over dialog, ``screens/round_over.py``).

``BetweenRounds`` is a part the line game owns, seeing it as a ``LineHost`` (``line_host.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..local.table import Seat
from ..rules import NextOpener, SolunaError, other
from ..rules.teaching import opener_advice
from .line_host import Busy
from .speech import error_sentence

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..play.match_flow import RoundOver
    from .line_host import LineHost

#: How long opener advice may search, as in the round-over dialog (``screens/round_over.py``).
ADVICE_SECONDS = 10.0


class BetweenRounds:
    """The round decided, and the choice of who opens the next."""

    def __init__(self, game: LineHost) -> None:
        self._game = game
        #: The round just decided, as the flow told it (``None``: no round over is being dealt with).
        self.decided: RoundOver | None = None
        #: The loser has had the advice for this round.
        self._advised = False

    @property
    def commands(self) -> dict[str, Callable[[str], None]]:
        """The commands of this part, by their words."""
        return {"next": self._next, "open": self._open, "second": self._second}

    def begin(self) -> None:
        """A new round (or a new match) has started: nothing is decided, no advice given."""
        self.decided = None
        self._advised = False

    def one_way_on(self) -> tuple[int, int | None] | None:
        """The next round's opener and chooser where there is one way on (the rules or the computer chose)."""
        table, decided = self._game.table, self.decided
        match = table.match
        outcome = match.round.outcome
        if outcome is None or decided is None or not table.local_players:
            return None
        if match.options.next_opener is NextOpener.LOSER_OPENS:
            return outcome.loser, None
        if decided.computer_opens is not None:
            return (outcome.loser if decided.computer_opens else other(outcome.loser)), outcome.loser
        return None

    def choice_here(self) -> bool:
        """The loser of the round sits here and chooses who opens the next one."""
        table = self._game.table
        match, outcome = table.match, table.match.round.outcome
        return (outcome is not None and self.decided is not None and not match.is_over
                and self.one_way_on() is None and outcome.loser in table.local_players)

    def question(self) -> str:
        """What is awaited between rounds, as a sentence."""
        game = self._game
        match = game.table.match
        outcome = match.round.outcome
        if outcome is None or self.decided is None:
            return "Wait a moment."
        names, number = match.players, match.round_number + 1
        loser = outcome.loser
        one_way = self.one_way_on()
        verb = game.announcements.verb
        if one_way is not None:
            opener, chooser = one_way
            chose = f"{names[chooser]} chose. " if chooser is not None and game.table.seat(chooser) is not Seat.HUMAN \
                else ""
            return (f"{chose}{verb(opener, 'opens', 'open')} round {number}. "
                    "Press Enter, or type next, to start it.")
        if self.choice_here():
            advice = " Type hint for advice (it counts as a hint)." if self._advice_allowed() else ""
            you_open = "to open it yourself" if loser == game.flow.you else f"for {names[loser]} to open"
            return (f"{verb(loser, 'chooses', 'choose')} who opens round {number}: type open {you_open}, "
                    f"or second for {names[other(loser)]} to open.{advice}")
        return f"{names[loser]} chooses who opens round {number}."

    def _advice_allowed(self) -> bool:
        return self._game.hints.helps() and not self._advised

    def start_round(self, opener: int, chooser: int | None) -> None:
        """Start the next round, ``opener`` opening it."""
        try:
            self._game.table.start_next_round(opener, chooser)
        except SolunaError as error:
            self._game.say(error_sentence(error))
            return
        self._game.steps.after_change()

    def _next(self, argument: str) -> None:
        one_way = self.one_way_on()
        if one_way is not None:
            self.start_round(*one_way)
        elif self.choice_here():
            self._game.say(self.question())
        else:
            self._game.say("There is no round to start now.")

    def _open(self, argument: str) -> None:
        self._choose_opener(opens=True)

    def _second(self, argument: str) -> None:
        self._choose_opener(opens=False)

    def _choose_opener(self, opens: bool) -> None:
        if not self.choice_here():
            one_way = self.one_way_on()
            self._game.say("There is nothing to choose now." + (" Press Enter for the next round." if one_way else ""))
            return
        outcome = self._game.table.match.round.outcome
        assert outcome is not None  # a choice is only offered at the end of a round
        self.start_round(outcome.loser if opens else outcome.winner, outcome.loser)

    def advise(self) -> None:
        """The solver's advice on who should open the next round (it counts as a hint, once a round)."""
        game = self._game
        outcome = game.table.match.round.outcome
        if outcome is None or not self.choice_here():
            game.say("Advice is for choosing who opens, when that is yours to choose.")
            return
        if self._advised:
            game.say("You have had the advice for this round already.")
            return
        self._advised = True
        game.hints.count_hint(outcome.loser)
        start = game.table.match.layout_for(game.table.match.round_number + 1)
        game.busy.add(Busy.ADVICE)

        def advised(text: object | None) -> None:
            game.busy.discard(Busy.ADVICE)
            game.say(str(text) if text is not None else
                     "That layout is too large to solve in time; trust your instinct.")

        game.solve(lambda budget: opener_advice(start, budget=budget), ADVICE_SECONDS, advised)
