"""The computer's turns on the game screen, and whatever else the match's flow says comes next.

``ComputerTurns`` is a part the game screen owns: the flow's questions (the computer's move, its choice of
opener, the finished match judged) asked in the screen's worker, their answers heard back as
``ComputerAnswered``, the chosen tower shown lifted for a moment before the move lands; and, a round or the
match decided, its dialog (``match_dialogs.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from ..play.match_flow import Question, Reveal, RoundOver
from .solver_work import pause_until, solve_in_worker

if TYPE_CHECKING:
    from textual.timer import Timer
    from textual.worker import Worker

    from ..play.match_flow import Answer, ComputerMove, Next
    from ..rules.solver import Budget
    from .game_host import GameHost


class ComputerAnswered(Message):
    """A worker has answered a question of the match's flow (the computer's move, its choice of
    opener, the finished match judged)."""

    def __init__(self, answer: Answer) -> None:
        super().__init__()
        self.answer = answer


class ComputerTurns:
    """The computer thinking, revealing its move and landing it."""

    def __init__(self, game: GameHost) -> None:
        self._game = game
        self._asking: Worker[None] | None = None
        self._reveal_timer: Timer | None = None

    def think(self) -> None:
        """The computer's turn: it starts choosing."""
        self.go_on(self._game.flow.think(self._game.soluna.computer_pause))

    def go_on(self, coming: Next) -> None:
        """Do what the match's flow says comes next: a question for the computer, its move shown, a dialog."""
        if coming is None:
            return
        game = self._game
        game.redraw()  # the computer thinks, shows its move, or is done
        if isinstance(coming, Question):
            self._ask(coming)
        elif isinstance(coming, Reveal):
            land = lambda: self._land(coming.move)  # noqa: E731
            reveal_pause = game.soluna.reveal_pause
            if reveal_pause > 0:
                self._reveal_timer = game.set_timer(reveal_pause, land)
            else:
                game.call_after_refresh(land)
        elif isinstance(coming, RoundOver):
            game.dialogs.show_round_over(coming.computer_opens)
        else:
            game.dialogs.show_match_over(coming)

    def _ask(self, question: Question) -> None:
        """Run the flow's question in the screen's worker; its answer comes back as ``ComputerAnswered``."""

        def answer(budget: Budget) -> ComputerAnswered:
            found = question.ask(budget)
            pause_until(question.not_before, budget)
            return ComputerAnswered(found)

        aborted = None if question.aborted is None else ComputerAnswered(question.aborted)
        self._asking = solve_in_worker(self._game, answer, seconds=question.seconds, aborted=aborted,
                                       group="computer")

    def heard(self, answer: Answer) -> None:
        """A question's answer (``ComputerAnswered``), handed to the flow, which says what comes next."""
        self.go_on(self._game.flow.heard(answer))

    def _land(self, moved: ComputerMove) -> None:
        """The computer's move, revealed, lands (unless it was called off meanwhile)."""
        game = self._game
        landing = game.flow.land(moved)
        if landing is None:
            return
        if landing.tell_guess:
            game.notify("Too many discs to work out in time: the computer played a guess. "
                        "It plays at its level again once the table is smaller.", timeout=8)
        game.play(landing.placed)

    def stop(self) -> None:
        """Cancel the computer's search or reveal (undo, new match, leaving the screen)."""
        if self._asking is not None:
            self._asking.cancel()
            self._asking = None
        if self._reveal_timer is not None:
            self._reveal_timer.stop()
            self._reveal_timer = None
        self._game.flow.stop()
