"""What the store keeps, as small immutable values, and the errors it raises (all ``ValueError``s)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

from ...link.safe_names import skeleton
from ..rating_model import Rating


class StorageError(ValueError):
    """The store could not do what was asked; the message is one line a person can read."""


class StorageUnavailable(StorageError):
    """The database cannot be reached or refused the work (nothing was changed)."""


class SchemaTooNew(StorageError):
    """The database was migrated by a newer program than this one."""


class VersionConflict(StorageError):
    """Someone else changed the match first: re-read it and decide again."""

    def __init__(self, code: str, expected: int, actual: int) -> None:
        super().__init__(f"match {code} is at version {actual}, not {expected}")
        self.code = code
        self.expected = expected
        self.actual = actual


class MatchNotFound(StorageError):
    """No match in play has this code (it may have finished meanwhile)."""

    def __init__(self, code: str) -> None:
        super().__init__(f"no match in play has the code {code}")
        self.code = code


class CodeTaken(StorageError):
    """A match in play already uses this code: draw another one."""

    def __init__(self, code: str) -> None:
        super().__init__(f"the code {code} is in use")
        self.code = code


class NameTaken(StorageError):
    """Another player's key holds this name, or ``holder``, one that looks like it (``name_key``)."""

    def __init__(self, name: str, holder: str | None = None) -> None:
        self.name = name
        self.holder = name if holder is None else holder
        super().__init__(f"the name {name!r} belongs to another player" if self.holder == name
                         else f"the name {name!r} looks like {self.holder!r}, another player's")


def computer_code(level: int | str) -> str:
    """What a rated match against the computer at ``level`` is filed under, where a match between players has
    its code (never a code's four letters): ``computer-5``."""
    return f"computer-{level}"


def name_key(name: str) -> str:
    """How names are compared: by what they look like, so ``Ann``, ``ANN``, ``ＡＮＮ``, ``a n n``, ``ánn`` and
    ``аnn`` (a Cyrillic a) are one name (``link.safe_names.skeleton``)."""
    return skeleton(name)


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A player's place at a match: the name shown, the player's own name, key, hints, held-seat secret.

    ``secret_hash`` is a hash of the secret a returning player shows (never the secret itself);
    ``held_until`` is when a held seat is forfeited (seconds since the epoch), ``None`` when not held;
    ``server`` names the server whose session sits there (``None``: the player is away);
    ``rematch`` is set when this player asked for a rematch of the finished match;
    ``away_used`` is the time this player has spent away from the match before, in seconds, and
    ``away_since`` when they left this time (``None`` while here): time away adds up over a match;
    ``addresses`` are where the player sat down from (``gate.client_key``: an IPv4 address or an IPv6
    /64), kept while the match is in play and never filed: two seats with one in common are not rated;
    ``resigned`` is set when this player gave the finished match up (its end told as a resignation, not a
    forfeit); ``takeback`` is set while this player asks to take their last move back and the opponent has not
    answered, and ``takebacks`` counts the takebacks they asked for in this match (``lobby/takebacks.py``).
    """

    name: str
    identity: str
    fingerprint: str | None
    hints: bool
    secret_hash: str | None = None
    held_until: float | None = None
    server: str | None = None
    rematch: bool = False
    away_used: float = 0.0
    away_since: float | None = None
    addresses: tuple[str, ...] = ()
    resigned: bool = False
    takeback: bool = False
    takebacks: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, document: dict[str, Any]) -> SeatRecord:
        addresses = document.get("addresses")
        return cls(str(document["name"]), str(document.get("identity", document["name"])),
                   document.get("fingerprint"), bool(document.get("hints", False)),
                   document.get("secret_hash"), document.get("held_until"), document.get("server"),
                   bool(document.get("rematch", False)), float(document.get("away_used") or 0.0),
                   document.get("away_since"),
                   tuple(str(each) for each in addresses) if isinstance(addresses, list) else (),
                   bool(document.get("resigned", False)), bool(document.get("takeback", False)),
                   int(document.get("takebacks") or 0))


def seats_text(seats: tuple[SeatRecord, ...]) -> str:
    return json.dumps([seat.to_dict() for seat in seats], ensure_ascii=False)


def seats_from_text(text: str) -> tuple[SeatRecord, ...]:
    return tuple(SeatRecord.from_dict(item) for item in json.loads(text))


def json_or_none(document: dict[str, Any] | None) -> str | None:
    """A document as the database keeps it (JSON text), or ``None`` for none."""
    return None if document is None else json.dumps(document, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A match in play (or waiting for its second player) as the store has it at ``version``.

    ``document`` is the match itself (``Match.to_dict()``), ``None`` while waiting for an opponent;
    ``news`` is what its last change told the players (for servers that learn of it from a notice);
    ``clock`` the match's clock (``rules.clock.MatchClock.to_document``), ``None`` when it has none;
    ``adjourned_at`` when the match was adjourned (nobody could play for over a day: it waits for both players, no
    clock running, no seat held), ``None`` when it is not.
    """

    code: str
    version: int
    options: dict[str, Any]
    seats: tuple[SeatRecord, ...]
    document: dict[str, Any] | None
    created_at: float
    updated_at: float
    news: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None
    adjourned_at: float | None = None


