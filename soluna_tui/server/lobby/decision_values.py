"""Runs in the server process.

What a decision of the match policy (``decisions.py``) reads and returns, as small values: the match as read
from the store (``MatchRead``), the ``Moment`` it is taken at, who takes a free seat (``Newcomer``), and the
``Decision``: a ``Change`` to write, a refusal for the asker alone (``Refused``, ``Resync``), or nothing; with
the small helpers every decision shares (a seat changed, the addresses it sat down from, its time away) and
match options read from a request.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from ...rules import Match, MatchOptions, SolunaError
from ...rules.clock import MatchClock
from ...rules.end_reason import EndReason
from ..storage import SeatRecord, StoredMatch
from .news import NO_NEWS, News

#: Where one seat keeps at most this many addresses it sat down from (the latest).
ADDRESSES_KEPT = 8
#: The key of a match's stored options that forbids takebacks when ``False`` (a rated tournament's matches set it;
#: ``takebacks.py``): a term of the match, not an option of the game.
TAKEBACKS_TERM = "takebacks"
#: The key of a match's stored options that names the tournament it is played for (``tournament_desk.py``): no
#: rematch there, and its players and spectators are told the tournament's name.
TOURNAMENT_TERM = "tournament"


class MatchRead:
    """A match as read from the store: its record and, once both players sit, the match itself (a decision
    never changes it: it plays on ``fresh_match()``)."""

    def __init__(self, stored: StoredMatch) -> None:
        self.take(stored)

    def take(self, stored: StoredMatch) -> None:
        """The match as now read."""
        self.stored = stored
        self.code, self.version, self.seats = stored.code, stored.version, stored.seats
        self.match = Match.from_dict(stored.document) if stored.document is not None else None
        self.clock = MatchClock.from_document(stored.clock)
        self.adjourned_at = stored.adjourned_at

    @property
    def waiting(self) -> bool:
        """Created, and waiting for its second player."""
        return self.match is None

    @property
    def finished(self) -> bool:
        return self.match is not None and self.match.is_over

    @property
    def in_play(self) -> bool:
        return self.match is not None and not self.match.is_over

    @property
    def adjourned(self) -> bool:
        """In play and adjourned (``Referee.adjourn``): no clock runs, no seat is held, until both players are here."""
        return self.adjourned_at is not None and self.in_play

    @property
    def hints(self) -> bool:
        """Perfect-play help, only where both players allowed it."""
        return len(self.seats) == 2 and all(seat.hints for seat in self.seats)

    def fresh_match(self) -> Match:
        """A copy of the match to decide a change on (the one read stays as stored)."""
        if self.stored.document is None:
            raise SolunaError("the match has not begun")
        return Match.from_dict(self.stored.document)

    @property
    def ended(self) -> EndReason | None:
        """How a finished match ended (played out, by forfeit, on time); ``None`` while it is not over."""
        if not self.finished or self.match is None:
            return None
        quitter = self.match.forfeited_by
        if quitter is None:
            return EndReason.WON
        if self.seats[quitter].resigned:
            return EndReason.RESIGNED
        if self.clock is not None and self.clock.left[quitter] <= 0:
            return EndReason.TIME
        return EndReason.FORFEIT


@dataclass(frozen=True)
class Moment:
    """When a decision is taken: the store's time, this server, and the servers alive then."""

    now: float
    server: str
    live: frozenset[str]

    def seat_free(self, seat: SeatRecord) -> bool:
        """Nobody sits there: the player left, or their server is gone."""
        return seat.server is None or (seat.server != self.server and seat.server not in self.live)

    def away(self, seat: SeatRecord) -> float | None:
        """``None`` while the player is here; else the seconds the seat is still held (0: not held)."""
        if not self.seat_free(seat):
            return None
        if seat.held_until is None:
            return 0.0
        return max(0.0, seat.held_until - self.now)


class Keep(Enum):
    """What a change leaves as read: the match's clock (it runs on as it was), its adjournment."""

    CLOCK = "clock"
    ADJOURNMENT = "adjournment"


@dataclass(frozen=True)
class Change:
    """A match's next state: the match (``None`` while waiting), its seats, and what each one at it hears.

    ``finish``: ``WON``/``FORFEIT``/``TIME``/``RESIGNED`` file it and keep it on screen, ``ABANDONED``/``ABORTED``
    file it and let it go; ``drop``: it goes from play unfiled (a waiting match whose creator left); ``clock``: the
    match's clock now (``Keep.CLOCK``: as read); ``adjourned_at``: when it was adjourned (``None``: it is not;
    ``Keep.ADJOURNMENT``: as read)."""

    match: Match | None
    seats: tuple[SeatRecord, ...]
    news: News = NO_NEWS
    finish: EndReason | None = None
    drop: bool = False
    clock: MatchClock | None | Keep = Keep.CLOCK
    adjourned_at: float | None | Keep = Keep.ADJOURNMENT

    @property
    def goes(self) -> bool:
        """The match goes from play with this change (its guests go back to the lobby)."""
        return self.drop or (self.finish is not None and not self.finish.has_winner)


@dataclass(frozen=True)
class Refused:
    """Not done: the asker is told why, in one line."""

    text: str


@dataclass(frozen=True)
class Resync:
    """Not done: the asker's screen (which played ahead) is put back to the match as stored, with why."""

    notice: str


Decision = Change | Refused | Resync | None


@dataclass(frozen=True)
class Newcomer:
    """A player taking the free seat of a waiting match: the name they are known by, their key, hints allowed,
    the hash of the secret that will let them back in, and where they connect from (``gate.client_key``)."""

    name: str
    fingerprint: str | None
    hints: bool
    secret_hash: str
    address: str | None = None


def with_seat(seats: tuple[SeatRecord, ...], index: int, **changes: Any) -> tuple[SeatRecord, ...]:
    """The seats with seat ``index`` changed."""
    return tuple(replace(seat, **changes) if number == index else seat for number, seat in enumerate(seats))


def seen_from(seat: SeatRecord, address: str | None) -> tuple[str, ...]:
    """The addresses ``seat`` sat down from, with ``address`` (the latest kept)."""
    if address is None or address in seat.addresses:
        return seat.addresses
    return (seat.addresses + (address,))[-ADDRESSES_KEPT:]


def away_used(seat: SeatRecord, now: float) -> float:
    """The time the player at ``seat`` has been away from the match in all, counting the absence going on."""
    since = seat.away_since
    return seat.away_used + (max(0.0, now - since) if since is not None else 0.0)


class BadOptions(SolunaError):
    """Match options that are not options of this game."""


def match_options(document: dict[str, Any]) -> MatchOptions:
    """Match options from a request or the store, each value checked by ``MatchOptions`` itself
    (``OptionError``, a ``SolunaError``, when one is wrong)."""
    allowed = {"stars_to_win", "discs", "next_layout", "next_opener", "first_opener"}
    options = {key: value for key, value in document.items()
               if key not in (TAKEBACKS_TERM, TOURNAMENT_TERM)}  # terms, not options
    if not set(options) <= allowed:
        raise BadOptions("unknown match options")
    try:
        return MatchOptions(**options)
    except TypeError as error:
        raise BadOptions(f"bad match options: {error}") from None
