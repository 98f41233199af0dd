"""A match in lines: typed lines in, short sentences out, at any ``Table``.

``LineGame`` is the line mode's core, and it knows nothing of where its lines go: a door hands it each line
the player typed (``take``) and a ``say`` that shows the lines it answers with, followed by the ``prompt``
(which says whose turn it is). It plays at a ``Table`` (``LocalTable`` on this terminal; a remote table over
SSH) and follows the match's flow as the game screen does (``play/match_flow.py``: the computer's turns, the
end of a round announced once, who opens next, the finished match judged and counted), with the hints of
``play/coach.py``. Slow work runs on the ``Runner`` it is given; its answers, and a match changed elsewhere,
come back on other threads, so every entry point holds one lock.

Every move is announced once, whoever made it, as the match catches up with what the player has been told
(``_catch_up``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING

from ..local.table import Seat, Table
from ..play.coach import Coach, Purpose
from ..play.match_flow import MatchFlow, MatchOver, Question, Reveal, RoundOver, Step
from ..play.match_text import accuracy_words, move_annotation, result_line, review_or_none, turning_point_words
from ..play.you_wording import match_result_words, verb
from ..rules import NextOpener, Round, SolunaError, other
from ..rules.teaching import ACCURACY_MEANING, opener_advice
from ..rules.wording import plies, plural
from .runner import CallOff, Runner
from .speech import (
    clock_line,
    legal_moves_lines,
    numbers,
    round_move_line,
    stars_line,
    table_line,
    tower_line,
)
from .typed_lines import MoveRefused, looks_like_a_move, not_understood, read_command, read_move, read_place

if TYPE_CHECKING:
    from ..local.player_stats import StatsStore
    from ..play.match_flow import Accuracy, Next
    from ..rules import Match
    from ..rules.solver import Analysis, Budget
    from ..rules.teaching import Hint, RoundReview

#: How long a hint's or an analysis' question to the solver may take, as on the game screen
#: (``screens/teaching.py``).
CONSULT_SECONDS = 8.0
#: How long opener advice may search, as in the round-over dialog (``screens/round_over.py``).
ADVICE_SECONDS = 10.0
#: How long a round's review may search, as in the review dialog (``screens/review.py``).
REVIEW_SECONDS = 15.0

#: Every command, with the line ``help`` says of it.
COMMANDS = {
    "board": "board: every tower, by its number.",
    "tower": "tower 7: tower 7, where it can go and what can come onto it.",
    "moves": "moves: the legal moves, by the tower that moves.",
    "last": "last: the last move.",
    "stars": "stars: the stars each player has won.",
    "clock": "clock: the time each player has left.",
    "hint": "hint: a hint, one step more each time (the verdict, the tower, the move).",
    "analysis": "analysis: every move marked as a win or a loss (counts as a hint).",
    "undo": "undo: take your last move back.",
    "review": "review: the last round judged move by move (review 2: round 2).",
    "history": "history: every move of the match.",
    "stats": "stats: your statistics.",
    "resign": "resign: give the match up.",
    "help": "help: these lines.",
    "quit": "quit: leave; an unfinished match is saved and offered next time.",
    # Only between rounds and after the match; said when they apply.
    "next": "",
    "open": "",
    "second": "",
    "rematch": "",
}
#: Short and spoken forms of the commands.
ALIASES = {"b": "board", "t": "tower", "m": "moves", "l": "last", "s": "stars", "c": "clock", "h": "hint",
           "a": "analysis", "u": "undo", "?": "help", "q": "quit", "exit": "quit", "bye": "quit",
           "takeback": "undo", "time": "clock", "score": "stars", "where": "board", "n": "next", "legal": "moves"}
WORDS = frozenset(COMMANDS)
HELP_LINES = (
    "Type a move as two tower numbers: 3>7 puts tower 3 onto tower 7 (3 onto 7 works too), "
    "or in notation, 1M>1M. A tower goes onto one of the same height or with the same symbol on top; "
    "the player left without a move loses the round.",
    "Commands: " + " ".join(text for text in COMMANDS.values() if text),
)
#: Answers to "yes" to a question (resigning).
YES = frozenset({"yes", "y", "resign"})


class Busy(Enum):
    """Slow help on its way, besides the computer's own thinking (``MatchFlow.thinking``)."""

    HINT = "Thinking about a hint."
    ANALYSIS = "Working out every move."
    REVIEW = "Judging the round move by move."
    ADVICE = "Working out which choice wins."


