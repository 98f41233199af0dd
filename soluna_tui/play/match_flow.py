"""The flow of a match, as decisions: what comes after each change, with no Textual.

The game screen holds a ``MatchFlow`` for the match it shows and asks it after every change (a move,
an undo, a dialog closed, an answer from the computer) what comes next, then does it: the flow says
when the end of a round is announced (once a turn) and whether its review comes first, whether the
round-over dialog, the computer's choice of opener or the judging of the finished match follows,
which of the computer's answers are stale (about a turn undone or a match left since), and what a
finished match adds to the stats. The slow work it asks for is a ``Question`` the screen runs in a
worker, whose ``Answer`` comes back to ``heard``. The screen keeps what needs Textual: workers,
timers, dialogs and drawing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from ..local.files import SaveError
from ..local.match_setup import computer_rng
from ..local.table import Seat, Table
from ..rules import Move, PlacedMove
from ..rules.strengths import strength_of
from .coach import Turn
from .picker import picking_key
from .view import Phase

if TYPE_CHECKING:
    from ..local.player_stats import MatchRecord, StatsStore
    from ..rules.solver import Budget

#: How long judging a whole finished match may take (only large discs counts come near it).
MATCH_REVIEW_SECONDS = 20.0
#: How much later than its clock's zero the screen looks at it (so the clock has surely run out then).
PAST_ZERO = 0.01

#: Keys of a player, hidden from a spectator's footer (they would do nothing there).
SPECTATOR_HIDDEN = frozenset({"press_focused", "put_back", "open_move_prompt", "hint", "analysis", "resign"})
#: Keys hidden while the move history has the focus: it is read-only (Esc returns to play).
HISTORY_HIDDEN = frozenset({"press_focused", "put_back", "open_move_prompt", "hint"})
#: The keys that say why they do nothing, when they do nothing: each with the action it stands for.
SILENT_KEYS = {"H": "hint", "enter": "press_focused", "space": "press_focused", "colon": "open_move_prompt",
               "p": "play_on"}

Accuracy = tuple[float | None, float | None]


# ---- the computer's answers, and the questions that ask for them ---------------------------------


@dataclass(frozen=True)
class ComputerMove:
    """The computer's move for ``turn``; ``guessed``: a heuristic's, the position too large to solve in time."""

    turn: Turn
    move: Move
    guessed: bool = False


@dataclass(frozen=True)
class OpenerChoice:
    """Whether the computer, having lost the round of ``turn``, opens the next one."""

    turn: Turn
    opens: bool


@dataclass(frozen=True)
class MatchJudged:
    """Every move of the match finished at ``turn`` judged: each player's accuracy, when known."""

    turn: Turn
    accuracy: Accuracy


Answer = ComputerMove | OpenerChoice | MatchJudged


@dataclass(frozen=True)
class Question:
    """Slow work off the event loop: ``ask(budget)`` answers within ``seconds`` (no limit when ``None``);
    ``aborted`` is the answer when the search gives up (none when ``None``). The answer is not shown
    before ``not_before`` (``time.monotonic()``): the computer appears to think a moment."""

    ask: Callable[[Budget], Answer]
    seconds: float | None
    aborted: Answer | None = None
    not_before: float = 0.0


# ---- what comes next ---------------------------------------------------------------------------


class Step(Enum):
    """What a change calls for."""

    NOTHING = "nothing"
    #: The round (or the match) has just been decided: announce it (its review, then what follows).
    ANNOUNCE = "announce"
    #: The computer is to move.
    THINK = "think"


@dataclass(frozen=True)
class Reveal:
    """Hold the computer's tower over its target a moment, then ``land`` it."""

    move: ComputerMove


@dataclass(frozen=True)
class RoundOver:
    """Show the round-over dialog (``computer_opens``: what the computer chose, when it chose)."""

    computer_opens: bool | None


@dataclass(frozen=True)
class MatchOver:
    """Show the match's summary, with each player's accuracy."""

    accuracy: Accuracy


#: What follows an answer or a closed review: work for the computer, its move shown, a dialog, or nothing.
Next = Question | Reveal | RoundOver | MatchOver | None


