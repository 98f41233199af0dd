"""Browsers signed in as keyed players: the one-time codes shown in the SSH lobby, and each browser's sign-in
(``sign_ins.py`` says how both are made and kept). Every server of a fleet reads and writes the same rows, so a
code shown on one server signs a browser in at another's web door, and a sign-in revoked on one stops working on
all: each revocation is told to every server as a ``Change`` under ``BROWSERS``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from .database import Database, Transaction
from .records import Change
from .secrets import hash_secret, secret_matches
from .sign_ins import CODE_LIFE, SIGN_IN_LIFE, WRONG_PER_CODE, code_id

#: The ``Change`` code that says "a browser's sign-in was revoked" (a match's code is four letters: never this).
BROWSERS = "*browsers"
_SIGN_IN_COLUMNS = "id, fingerprint, name, linked_at, last_seen, expires_at, address, agent"


@dataclass(frozen=True)
class BrowserSignIn:
    """A browser signed in as the key ``fingerprint``'s player (``name``: theirs when it was linked): since when,
    when it was last seen and from which address, what it said it was, and until when it stays signed in."""

    id: int
    fingerprint: str
    name: str
    linked_at: float
    last_seen: float
    expires_at: float
    address: str
    agent: str


@dataclass(frozen=True)
class CodeHolder:
    """Whose code a code's first letters name (while it lives)."""

    fingerprint: str


