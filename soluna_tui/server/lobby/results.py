"""Runs in the server process.

How a finished match is told beyond the moment it ends: what a rated match did to each player's
rating (read from the match as filed, so every server tells the same), and, to a player who was
away when their match ended (a forfeit, their clock run out), how it ended and what it did to their
rating when they come back: on arrival with their key, or when they type its code.
"""

from __future__ import annotations

from ...link.messages import RatingShift
from ...rules.end_reason import EndReason
from ...rules.wording import minutes
from ..storage import FinishedMatch, Storage
from .visitors import Guest, Visitor, identities

#: How long after a match ended its code still tells a player who sat there what became of it.
TOLD_FOR = 24 * 3600.0


def rating_shifts(finished: FinishedMatch) -> tuple[RatingShift, ...]:
    """Each player's rating before and after, by seat (nothing for a match that was not rated)."""
    changes = finished.rating_changes
    if len(changes) != len(finished.seats):
        return ()
    return tuple(RatingShift(seat.name, change.before.shown, change.after.shown)
                 for seat, change in zip(finished.seats, changes, strict=True))


def rating_shift(finished: FinishedMatch, index: int) -> RatingShift | None:
    """What the match did to the rating of the player at seat ``index`` (``None``: it was not rated)."""
    shifts = rating_shifts(finished)
    return shifts[index] if index < len(shifts) else None


def seat_in(finished: FinishedMatch, guest: Guest, visitor: Visitor) -> int | None:
    """The seat this player had at a finished match: by their key, else by one of their names."""
    names = identities(guest, visitor)
    for index, seat in enumerate(finished.seats):
        if guest.fingerprint is not None and seat.fingerprint == guest.fingerprint:
            return index
    for index, seat in enumerate(finished.seats):
        if seat.fingerprint is None and seat.identity in names:
            return index
    return None


def how_it_ended(finished: FinishedMatch, index: int, hold_time: float) -> str:
    """What became of a match, told to the player at seat ``index`` who was not there when it ended: how it
    ended (on the board, on time, by forfeit, by resignation, aborted, abandoned) and their rating's change."""
    seats, winner = finished.seats, finished.winner
    reason = EndReason(finished.result)
    if reason is EndReason.ABORTED:
        said = "it was aborted before both players had moved, and not rated."
    elif reason is EndReason.ABANDONED or winner is None:
        said = "both players had left, so it was abandoned."
    else:
        them = seats[1 - index].name
        said = {
            (EndReason.WON, True): "you won it on the board.",
            (EndReason.WON, False): f"{them} won it on the board.",
            (EndReason.FORFEIT, True): f"{them} did not come back, so you won by forfeit.",
            (EndReason.FORFEIT, False): f"you did not come back within {minutes(hold_time)}, so {them} won by "
                                        "forfeit.",
            (EndReason.TIME, True): f"{them}'s time ran out, so you won on time.",
            (EndReason.TIME, False): f"your time ran out, so {them} won on time.",
            (EndReason.RESIGNED, True): f"{them} resigned, so you won.",
            (EndReason.RESIGNED, False): f"you resigned, so {them} won.",
        }[reason, winner == index]
    shift = rating_shift(finished, index)
    return said + (f" {shift.line}." if shift is not None else "")


async def ended_while_away(store: Storage, guest: Guest, visitor: Visitor, hold_time: float) -> str | None:
    """A keyed player's latest match, if it ended while they were away from it (a forfeit, their clock run out,
    the opponent's last move) since their last visit (or lately, for a key that never chose its name, whose visits
    are not kept): one line saying how, and what it did to their rating."""
    fingerprint = guest.fingerprint
    if fingerprint is None:
        return None
    since = visitor.last_seen if visitor.last_seen is not None else store.clock() - TOLD_FOR
    recent = await store.finished.of_player(fingerprint, 1)
    if not recent:
        return None
    finished = recent[0]
    index = seat_in(finished, guest, visitor)
    if index is None or finished.seats[index].server is not None or finished.finished_at <= since:
        return None  # not theirs, or they were at it as it ended (they saw it), or told on an earlier visit
    return f"While you were away, your match against {finished.seats[1 - index].name} ended: " \
           f"{how_it_ended(finished, index, hold_time)}"


async def ended_under_code(store: Storage, code: str, guest: Guest, visitor: Visitor, hold_time: float) -> str | None:
    """The match a player sat at under ``code``, if it ended lately: one line saying how (``None``: no such)."""
    finished = await store.finished.latest_under(code)
    if finished is None or finished.finished_at < store.clock() - TOLD_FOR:
        return None
    index = seat_in(finished, guest, visitor)
    if index is None:
        return None
    return f"Match {code} is over: {how_it_ended(finished, index, hold_time)}"
