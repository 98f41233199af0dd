"""The review of a finished round: every move judged by perfect play, the first blunder, accuracy."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from ..app.soluna_view import app_view
from ..play.looks import move_words
from ..play.match_text import accuracy_words, turning_point_words
from ..play.you_wording import possessive
from ..rules import Match, Round, SearchAborted
from ..rules.solver import Budget, shared_solver
from ..rules.teaching import ACCURACY_MEANING, RESULT_CONVENTION, Judgement, RoundReview, review_round
from ..widgets.key_footer import KeyFooter
from .help import HELP_BINDING
from .quiet_focus import QuietFocus
from .solver_work import solve_in_worker
from .styled_as_mounted import StyledAsMounted

#: How long a review may search before giving up (only large rounds come near it).
REVIEW_SECONDS = 15.0
#: New positions a review may solve as the dialog opens, on the event loop, before it hands the search to a worker:
#: a round of twelve discs is judged within it (at most about 1,700, 10 ms, and next to none once its layout
#: has been solved), so its dialog shows the verdicts from its first frame, instead of the moves alone and a layout
#: again as the verdicts come (with ``LaidOutOnceAsShown``, a round's end 42 ms in 5 frames against 63 ms in 7,
#: ``benchmarks/keys.py``; fifty rounds end within seconds in the server's meet scene). A round of 16-24
#: discs passes it within about 10 ms and goes to the worker.
QUICK_POSITIONS = 2_000
JUDGEMENT_STYLES = {
    Judgement.KEPT: "review--kept",
    Judgement.THREW: "review--threw",
    Judgement.BEST_RESISTANCE: "review--kept",
    Judgement.GAVE_IN: "review--gave-in",
}


def move_lines(played: Round, names: tuple[str, str]) -> list[str]:
    """Each move's line of the review, up to its verdict: number, player, move (with the keys of its
    places where alike towers leave the notation in doubt), in one column."""
    written = [move_words(played, ply) for ply in range(played.ply)]
    width = max((8, *(len(text) for text in written)))
    return [f"{ply + 1:>2}. {names[played.mover_at(ply)][:9]:<9} {text:<{width}}" for ply, text in enumerate(written)]


def describe_moves(played: Round, names: tuple[str, str]) -> str:
    """The round's moves as the review lists them while their verdicts are being found."""
    return "\n".join(move_lines(played, names))


def describe_review(review: RoundReview, played: Round, names: tuple[str, str],
                    you: int | None = None, try_again: bool = False) -> list[tuple[str, str]]:
    """The review as lines of text, each with the component class to draw it in (``you``: the
    player spoken to as "you", if any; ``try_again``: ``p`` offers to try again from the turning point)."""
    lines: list[tuple[str, str]] = []
    moves = move_lines(played, names)
    for item in review.moves:
        mark = item.judgement.mark
        lines.append((f"{moves[item.ply]} "
                      f"{str(item.after):<11} {item.judgement.value}{f' {mark}' if mark else ''}",
                      JUDGEMENT_STYLES[item.judgement]))
    lines.append(("", ""))
    blunder = review.first_blunder
    lines.append((turning_point_words(review, names, you), "review--kept" if blunder is None else "review--threw"))
    retry = review.first_blunder_by(you)
    if blunder is not None and try_again and retry is not None:  # against the computer, from your own mistake
        yours = possessive(names[retry.player], you=retry.player == you)
        where = "it" if retry is blunder else f"{yours} move {retry.ply + 1}, {retry.move}"
        lines.append((f"Press p to try again from just before {where} ({yours} move), perfect play answering.", ""))
    lines.extend((line, "") for line in accuracy_words(review, names))
    lines.append(("", ""))
    lines.append((ACCURACY_MEANING, ""))
    return lines


