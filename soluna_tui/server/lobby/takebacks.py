"""Runs in the server process.

Takebacks in a match between two players, decided without I/O (as ``decisions.py``): a player asks to take
their last move back, the opponent accepts or declines.

- Only the player who made the last move of the round in play may ask, before the opponent answers it with a
  move (a move lapses the request: ``lapsed_by_move``), and never between rounds or once the match is over.
- One request pending at a time, and at most ``TAKEBACKS_PER_MATCH`` asked by each player in a match (accepted or
  not): a player cannot flood the opponent with requests.
- Never in a match whose terms forbid them (``takebacks_allowed``: every tournament's matches).
- Accepted, the move is taken back as the local undo takes it back (``rules/clock.py``): the asker's clock runs
  again from now holding what they held before the move, its increment taken back, and the time each player spent
  stays spent; one that would need time already spent (``MatchClock.short_of_time``) is refused, and the request
  lapses.

The request is kept with the asker's seat in the store (``SeatRecord.takeback``), so every server of a fleet tells
its own guests of it, and a server restart keeps it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from ...rules.clock import clock_turn
from ...rules.round import other
from ..storage import SeatRecord
from .decision_values import TAKEBACKS_TERM, Change, Decision, MatchRead, Moment, Refused, with_seat
from .news import News

#: The takebacks each player may ask for in one match, accepted or declined.
TAKEBACKS_PER_MATCH: Final = 3


def takebacks_allowed(options: Mapping[str, Any]) -> bool:
    """Whether a match with these stored options lets its players take moves back (unless told otherwise, yes)."""
    return options.get(TAKEBACKS_TERM) is not False


def asking_seat(seats: tuple[SeatRecord, ...]) -> Literal[0, 1] | None:
    """The seat whose takeback request waits for an answer (``None``: none)."""
    return 0 if seats[0].takeback else 1 if len(seats) > 1 and seats[1].takeback else None


def ask_takeback(read: MatchRead, seat: int, moment: Moment) -> Decision:
    """The player at ``seat`` asks to take their last move back: the opponent is asked, the asker told it waits."""
    if not read.in_play or read.match is None:
        return Refused("The match is over: no takebacks.")
    if not takebacks_allowed(read.stored.options):
        return Refused("No takebacks in a tournament match.")
    if read.adjourned:
        return Refused("The match is adjourned: no takebacks until both players are here.")
    mine, opponent = read.seats[seat], read.seats[other(seat)]
    if asking_seat(read.seats) is not None:
        return Refused("A takeback is asked already: wait for the answer.")
    refusal = _no_last_move(read, seat)
    if refusal is not None:
        return Refused(refusal)
    if mine.takebacks >= TAKEBACKS_PER_MATCH:
        return Refused(f"You have asked for {TAKEBACKS_PER_MATCH} takebacks in this match: no more.")
    if opponent.server is None:
        return Refused(f"{opponent.name} is away: nobody to ask.")
    seats = with_seat(read.seats, seat, takeback=True, takebacks=mine.takebacks + 1)
    lines = [f"{mine.name} asks to take their last move back: accept or decline."] * 2
    lines[seat] = f"Takeback asked: waiting for {opponent.name}'s answer."
    return Change(read.fresh_match(), seats, News((lines[0], lines[1])))


def _no_last_move(read: MatchRead, seat: int) -> str | None:
    """Why the player at ``seat`` has no move to take back now (``None``: they have: the round's last move)."""
    match = read.fresh_match()
    round_ = match.round
    if round_.is_over or match.is_over:
        return "The round is over: too late to take a move back."
    if round_.ply == 0 or round_.mover_at(round_.ply - 1) != seat:
        return "Only your own last move can be taken back, before your opponent moves."
    return None


def answer_takeback(read: MatchRead, seat: int, accept: bool, moment: Moment) -> Decision:
    """The player at ``seat`` answers the opponent's takeback request: accepted, the move is taken back on every
    screen (the clock as the local undo has it); declined, the request lapses. No request: nothing to answer."""
    asker = other(seat)
    if not read.in_play or read.match is None or not read.seats[asker].takeback:
        return Refused("Nobody asks for a takeback now.")
    name, answerer = read.seats[asker].name, read.seats[seat].name
    cleared = with_seat(read.seats, asker, takeback=False)
    if not accept:
        lines = [f"{answerer} declined your takeback."] * 2
        lines[seat] = f"You declined {name}'s takeback."
        return Change(read.fresh_match(), cleared, News((lines[0], lines[1])))
    refusal = _no_last_move(read, asker)
    if refusal is not None:
        return Change(read.fresh_match(), cleared, News.to_all("The takeback request lapsed: " + refusal.lower()))
    clock = read.clock
    if clock is not None and clock.short_of_time([asker], moment.now) is not None:
        line = f"Too late to take back: {name} has spent that move's {clock.setting.increment:g} s."
        return Change(read.fresh_match(), cleared, News.to_all(line))
    played = read.fresh_match()
    undone = played.round.placed_moves[-1]
    match = played.branch(played.round_number, played.round.ply - 1)
    taken = clock.after_change(moment.now, clock_turn(match), taken_back=[asker]) if clock is not None else None
    lines = [f"{answerer} accepted: your move {undone} is taken back."] * 2
    lines[seat] = f"You took {name}'s move {undone} back."
    return Change(match, cleared, News((lines[0], lines[1]), f"{name}'s move {undone} was taken back."), clock=taken)


def lapsed_by_move(seats: tuple[SeatRecord, ...], mover: int) -> tuple[tuple[SeatRecord, ...], str | None]:
    """The seats once the player at ``mover`` has moved: a takeback the opponent asked for lapses (their line says
    so, ``None``: none was asked)."""
    asker = other(mover)
    if not seats[asker].takeback:
        return seats, None
    return with_seat(seats, asker, takeback=False), f"{seats[mover].name} moved: your takeback request lapsed."
