"""Seat and game secrets as the store keeps them: salted hashes, never the secret itself; and how often
one may be guessed.

A secret is six letters a player may type with spaces, dashes or in lower case; it is cleaned the
same way before hashing and before checking. A secret lives only as long as a match in play or a
held game, and guesses at it are limited (``GuessLimit``), so a salted HMAC-SHA256 is enough: a
wrong guess costs the server a microsecond, not the tens of milliseconds of the scrypt hashes of
earlier versions (still read, once each: ``is_current`` says when a hash should be made again).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass, field

SCHEME = "hmac-sha256"
#: Earlier versions' scheme: still accepted, then replaced by a hash of the current scheme.
OLD_SCHEME = "scrypt"
#: scrypt's cost: about 16 MiB and a few tens of milliseconds a hash.
_OLD_COST = {"n": 2**14, "r": 8, "p": 1, "maxmem": 64 * 1024 * 1024, "dklen": 32}


def clean_secret(text: str) -> str:
    return re.sub(r"[^A-Za-z]", "", text).upper()


def _digest(secret: str, salt: bytes, scheme: str) -> bytes:
    cleaned = clean_secret(secret).encode("ascii", "replace")
    if scheme == OLD_SCHEME:
        return hashlib.scrypt(cleaned, salt=salt, **_OLD_COST)
    return hmac.digest(salt, cleaned, "sha256")


def hash_secret(secret: str) -> str:
    """``hmac-sha256$SALT$HASH`` (hex) of the cleaned secret, with a fresh salt each time."""
    salt = secrets.token_bytes(16)
    return f"{SCHEME}${salt.hex()}${_digest(secret, salt, SCHEME).hex()}"


def is_current(kept_hash: str | None) -> bool:
    """Whether ``kept_hash`` is of this version's scheme (else it is made again once its secret is shown)."""
    return kept_hash is not None and kept_hash.startswith(f"{SCHEME}$")


def secret_matches(given: str | None, kept_hash: str | None) -> bool:
    """Whether ``given`` is the secret ``kept_hash`` was made from (compared in constant time). An old scrypt
    hash takes a few tens of milliseconds: call this only once the guess limits allow it."""
    if not given or not kept_hash:
        return False
    scheme, _, rest = kept_hash.partition("$")
    salt_hex, _, digest_hex = rest.partition("$")
    try:
        salt, digest = bytes.fromhex(salt_hex), bytes.fromhex(digest_hex)
    except ValueError:
        return False
    if scheme not in (SCHEME, OLD_SCHEME) or not salt or not digest:
        return False
    return hmac.compare_digest(_digest(given, salt, scheme), digest)


@dataclass(frozen=True)
class GuessLimit:
    """How often a secret may be tried for one thing (a seat, a match, an address): ``free`` tries at once,
    then a wait after each that doubles from ``delay`` up to ``longest`` seconds; after ``forget`` seconds
    without a try, the tries are forgotten."""

    free: int
    delay: float
    longest: float
    forget: float

    def wait(self, tries: int, last: float, now: float) -> float:
        """Seconds before the next try, after ``tries`` tries, the last at ``last`` (0: it may be tried now)."""
        if now - last >= self.forget or tries < self.free:
            return 0.0
        return max(0.0, last + min(self.longest, self.delay * 2.0 ** (tries - self.free)) - now)

    def tries_now(self, tries: int, last: float, now: float) -> int:
        """The tries still remembered at ``now``."""
        return 0 if now - last >= self.forget else tries


#: A seat's secret: three tries at once, then 15 s, 30 s, 1 min... up to 15 minutes between two.
SEAT_GUESSES = GuessLimit(free=3, delay=15.0, longest=900.0, forget=3600.0)
#: A match's seats together (a guess may be tried on both): twice a seat's.
MATCH_GUESSES = GuessLimit(free=6, delay=15.0, longest=900.0, forget=3600.0)
#: One address, whatever it tries secrets for.
ADDRESS_GUESSES = GuessLimit(free=5, delay=10.0, longest=900.0, forget=3600.0)
#: A match against the computer held for its player.
GAME_GUESSES = SEAT_GUESSES
#: Every stranger's try at one seat, whatever its address: counted to tell the seat's player, never a wait (a
#: wait there would let a stranger lock the player out of their own seat).
SEAT_COUNTED = GuessLimit(free=2**31 - 1, delay=0.0, longest=0.0, forget=3600.0)
#: The longest any tries are remembered (the store forgets older ones).
LONGEST_FORGET = max(limit.forget for limit in (SEAT_GUESSES, MATCH_GUESSES, ADDRESS_GUESSES, GAME_GUESSES,
                                                SEAT_COUNTED))


@dataclass(frozen=True)
class SecretTry:
    """What the store said to a try of a secret: ``wait`` 0, it was counted (``tries``: each scope's tries
    now, this one included); else nothing was counted, and ``scope`` must wait ``wait`` seconds more."""

    wait: float
    scope: str | None = None
    tries: dict[str, int] = field(default_factory=dict)
