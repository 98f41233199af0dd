"""Runs in the server process: a tournament's value types, as the store keeps them and the lobby shows them.

A tournament (``Tournament``: what was announced, ``TournamentPlan``, and how far it has come), its entrants
(``Entrant``: a keyed player, by the key's fingerprint, never a name) and its pairings (``Pairing``: two players,
or one and a bye; the match's code once made; the outcome once known). A pairing decided but not yet stored is a
``Pair``. Every one is small and frozen; nothing here reads the store or the clock.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from ...link.messages import MatchTerms, ProtocolError
from ...link.wire import terms_document as terms_document
from ...link.wire import terms_from_document as wire_terms_from_document


class TournamentError(ValueError):
    """A tournament that cannot be (announced, joined, paired...), said in one line."""


class TournamentKind(enum.StrEnum):
    #: A fixed number of rounds, paired by score.
    SWISS = "swiss"
    #: A fixed time, each player paired again as soon as they finish.
    ARENA = "arena"


class TournamentState(enum.StrEnum):
    UPCOMING = "upcoming"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def over(self) -> bool:
        return self in (TournamentState.FINISHED, TournamentState.CANCELLED)


class Outcome(enum.StrEnum):
    """How a pairing ended, as its two players score it (``Pairing.first`` and ``Pairing.second``)."""

    FIRST_WON = "first"
    SECOND_WON = "second"
    #: Half a win each (a draw, where the rules have one).
    DRAW = "draw"
    #: Nobody scores: the match was abandoned by both, or aborted, or neither came to the table.
    NEITHER = "neither"

    def points(self, seat: int) -> float:
        """What the player at ``seat`` (0: first, 1: second) made of it: 1 a win, 0.5 a draw, 0 otherwise."""
        if self is Outcome.DRAW:
            return 0.5
        return 1.0 if (self is Outcome.FIRST_WON and seat == 0) or (self is Outcome.SECOND_WON and seat == 1) else 0.0


#: The longest name a tournament may have, and the most rounds, minutes and hours ahead it may be announced for.
LONGEST_NAME = 40
MOST_ROUNDS = 30
MOST_MINUTES = 24 * 60
LONGEST_NOTICE_MINUTES = 60 * 24 * 60


@dataclass(frozen=True)
class TournamentPlan:
    """A tournament as announced: its name, kind, length (``rounds`` for a Swiss, ``minutes`` for an arena), when
    it starts (seconds since the epoch), the match terms (the lobby's ``MatchTerms``: rules, stars and discs in
    ``options``, the clock, rated or not), who may enter (a shown rating and a number of rated matches at least),
    and who announced it (a keyed player's fingerprint; ``None``: the server's owner)."""

    name: str
    kind: TournamentKind
    length: int
    starts_at: float
    terms: MatchTerms
    min_rating: int | None = None
    min_rated_matches: int | None = None
    created_by: str | None = None

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", TournamentKind(self.kind))
        except ValueError:
            raise TournamentError(f"a tournament is a swiss or an arena, not {self.kind!r}") from None
        name = " ".join(self.name.split())
        if not name or len(name) > LONGEST_NAME or not name.isprintable():
            raise TournamentError(f"a tournament's name is 1 to {LONGEST_NAME} printable characters")
        object.__setattr__(self, "name", name)
        most = MOST_ROUNDS if self.kind is TournamentKind.SWISS else MOST_MINUTES
        if isinstance(self.length, bool) or not isinstance(self.length, int) or not 1 <= self.length <= most:
            what = "a Swiss has 1 to {} rounds" if self.kind is TournamentKind.SWISS else "an arena has 1 to {} minutes"
            raise TournamentError(f"{what.format(most)}, not {self.length!r}")
        for limit, what in ((self.min_rating, "minimum rating"), (self.min_rated_matches, "minimum rated matches")):
            if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
                raise TournamentError(f"the {what} is a whole number, 0 or more")

    @property
    def rated(self) -> bool:
        return self.terms.rated

    @property
    def rounds(self) -> int | None:
        """A Swiss's number of rounds (``None``: an arena)."""
        return self.length if self.kind is TournamentKind.SWISS else None

    @property
    def minutes(self) -> int | None:
        """An arena's minutes (``None``: a Swiss)."""
        return self.length if self.kind is TournamentKind.ARENA else None

    @property
    def ends_at(self) -> float | None:
        """When an arena stops pairing (``None``: a Swiss, which ends with its last round)."""
        return self.starts_at + self.length * 60 if self.kind is TournamentKind.ARENA else None