class LineGame:
    """One match after another at a table, in lines (``rematch``: a new table for a rematch of a match, where
    one may be played, or ``None`` once it is asked of whoever starts it: over SSH, the server)."""

    def __init__(self, table: Table, runner: Runner, say: Callable[[list[str]], None], *,
                 stats_store: StatsStore | None = None, rematch: Callable[[Match], Table | None] | None = None,
                 notice: str = "", quick_answer: float = 0.0) -> None:
        """``say`` shows lines (from any thread, one call at a time); ``quick_answer``: how long ``take`` waits
        for an answer on its way (the computer's move, a hint) so that it comes with the reply, not after the
        prompt (a door that must not block passes 0)."""
        self.runner = runner
        self._say_lines = say
        self._stats_store = stats_store
        self._rematch = rematch
        self._notice = notice
        self._quick_answer = quick_answer
        self._lock = threading.RLock()
        self._settled = threading.Condition(self._lock)
        self._out: list[str] = []
        self._holding = False
        self._busy: set[Busy] = set()
        self._calls: list[CallOff] = []
        self._clock_call: CallOff | None = None
        self._serial = 0
        #: What the player has been told: the round and the moves of it announced.
        self._told = (1, 0)
        self._round_over: RoundOver | None = None
        self._resigning: int | None = None
        self._advised = False
        #: The player has left (``quit``): nothing more is taken.
        self.finished = False
        self._sit(table)

    def _sit(self, table: Table) -> None:
        """Play the match at ``table`` from now on."""
        self._serial += 1
        self.table = table
        self.flow = MatchFlow(table, self._serial)
        self.coach = Coach()
        self._told = (table.match.round_number, 0)
        self._round_over = None
        self._advised = False
        table.on_change = self.changed_elsewhere

    # ---- the door's side -------------------------------------------------------------------------

    def start(self) -> None:
        """Say where the match stands, and set it going (the computer moves, the clock runs)."""
        with self._lock:
            self._holding = True
            try:
                self._introduce()
                self.table.pause_clock(False)
                self._after_change()
                self._settle()
            finally:
                self._release()

    def take(self, line: str) -> None:
        """A line the player typed: a move or a command; the answer is said (with the computer's reply, if it
        comes within ``quick_answer``)."""
        with self._lock:
            if self.finished:
                return
            self._holding = True
            waiting = self._waiting()
            try:
                self._check_time()
                self._take(line)
                self._settle(waiting)
            finally:
                self._release()

    def stop(self) -> None:
        """The door is closing: nothing more is thought, and the clock stops (a local table saves its time)."""
        with self._lock:
            self.finished = True
            self._call_everything_off()
            self.table.pause_clock(True)
            self.table.on_change = None

    def changed_elsewhere(self) -> None:
        """The table's match changed from elsewhere (a remote opponent's move): it is told."""
        with self._lock:
            if self.finished:
                return
            self._say(*self.table.take_notices())
            self._after_change()
            self._flush()

    @property
    def prompt(self) -> str:
        """What the prompt says: whose turn it is, or what is awaited."""
        with self._lock:
            if self.finished:
                return ""
            match = self.table.match
            if self._resigning is not None:
                return "Resign? Type yes or no> "
            if match.is_over:
                return "Match over> "
            if match.round.is_over:
                if self._choice_here():
                    return "Type open or second> "
                return "Round over, press Enter> " if self._one_way_on() is not None else "Round over> "
            name = match.players[match.to_move]
            if self.table.seat(match.to_move) is Seat.HUMAN and len(self.table.local_players) == 1:
                return "Your move> "
            return f"{name}'s move> "

    # ---- saying --------------------------------------------------------------------------------

    def _say(self, *lines: str) -> None:
        self._out.extend(line for line in lines if line)

    def _flush(self) -> None:
        """Show what has been said, unless a reply is being put together (it is shown at its end)."""
        if self._holding or not self._out:
            return
        lines, self._out = self._out, []
        self._say_lines(lines)

    def _release(self) -> None:
        self._holding = False
        if not self._out:
            self._say(self._state_line())
        self._flush()

    def _settle(self, waiting_before: bool = False) -> None:
        """Wait a moment for an answer on its way, so that it comes with the reply; say what is still awaited
        (unless it was awaited before this reply: it has been said)."""
        if self._quick_answer > 0:
            self._settled.wait_for(lambda: not self._waiting(), timeout=self._quick_answer)
        if waiting_before:
            return
        if self.flow.thinking:
            match = self.table.match
            self._say("Judging every move of the match." if match.is_over or match.round.is_over
                      else f"{match.players[match.to_move]} is thinking.")
        self._say(*(busy.value for busy in self._busy))

    def _waiting(self) -> bool:
        return self.flow.thinking or bool(self._busy)

    def _answered(self, then: Callable[[], None]) -> None:
        """An answer from the runner (another thread): handled under the lock, then said."""
        with self._lock:
            if not self.finished:
                then()
            self._settled.notify_all()
            self._flush()

    def _solve(self, job: Callable[[Budget], object], seconds: float | None,
               done: Callable[[object | None], None]) -> None:
        self._calls.append(self.runner.solve(job, seconds, lambda answer: self._answered(lambda: done(answer))))

    # ---- where the match stands ------------------------------------------------------------------

    @property
    def _you(self) -> int | None:
        return self.flow.you

    def _names(self) -> tuple[str, str]:
        return self.table.match.players

    def _introduce(self) -> None:
        table, match = self.table, self.table.match
        names, options = match.players, match.options
        setup = table.setup
        opponent = f"{names[1]} at {setup.mode_label}" if setup.vs_computer else names[1]
        clock = f", clock {setup.clock.words}" if setup.clock is not None else ""
        hints = "" if setup.hints and table.hints_allowed else ", no hints"
        self._say(f"Soluna. {names[0]} against {opponent}: {options.preset_name} rules, "
                  f"{plural(options.discs, 'disc')}, {plural(options.stars_to_win, 'star')} to win{clock}{hints}.",
                  self._notice,
                  "Type a move as two tower numbers, like 3>7, or help for the commands.")
        if match.round_number > 1 or match.round.ply:
            self._say(f"Round {match.round_number}, {plural(match.round.ply, 'move')} played. {stars_line(match)}")
            if match.round.ply:
                self._say(f"Last move: {round_move_line(match.round, names, match.round.ply - 1)}")
        self._say(f"Round {match.round_number}. {table_line(match.round.table)}")
        if not match.round.ply and not match.round.is_over:
            self._say(f"{self._verb(match.round.opener, 'opens', 'open')}.")
        self._told = (match.round_number, match.round.ply)

    def _verb(self, player: int, third: str, second: str, first: bool = True) -> str:
        return verb(self._names()[player], third, second, you=player == self._you, first=first)

    def _state_line(self) -> str:
        """Where the match stands, for an empty line: whose turn, or what is awaited."""
        match = self.table.match
        if match.is_over:
            return f"{result_line(match, self.table.ended).removeprefix('Result: ')} Type rematch, or quit."
        if match.round.is_over:
            return self._round_over_question()
        if self.flow.thinking:
            return f"{match.players[match.to_move]} is thinking."
        return (f"{self._verb(match.to_move, 'is', 'are')} to move in round {match.round_number}. "
                "Type a move like 3>7, or help.")

    def _catch_up(self) -> None:
        """Announce every move the player has not been told of yet, and a new round as it starts."""
        match = self.table.match
        number, ply = self._told
        names = match.players
        while number < match.round_number:
            earlier = match.rounds[number - 1]
            self._say(*(round_move_line(earlier, names, each) for each in range(ply, earlier.ply)))
            number, ply = number + 1, 0
            self._round_started(match.rounds[number - 1], number)
        played = match.round
        if ply > played.ply:
            self._say(f"{plural(ply - played.ply, 'move')} taken back. {table_line(played.table)}")
        self._say(*(round_move_line(played, names, each) for each in range(ply, played.ply)))
        self._told = (match.round_number, played.ply)

    def _round_started(self, played: Round, number: int) -> None:
        self._round_over = None
        self._advised = False
        self._say(f"Round {number}: {self._verb(played.opener, 'opens', 'open')}. {table_line(played.table)}")

    # ---- after every change ----------------------------------------------------------------------

    def _after_change(self) -> None:
        """Tell what happened, then do what the flow says comes next: the end announced, the computer's turn."""
        self._catch_up()
        self._watch_clock()
        step = self.flow.step()
        if step is Step.ANNOUNCE:
            self._announce_end()
        elif step is Step.THINK:
            self._go_on(self.flow.think(0.0))

    def _go_on(self, coming: Next) -> None:
        if coming is None:
            return
        if isinstance(coming, Question):
            question = coming
            self._solve(question.ask, question.seconds,
                        lambda answer: self._heard(answer if answer is not None else question.aborted))
        elif isinstance(coming, Reveal):
            landing = self.flow.land(coming.move)
            if landing is None:
                return
            if landing.tell_guess:
                self._say("Too many discs to work out in time: the computer played a guess. It plays at its level "
                          "again once the table is smaller.")
            self.table.play(landing.placed, self.table.match.to_move)
            self._after_change()
        elif isinstance(coming, RoundOver):
            self._round_over = coming
            self._say(self._round_over_question())
        else:
            self._match_over(coming)

    def _heard(self, answer: object | None) -> None:
        if answer is not None:
            self._go_on(self.flow.heard(answer))  # type: ignore[arg-type]  # the flow's own question's answer

    def _announce_end(self) -> None:
        """A round, or the match, has just been decided: say how, then what follows."""
        match = self.table.match
        if match.forfeited_by is None:
            outcome = match.round.outcome
            if outcome is not None:
                self._say(f"{self._verb(outcome.loser, 'cannot', 'cannot')} move: "
                          f"{self._verb(outcome.winner, 'wins', 'win', first=False)} round {match.round_number}, "
                          f"after {plural(match.round.ply, 'move')}. {stars_line(match)}")
        if self.flow.review_first and match.round.moves:
            self._say("Type review to hear the round judged move by move.")
        self._go_on(self.flow.after_review(self.flow.turn))

    def _match_over(self, over: MatchOver) -> None:
        table, match = self.table, self.table.match
        troubles = self.flow.count_in_stats(self._stats_store, over.accuracy) if self._stats_store else []
        self._say(f"Match over. {match_result_words(match, table.ended, self._you)}.",
                  *self._accuracy_lines(over.accuracy),
                  *(f"{trouble.title}: {trouble.text}" for trouble in troubles))
        if table.save_problem:
            self._say(f"Not saved: {table.save_problem}")
        what = ["review" if any(played.outcome for played in match.rounds) else "",
                "rematch" if self._rematch and table.offers_rematch else "",
                "undo" if table.can_undo else ""]
        choices = ", ".join(filter(None, what))
        self._say(f"Type {choices}, or quit." if choices else "Type quit to leave.")

    def _accuracy_lines(self, accuracy: Accuracy) -> list[str]:
        """Each player's accuracy and hints used, a sentence each (never ``Name:``, which starts a move)."""
        lines = []
        for player, name in enumerate(self._names()):
            facts = []
            if accuracy[player] is not None:
                facts.append(f"kept the best outcome in {accuracy[player]:.0%} of moves")
            if player in self.table.local_players:
                facts.append(f"used {plural(self.table.hints_used[player], 'hint')}")
            if facts:
                lines.append(f"{name} {' and '.join(facts)}.")
        return lines

    # ---- between rounds ----------------------------------------------------------------------------

    def _one_way_on(self) -> tuple[int, int | None] | None:
        """The next round's opener and chooser where there is one way on (the rules or the computer chose)."""
        match, decided = self.table.match, self._round_over
        outcome = match.round.outcome
        if outcome is None or decided is None or not self.table.local_players:
            return None
        if match.options.next_opener is NextOpener.LOSER_OPENS:
            return outcome.loser, None
        if decided.computer_opens is not None:
            return (outcome.loser if decided.computer_opens else other(outcome.loser)), outcome.loser
        return None

    def _choice_here(self) -> bool:
        """The loser of the round sits here and chooses who opens the next one."""
        match, outcome = self.table.match, self.table.match.round.outcome
        return (outcome is not None and self._round_over is not None and not match.is_over
                and self._one_way_on() is None and outcome.loser in self.table.local_players)

    def _round_over_question(self) -> str:
        match = self.table.match
        outcome = match.round.outcome
        if outcome is None or self._round_over is None:
            return "Wait a moment."
        names, number = match.players, match.round_number + 1
        loser = outcome.loser
        one_way = self._one_way_on()
        if one_way is not None:
            opener, chooser = one_way
            chose = f"{names[chooser]} chose. " if chooser is not None and self.table.seat(chooser) is not Seat.HUMAN \
                else ""
            return (f"{chose}{self._verb(opener, 'opens', 'open')} round {number}. "
                    "Press Enter, or type next, to start it.")
        if self._choice_here():
            advice = " Type hint for advice (it counts as a hint)." if self._advice_allowed() else ""
            you_open = "to open it yourself" if loser == self._you else f"for {names[loser]} to open"
            return (f"{self._verb(loser, 'chooses', 'choose')} who opens round {number}: type open {you_open}, "
                    f"or second for {names[other(loser)]} to open.{advice}")
        return f"{names[loser]} chooses who opens round {number}."

    def _advice_allowed(self) -> bool:
        return self._helps() and not self._advised

    def _start_round(self, opener: int, chooser: int | None) -> None:
        try:
            self.table.start_next_round(opener, chooser)
        except SolunaError as error:
            self._say(f"{str(error)[:1].upper()}{str(error)[1:]}.")
            return
        self._after_change()

    def _cmd_next(self, argument: str) -> None:
        one_way = self._one_way_on()
        if one_way is not None:
            self._start_round(*one_way)
        elif self._choice_here():
            self._say(self._round_over_question())
        else:
            self._say("There is no round to start now.")

    def _cmd_open(self, argument: str) -> None:
        self._choose_opener(opens=True)

    def _cmd_second(self, argument: str) -> None:
        self._choose_opener(opens=False)

    def _choose_opener(self, opens: bool) -> None:
        if not self._choice_here():
            one_way = self._one_way_on()
            self._say("There is nothing to choose now." + (" Press Enter for the next round." if one_way else ""))
            return
        outcome = self.table.match.round.outcome
        assert outcome is not None  # a choice is only offered at the end of a round
        self._start_round(outcome.loser if opens else outcome.winner, outcome.loser)

    # ---- moves ---------------------------------------------------------------------------------------

    def _take(self, line: str) -> None:
        text = line.strip()
        if self._resigning is not None:
            self._resign_answered(text)
            return
        if not text:
            one_way = self._one_way_on() if self.table.match.round.is_over else None
            if one_way is not None:
                self._start_round(*one_way)
            else:
                self._say(self._state_line())
            return
        command = read_command(text, WORDS, ALIASES)
        if command is not None:
            getattr(self, f"_cmd_{command.word}")(command.argument)
        elif looks_like_a_move(text):
            self._typed_move(text)
        else:
            self._say(not_understood(text))

    def _typed_move(self, text: str) -> None:
        table, match = self.table, self.table.match
        if match.is_over or match.round.is_over:
            self._say(f"The {'match' if match.is_over else 'round'} is over. {self._state_line()}")
            return
        if not self.flow.human_may_move():
            self._say(self.flow.why_not("press_focused", self._helps()))
            return
        try:
            placed = read_move(text, match.round.table)
        except MoveRefused as refusal:
            self._say(str(refusal))
            return
        try:
            table.play(placed, match.to_move)
        except SolunaError as error:
            self._say(f"{str(error)[:1].upper()}{str(error)[1:]}.")
            return
        self._after_change()

    def _check_time(self) -> None:
        """A clock kept here that has run out ends the match now (before anything typed is played)."""
        if self.table.time_is_up():
            self._call_everything_off()
            self._after_change()

    def _watch_clock(self) -> None:
        """Look again when the running clock would reach zero."""
        if self._clock_call is not None:
            self._clock_call()
            self._clock_call = None
        left = self.flow.time_left(time.monotonic())
        if left is not None:
            self._clock_call = self.runner.later(left, lambda: self._answered(self._check_time))

    def _call_everything_off(self) -> None:
        for call_off in self._calls:
            call_off()
        self._calls.clear()
        self._busy.clear()
        if self._clock_call is not None:
            self._clock_call()
            self._clock_call = None
        self.flow.stop()

    # ---- commands --------------------------------------------------------------------------------

    def _cmd_help(self, argument: str) -> None:
        self._say(*HELP_LINES)
        if self.table.match.round.is_over and not self.table.match.is_over:
            self._say("Between rounds: " + self._round_over_question())

    def _cmd_board(self, argument: str) -> None:
        match = self.table.match
        self._say(f"Round {match.round_number}. {table_line(match.round.table)}")

    def _cmd_tower(self, argument: str) -> None:
        table = self.table.match.round.table
        if not argument:
            self._say(f"Which tower? Type tower and its number, 1 to {len(table)}, like tower 7.")
            return
        try:
            slot = read_place(argument, table)
        except SolunaError as error:
            self._say(f"{str(error)[:1].upper()}{str(error)[1:]}.")
            return
        self._say(tower_line(table, slot))

    def _cmd_moves(self, argument: str) -> None:
        self._say(*legal_moves_lines(self.table.match.round.table))

    def _cmd_last(self, argument: str) -> None:
        match = self.table.match
        played = match.round
        if not played.ply:
            self._say(f"No move yet in round {match.round_number}.")
            return
        self._say(f"Last move: {round_move_line(played, match.players, played.ply - 1)}")

    def _cmd_stars(self, argument: str) -> None:
        self._say(f"Round {self.table.match.round_number}. {stars_line(self.table.match)}")

    def _cmd_clock(self, argument: str) -> None:
        table = self.table
        self._say(clock_line(table.match.players, table.clock, table.clock_read_at, time.monotonic()))

    def _cmd_history(self, argument: str) -> None:
        match = self.table.match
        names = match.players
        for number, played in enumerate(match.rounds, start=1):
            outcome = played.outcome
            won = f", {names[outcome.winner]} won" if outcome is not None else ""
            self._say(f"Round {number}: {names[played.opener]} opened{won}, {plural(played.ply, 'move')}.")
            self._say(*(f"{ply + 1}. {round_move_line(played, names, ply)}" for ply in range(played.ply)))

    def _cmd_stats(self, argument: str) -> None:
        if self._stats_store is None:
            self._say("No statistics are kept here.")
            return
        from ..local.player_stats import describe

        stats = self._stats_store.load()
        self._say(*(line.strip() for line in describe(stats, bar=("", ""), width=40) if line.strip()))

    def _cmd_quit(self, argument: str) -> None:
        match = self.table.match
        self.stop()
        if match.is_over or not self.table.records_stats:
            self._say("Goodbye.")
        elif self.table.save_problem:
            self._say(f"The match could not be saved: {self.table.save_problem}")
        else:
            self._say("The match is saved: start Soluna again in this mode to go on with it. Goodbye.")

    def _cmd_rematch(self, argument: str) -> None:
        match = self.table.match
        if not match.is_over:
            self._say("A rematch is for when the match is over.")
            return
        if self._rematch is None or not self.table.offers_rematch:
            self._say("No rematch here. Type quit to leave.")
            return
        table = self._rematch(match)
        if table is None:
            return  # asked: the rematch comes as news of the table
        self._call_everything_off()
        self.table.on_change = None
        self._sit(table)
        self._introduce()
        self.table.pause_clock(False)
        self._after_change()

    # ---- undo and resigning ------------------------------------------------------------------------

    def _cmd_undo(self, argument: str) -> None:
        table = self.table
        if not table.can_undo:
            reason = " (no take-backs in a rated match)" if table.setup.rated else ""
            self._say(f"Nothing to take back{reason}.")
            return
        refusal = table.undo_refusal()
        if refusal is not None:
            self._say(str(refusal))
            return
        self._call_everything_off()
        played, before = table.match.round, table.match.round.ply
        try:
            undone = table.undo()
        except SolunaError as error:
            self._after_change()
            self._say(str(error))
            return
        if undone:
            names = table.match.players
            taken = [f"{names[played.mover_at(played.ply + index)]} {placed.move} "
                     f"({placed.places[0]} onto {placed.places[1]})"
                     for index, placed in enumerate(played.redo_moves[:before - played.ply])]
            self._say(f"Taken back: {'; '.join(taken)}. {table_line(played.table)}")
            self._told = (table.match.round_number, played.ply)
            self._round_over = None
            self.flow.taken_back()
        self._after_change()

    def _cmd_resign(self, argument: str) -> None:
        player = self.table.resigner()
        if player is None:
            self._say("There is no match in play to resign.")
            return
        self._resigning = player
        self._say(f"{self.flow.resign_question(player)} Type yes to resign, or no to keep playing.")

    def _resign_answered(self, text: str) -> None:
        player, self._resigning = self._resigning, None
        if text.casefold() not in YES:
            self._say("You keep playing.")
            return
        if player is None or self.table.resigner() != player:
            self._say("The match moved on meanwhile: nothing was given up.")
            return
        self._call_everything_off()
        self.table.resign(player)
        if not self.table.match.is_over:  # asked of whoever keeps the match (over SSH, the server): it says the end
            self._say("You resign: the match ends as the server says.")
        self._after_change()

    # ---- hints, analysis, reviews ------------------------------------------------------------------

    def _helps(self) -> bool:
        return self.table.setup.hints and self.table.hints_allowed

    def _count_hint(self, player: int) -> None:
        self.table.hints_used[player] += 1
        save = getattr(self.table, "save", None)  # a local table keeps the count with its match
        if callable(save):
            save()

    def _consult(self, why: Busy, purpose: Purpose, then: Callable[[], None]) -> None:
        """Ask the solver about the live position (once at a time), then ``then``."""
        position, turn = self.table.match.position, self.flow.turn
        if not self.coach.ask(position, purpose):
            return
        self._busy.add(why)

        def answered(analysis: object | None) -> None:
            self._busy.discard(why)
            found: Analysis | None = analysis  # type: ignore[assignment]  # the job below answers an Analysis
            self.coach.answered(position, found, purpose)
            if found is None:
                self._say("Too many discs to solve in time; ask again in a moment (the work so far is kept).")
            elif turn == self.flow.turn:
                then()

        def consult(budget: Budget) -> Analysis:
            from ..rules.solver import shared_solver

            return shared_solver.analyse(position, budget)

        self._solve(consult, CONSULT_SECONDS, answered)

    def _cmd_hint(self, argument: str) -> None:
        match = self.table.match
        if not self._helps():
            self._say("Hints and analysis are off in this match.")
            return
        if match.round.is_over and not match.is_over:
            self._opener_advice()
            return
        if not self.flow.live_turn_here():
            self._say(self.flow.why_not("hint", True))
            return
        turn, position = self.flow.turn, match.position
        hint = self.coach.current_hint(turn, position)
        if self.coach.hints_done(turn) and hint is not None:
            self._say(self._hint_words(hint, self.coach.hint_step))
            return
        if self.coach.analysis_of(position) is None:
            self._consult(Busy.HINT, Purpose.HINT, self._next_hint_step)
            return
        self._next_hint_step()

    def _next_hint_step(self) -> None:
        match, turn = self.table.match, self.flow.turn
        if self.coach.step_hint(turn):
            self._count_hint(match.to_move)
        hint = self.coach.current_hint(turn, match.position)
        if hint is not None:
            self._say(self._hint_words(hint, self.coach.hint_step))

    def _hint_words(self, hint: Hint, step: int) -> str:
        match = self.table.match
        text = hint.describe(step, match.players[match.to_move])
        placed = match.round.table.resolve(hint.move)
        mover, target = placed.places
        if step == 2:
            return f"{text} It is tower {mover}. Type hint again for the whole move."
        if step == 3:
            return f"{text} Type {mover}>{target}."
        return f"{text} Type hint again for the tower to move."

    def _opener_advice(self) -> None:
        outcome = self.table.match.round.outcome
        if outcome is None or not self._choice_here():
            self._say("Advice is for choosing who opens, when that is yours to choose.")
            return
        if self._advised:
            self._say("You have had the advice for this round already.")
            return
        self._advised = True
        self._count_hint(outcome.loser)
        start = self.table.match.layout_for(self.table.match.round_number + 1)
        self._busy.add(Busy.ADVICE)

        def advised(text: object | None) -> None:
            self._busy.discard(Busy.ADVICE)
            self._say(str(text) if text is not None else
                      "That layout is too large to solve in time; trust your instinct.")

        self._solve(lambda budget: opener_advice(start, budget=budget), ADVICE_SECONDS, advised)

    def _cmd_analysis(self, argument: str) -> None:
        if not self._helps():
            self._say("Hints and analysis are off in this match.")
            return
        match = self.table.match
        if match.round.is_over:
            self._say("The round is over: no move is left to judge. Type review for the round's moves.")
            return
        if self.coach.analysis_of(match.position) is None:
            self._consult(Busy.ANALYSIS, Purpose.ANALYSIS, self._say_analysis)
            return
        self._say_analysis()

    def _say_analysis(self) -> None:
        match = self.table.match
        analysis = self.coach.analysis_of(match.position)
        if analysis is None:
            return
        if self.flow.live_turn_here() and self.coach.counts_analysis(self.flow.turn):
            self._count_hint(match.to_move)
        table = match.round.table
        verdicts = {(item.move.mover, item.move.target): item.verdict for item in analysis.moves}
        verdict = analysis.verdict
        wins = len(analysis.winning_moves)
        state = (f"the player to move wins in {plies(verdict.plies)}" if verdict.wins
                 else f"the player to move loses, holding out {plies(verdict.plies)}")
        self._say(f"Analysis: {state}; {wins} of {plural(len(analysis.moves), 'move')} "
                  f"{'wins' if wins == 1 else 'win'}.")
        by_mover: dict[int, dict[tuple[bool, int], list[int]]] = {}
        for slot in table.occupied:
            for target_slot in table.occupied:
                tower, target = table[slot], table[target_slot]
                found = verdicts.get((tower, target)) if target_slot != slot and tower and target else None
                if found is not None:
                    by_mover.setdefault(slot, {}).setdefault((found.wins, found.plies), []).append(target_slot + 1)
        winning = [f"{slot + 1} onto {numbers(targets)} wins in {plies(count)}"
                   for slot, outcomes in by_mover.items() for (wins, count), targets in sorted(outcomes.items())
                   if wins]
        if winning:
            self._say(f"Winning: {'; '.join(winning)}.")
        for slot, outcomes in by_mover.items():
            losing = [f"onto {numbers(targets)} loses in {count}"
                      for (wins, count), targets in sorted(outcomes.items(), reverse=True) if not wins]
            if losing:
                self._say(f"{slot + 1} {'; '.join(losing)}.")

    def _cmd_review(self, argument: str) -> None:
        match = self.table.match
        finished = [number for number, played in enumerate(match.rounds, start=1) if played.outcome is not None]
        if not finished:
            self._say("No round is over yet: a review judges a finished round.")
            return
        number = finished[-1]
        if argument:
            if not (argument.isascii() and argument.isdigit()) or int(argument) not in finished:
                self._say(f"Round {argument[:8]} is not a finished round: the finished rounds are "
                          f"{', '.join(map(str, finished))}.")
                return
            number = int(argument)
        played = match.rounds[number - 1]
        if not played.moves:
            self._say(f"Round {number} had no moves.")
            return
        self._busy.add(Busy.REVIEW)

        def reviewed(review: object | None) -> None:
            self._busy.discard(Busy.REVIEW)
            if review is None:
                self._say("This round is too large to judge in time.")
                return
            self._say(*self._review_lines(number, played, review))  # type: ignore[arg-type]  # a RoundReview

        self._solve(lambda budget: review_or_none(played, seconds=REVIEW_SECONDS,
                                                  cancelled=lambda: budget.is_cancelled), None, reviewed)

    def _review_lines(self, number: int, played: Round, review: RoundReview) -> list[str]:
        names = self._names()
        lines = [f"Review of round {number}, each move with its result for its player under perfect play:"]
        for item in review.moves:
            lines.append(f"{item.ply + 1}. {round_move_line(played, names, item.ply)} "
                         f"{move_annotation(item).replace('  ', ' ').strip()}.")
        lines.append(turning_point_words(review, names, self._you))
        lines.extend(accuracy_words(review, names))
        lines.append(ACCURACY_MEANING)
        return lines

