"""A match in lines: typed lines in, short sentences out, at any ``Table``.

``LineGame`` is the line mode's core, and it knows nothing of where its lines go: a door hands it each line
the player typed (``take``) and a ``say`` that shows the lines it answers with, followed by the ``prompt``
(which says whose turn it is). It plays at a ``Table`` (``LocalTable`` on this terminal; a remote table over
SSH) and follows the match's flow as the game screen does (``play/match_flow.py``: the computer's turns, the
end of a round announced once, who opens next, the finished match judged and counted), with the hints of
``play/coach.py``. Slow work runs on the ``Runner`` it is given; its answers, and a match changed elsewhere,
come back on other threads, so every entry point holds one lock, and what is said meanwhile is shown as one
reply.

The work is done by its parts, each seeing the game as a ``LineHost`` (``line_host.py``, which lists them):
the announcements, the match's own steps, the time between rounds, hints and reviews, the commands that tell
and those that change the match, and reading a line.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..local.table import Seat
from ..play.coach import Coach
from ..play.match_flow import MatchFlow
from .announcements import Announcements
from .between_rounds import ADVICE_SECONDS, BetweenRounds
from .command_words import ALIASES, COMMANDS, HELP_LINES, WORDS, YES
from .hints_and_reviews import CONSULT_SECONDS, REVIEW_SECONDS, HintsAndReviews
from .line_host import Busy
from .line_reading import LineReading
from .match_changes import MatchChanges
from .match_questions import MatchQuestions
from .match_steps import MatchSteps
from .reply import Reply

if TYPE_CHECKING:
    from ..local.player_stats import StatsStore
    from ..local.table import Table
    from ..rules import Match
    from ..rules.solver import Budget
    from .runner import CallOff, Runner

__all__ = ["ADVICE_SECONDS", "ALIASES", "COMMANDS", "CONSULT_SECONDS", "HELP_LINES", "REVIEW_SECONDS", "WORDS", "YES",
           "Busy", "LineGame"]


class LineGame:
    """One match after another at a table, in lines (``rematch``: a new table for a rematch of a match, where
    one may be played, or ``None`` once it is asked of whoever starts it: over SSH, the server)."""

    #: Who sits where; through it, the match (a rematch brings a new table).
    table: Table
    #: What the match's flow decides (whose turn, what comes next).
    flow: MatchFlow
    #: The hints and analysis of the live position.
    coach: Coach

    def __init__(self, table: Table, runner: Runner, say: Callable[[list[str]], None], *,
                 stats_store: StatsStore | None = None, rematch: Callable[[Match], Table | None] | None = None,
                 notice: str = "", quick_answer: float = 0.0) -> None:
        """``say`` shows lines (from any thread, one call at a time); ``quick_answer``: how long ``take`` waits
        for an answer on its way (the computer's move, a hint) so that it comes with the reply, not after the
        prompt (a door that must not block passes 0)."""
        self.runner = runner
        self.stats_store = stats_store
        self.rematch_table = rematch
        self.notice = notice
        self._quick_answer = quick_answer
        self._lock = threading.RLock()
        self._settled = threading.Condition(self._lock)
        self.reply = Reply(say)
        self.busy: set[Busy] = set()
        self._calls: list[CallOff] = []
        self._serial = 0
        #: The player has left (``quit``): nothing more is taken.
        self.finished = False
        self.announcements = Announcements(self)
        self.steps = MatchSteps(self)
        self.between_rounds = BetweenRounds(self)
        self.hints = HintsAndReviews(self)
        self.questions = MatchQuestions(self)
        self.changes = MatchChanges(self)
        self.reading = LineReading(self)
        self.commands = {**self.questions.commands, **self.changes.commands, **self.hints.commands,
                         **self.between_rounds.commands}
        assert self.commands.keys() == WORDS, "every command has its handler, and every handler its command"
        self.sit(table)

    def sit(self, table: Table) -> None:
        """Play the match at ``table`` from now on."""
        self._serial += 1
        self.table = table
        self.flow = MatchFlow(table, self._serial)
        self.coach = Coach()
        self.announcements.told = (table.match.round_number, 0)
        self.between_rounds.begin()
        table.on_change = self.changed_elsewhere

    # ---- the door's side -------------------------------------------------------------------------

    def start(self) -> None:
        """Say where the match stands, and set it going (the computer moves, the clock runs)."""
        with self._lock, self.reply.held(self.announcements.state_line):
            self.announcements.introduce()
            self.table.pause_clock(False)
            self.steps.after_change()
            self._settle()

    def take(self, line: str) -> None:
        """A line the player typed: a move or a command; the answer is said (with the computer's reply, if it
        comes within ``quick_answer``)."""
        with self._lock:
            if self.finished:
                return
            with self.reply.held(self.announcements.state_line):
                waiting = self._waiting()
                self.steps.check_time()
                self.reading.take(line)
                self._settle(waiting)

    def stop(self) -> None:
        """The door is closing: nothing more is thought, and the clock stops (a local table saves its time)."""
        with self._lock:
            self.finished = True
            self.call_everything_off()
            self.table.pause_clock(True)
            self.table.on_change = None

    def changed_elsewhere(self) -> None:
        """The table's match changed from elsewhere (a remote opponent's move): it is told."""
        with self._lock:
            if self.finished:
                return
            self.say(*self.table.take_notices())
            self.steps.after_change()
            self.reply.flush()

    @property
    def prompt(self) -> str:
        """What the prompt says: whose turn it is, or what is awaited."""
        with self._lock:
            if self.finished:
                return ""
            match = self.table.match
            if self.changes.resigning is not None:
                return "Resign? Type yes or no> "
            if match.is_over:
                return "Match over> "
            if match.round.is_over:
                if self.between_rounds.choice_here():
                    return "Type open or second> "
                return "Round over, press Enter> " if self.between_rounds.one_way_on() is not None else "Round over> "
            name = match.players[match.to_move]
            if self.table.seat(match.to_move) is Seat.HUMAN and len(self.table.local_players) == 1:
                return "Your move> "
            return f"{name}'s move> "

    # ---- saying --------------------------------------------------------------------------------

    def say(self, *lines: str) -> None:
        """Lines for the player (empty ones left out), shown at the end of the reply being put together."""
        self.reply.say(*lines)

    def answer_to_come(self) -> None:
        self.reply.answer_to_come()

    def _settle(self, waiting_before: bool = False) -> None:
        """Wait a moment for an answer on its way, so that it comes with the reply; say what is still awaited
        (unless it was awaited before this reply: it has been said)."""
        if self._quick_answer > 0:
            self._settled.wait_for(lambda: not self._waiting(), timeout=self._quick_answer)
        if waiting_before:
            return
        if self.flow.thinking:
            match = self.table.match
            self.say("Judging every move of the match." if match.is_over or match.round.is_over
                     else f"{match.players[match.to_move]} is thinking.")
        self.say(*(busy.value for busy in self.busy))

    def _waiting(self) -> bool:
        return self.flow.thinking or bool(self.busy)

    # ---- slow work -------------------------------------------------------------------------------

    def answered(self, then: Callable[[], None]) -> None:
        """An answer from the runner (another thread): handled under the lock, then said."""
        with self._lock:
            if not self.finished:
                then()
            self._settled.notify_all()
            self.reply.flush()

    def solve(self, job: Callable[[Budget], object], seconds: float | None,
              done: Callable[[object | None], None]) -> None:
        """Run ``job`` on the runner; ``done`` hears its answer under the lock, and what it says is shown."""
        self._calls.append(self.runner.solve(job, seconds, lambda answer: self.answered(lambda: done(answer))))

    def call_everything_off(self) -> None:
        """Every question and timer called off (the match has changed under them)."""
        for call_off in self._calls:
            call_off()
        self._calls.clear()
        self.busy.clear()
        self.steps.stop_watching()
        self.flow.stop()
