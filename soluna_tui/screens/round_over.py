"""The end of a round: who won, the stars, and who opens the next round."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..glyphs import Glyphs
from ..rules import Match, NextOpener, other
from ..wording import plural, verb


@dataclass(frozen=True)
class RoundOverChoice:
    """Start the next round with ``opener`` (chosen by ``chooser``), or take back the last move."""

    opener: int | None = None
    chooser: int | None = None
    undo: bool = False


class RoundOverScreen(ModalScreen[RoundOverChoice]):
    """Shows the round's result; the loser (if on this terminal) chooses who opens next."""

    BINDINGS = [Binding("u", "undo", "Take back the last move")]

    def __init__(self, match: Match, glyphs: Glyphs, local_players: tuple[int, ...],
                 computer_opens: bool | None = None) -> None:
        super().__init__()
        self.match = match
        self.round_number = match.round_number
        self.glyphs = glyphs
        self.local_players = local_players
        self.computer_opens = computer_opens

    def summary(self) -> list[str]:
        match = self.match
        outcome = match.round.outcome
        winner, loser = match.players[outcome.winner], match.players[outcome.loser]
        moves = plural(match.round.ply, "move")
        lines = [f"{verb(winner, 'wins', 'win')} round {match.round_number}",
                 f"{verb(loser, 'cannot', 'cannot')} move (after {moves})", ""]
        for player, name in enumerate(match.players):
            stars = self.glyphs.stars(match.stars[player], match.options.stars_to_win)
            lines.append(f"{name}: {stars} {match.stars[player]}/{match.options.stars_to_win}")
        return lines

    def options(self) -> list[tuple[str, RoundOverChoice]]:
        """The choices offered, each with what it returns."""
        match = self.match
        loser = match.round.outcome.loser
        names = match.players
        next_round = match.round_number + 1
        if match.options.next_opener is NextOpener.LOSER_OPENS:
            return [(f"Start round {next_round} ({names[loser]} opens)", RoundOverChoice(loser))]
        if self.computer_opens is not None:
            opener = loser if self.computer_opens else other(loser)
            return [(f"Start round {next_round} ({names[opener]} opens)", RoundOverChoice(opener, loser))]
        if loser not in self.local_players:
            return []
        return [
            (f"{verb(names[loser], 'opens', 'open')} round {next_round}", RoundOverChoice(loser, loser)),
            (f"{verb(names[other(loser)], 'opens', 'open')} round {next_round} "
             f"({verb(names[loser], 'moves', 'move')} second)", RoundOverChoice(other(loser), loser)),
        ]

    def explanation(self) -> str:
        match = self.match
        loser = match.players[match.round.outcome.loser]
        if match.options.next_opener is NextOpener.LOSER_OPENS:
            return "Under these rules the loser opens the next round. (u takes back the last move)"
        if self.computer_opens is not None:
            choice = "to open" if self.computer_opens else "to move second"
            return f"{loser} lost the round and chooses {choice}. (u takes back the last move)"
        if match.round.outcome.loser not in self.local_players:
            return f"Waiting for {loser} to choose who opens the next round."
        question = "do you open the next round or move second?"
        if loser != "You":
            question = f"{loser}, {question}"
        return f"{loser} lost the round: {question} (u takes back the last move)"

    def still_true(self, match: Match) -> bool:
        """Whether this dialog still describes the match (it may have moved on, decided elsewhere)."""
        return match.round_number == self.round_number and match.round.is_over

    def compose(self) -> ComposeResult:
        self._choices = self.options()
        with Vertical(id="round-over", classes="dialog"):
            yield Static("\n".join(self.summary()), id="round-summary", markup=False)
            yield Static(self.explanation(), id="round-explanation", markup=False)
            yield OptionList(*(Option(text) for text, _ in self._choices), id="round-choices")

    def on_mount(self) -> None:
        self.query_one("#round-over").border_title = "Round over"
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected, "#round-choices")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._choices[event.option_index][1])

    def action_undo(self) -> None:
        self.dismiss(RoundOverChoice(undo=True))
