"""Seat and game secrets as the store keeps them: salted scrypt hashes, never the secret itself.

A secret is six letters a player may type with spaces, dashes or in lower case; it is cleaned the
same way before hashing and before checking. Hashing is slow on purpose (a stolen database does not
give the secrets away), so callers run it off the event loop (``asyncio.to_thread``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

SCHEME = "scrypt"
#: scrypt's cost: about 16 MiB and a few tens of milliseconds a hash.
_COST = {"n": 2**14, "r": 8, "p": 1, "maxmem": 64 * 1024 * 1024, "dklen": 32}


def clean_secret(text: str) -> str:
    return re.sub(r"[^A-Za-z]", "", text).upper()


def hash_secret(secret: str) -> str:
    """``scrypt$SALT$HASH`` (hex) of the cleaned secret, with a fresh salt each time."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(clean_secret(secret).encode("ascii", "replace"), salt=salt, **_COST)
    return f"{SCHEME}${salt.hex()}${digest.hex()}"


def secret_matches(given: str | None, kept_hash: str | None) -> bool:
    """Whether ``given`` is the secret ``kept_hash`` was made from (compared in constant time)."""
    if not given or not kept_hash:
        return False
    scheme, _, rest = kept_hash.partition("$")
    salt_hex, _, digest_hex = rest.partition("$")
    try:
        salt, digest = bytes.fromhex(salt_hex), bytes.fromhex(digest_hex)
    except ValueError:
        return False
    if scheme != SCHEME or not salt or not digest:
        return False
    given_digest = hashlib.scrypt(clean_secret(given).encode("ascii", "replace"), salt=salt, **_COST)
    return hmac.compare_digest(given_digest, digest)
