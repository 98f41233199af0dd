"""What a match in lines does by itself after every change, as the game screen does (``play/match_flow.py``):
the computer's turns (its move asked of the solver, then played), a round or the match decided and told, the
finished match judged, and a clock kept here that runs out.

``MatchSteps`` is a part the line game owns, seeing it as a ``LineHost`` (``line_host.py``).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..play.match_flow import Question, Reveal, RoundOver, Step

if TYPE_CHECKING:
    from ..play.match_flow import Next
    from .line_host import LineHost
    from .runner import CallOff


class MatchSteps:
    """The match's flow followed: what comes next, the computer's turns, the clock watched."""

    def __init__(self, game: LineHost) -> None:
        self._game = game
        self._clock_call: CallOff | None = None

    def after_change(self) -> None:
        """Tell what happened, then do what the flow says comes next: the end announced, the computer's turn."""
        game = self._game
        game.announcements.catch_up()
        self._watch_clock()
        step = game.flow.step()
        if step is Step.ANNOUNCE:
            game.announcements.announce_end()
        elif step is Step.THINK:
            self.go_on(game.flow.think(0.0))

    def go_on(self, coming: Next) -> None:
        """Do what the match's flow says comes next."""
        game = self._game
        if coming is None:
            return
        if isinstance(coming, Question):
            question = coming
            game.solve(question.ask, question.seconds,
                       lambda answer: self._heard(answer if answer is not None else question.aborted))
        elif isinstance(coming, Reveal):
            landing = game.flow.land(coming.move)
            if landing is None:
                return
            if landing.tell_guess:
                game.say("Too many discs to work out in time: the computer played a guess. It plays at its level "
                         "again once the table is smaller.")
            game.table.play(landing.placed, game.table.match.to_move)
            self.after_change()
        elif isinstance(coming, RoundOver):
            game.between_rounds.decided = coming
            game.say(game.between_rounds.question())
        else:
            game.announcements.match_over(coming)

    def _heard(self, answer: object | None) -> None:
        if answer is not None:
            self.go_on(self._game.flow.heard(answer))  # type: ignore[arg-type]  # the flow's own question's answer

    def check_time(self) -> None:
        """A clock kept here that has run out ends the match now (before anything typed is played)."""
        game = self._game
        if game.table.time_is_up():
            game.call_everything_off()
            self.after_change()

    def _watch_clock(self) -> None:
        """Look again when the running clock would reach zero."""
        self.stop_watching()
        left = self._game.flow.time_left(time.monotonic())
        if left is not None:
            self._clock_call = self._game.runner.later(left, lambda: self._game.answered(self.check_time))

    def stop_watching(self) -> None:
        """The clock is no longer looked at (until the next change)."""
        if self._clock_call is not None:
            self._clock_call()
            self._clock_call = None