class ReviewScreen(QuietFocus, StyledAsMounted, ModalScreen[None]):
    """Skippable: Enter or Escape goes on to the next dialog."""

    BINDINGS = [
        Binding("escape,enter,space", "close", "Continue"),
        Binding("up", "scroll(-1)", "Scroll", show=False),
        Binding("down", "scroll(1)", "Scroll", show=False),
        Binding("pageup", "scroll(-10)", "Scroll", show=False),
        Binding("pagedown", "scroll(10)", "Scroll", show=False),
        Binding("p", "try_again", "Try again"),
        HELP_BINDING,
    ]
    COMPONENT_CLASSES = {"review--kept", "review--threw", "review--gave-in"}

    class Reviewed(Message):
        def __init__(self, review: RoundReview | None, problem: str = "") -> None:
            super().__init__()
            self.review = review
            self.problem = problem

    def __init__(self, match: Match, round_number: int, you: int | None = None, *, side_lines: bool = False,
                 hints: bool = True) -> None:
        """``side_lines``: ``p`` may try again from the first mistake (a side line, with ``hints`` or not)."""
        super().__init__()
        self.you = you
        self.match = match
        self.played = match.rounds[round_number - 1]
        self.round_number = round_number
        self.side_lines = side_lines
        self.hints = hints
        self.review: RoundReview | None = None
        # Held, not queried: the verdicts may arrive as the screen closes, its children already gone.
        self._intro = Static("Reviewing the round with perfect play...", id="review-intro", markup=False)
        # The moves at once (the last one is news over SSH); their verdicts once found.
        self._lines = Static(describe_moves(self.played, self.match.players), id="review-lines", markup=False)

    def compose(self) -> ComposeResult:
        with Vertical(id="review", classes="dialog"):
            yield self._intro
            with VerticalScroll(id="review-body"):
                yield self._lines
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#review").border_title = f"Round {self.round_number} review"
        review = _review_within(self.played, QUICK_POSITIONS)
        if review is None:
            self._review(self.played)
        else:  # found as the dialog opens: drawn with it, in its first frame
            self._show(review)

    def _review(self, played: Round) -> None:
        solve_in_worker(self, lambda budget: self.Reviewed(review_round(played, budget=budget)), seconds=REVIEW_SECONDS,
                        aborted=self.Reviewed(None, "This round has too many discs to review in time."))

    def on_review_screen_reviewed(self, message: Reviewed) -> None:
        if message.review is None:
            self._intro.update(message.problem)
            return
        self._show(message.review)

    def _show(self, review: RoundReview) -> None:
        self.review = review
        self._intro.update(RESULT_CONVENTION)
        text = Text()
        lines = describe_review(review, self.played, self.match.players, self.you, self.side_lines)
        for index, (line, style) in enumerate(lines):
            if index:
                text.append("\n")
            text.append(line, self.get_component_rich_style(style) if style else "")
        self._lines.update(text)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "try_again":  # dimmed until the mistake is found, hidden where there is none
            if not self.side_lines or (self.review is not None and self.review.first_blunder_by(self.you) is None):
                return False
            return True if self.review is not None else None
        return True

    def action_try_again(self) -> None:
        """``p``: a side line from the position before the first mistake (yours, against the computer), its
        maker to move, the computer (perfect play) answering."""
        blunder = self.review.first_blunder_by(self.you) if self.review is not None else None
        if self.side_lines and blunder is not None:
            opener = app_view(self).side_line_opener
            opener.try_again(self, self.match, self.round_number, blunder.ply, hints=self.hints)

    def action_scroll(self, lines: int) -> None:
        self.query_one("#review-body").scroll_relative(y=lines, animate=False)

    def action_close(self) -> None:
        # This dialog's own search only: ``cancel_all`` would stop every worker of the app.
        self.workers.cancel_node(self)
        self.dismiss(None)


def _review_within(played: Round, positions: int) -> RoundReview | None:
    """The review of ``played`` if it takes at most ``positions`` new positions to find; ``None`` if more, or if
    the solver is busy (a hint's worker holding it): the event loop never waits for it."""
    with shared_solver.unless_busy() as free:
        if not free:
            return None
        try:
            return review_round(played, budget=Budget(max_positions=positions))
        except SearchAborted:
            return None
