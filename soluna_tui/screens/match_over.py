"""The end of a match: the winner, the score, every round, and what next."""

from __future__ import annotations

from enum import StrEnum

from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..glyphs import Glyphs
from ..play.wording import verb
from ..rules import Match
from ..rules.wording import plural
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
    (MatchOverChoice.REMATCH, "Rematch (same players and rules, the loser opens)"),
    (MatchOverChoice.NEW, "New match..."),
    (MatchOverChoice.BOARD, "Look at the board"),
    (MatchOverChoice.QUIT, "Quit"),
)


class MatchOverScreen(ChoiceDialog[MatchOverChoice]):
    """Returns a ``MatchOverChoice``."""

    DIALOG_ID = "match-over"
    DIALOG_TITLE = "Match over"

    BINDINGS = [
        Binding("u", f"choose('{MatchOverChoice.UNDO}')", "Take back"),
        Binding("escape", f"choose('{MatchOverChoice.BOARD}')", "Close"),
        HELP_BINDING,
    ]

    def __init__(self, match: Match, glyphs: Glyphs, hints_used: tuple[int, int] = (0, 0),
                 accuracy: tuple[float | None, float | None] = (None, None),
                 humans: tuple[int, ...] = (0, 1), can_take_back: bool = True, you: int | None = None,
                 notes: tuple[str, ...] = ()) -> None:
        """``can_take_back`` is False where undo is not offered (a remote match); ``you`` is the player
        spoken to as "you" (the one player here against the computer), if any; ``notes`` are lines the
        board does not tell (a rated match's rating changes)."""
        super().__init__()
        self.notes = notes
        self.can_take_back = can_take_back
        self.you = you
        self.humans = humans
        self.match = match
        self.glyphs = glyphs
        self.hints_used = hints_used
        self.accuracy = accuracy

    def summary(self) -> str:
        match = self.match
        winner = match.winner
        names = match.players
        stars = match.stars
        quitter = match.forfeited_by
        if quitter is None:
            lines = [f"{verb(names[winner], 'wins', 'win', you=winner == self.you)} the match "
                     f"{stars[winner]}-{stars[1 - winner]}"]
        else:  # not won on the board: say what happened
            left = "You left" if quitter == self.you else f"{names[quitter]} left"
            wins = "you win" if winner == self.you else f"{names[winner]} wins"
            lines = [f"{left}: {wins} by forfeit"]
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
            if player in self.humans:
                facts.append(f"{plural(self.hints_used[player], 'hint')} used")
            if facts:
                lines.append(f"{name}: {', '.join(facts)}")
        if self.notes:
            lines += ["", *self.notes]
        return "\n".join(lines)

    def show_notes(self, notes: tuple[str, ...]) -> None:
        """Lines that came after the dialog opened (the ratings, once the server has filed the match)."""
        if notes != self.notes:
            self.notes = notes
            if self.is_mounted:
                self.query_one("#match-summary", Static).update(self.summary())

    def still_true(self, match: Match) -> bool:
        """Whether this dialog still describes the match (a take-back elsewhere reopens it)."""
        return match.is_over

    def body(self):
        with VerticalScroll(id="match-summary-box", can_focus=False):
            yield Static(self.summary(), id="match-summary", markup=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters == (MatchOverChoice.UNDO.value,):
            return self.can_take_back
        return True

    def action_choose(self, value: str) -> None:
        self.dismiss(MatchOverChoice(value))

    def choices(self) -> list[tuple[str, MatchOverChoice]]:
        """A rematch only for players at this terminal, and never after a forfeit (one of them has gone)."""
        rematch = bool(self.humans) and self.match.forfeited_by is None
        return [(text, key) for key, text in CHOICES if rematch or key is not MatchOverChoice.REMATCH]
