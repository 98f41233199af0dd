"""The guided round: a newcomer's first round, on a small fixed layout, in four steps (pick a tower up and
see where it may go; a move legal by equal heights; one legal by the same symbol on top; play on until a
player has no move left, and so loses the round).

Pure: ``screens/guided_round.py`` shows a ``Lesson`` and hands it the player's moves; the lesson says
what each step asks, refuses a legal move that does not show what the step is about, and chooses the
computer's replies so that every step can be done and the round can still be won.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from ..rules import Arrangement, Move, PlacedMove, Position, Solver

#: Eight discs, two of each symbol: a round of a minute or two, with both kinds of move on offer all through.
LAYOUT = Position.parse("1S 1S 1M 1M 1* 1* 1C 1C")
YOU, COMPUTER = 0, 1
#: The lesson's own solver (instant on eight discs), never the shared one: the replies are chosen on the event
#: loop, and the shared solver may be held for seconds by a proof in a game's worker (the help's ``g`` opens the
#: guided round over a match against level 10).
LESSON_SOLVER = Solver()


class Step(Enum):
    """Where the newcomer is in the guided round."""

    PICK = "pick"  # pick a tower up
    BY_HEIGHT = "by height"  # put it on a lit tower: all are as high as it
    BY_SYMBOL = "by symbol"  # a tower on one of another height, with the same symbol on top
    TO_THE_END = "to the end"  # play on: the player left without a move loses
    OVER = "over"


#: What each step asks, shown beside the board (``Lesson.text`` adds what just happened).
STEP_TEXTS = {
    Step.PICK: "Step 1 of 4: pick a tower up.\n\nEach tower is named by its height and the symbol on its top: "
               "1S is one disc showing a sun (S), M a moon, * stars, C a comet.\n\nMove between the towers with "
               "the arrows, then press Enter (or click a tower). The keys are on the bottom line: n skips the "
               "guided round.",
    Step.BY_HEIGHT: "Step 2 of 4: the lit towers are where it may go.\n\nA tower may go on another of the SAME "
                    "HEIGHT (the next step shows the other way): every tower is 1 disc high now, so each is "
                    "lit. Move to one and press Enter. Escape puts the tower back.",
    Step.BY_SYMBOL: "Step 3 of 4: a tower may also go on another with the SAME SYMBOL on top, whatever the "
                    "heights.\n\nPut a tower of 1 disc on the tower of 2 with its symbol on top, or that tower of 2 on "
                    "a tower of 1 with its symbol. The moved tower's symbol ends on top.",
    Step.TO_THE_END: "Step 4 of 4: play on.\n\nEach move joins two towers, so the round ends soon: the "
                     "player who cannot move LOSES the round, and the other wins a star.",
}


def by_symbol_only(move: Move) -> bool:
    """A move legal only because the two towers show the same symbol (their heights differ)."""
    return move.mover.symbol == move.target.symbol and move.mover.height != move.target.height


@dataclass(frozen=True)
class Lesson:
    """The guided round as it stands: the table, the step, the computer's last reply, who won."""

    table: Arrangement
    step: Step = Step.PICK
    #: The computer's last reply, marked on the board.
    reply: PlacedMove | None = None
    #: Who won the round once it is over (``YOU`` or ``COMPUTER``).
    winner: int | None = None

    @classmethod
    def start(cls) -> Lesson:
        return cls(Arrangement.opening(LAYOUT))

    @property
    def over(self) -> bool:
        return self.step is Step.OVER

    @property
    def text(self) -> str:
        """What the step asks, after what the computer just did."""
        if self.over:
            left = ", ".join(str(tower) for tower in self.table.towers)
            why = f"No two of {left} share a height or a symbol on top." if len(self.table.towers) > 1 else (
                "One tower is left: nothing to put it on.")
            if self.winner == YOU:
                return (f"The computer has no move left: it LOSES the round, and you win a star. {why}\n\nA match "
                        "is played to 4 stars. Press Enter to set one up: the computer's level is chosen to "
                        "match you.")
            return (f"You have no move left: you LOSE the round, and the computer wins a star. {why}\n\nIt happens: "
                    "a match is played to 4 stars. Press Enter to set one up (r tries this round again).")
        said = f"The computer put {self.reply.move.mover} on {self.reply.move.target}.\n\n" if self.reply else ""
        return said + STEP_TEXTS[self.step]

    def picked(self) -> Lesson:
        """A tower lifted: the lit targets are the next thing to see."""
        return replace(self, step=Step.BY_HEIGHT) if self.step is Step.PICK else self

    def lights(self, move: Move) -> bool:
        """Whether a legal ``move``'s target is lit in this step (in the symbol step, only targets by symbol)."""
        return self.refusal(move) is None

    def refusal(self, move: Move) -> str | None:
        """Why a legal ``move`` does not show what this step is about, or ``None`` when it does."""
        if self.step is Step.BY_SYMBOL and not by_symbol_only(move):
            # legal, and not by symbol alone: the two towers are as high
            return "Legal by height, but this step is about symbols: choose a lit tower."
        return None

    def played(self, placed: PlacedMove) -> Lesson:
        """The newcomer's move (legal, and fitting the step), then the computer's reply if it has one."""
        table = self.table.after(placed)
        if table.position.is_blocked:
            return Lesson(table, Step.OVER, None, YOU)
        step = {Step.PICK: Step.BY_SYMBOL, Step.BY_HEIGHT: Step.BY_SYMBOL}.get(self.step, Step.TO_THE_END)
        move = reply_for(table.position, step)
        if step is Step.BY_SYMBOL and not any(by_symbol_only(each) for each in table.position.after(move).legal_moves):
            step = Step.TO_THE_END  # not met on this layout (a test plays every way through), but never stuck
        reply = table.resolve(move)
        table = table.after(reply)
        if table.position.is_blocked:
            return Lesson(table, Step.OVER, reply, COMPUTER)
        return Lesson(table, step, reply)


def reply_for(position: Position, step: Step) -> Move:
    """The computer's reply, chosen to teach: before the symbol step, one that leaves the newcomer a move by
    symbol; after it, one that leaves the round won for the newcomer if any does (they still must find the way);
    never one that ends the round while another does not. Deterministic: the first such in canonical order."""
    moves = sorted(position.legal_moves, key=lambda move: move.sort_key)

    def leaves(move: Move) -> Position:
        return position.after(move)

    going_on = [move for move in moves if not leaves(move).is_blocked] or moves
    if step is Step.BY_SYMBOL:
        teaching = [move for move in going_on if any(by_symbol_only(each) for each in leaves(move).legal_moves)]
        return (teaching or going_on)[0]
    winnable = [move for move in going_on if LESSON_SOLVER.verdict(leaves(move)).wins]
    return (winnable or going_on)[0]