@dataclass(frozen=True, slots=True)
class ComputerGameRecord:
    """A match against the computer kept for its player: ``server`` plays it now, else it is held
    until ``held_until``. ``document`` is the saved match (``SavedMatch.to_document()``)."""

    id: str
    server: str | None
    identity: str
    fingerprint: str | None
    secret_hash: str
    document: dict[str, Any]
    held_until: float | None
    updated_at: float


@dataclass(frozen=True, slots=True)
class ServerRecord:
    """A server sharing the database: when it last said it was alive, and the version of its list of who is
    online there (``Servers.rosters`` reads the lists)."""

    id: str
    seen_at: float
    online_version: int = 0


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating before and after a rated match."""

    fingerprint: str
    before: Rating
    after: Rating

    def to_dict(self) -> dict[str, Any]:
        return {"fingerprint": self.fingerprint, "before": self.before.to_dict(), "after": self.after.to_dict()}

    @classmethod
    def from_dict(cls, document: dict[str, Any]) -> RatingChange:
        return cls(document["fingerprint"], Rating.from_dict(document["before"]), Rating.from_dict(document["after"]))


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A match that has ended (won, forfeited, on time, abandoned or aborted) with every move, kept for good.

    ``result`` is an ``EndReason`` value; ``winner`` the seat that won (``None`` when abandoned or
    aborted); ``rating_changes`` one per seat in seat order when the match was rated, else empty;
    ``clock`` the match's clock as it ended, if it had one.
    """

    id: int
    code: str
    result: str
    winner: int | None
    options: dict[str, Any]
    seats: tuple[SeatRecord, ...]
    document: dict[str, Any]
    started_at: float
    finished_at: float
    rating_changes: tuple[RatingChange, ...]
    clock: dict[str, Any] | None = None

    @property
    def rated(self) -> bool:
        return bool(self.rating_changes)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player known by key: the name they hold, and when they were first and last seen."""

    fingerprint: str
    name: str
    first_seen: float
    last_seen: float


@dataclass(frozen=True, slots=True)
class ReservedName:
    """A name a key gave up (its player chose another), reserved to that key until ``until`` (seconds since the
    epoch): ``holder`` is the name the key holds now."""

    name: str
    fingerprint: str
    holder: str
    until: float


@dataclass(frozen=True, slots=True)
class Standing:
    """A rated player's line on the leaderboard (``rank`` ``None``: too few rated matches to be ranked yet)."""

    rank: int | None
    fingerprint: str
    name: str
    rating: Rating
    played: int
    won: int
    lost: int


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """A player's own record: who, where they stand (``None`` before a rated match), recent matches, and their
    rated matches against the computer won and lost (which the standing's counts, between people, leave out)."""

    player: PlayerRecord | None
    standing: Standing | None
    recent: tuple[FinishedMatch, ...]
    computer: tuple[int, int] = (0, 0)


class Change(NamedTuple):
    """A match changed to ``version`` (re-read it: it may be gone, finished); ``code`` ``None``: re-read all.

    A pair, so ``async for code, version in store.subscribe()`` reads well.
    """

    code: str | None
    version: int = 0

    @property
    def resync(self) -> bool:
        return self.code is None


#: How a ``Change`` says "this key's player changed: their name or their rating" (``player_changed``; a match's code
#: is four letters: never this).
PLAYER = "*player:"


def player_changed(fingerprint: str) -> Change:
    """The news that the key ``fingerprint``'s name or rating changed (every server shows it as it is now)."""
    return Change(PLAYER + fingerprint, 0)


#: After a lost notification connection, or a subscriber that fell behind: anything may have changed.
RESYNC = Change(None)


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What a JSON archive import brought in; ``skipped`` names the files that could not be read."""

    active: int
    finished: int
    skipped: tuple[str, ...]
    already_done: bool = False
