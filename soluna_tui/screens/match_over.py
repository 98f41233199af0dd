"""The end of a match: the winner, the score, every round, and what next."""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum

from textual import on
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import OptionList, Static

from ..play.you_wording import match_result_words
from ..rules import Match
from ..rules.end_reason import EndReason, rematch_allowed
from ..rules.wording import plural
from ..terminal.glyphs import Glyphs
from .choice_dialog import ChoiceDialog
from .help import HELP_BINDING


class MatchOverChoice(StrEnum):
    """What the players chose at the end of a match (the values name the keys' actions)."""

    REMATCH = "rematch"
    NEW = "new"
    BOARD = "board"
    UNDO = "undo"
    QUIT = "quit"


CHOICES = (
    (MatchOverChoice.REMATCH, "Rematch: same players and rules, the loser opens"),
    (MatchOverChoice.NEW, "New match..."),
    (MatchOverChoice.BOARD, "Look at the board"),
    (MatchOverChoice.QUIT, "Quit"),
)


class MatchOverScreen(ChoiceDialog[MatchOverChoice]):
    """Returns a ``MatchOverChoice``."""

    DIALOG_ID = "match-over"
    DIALOG_TITLE = "Match over"

    BINDINGS = [
        Binding("r", f"choose('{MatchOverChoice.REMATCH}')", "Rematch"),
        Binding("n", f"choose('{MatchOverChoice.NEW}')", "New match"),
        Binding("u", f"choose('{MatchOverChoice.UNDO}')", "Take back"),
        Binding("escape", f"choose('{MatchOverChoice.BOARD}')", "Close"),
        # A modal dialog keeps the app's own keys from it: the game's q and ? here too.
        Binding("q", f"choose('{MatchOverChoice.QUIT}')", "Quit"),
        HELP_BINDING,
    ]

    def __init__(self, match: Match, glyphs: Glyphs, hints_used: tuple[int, int] | None = (0, 0),
                 accuracy: tuple[float | None, float | None] = (None, None),
                 humans: tuple[int, ...] = (0, 1), can_take_back: bool = True, you: int | None = None,
                 ended: EndReason | None = None, notes: tuple[str, ...] = (), tournament: str | None = None) -> None:
        """``can_take_back`` is False where undo is not offered (a remote match); ``you`` is the player
        spoken to as "you" (the one player here against the computer), if any; ``ended``, how a match
        over SSH ended (a forfeit on time is no player leaving); ``hints_used`` is None where hints were
        not offered (nothing to count); ``notes`` are lines the board does
        not tell (a rated match's rating changes); ``tournament``, the tournament the match was played for (no
        rematch, no new match: its next pairing seats the players by itself)."""
        super().__init__()
        self.tournament = tournament
        self.ended = ended
        self.notes = notes
        self.can_take_back = can_take_back
        self.you = you
        self.humans = humans
        self.match = match
        self.glyphs = glyphs
        self.hints_used = hints_used
        self.accuracy = accuracy
        #: The summary as drawn, once composed: lines that come later (``show_notes``) update it, mounted or not.
        self._summary: Static | None = None

    def summary(self) -> str:
        match = self.match
        winner = match.winner
        if winner is None:
            raise ValueError("the match-over dialog needs a match that is over")
        names = match.players
        lines = [match_result_words(match, self.ended, self.you)]
        if self.tournament is not None:
            lines.append(f"A match of {self.tournament}: your next pairing seats you by itself.")
        if self.notes:  # the ratings: near the top, in view at 80x24 however many rounds follow
            lines += ["", *self.notes]
        lines.append("")
        for number, played in enumerate(match.rounds, start=1):
            if played.outcome is not None:
                lines.append(f"Round {number}: {names[played.outcome.winner]} "
                             f"({names[played.opener]} opened, {plural(played.ply, 'move')})")
        lines.append("")
        for player, name in enumerate(names):
            facts = []
            if self.accuracy[player] is not None:
                facts.append(f"{self.accuracy[player]:.0%} of moves kept the best outcome")
            if player in self.humans and self.hints_used is not None:
                facts.append(f"{plural(self.hints_used[player], 'hint')} used")
            if facts:
                lines.append(f"{name}: {', '.join(facts)}")
        return "\n".join(lines)

    def show_notes(self, notes: tuple[str, ...]) -> None:
        """Lines that came after the dialog opened (the ratings, once the server has filed the match): drawn
        whenever they come, even while the dialog is still being put on the screen."""
        if notes != self.notes:
            self.notes = notes
            if self._summary is not None:
                self._summary.update(self.summary())

    def still_true(self, match: Match) -> bool:
        """Whether this dialog still describes the match (a take-back elsewhere reopens it)."""
        return match.is_over

    def body(self) -> Iterator[Widget]:
        self._summary = Static(self.summary(), id="match-summary", markup=False)
        with VerticalScroll(id="match-summary-box", can_focus=False):
            yield self._summary

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters == (MatchOverChoice.UNDO.value,):
            return self.can_take_back
        if action == "choose" and parameters == (MatchOverChoice.REMATCH.value,):
            # Hidden where the list offers none (a spectator; after a forfeit or a resignation).
            return any(value is MatchOverChoice.REMATCH for _, value in self.choices())
        if action == "choose" and parameters == (MatchOverChoice.NEW.value,):
            return self.tournament is None
        return True

    def action_choose(self, value: str) -> None:
        choice = MatchOverChoice(value)
        if choice is MatchOverChoice.QUIT:
            # As the game's q: the app quits (or asks first, where leaving means more: over SSH).
            self.call_later(self.app.run_action, "quit")
        else:
            self.dismiss(choice)

    @on(OptionList.OptionSelected, "#dialog-choices")
    def _chosen_here(self, event: OptionList.OptionSelected) -> None:
        """Quit, chosen from the list, quits as q does (the dialog's own handler would dismiss)."""
        event.stop()
        event.prevent_default()
        self.action_choose(self._values[event.option_index])

    def choices(self) -> list[tuple[str, MatchOverChoice]]:
        """A rematch only for players at this terminal, and never after a forfeit over SSH (one of them has
        gone); after a resignation or a loss on time, both are still at the table."""
        rematch = bool(self.humans) and rematch_allowed(self.ended) and self.tournament is None
        return [(text, key) for key, text in CHOICES if (rematch or key is not MatchOverChoice.REMATCH)
                and (self.tournament is None or key is not MatchOverChoice.NEW)]