class Browsers:
    """The ``browser_codes`` and ``browser_sign_ins`` tables."""

    def __init__(self, database: Database) -> None:
        self._db = database

    # ---- codes ------------------------------------------------------------------------------

    async def add_code(self, code: str, fingerprint: str, name: str) -> bool:
        """Keep ``code`` (hashed) for the key ``fingerprint``, replacing the key's code before; ``False`` when a
        living code already has its first letters (the caller makes another)."""
        identifier = code_id(code)
        if identifier is None:
            raise ValueError("not a code")
        now = self._db.clock()
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM browser_codes WHERE expires_at <= ? OR fingerprint = ?", (now, fingerprint))
            added = await tx.execute(
                "INSERT INTO browser_codes (code_id, code_hash, fingerprint, name, wrong, made_at, expires_at) "
                "VALUES (?, ?, ?, ?, 0, ?, ?) ON CONFLICT (code_id) DO NOTHING",
                (identifier, hash_secret(code), fingerprint, name, now, now + CODE_LIFE))
        return added == 1

    async def holder(self, code: str) -> CodeHolder | None:
        """Whose living code ``code``'s first letters name, if any (right or wrong, the rest is not checked)."""
        identifier = code_id(code)
        if identifier is None:
            return None
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch("SELECT fingerprint FROM browser_codes WHERE code_id = ? AND expires_at > ?",
                                  (identifier, self._db.clock()))
        return CodeHolder(str(rows[0][0])) if rows else None

    async def redeem(self, code: str, token_hash: str, address: str, agent: str) -> BrowserSignIn | None:
        """Use ``code`` once: if it is a living code, it is spent and a browser signed in as its key's player with
        the cookie ``token_hash``; else ``None``, and a wrong try counted against the code its first letters name
        (spent after a few)."""
        identifier = code_id(code)
        if identifier is None:
            return None
        now = self._db.clock()
        async with self._db.transaction() as tx:
            await self._db.lock(tx, f"soluna-browser-code:{identifier}")
            await tx.execute("DELETE FROM browser_codes WHERE code_id = ? AND expires_at <= ?", (identifier, now))
            rows = await tx.fetch("SELECT code_hash, fingerprint, name, wrong FROM browser_codes "
                                  f"WHERE code_id = ? AND expires_at > ?{self._db.FOR_UPDATE}", (identifier, now))
            if not rows:
                return None
            kept_hash, fingerprint, name, wrong = rows[0]
            if not secret_matches(code, str(kept_hash)):
                if int(wrong) + 1 >= WRONG_PER_CODE:
                    await tx.execute("DELETE FROM browser_codes WHERE code_id = ?", (identifier,))
                else:
                    await tx.execute("UPDATE browser_codes SET wrong = wrong + 1 WHERE code_id = ?", (identifier,))
                return None
            await tx.execute("DELETE FROM browser_codes WHERE code_id = ?", (identifier,))
            await tx.execute("DELETE FROM browser_sign_ins WHERE expires_at <= ?", (now,))
            found = await tx.fetch(
                "INSERT INTO browser_sign_ins (token_hash, fingerprint, name, linked_at, last_seen, expires_at, "
                "address, agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (token_hash, fingerprint, name, now, now, now + SIGN_IN_LIFE, address, agent))
        return BrowserSignIn(int(found[0][0]), str(fingerprint), str(name), now, now, now + SIGN_IN_LIFE, address,
                             agent)

    # ---- sign-ins ---------------------------------------------------------------------------

    async def signed_in(self, token_hash: str) -> BrowserSignIn | None:
        """The living sign-in whose cookie hashes to ``token_hash``, if any."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_SIGN_IN_COLUMNS} FROM browser_sign_ins WHERE token_hash = ? "
                                  "AND expires_at > ?", (token_hash, self._db.clock()))
        return _sign_in(rows[0]) if rows else None

    async def seen(self, ids: Collection[int], address: str | None = None) -> set[int]:
        """The browsers ``ids`` are here now (from ``address``, when one is given): seen, and signed in for the
        whole life again from now. Which of them are still signed in (the others were revoked or ran out)."""
        if not ids:
            return set()
        now = self._db.clock()
        marks = ", ".join("?" for _ in ids)
        async with self._db.transaction() as tx:
            rows = await tx.fetch(f"SELECT id FROM browser_sign_ins WHERE id IN ({marks}) AND expires_at > ?",
                                  (*ids, now))
            living = {int(row[0]) for row in rows}
            if living:
                marks = ", ".join("?" for _ in living)
                where = f"id IN ({marks})"
                if address is None:
                    await tx.execute(f"UPDATE browser_sign_ins SET last_seen = ?, expires_at = ? WHERE {where}",
                                     (now, now + SIGN_IN_LIFE, *living))
                else:
                    await tx.execute(f"UPDATE browser_sign_ins SET last_seen = ?, expires_at = ?, address = ? "
                                     f"WHERE {where}", (now, now + SIGN_IN_LIFE, address, *living))
        return living

    async def of_key(self, fingerprint: str) -> list[BrowserSignIn]:
        """The browsers signed in as the key ``fingerprint``'s player, the last seen first."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(f"SELECT {_SIGN_IN_COLUMNS} FROM browser_sign_ins WHERE fingerprint = ? "
                                  "AND expires_at > ? ORDER BY last_seen DESC, id DESC",
                                  (fingerprint, self._db.clock()))
        return [_sign_in(row) for row in rows]

    async def revoke(self, sign_in: int, fingerprint: str) -> bool:
        """The browser ``sign_in`` of the key ``fingerprint`` is signed out (every server closes its tabs); whether
        there was one."""
        async with self._db.transaction() as tx:
            return await _forget(tx, "id = ? AND fingerprint = ?", (sign_in, fingerprint))

    async def sign_out(self, token_hash: str) -> None:
        """The browser whose cookie hashes to ``token_hash`` signs itself out (every server closes its tabs)."""
        async with self._db.transaction() as tx:
            await _forget(tx, "token_hash = ?", (token_hash,))


async def _forget(tx: Transaction, where: str, params: tuple[object, ...]) -> bool:
    """Sign-ins gone (and every server told), if any were there."""
    gone = await tx.execute(f"DELETE FROM browser_sign_ins WHERE {where}", params)
    if gone:
        await tx.announce(Change(BROWSERS, 0))
    return gone > 0


def _sign_in(row: tuple[object, ...]) -> BrowserSignIn:
    id_, fingerprint, name, linked_at, last_seen, expires_at, address, agent = row
    return BrowserSignIn(int(str(id_)), str(fingerprint), str(name), float(str(linked_at)), float(str(last_seen)),
                         float(str(expires_at)), str(address), str(agent))
