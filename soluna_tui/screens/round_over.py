"""The end of a round: who won, the stars, and who opens the next round."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from ..app.soluna_view import app_view
from ..play.you_wording import possessive, verb
from ..rules import Match, NextOpener, Position, other
from ..rules.teaching import opener_advice
from ..rules.wording import plural
from ..terminal.glyphs import Glyphs
from .choice_dialog import ChoiceDialog
from .solver_work import solve_in_worker

#: How long opener advice may search (only large layouts come near it).
ADVICE_SECONDS = 10.0


@dataclass(frozen=True)
class RoundOverChoice:
    """Start the next round with ``opener`` (chosen by ``chooser``), or take back the last move."""

    opener: int | None = None
    chooser: int | None = None
    undo: bool = False


class RoundOverScreen(ChoiceDialog[RoundOverChoice]):
    """Shows the round's result; the loser (if on this terminal) chooses who opens next."""

    DIALOG_ID = "round-over"
    DIALOG_TITLE = "Round over"

    BINDINGS = [
        Binding("u", "undo", "Take back the last move"),
        Binding("H", "advice", "Advice (a hint)"),
        # Escape closes the dialog where the other player chooses, and starts the next round where there is
        # one way on (the rules or the computer chose who opens); it never chooses who opens (it says so).
        Binding("escape", "close", "Close"),
        Binding("escape", "take_first", "Next round"),
        Binding("escape", "nothing_chosen", show=False),
        # A modal dialog keeps the app's own keys from it: the game's q and ? here too.
        Binding("question_mark", "app.help", "Help"),
        Binding("q", "app.quit", "Quit"),
    ]

    class Advised(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, match: Match, glyphs: Glyphs, local_players: tuple[int, ...],
                 computer_opens: bool | None = None, count_hint: Callable[[int], None] | None = None,
                 can_take_back: bool = True, you: int | None = None) -> None:
        """``count_hint`` is given when hints are allowed: opener advice is one, for the loser.
        ``can_take_back`` is False where undo is not offered (a remote match); ``you`` is the
        player spoken to as "you" (the one player here against the computer), if any."""
        super().__init__()
        self.match = match
        self.round_number = match.round_number
        outcome = match.round.outcome
        if outcome is None:
            raise ValueError("the round-over dialog needs a round that is over")
        #: The round this dialog describes ended so (the match moves on under it once chosen).
        self.outcome = outcome
        self.glyphs = glyphs
        self.local_players = local_players
        self.computer_opens = computer_opens
        self.count_hint = count_hint
        self.can_take_back = can_take_back
        self.you = you
        self.advised = False
        #: The other player chooses who opens next (decided now: the match moves on under this dialog).
        self.nothing_to_choose = not self.choices()

    @property
    def loser_chooses_here(self) -> bool:
        match = self.match
        outcome = match.round.outcome  # None once the next round has started, as this dialog goes
        return (outcome is not None and match.options.next_opener is NextOpener.LOSER_CHOOSES
                and self.computer_opens is None and outcome.loser in self.local_players)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "advice":
            return self.count_hint is not None and self.loser_chooses_here and not self.advised
        if action == "undo":
            return self.can_take_back
        if action == "close":  # only where there is nothing to choose here (the other player chooses)
            return self.nothing_to_choose
        if action == "take_first":
            return len(self.choices()) == 1
        if action == "nothing_chosen":
            return len(self.choices()) > 1
        return True

    def action_close(self) -> None:
        self.dismiss(None)

    def action_take_first(self) -> None:
        """Escape where there is one way on: the next round, opened as the rules or the computer chose."""
        choices = self.choices()
        if choices:
            self.dismiss(choices[0][1])

    def action_nothing_chosen(self) -> None:
        """Escape where who opens is to be chosen: nothing is chosen for the player; the dialog says how."""
        self.query_one("#round-keys", Static).update(
            f"Escape chooses nothing: who opens round {self.round_number + 1} is {self._whose_choice()} choice. "
            f"Up/Down and Enter choose. {self.keys_line()}")

    def _whose_choice(self) -> str:
        loser = self.outcome.loser
        return possessive(self.match.players[loser], you=loser == self.you)

    def on_screen_resume(self) -> None:
        """Back on top (after help, say) once the round has moved on elsewhere: nothing left to show."""
        game = app_view(self).game
        if game is not None and not self.still_true(game.match):
            self.dismiss(None)

    def action_advice(self) -> None:
        """Which choice wins with perfect play: worked out off the event loop, counted as a hint."""
        self.advised = True
        self.refresh_bindings()
        if self.count_hint is not None:
            self.count_hint(self.outcome.loser)
        self._explanation.update("Working out which choice wins...")
        self._advise(self.match.layout_for(self.round_number + 1))

    def _advise(self, start: Position) -> None:
        solve_in_worker(self, lambda budget: self.Advised(opener_advice(start, budget=budget)), seconds=ADVICE_SECONDS,
                        aborted=self.Advised("That layout is too large to solve in time; trust your instinct."))

    def on_round_over_screen_advised(self, message: Advised) -> None:
        self._explanation.update(f"{self.explanation()}\n{message.text}")

    def summary(self) -> list[str]:
        match = self.match
        winner, loser = self.outcome.winner, self.outcome.loser
        moves = plural(match.round.ply, "move")
        lines = [f"{self._verb(winner, 'wins', 'win')} round {match.round_number}",
                 f"{self._verb(loser, 'cannot', 'cannot')} move (after {moves})", ""]
        for player, name in enumerate(match.players):
            stars = self.glyphs.stars(match.stars[player], match.options.stars_to_win)
            lines.append(f"{name}: {stars} {match.stars[player]}/{match.options.stars_to_win}")
        return lines

    def _verb(self, player: int, third_person: str, second_person: str, first: bool = True) -> str:
        return verb(self.match.players[player], third_person, second_person, you=player == self.you, first=first)

    def choices(self) -> list[tuple[str, RoundOverChoice]]:
        """The choices offered, each with what it returns."""
        match = self.match
        loser = self.outcome.loser
        next_round = match.round_number + 1
        if not self.local_players:  # a spectator: the players start the next round
            return []
        if match.options.next_opener is NextOpener.LOSER_OPENS:
            return [(f"Start round {next_round}: {self._verb(loser, 'opens', 'open', first=False)}",
                     RoundOverChoice(loser))]
        if self.computer_opens is not None:
            opener = loser if self.computer_opens else other(loser)
            return [(f"Start round {next_round}: {self._verb(opener, 'opens', 'open', first=False)}",
                     RoundOverChoice(opener, loser))]
        if loser not in self.local_players:
            return []
        return [
            (f"{self._verb(loser, 'opens', 'open')} round {next_round}", RoundOverChoice(loser, loser)),
            (f"{self._verb(other(loser), 'opens', 'open')} round {next_round}, "
             f"{self._verb(loser, 'moves', 'move', first=False)} second", RoundOverChoice(other(loser), loser)),
        ]

    def explanation(self) -> str:
        match = self.match
        loser = match.players[self.outcome.loser]
        if not self.local_players:
            if match.options.next_opener is NextOpener.LOSER_OPENS:
                return f"Waiting for the players to start round {match.round_number + 1} ({loser} opens)."
            return f"Waiting for {loser} to choose who opens the next round."
        if match.options.next_opener is NextOpener.LOSER_OPENS:
            return "Under these rules the loser opens the next round."
        if self.computer_opens is not None:
            choice = "to open" if self.computer_opens else "to move second"
            return f"{loser} lost the round and chooses {choice}."
        if self.outcome.loser not in self.local_players:
            return f"Waiting for {loser} to choose who opens the next round."
        if self.local_players == (self.outcome.loser,):  # one player here: "you"
            return "You lost the round: do you open the next round, or move second?"
        return f"{loser} lost the round and chooses: open the next round, or move second?"

    def keys_line(self) -> str:
        """The keys besides Enter, each a sentence (the footer has them in brief)."""
        keys = []
        if self.can_take_back:
            keys.append("u takes back the last move.")
        if self.count_hint is not None and self.loser_chooses_here:
            keys.append("H says which choice wins; it counts as a hint.")
        return " ".join(keys)

    def still_true(self, match: Match) -> bool:
        """Whether this dialog still describes the match (it may have moved on, decided elsewhere)."""
        return match.round_number == self.round_number and match.round.is_over

    def body(self) -> Iterator[Widget]:
        yield Static("\n".join(self.summary()), id="round-summary", markup=False)
        # Held, not queried: the advice may arrive as the screen closes, its children already gone.
        self._explanation = Static(self.explanation(), id="round-explanation", markup=False)
        yield self._explanation
        yield Static(self.keys_line(), id="round-keys", markup=False)

    def action_undo(self) -> None:
        self.dismiss(RoundOverChoice(undo=True))