@dataclass(frozen=True)
class Tournament:
    """A tournament in the store: its number, what was announced, its state, the last round paired (a Swiss's
    round; an arena counts each time it pairs) and when it was announced and ended."""

    id: int
    plan: TournamentPlan
    state: TournamentState
    round: int
    created_at: float
    finished_at: float | None = None
    #: The winner's fingerprint, once finished (``None``: nobody played, or not over).
    winner: str | None = None


@dataclass(frozen=True)
class Entrant:
    """A player in a tournament: the key's ``fingerprint`` (who they are), the ``name`` they had when last seen
    (a label; the lobby shows the name the key holds now), their shown rating when they joined (``None``: none yet;
    the Swiss seeds by it), when they joined, and whether they are paused (a missed pairing, or stepped out: not
    paired until they come back)."""

    fingerprint: str
    name: str
    rating: int | None
    joined_at: float
    paused: bool = False


@dataclass(frozen=True)
class Pair:
    """Two players to meet, ``first`` opening the match's first round (seat 0), or ``first`` alone: a bye."""

    first: str
    second: str | None

    @property
    def bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[str, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True)
class Pairing:
    """A pairing in the store: its number (unique in the store), its round, the two players (``first`` sits at
    seat 0 and opens the first round; ``second`` ``None``: a bye, won when it is made), the match's code once made,
    the outcome once known, and when it was paired and ended."""

    id: int
    tournament: int
    round: int
    first: str
    second: str | None
    paired_at: float
    code: str | None = None
    outcome: Outcome | None = None
    finished_at: float | None = None

    @property
    def bye(self) -> bool:
        return self.second is None

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def players(self) -> tuple[str, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    def seat_of(self, fingerprint: str) -> int | None:
        """0 (first), 1 (second) or ``None`` (not in it)."""
        return 0 if fingerprint == self.first else 1 if fingerprint == self.second else None

    def opponent_of(self, fingerprint: str) -> str | None:
        return self.second if fingerprint == self.first else self.first if fingerprint == self.second else None

    def points_of(self, fingerprint: str) -> float:
        """What ``fingerprint`` made of it so far (0 while in play)."""
        seat = self.seat_of(fingerprint)
        return 0.0 if seat is None or self.outcome is None else self.outcome.points(seat)


@dataclass(frozen=True)
class Snapshot:
    """A tournament as one transaction read it: the tournament, its entrants (in the order they joined) and every
    pairing (in the order they were made)."""

    tournament: Tournament
    entrants: tuple[Entrant, ...]
    pairings: tuple[Pairing, ...]

    def entrant(self, fingerprint: str) -> Entrant | None:
        return next((each for each in self.entrants if each.fingerprint == fingerprint), None)

    def playing(self) -> frozenset[str]:
        """Who is in a pairing not finished yet."""
        return frozenset(player for each in self.pairings if not each.finished for player in each.players)

    def current(self, fingerprint: str) -> Pairing | None:
        """``fingerprint``'s pairing in play (not finished), if any."""
        return next((each for each in self.pairings if not each.finished and fingerprint in each.players), None)


def terms_from_document(document: dict[str, Any]) -> MatchTerms:
    """The terms back from the store, every field checked as a child's would be (``TournamentError`` if not)."""
    try:
        return wire_terms_from_document(document)
    except ProtocolError as error:
        raise TournamentError(f"a tournament's stored terms do not read: {error}") from None
