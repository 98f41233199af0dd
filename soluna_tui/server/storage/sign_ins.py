"""A browser signed in as a keyed player, as the store keeps it: the one-time code shown in the SSH lobby and the
browser's cookie, never as shown; how long each lives, and how often codes may be guessed.

A code is ten letters (no I or O), shown as ``ABCD-EFGHJK``: its first four name it (``code_id``, so that wrong
tries at one code are counted, and the code is spent after a few), the whole code is kept as a salted HMAC
(``secrets.hash_secret``). It lives a few minutes and is used once. A browser's cookie is 32 random bytes; the
store keeps their SHA-256, which is enough for a value nobody can guess. Why these lengths are enough is worked
out in docs/security.md.
"""

from __future__ import annotations

import hashlib
import secrets as system_random

from .secrets import GuessLimit, clean_secret

#: Letters a code is made of, as a match's code (no I or O: read out, typed).
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
#: The letters of a code, and how many of them name it.
CODE_LENGTH, CODE_ID_LENGTH = 10, 4
#: Seconds a code may be used in.
CODE_LIFE = 300.0
#: Wrong tries at one code before it is spent (its player makes another).
WRONG_PER_CODE = 5
#: Seconds a browser stays signed in since it was last seen.
SIGN_IN_LIFE = 30 * 24 * 3600.0
#: Codes one key may make a minute (each new one replaces the last).
CODES_PER_MINUTE = 5

#: Wrong tries at the codes of one key (whichever code): five, then 30 s, 1 min... up to 15 minutes apart.
KEY_TRIES = GuessLimit(free=5, delay=30.0, longest=900.0, forget=3600.0)
#: Every try at any code, on every server: sixty at once, then one a second.
ALL_TRIES = GuessLimit(free=60, delay=1.0, longest=1.0, forget=60.0)
#: The scope every try counts in (``secret_tries``), and those of one key and one address.
ALL_SCOPE = "browser-codes"


def key_scope(fingerprint: str) -> str:
    return f"browser-key:{fingerprint}"


def new_code() -> str:
    """A fresh code, from the system's source of randomness."""
    return "".join(system_random.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def clean_code(typed: str) -> str:
    """A code as typed (any case, spaces, dashes), as kept: its letters, upper case."""
    return clean_secret(typed)


def code_id(code: str) -> str | None:
    """The letters that name a code (``None``: what was typed is not a code's length)."""
    cleaned = clean_code(code)
    return cleaned[:CODE_ID_LENGTH] if len(cleaned) == CODE_LENGTH else None


def shown_code(code: str) -> str:
    """A code as the lobby shows it: ``ABCD-EFGHJK``."""
    cleaned = clean_code(code)
    return f"{cleaned[:CODE_ID_LENGTH]}-{cleaned[CODE_ID_LENGTH:]}"


def new_token() -> str:
    """A browser's cookie: 32 random bytes, URL-safe."""
    return system_random.token_urlsafe(32)


def token_hash(token: str) -> str:
    """How the store keeps a browser's cookie (SHA-256, hex)."""
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()
