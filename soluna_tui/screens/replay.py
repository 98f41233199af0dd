"""A finished match replayed move by move, each move judged by perfect play as ``soluna export`` judges it.

The board, the tally and the history are the game screen's own widgets, read-only here:
the history is where the player steps (Up/Down, Left/Right, Home/End, or a click). The
judging runs in a thread worker, round by round, with a time budget; until a round is
judged its moves say "judging...". ``t`` shows the whole annotated text, to select and copy.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from ..app.soluna_view import app_view
from ..play.looks import HistoryEntry, TallyInfo, move_words
from ..play.match_text import export_match, result_line, review_or_none
from ..play.view import history_entries, shown_table, tower_looks
from ..rules import Budget, Match
from ..rules.end_reason import EndReason, gave_up_words
from ..rules.teaching import RoundReview
from ..rules.wording import plural
from ..terminal.glyphs import glyphs_for
from ..widgets.board import Board
from ..widgets.history import History
from ..widgets.key_footer import KeyFooter
from ..widgets.tally import Tally
from .annotated_text import AnnotatedTextScreen
from .quiet_focus import QuietFocus
from .solver_work import solve_in_worker
from .styled_as_mounted import StyledAsMounted

#: Seconds the solver may spend judging one round of a replay (large rounds give up, and say so).
REPLAY_SECONDS_PER_ROUND = 20.0
#: The lines under the board: the move's four, the result's and the footer's (``styles/replay.tcss``).
REPLAY_LINES_UNDER = 6
class ReplayScreen(QuietFocus, StyledAsMounted, Screen[None]):
    """Escape goes back to where the replay was opened from."""

    BINDINGS = [
        Binding("escape", "close", "Back", priority=True),
        Binding("left", "step(-1)", "Back a move"),
        Binding("right", "step(1)", "Next move"),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(-1)", "End", show=False),
        Binding("t", "text", "Annotated text"),
        Binding("p", "play_on", "Play on"),
    ]

    class Judged(Message):
        """Round ``number`` judged (``review`` is ``None`` when judging it gave up)."""

        def __init__(self, number: int, review: RoundReview | None) -> None:
            super().__init__()
            self.number = number
            self.review = review

    class Written(Message):
        """The annotated text, once every round is judged."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, match: Match, details: Sequence[str] = (), *, ascii_mode: bool = False,
                 seconds_per_round: float = REPLAY_SECONDS_PER_ROUND, ended: EndReason | None = None,
                 you: int | None = None) -> None:
        """``ended``: how the match ended when the board does not say (resigned, on time, forfeited); ``you``: the
        player who played the computer on this terminal, spoken to as "you" when playing on (a side line)."""
        super().__init__()
        self.match = match
        self.ended = ended
        self.you = you
        self.details = tuple(details)
        self.glyphs = glyphs_for(ascii_mode)
        self.seconds_per_round = seconds_per_round
        self.entries = history_entries(match)  # every position: each round's start, then each move
        self.index = 0
        #: Each round's review once judged (``None``: judging gave up); rounds missing are being judged.
        self.reviews: dict[int, RoundReview | None] = {}
        self.text: str | None = None
        # Held, not queried: a round's verdict may arrive as the screen closes, its children already gone.
        self._move = Static("", id="replay-move", markup=False)

    def compose(self) -> ComposeResult:
        with Horizontal(id="replay-main"):
            with Vertical(id="play-area"):
                board = Board(self.glyphs, self.match.options.discs, id="board")
                board.margins = (board.margins[0], REPLAY_LINES_UNDER)
                yield board
                yield self._move
                yield Static("", id="replay-result", markup=False)
            with Vertical(id="sidebar"):
                yield Tally(self.glyphs, id="tally")
                yield History(id="history")
        footer = KeyFooter()
        footer.compact = True
        yield footer

    @property
    def history(self) -> History:
        return self.query_one(History)

    def on_mount(self) -> None:
        names = self.match.players
        self.query_one("#tally").border_title = "Replay"
        self.query_one("#history").border_title = "Moves"
        self.query_one("#replay-result", Static).update(
            f"{names[0]} vs {names[1]}. {result_line(self.match, self.ended).removeprefix('Result: ')}")
        self.history.show(self.entries)
        self.history.focus()
        self.show(0)
        # The list keeps its newest line in view once laid out (as in a game): here the start is shown.
        self.call_after_refresh(self.history.scroll_to_highlight)
        self._judge()

    # ---- stepping ------------------------------------------------------------------------

    @property
    def entry(self) -> HistoryEntry:
        return self.entries[self.index]

    def show(self, index: int) -> None:
        """Show the position of entry ``index`` on the board, the tally and the move line."""
        self.index = max(0, min(index, len(self.entries) - 1))
        history = self.history
        if history.highlighted != self.index:
            with history.prevent(History.Highlighted):
                history.highlighted = self.index
        table, last = shown_table(self.match, self.entry)
        self.query_one(Board).show(tower_looks(table, last=last))
        self.query_one(Tally).info = self._tally_info()
        self._move.update(self._move_text())

    def _tally_info(self) -> TallyInfo:
        match, entry = self.match, self.entry
        played = match.rounds[entry.round_number - 1]
        ended = entry.ply == len(played.moves) and played.outcome is not None
        winners = [outcome.winner for outcome in match.outcomes[:entry.round_number - (0 if ended else 1)]]
        return TallyInfo(
            names=match.players, stars=(winners.count(0), winners.count(1)),
            stars_to_win=match.options.stars_to_win, round_number=entry.round_number,
            to_move=None if ended else played.mover_at(entry.ply),
            rules=f"{match.options.preset_name} rules", mode=f"{plural(match.options.discs, 'disc')}, replay",
            seed=match.seed)

    def _move_text(self) -> str:
        match, entry = self.match, self.entry
        played = match.rounds[entry.round_number - 1]
        names = match.players
        if entry.ply == 0:
            text = (f"Round {entry.round_number}: {names[played.opener]} opened. Right or Down steps "
                    f"through the moves, each with its result for the player who made it (with perfect "
                    f"play after it, in plies from that move).")
        else:
            move = move_words(played, entry.ply - 1)
            mover = names[played.mover_at(entry.ply - 1)]
            text = f"Move {entry.ply}: {mover} played {move}. For {mover}: "
            if entry.round_number - 1 not in self.reviews:
                text += "judging..." if self.glyphs.ascii else "judging…"
            else:
                review = self.reviews[entry.round_number - 1]
                text += (review.moves[entry.ply - 1].annotation if review is not None
                         else "not judged (perfect play took too long to find)")
        if entry.ply == len(played.moves):
            if played.outcome is not None:
                text += f"\n{names[played.to_move]} cannot move: {names[played.outcome.winner]} won the round."
            elif match.forfeited_by is not None:
                text += f"\n{names[match.forfeited_by]} {gave_up_words(self.ended)} here."
        return text

    @on(History.Viewed)
    def _viewed(self, event: History.Viewed) -> None:
        event.stop()
        if event.entry in self.entries:
            self.show(self.entries.index(event.entry))

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Only the history takes the keys here (a clicked tower would take the arrows for itself)."""
        if not isinstance(event.widget, History):
            self.history.focus()

    @on(History.Left)
    def _left(self, event: History.Left) -> None:
        event.stop()

    def action_step(self, by: int) -> None:
        self.show(self.index + by)

    def action_jump(self, index: int) -> None:
        self.show(index if index >= 0 else len(self.entries) + index)

    # ---- judging -------------------------------------------------------------------------

    def _judge(self) -> None:
        match, details, seconds = self.match, self.details, self.seconds_per_round

        def judge(budget: Budget) -> ReplayScreen.Written | None:
            """Each round with a budget of its own (a round too large gives up alone), then the text."""
            reviews = []
            for number, played in enumerate(match.rounds):
                review = review_or_none(played, seconds=seconds, cancelled=budget.cancelled)
                if budget.is_cancelled:
                    return None
                reviews.append(review)
                self.post_message(self.Judged(number, review))
            return self.Written(export_match(match, details, reviews=reviews, ended=self.ended))

        solve_in_worker(self, judge, group="replay-judging")

    def on_replay_screen_judged(self, message: Judged) -> None:
        self.reviews[message.number] = message.review
        self._move.update(self._move_text())

    def on_replay_screen_written(self, message: Written) -> None:
        self.text = message.text

    def action_text(self) -> None:
        if self.text is None:
            judged = len(self.reviews)
            self.notify(f"Still judging the moves (round {judged + 1} of {len(self.match.rounds)}): "
                        "the text comes when every round is judged.")
            return
        self.app.push_screen(AnnotatedTextScreen(self.text))

    def action_play_on(self) -> None:
        """``p``: play on from the position shown (a side line), against the computer or by hand."""
        entry = self.entry
        refusal = app_view(self).side_line_opener.play_on(self, self.match, entry.round_number, entry.ply, hints=True,
                                                          back_to="the replay", you=self.you)
        if refusal:
            self.notify(refusal, timeout=4)

    def action_close(self) -> None:
        # This screen's own judging only: ``cancel_all`` would stop every worker of the app.
        self.workers.cancel_node(self)
        self.dismiss(None)
