"""Runs in the server process.

How a finished match is told beyond the moment it ends: what a rated match did to each player's
rating (read from the match as filed, so every server tells the same), and, to a player who was
away when their match ended, what became of it when they come back: on arrival with their key, or
when they type its code.
"""

from __future__ import annotations

from ...link.end_reason import EndReason
from ...link.messages import RatingShift
from ...play.wording import minutes
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
    """What became of a match, told to the player at seat ``index`` who was not there when it ended."""
    seats, winner = finished.seats, finished.winner
    if finished.result == EndReason.ABANDONED or winner is None:
        return "both players had left, so it was abandoned."
    if finished.result == EndReason.FORFEIT and winner != index:
        return (f"you did not come back within {minutes(hold_time)}, so {seats[winner].name} won by forfeit.")
    if finished.result == EndReason.FORFEIT:
        return f"{seats[1 - index].name} did not come back, so you won by forfeit."
    return "you won it." if winner == index else f"{seats[winner].name} won it."


async def ended_while_away(store: Storage, guest: Guest, visitor: Visitor, hold_time: float) -> str | None:
    """A keyed player's latest match, if it ended by forfeit since their last visit (or lately, for a key that never
    chose its name, whose visits are not kept): one line saying so."""
    fingerprint = guest.fingerprint
    if fingerprint is None:
        return None
    since = visitor.last_seen if visitor.last_seen is not None else store.clock() - TOLD_FOR
    recent = await store.recent_matches(fingerprint, 1)
    if not recent:
        return None
    finished = recent[0]
    index = seat_in(finished, guest, visitor)
    if finished.result != EndReason.FORFEIT or index is None or finished.finished_at <= since:
        return None
    return f"While you were away, your match against {finished.seats[1 - index].name} ended: " \
           f"{how_it_ended(finished, index, hold_time)}"


async def ended_under_code(store: Storage, code: str, guest: Guest, visitor: Visitor, hold_time: float) -> str | None:
    """The match a player sat at under ``code``, if it ended lately: one line saying how (``None``: no such)."""
    finished = await store.latest_finished(code)
    if finished is None or finished.finished_at < store.clock() - TOLD_FOR:
        return None
    index = seat_in(finished, guest, visitor)
    if index is None:
        return None
    return f"Match {code} is over: {how_it_ended(finished, index, hold_time)}"
