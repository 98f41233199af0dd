"""Runs in the server process.

Who is at this server's lobby: each terminal (a ``Guest``), what the server knows of it (a
``Visitor``: the name shown, its secret, the match it is at, its requests in order), and the guest
asking right now (an ``Asker``: its answers carry the number of its question).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, replace
from dataclasses import field as data_field
from typing import Protocol

from ...link.messages import Answer, ErrorReply, LobbyListing, Reply, Request
from ..gate import RateWindow, client_key
from ..storage.secrets import hash_secret, is_current

#: No I or O: codes and secrets are read out loud and typed.
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
#: A seat's secret: six letters, shown to its player, asked for when they come back without their key.
SECRET_LENGTH = 6
#: Joins and watches by code, and secrets tried, a minute from one address (a player needs one or two); secrets
#: are limited further, per address and per seat and match from each address and key, in the store (``guesses.py``).
CODES_PER_MINUTE = 10

_letters = random.SystemRandom()


def random_letters(count: int) -> str:
    """Letters for a code or a secret, from the system's source of randomness."""
    return "".join(_letters.choice(CODE_LETTERS) for _ in range(count))


class Guest(Protocol):
    """A terminal at the lobby: who it is, and a way to tell it things."""

    @property
    def name(self) -> str: ...

    @property
    def fingerprint(self) -> str | None: ...

    @property
    def address(self) -> str: ...

    def send(self, message: Reply) -> None: ...

    def send_away(self, farewell: str) -> None:
        """End this terminal's session, ``farewell`` its last line (its player is back on another one)."""


@dataclass(frozen=True)
class Arrive:
    """The lobby's own first step for a guest (queued like its requests, never sent by a child)."""


@dataclass(frozen=True)
class Depart:
    """The lobby's own last step for a guest: whatever it was at is left (held)."""


Step = Request | Arrive | Depart


@dataclass
class Visitor:
    """What this server knows of one guest: the name shown, its secret, where it is, its requests in order."""

    name: str
    rated: bool
    name_chosen: bool
    secret: str
    secret_hash: str | None = None
    #: The code of the two-player match it sits or watches at.
    code: str | None = None
    #: The computer's level (``5``) while it plays a match against the computer.
    computer: str | None = None
    queue: asyncio.Queue[Step] = data_field(default_factory=asyncio.Queue)
    worker: asyncio.Task[None] | None = None
    last_listing: LobbyListing | None = None
    #: A keyed player's visit before this one (when the store last saw their key), ``None`` for a first or a guest.
    last_seen: float | None = None
    #: When this visit began, by the store's clock (a guest's record is its matches since).
    arrived: float = 0.0

    @classmethod
    def of(cls, guest: Guest, arrived: float = 0.0) -> Visitor:
        """A guest just arrived (at ``arrived``): known by its SSH name until the store says more, with a fresh
        secret."""
        keyed = guest.fingerprint is not None
        return cls(guest.name, rated=keyed, name_chosen=not keyed, secret=random_letters(SECRET_LENGTH),
                   arrived=arrived)

    async def hashed_secret(self) -> str:
        """This visitor's secret, hashed once."""
        if self.secret_hash is None:
            self.secret_hash = hash_secret(self.secret)
        return self.secret_hash

    def keep_secret(self, secret: str, secret_hash: str | None) -> None:
        """The player proved a seat or a game with the secret they know: it is theirs from now on (hashed again
        when it was kept by an older version's scheme, and written so with the seat or game)."""
        self.secret, self.secret_hash = secret, secret_hash if is_current(secret_hash) else None


def identities(guest: Guest, visitor: Visitor) -> frozenset[str]:
    """The names a seat or a kept game of this player's may be under: the name shown now, and the SSH name
    (a keyed player back without their key is shown as a guest, but their seat keeps the name)."""
    return frozenset((visitor.name, guest.name))


@dataclass(frozen=True)
class Asker:
    """The guest whose request is being acted on, and the number of its question (if it is one)."""

    guest: Guest
    visitor: Visitor
    ask: int | None = None

    def answer(self, message: Answer) -> None:
        """Send the answer to this question (it carries the question's number back)."""
        self.guest.send(replace(message, answer_to=self.ask))

    def refuse(self, text: str) -> None:
        """Not done, and why: one line, to whoever asked."""
        self.answer(ErrorReply(text))


class CodeTries:
    """Joining or watching by code, and proving a seat with a secret, a few times a minute per address:
    codes and secrets cannot be swept."""

    def __init__(self, per_minute: int = CODES_PER_MINUTE) -> None:
        self._window = RateWindow(per_minute)

    def allow(self, asker: Asker) -> bool:
        if self._window.allow(client_key(asker.guest.address)):
            return True
        asker.refuse("Too many tries: wait a minute before trying another code.")
        return False