@dataclass(frozen=True)
class Landing:
    """The computer's revealed move, to play; ``tell_guess``: say (once a match) that it was a guess."""

    placed: PlacedMove
    tell_guess: bool


@dataclass(frozen=True)
class KeyFacts:
    """What the screen knows beside the table, for what a key does now."""

    #: The move history has the focus (its keys are read-only, but ``p`` plays on).
    in_history: bool = False
    #: An earlier position is shown.
    viewing: bool = False
    #: A tower is in hand.
    picked: bool = False
    #: This match has hints (and analysis).
    hints: bool = True


@dataclass(frozen=True)
class Trouble:
    """Trouble to tell the player in a toast."""

    title: str
    text: str
    timeout: float | None = None


class MatchFlow:
    """The flow of one match at ``table`` (``serial`` tells it from the screen's earlier matches)."""

    def __init__(self, table: Table, serial: int = 1) -> None:
        self.table = table
        self.serial = serial
        self.phase = Phase.IDLE
        #: The computer's move held over its target (``Phase.REVEALING``).
        self.revealing: Move | None = None
        #: The end of round (or match) already announced, so it is announced once.
        self._announced: Turn | None = None
        #: The saving trouble already told, so it is told once.
        self._save_told: str | None = None
        self._guess_told = False
        #: The finished match has been counted in the stats (or tried to be): once, until it is taken back.
        self._stats_tried = False
        #: The record it added, and the store it went to: withdrawn if the match is taken back (a match that then
        #: goes unfinished counts nowhere).
        self._counted: tuple[StatsStore, MatchRecord] | None = None

    @property
    def turn(self) -> Turn:
        match = self.table.match
        return Turn(self.serial, match.round_number, match.round.ply)

    @property
    def thinking(self) -> bool:
        """The computer is choosing, revealing its move, or judging the finished match."""
        return self.phase is not Phase.IDLE

    @property
    def you(self) -> int | None:
        """The player the dialogs speak to as "you": the one player here, against the computer."""
        local = self.table.local_players
        if len(local) == 1 and self.table.seat(1 - local[0]) is Seat.COMPUTER:
            return local[0]
        return None

    # ---- after a change ------------------------------------------------------------------------

    def step(self) -> Step:
        """What the match calls for after a change: its end announced (once a turn), the computer's move."""
        match = self.table.match
        if match.round.is_over or match.is_over:
            turn = self.turn
            if self._announced == turn:
                return Step.NOTHING
            self._announced = turn
            return Step.ANNOUNCE
        if self.table.seat(match.to_move) is Seat.COMPUTER and not self.thinking:
            return Step.THINK
        return Step.NOTHING

    def unannounce(self, turn: Turn) -> None:
        """The end at ``turn`` was not announced after all (the match went back before its dialog came): the next
        end is announced, even at the same turn."""
        if self._announced == turn:
            self._announced = None

    def announce_again(self) -> None:
        """The end announced is no longer where the match stands (its dialog closed from elsewhere): the next
        end is announced, even at the same turn."""
        self._announced = None

    def taken_back(self) -> None:
        """Moves were taken back: the next end is announced, and a finished match that is no longer finished
        counts in the stats no more (trouble withdrawing it is the table's saving trouble, told as such)."""
        self.announce_again()
        if self.table.match.is_over:
            return
        self._stats_tried = False
        counted, self._counted = self._counted, None
        if counted is not None:
            store, record = counted
            try:
                store.update(lambda stats: stats.withdraw_match(record))
            except SaveError as error:
                self.table.save_problem = str(error)

    def save_problem_to_tell(self) -> str | None:
        """The table's saving trouble, when it is new (each trouble is told once, while it lasts)."""
        problem = self.table.save_problem
        told, self._save_told = self._save_told, problem
        return problem if problem and problem != told else None

    @property
    def review_first(self) -> bool:
        """Whether the round just decided is reviewed before what follows (not a match given up)."""
        return self.table.setup.review and self.table.match.forfeited_by is None

    def after_review(self, turn: Turn) -> Next:
        """What follows the end of the round at ``turn``, once reviewed: the match judged, the computer's
        choice of opener, or the round-over dialog; nothing if the match moved on meanwhile."""
        if turn != self.turn:
            return None
        match = self.table.match
        if match.is_over:
            self.phase = Phase.THINKING
            return self._judge_match(turn)
        chooser = match.opener_chooser
        if chooser is not None and self.table.seat(chooser) is Seat.COMPUTER:
            self.phase = Phase.THINKING
            return self._choose_opener(turn)
        return RoundOver(None)

    # ---- the computer --------------------------------------------------------------------------

    def think(self, pause: float) -> Question:
        """The computer is to move: its choice, shown no sooner than ``pause`` seconds from now."""
        self.phase = Phase.THINKING
        from ..rules.players import choose_move, think_budget
        from ..rules.solver import shared_solver

        level = self._level
        match = self.table.match
        turn, position, rng = self.turn, match.position, computer_rng(match)

        def think(budget: Budget) -> ComputerMove:
            """Choose the computer's move off the event loop, with the level's own budget (level 10 solves on
            until called off, however long it takes; the others guess after a few CPU seconds)."""
            move = choose_move(level, position, rng, budget=think_budget(level, position, budget.cancelled))
            return ComputerMove(turn, move, strength_of(level).uses_solver and not shared_solver.is_solved(position))

        return Question(think, None, not_before=time.monotonic() + pause)

    def _choose_opener(self, turn: Turn) -> Question:
        """The computer lost the round: whether it opens the next."""
        from ..rules.players import choose_to_open, think_budget

        level, match = self._level, self.table.match
        start, rng = match.layout_for(match.round_number + 1), computer_rng(match)

        def choose(budget: Budget) -> OpenerChoice:
            opens = choose_to_open(level, start, rng, budget=think_budget(level, start, budget.cancelled))
            return OpenerChoice(turn, opens)

        return Question(choose, None)

    def _judge_match(self, turn: Turn) -> Question:
        """Judge every move of the finished match (for the summary and the stats)."""
        from ..rules.teaching import accuracy_over_rounds, review_round

        match = self.table.match

        def judge(budget: Budget) -> MatchJudged:
            reviews = [review_round(played, budget=budget) for played in match.rounds if played.moves]
            return MatchJudged(turn, (accuracy_over_rounds(reviews, 0), accuracy_over_rounds(reviews, 1)))

        return Question(judge, MATCH_REVIEW_SECONDS, aborted=MatchJudged(turn, (None, None)))

    @property
    def _level(self) -> str:
        level = self.table.setup.computer_level
        assert level is not None  # only asked of a table where the computer plays
        return level

    def heard(self, answer: Answer) -> Next:
        """What the computer's answer leads to; nothing when it is stale (the player undid, the match
        was left or ended meanwhile)."""
        if answer.turn != self.turn or not self.thinking:
            return None
        if isinstance(answer, ComputerMove):
            self.revealing = answer.move
            self.phase = Phase.REVEALING
            return Reveal(answer)
        self.phase = Phase.IDLE
        if isinstance(answer, OpenerChoice):
            return RoundOver(answer.opens)
        self.table.judged()
        return MatchOver(answer.accuracy)

    def land(self, moved: ComputerMove) -> Landing | None:
        """The revealed move, to play now; ``None`` if it was called off meanwhile."""
        if moved.turn != self.turn or self.revealing != moved.move:
            return None
        self.revealing = None
        self.phase = Phase.IDLE
        tell = moved.guessed and not self._guess_told
        self._guess_told = self._guess_told or tell
        return Landing(self.table.match.round.table.resolve(moved.move), tell)

    def stop(self) -> None:
        """The computer's search or reveal is called off (undo, a new match, the screen closing)."""
        self.phase = Phase.IDLE
        self.revealing = None

    # ---- the player ----------------------------------------------------------------------------

    def live_turn_here(self, viewing: bool = False) -> bool:
        """Whether the live position is shown (not an earlier one: ``viewing``) and a player here is to move in it."""
        match = self.table.match
        return (not viewing and not match.is_over and not match.round.is_over
                and self.table.seat(match.to_move) is Seat.HUMAN)

    def human_may_move(self, browsing: bool = False) -> bool:
        """Whether a player here may move now (``browsing``: an earlier position is shown from the history)."""
        return not self.thinking and self.live_turn_here(browsing)

    def key_state(self, action: str, facts: KeyFacts) -> bool | None:
        """What the game screen's key for ``action`` is now (``check_action``): lit (``True``), dimmed
        (``None``: pressed, it says why) or hidden (``False``)."""
        table = self.table
        if facts.in_history and action in HISTORY_HIDDEN:
            return False
        if not table.local_players and action in SPECTATOR_HIDDEN:
            return False  # a spectator (over SSH) is offered only what a spectator can do
        if action in ("press_focused", "put_back"):
            return picking_key(action, self.human_may_move(), facts.picked)
        if action == "open_move_prompt":
            return True if self.human_may_move() else None  # dimmed, as the picking keys are
        if action == "undo":
            return not facts.viewing and table.can_undo
        if action == "redo":
            return not facts.viewing and not self.thinking and table.can_redo
        if action == "hint":
            if not facts.hints:
                return False  # hidden: this match has no hints at all
            return True if self.live_turn_here(facts.viewing) else None
        if action == "analysis":
            return facts.hints
        if action == "resign":
            return table.resigner() is not None
        if action == "play_on":  # dimmed where a side line would be an analysis board beside the game
            return (True if table.side_lines_allowed else None) if facts.in_history else False
        if action == "rematch":
            return table.match.is_over and table.offers_rematch
        return True

    def why_silent(self, key: str, facts: KeyFacts) -> str | None:
        """Why ``key`` does nothing now, in a line, if it is one of the ``SILENT_KEYS`` and its action is dimmed or
        hidden; in the history, only ``p`` is the screen's (the history has the other keys)."""
        action = SILENT_KEYS.get(key)
        if action is None or self.key_state(action, facts) is True or facts.in_history != (action == "play_on"):
            return None
        return self.why_not(action, facts.hints)

    def why_not(self, action: str, hints_allowed: bool) -> str:
        """Why ``action`` (a key's) does nothing now, in a line."""
        match = self.table.match
        if action == "play_on":
            return "No side lines until this match is over."
        if action == "hint" and not hints_allowed:
            return "Hints are off in this match."
        if not self.table.local_players:
            return "You are watching: only the players move here."
        if match.is_over or match.round.is_over:
            return "The round is over."
        name = match.players[match.to_move]
        if self.thinking:
            return f"{name} is thinking: wait for the move."
        if action == "hint":
            return f"Hints are for your turn: it is {name}'s move."
        return f"It is {name}'s move: wait for it."

    def resign_question(self, player: int) -> str:
        """What resigning for ``player`` does, asked before it is done."""
        names = self.table.match.players
        who = "You give" if self.table.local_players == (player,) else f"{names[player]} gives"
        if self.table.resigning_aborts:
            return (f"{names[1 - player]} has not moved yet: the match is aborted, nobody wins and it is not rated "
                    "(after both players' first moves, resigning gives the match away and counts as a loss).")
        return f"{who} the match to {names[1 - player]}. It counts as a loss."

    # ---- the end of a match --------------------------------------------------------------------

    def time_left(self, now: float) -> float | None:
        """Seconds from ``now`` (``time.monotonic()``) until the clock kept at this table has surely
        run out (the screen looks then); ``None`` when no clock runs here."""
        deadline = self.table.time_runs_out_at()
        return None if deadline is None else max(0.0, deadline - now) + PAST_ZERO

    def count_in_stats(self, store: StatsStore, accuracy: Accuracy) -> list[Trouble]:
        """Count the finished match in ``store`` (once, and only for matches played on this terminal): it
        is taken out again if the match is taken back (``taken_back``). The trouble, to tell."""
        if not self.table.records_stats or self._stats_tried:
            return []
        from ..local.player_stats import match_record

        self._stats_tried = True
        record = match_record(self.table, accuracy)
        try:
            store.update(lambda stats: stats.record_match(record))
        except SaveError as error:
            return [Trouble("Stats not saved", str(error))]
        self._counted = (store, record)
        if store.problem:  # a damaged file was set aside: this match counts in a fresh one
            return [Trouble("Stats file unreadable", store.problem, 10)]
        return []
