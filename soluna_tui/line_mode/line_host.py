"""What the line game's parts use of the game, as typed views.

``LineGame`` (``line_game.py``) owns its parts, one job each: the announcements of moves, rounds and the end
(``announcements.Announcements``), the match's own steps after every change, the computer's turns and a clock
running out among them (``match_steps.MatchSteps``), the choice of who opens between rounds
(``between_rounds.BetweenRounds``), hints, analysis and reviews (``hints_and_reviews.HintsAndReviews``), the
commands that only tell (``match_questions.MatchQuestions``), those that change the match or leave it
(``match_changes.MatchChanges``), and reading a typed line (``line_reading.LineReading``). The parts are handed
the game itself; they name it through these Protocols, for types only, rather than importing ``line_game.py``,
which imports them (as the game screen's parts see the screen through ``screens/game_host.py``); and one another
through the game, by what they use of each other (``AnnouncementsFace``...), so no part's module imports
another's. ``LineGame`` is checked to be a ``LineHost`` where it hands itself to its parts.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ..local.player_stats import StatsStore
    from ..local.table import Table
    from ..play.coach import Coach
    from ..play.match_flow import MatchFlow, MatchOver, Next, RoundOver
    from ..rules import Match
    from ..rules.solver import Budget
    from .runner import Runner


class Busy(Enum):
    """Slow help on its way, besides the computer's own thinking (``MatchFlow.thinking``)."""

    HINT = "Thinking about a hint."
    ANALYSIS = "Working out every move."
    REVIEW = "Judging the round move by move."
    ADVICE = "Working out which choice wins."


class AnnouncementsFace(Protocol):
    """What the other parts use of the announcements (``announcements.Announcements``)."""

    #: What the player has been told: the round, and the moves of it announced.
    told: tuple[int, int]

    def introduce(self) -> None:
        """Say what the match is and where it stands."""

    def verb(self, player: int, third: str, second: str, first: bool = True) -> str:
        """``player`` and a verb, as "you" where the player sits here (``first``: at the start of a sentence)."""

    def state_line(self) -> str:
        """Where the match stands, for an empty line: whose turn, or what is awaited."""

    def catch_up(self) -> None:
        """Announce every move the player has not been told of yet, and a new round as it starts."""

    def announce_end(self) -> None:
        """A round, or the match, has just been decided: say how, then what follows."""

    def match_over(self, over: MatchOver) -> None:
        """The finished match counted and told, with what may be typed next."""


class StepsFace(Protocol):
    """What the other parts use of the match's own steps (``match_steps.MatchSteps``)."""

    def after_change(self) -> None:
        """Tell what happened, then do what the flow says comes next: the end announced, the computer's turn."""

    def go_on(self, coming: Next) -> None:
        """Do what the match's flow says comes next."""

    def check_time(self) -> None:
        """A clock kept here that has run out ends the match now."""


class BetweenRoundsFace(Protocol):
    """What the other parts use of the time between rounds (``between_rounds.BetweenRounds``)."""

    #: The round just decided, as the flow told it (``None``: no round over is being dealt with).
    decided: RoundOver | None

    def begin(self) -> None:
        """A new round (or a new match) has started: nothing is decided, no advice given."""

    def one_way_on(self) -> tuple[int, int | None] | None:
        """The next round's opener and chooser where there is one way on (the rules or the computer chose)."""

    def choice_here(self) -> bool:
        """The loser of the round sits here and chooses who opens the next one."""

    def question(self) -> str:
        """What is awaited between rounds, as a sentence."""

    def start_round(self, opener: int, chooser: int | None) -> None:
        """Start the next round, ``opener`` opening it."""

    def advise(self) -> None:
        """The solver's advice on who should open the next round (it counts as a hint)."""


class HintsFace(Protocol):
    """What the other parts use of hints, analysis and reviews (``hints_and_reviews.HintsAndReviews``)."""

    def helps(self) -> bool:
        """Whether this match allows hints and analysis."""

    def count_hint(self, player: int) -> None:
        """One more hint used by ``player``, kept."""


class ChangesFace(Protocol):
    """What the other parts use of the commands that change the match (``match_changes.MatchChanges``)."""

    #: The player asked whether they mean to resign (``None``: no question asked).
    resigning: int | None

    def resign_answered(self, text: str) -> None:
        """The answer to "Resign?"."""


class LineHost(Protocol):
    """The line game as its parts see it."""

    #: Who sits where; through it, the match (a rematch brings a new table).
    table: Table
    #: What the match's flow decides (whose turn, what comes next).
    flow: MatchFlow
    #: The hints and analysis of the live position.
    coach: Coach
    #: Where slow work and timers run.
    runner: Runner
    #: The player has left (``quit``): nothing more is taken.
    finished: bool
    #: Slow help on its way (said while it is awaited).
    busy: set[Busy]
    #: Where a finished match is counted (``None``: nothing is kept).
    stats_store: StatsStore | None
    #: A new table for a rematch of a match, or ``None`` once it is asked (it comes as news of the table).
    rematch_table: Callable[[Match], Table | None] | None
    #: A line said after the match's introduction (``""``: none).
    notice: str

    @property
    def announcements(self) -> AnnouncementsFace:
        """The announcements of moves, rounds and the end."""

    @property
    def steps(self) -> StepsFace:
        """The match's own steps after every change."""

    @property
    def between_rounds(self) -> BetweenRoundsFace:
        """Who opens the next round."""

    @property
    def hints(self) -> HintsFace:
        """Hints, analysis and reviews."""

    @property
    def changes(self) -> ChangesFace:
        """The commands that change the match or leave it."""

    @property
    def commands(self) -> Mapping[str, Callable[[str], None]]:
        """Every command's handler, by its word (``command_words.COMMANDS``), handed what follows the word."""

    def say(self, *lines: str) -> None:
        """Lines for the player (empty ones left out), shown at the end of the reply being put together."""

    def answer_to_come(self) -> None:
        """The line being answered is answered by news to come (the server's word on a takeback asked): nothing said
        in its place now."""

    def solve(self, job: Callable[[Budget], object], seconds: float | None,
              done: Callable[[object | None], None]) -> None:
        """Run ``job`` on the runner; ``done`` hears its answer under the lock, and what it says is shown."""

    def answered(self, then: Callable[[], None]) -> None:
        """From the runner's thread: ``then`` under the lock, and what it says shown."""

    def call_everything_off(self) -> None:
        """Every question and timer called off (the match has changed under them)."""

    def sit(self, table: Table) -> None:
        """Play the match at ``table`` from now on."""

    def stop(self) -> None:
        """Nothing more is thought, and the clock stops."""
