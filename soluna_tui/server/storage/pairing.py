"""Players looking for an opponent (quick matches) and challenges between players, kept where every server sees
them: the store is the authority, as for matches.

Every change is told to every server's subscribers as one ``Change`` under ``PAIRING`` (no match's code), and
each server reads again what concerns its own players. Pairing is decided under one lock (``soluna-pairing``), so
two servers never pair the same waiting player twice; the lobby decides (``lobby/pairs.py``), the store keeps.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from .database import Database, Transaction
from .records import Change

#: The ``Change`` code that says "seeks or challenges changed" (a match's code is four letters: never this).
PAIRING = "*pairing"
#: A waiting player's ``code`` while another server creates the match they are paired into.
CLAIMED = "*"
#: What a challenge can be: waiting for its answer, accepted (its ``code`` the match), or declined (``reason``).
OPEN, ACCEPTED, DECLINED = "open", "accepted", "declined"
_LOCK = "soluna-pairing"


@dataclass(frozen=True)
class Someone:
    """A player on one terminal, as pairing knows them: the person (``lobby/online.py``: a key, or a guest's
    session), the terminal (``session``, on ``server``), the name shown, key, address (``gate.client_key``) and a
    keyed player's rating as shown."""

    person: str
    session: str
    server: str
    name: str
    fingerprint: str | None
    address: str
    rating: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"person": self.person, "session": self.session, "server": self.server, "name": self.name,
                "fingerprint": self.fingerprint, "address": self.address, "rating": self.rating}

    @classmethod
    def from_dict(cls, document: dict[str, Any]) -> Someone:
        return cls(str(document["person"]), str(document["session"]), str(document["server"]), str(document["name"]),
                   document.get("fingerprint"), str(document["address"]), document.get("rating"))


@dataclass(frozen=True)
class SeekRecord:
    """A player waiting for a quick match: who, on what terms (``MatchTerms`` as the wire has it), since when, and
    once paired the match to join (``CLAIMED`` while it is being created)."""

    seeker: Someone
    terms: dict[str, Any]
    since: float
    code: str | None = None
    #: The name of the player paired with this one (once paired).
    partner: str | None = None


@dataclass(frozen=True)
class ChallengeRecord:
    """A challenge from one player to a person (any of their terminals in the lobby answers)."""

    id: int
    sender: Someone
    target: str
    target_name: str
    terms: dict[str, Any]
    sent_at: float
    state: str = OPEN
    code: str | None = None
    reason: str | None = None


class Pairing:
    """The ``seeks`` and ``challenges`` tables."""

    def __init__(self, database: Database) -> None:
        self._db = database

    # ---- quick matches ---------------------------------------------------------------------------

    async def seeks(self) -> list[SeekRecord]:
        async with self._db.transaction(write=False) as tx:
            return await _seeks(tx)

    async def seek(self, record: SeekRecord, choose: Callable[[list[SeekRecord]], SeekRecord | str | None],
                   live: Collection[str]) -> SeekRecord | str | None:
        """``record``'s player asks for an opponent: ``choose`` picks one of the others waiting (those of servers
        not ``live`` are dropped first), or says why the player may not wait (a text); the one picked is claimed
        (``CLAIMED``) and returned, else ``record`` waits (in the place of its terminal's earlier seek)."""
        async with self._db.transaction() as tx:
            await self._db.lock(tx, _LOCK)
            waiting = await _seeks(tx)
            gone = [each.seeker.session for each in waiting if each.seeker.server not in live]
            for session in [*gone, record.seeker.session]:
                await tx.execute("DELETE FROM seeks WHERE session = ?", (session,))
            others = [each for each in waiting if each.seeker.server in live
                      and each.seeker.session != record.seeker.session]
            partner = choose(others)
            if isinstance(partner, str):
                return partner
            if partner is not None:
                await tx.execute("UPDATE seeks SET code = ? WHERE session = ?", (CLAIMED, partner.seeker.session))
            else:
                await tx.execute("INSERT INTO seeks (person, session, server, seeker, terms, since) "
                                 "VALUES (?, ?, ?, ?, ?, ?)",
                                 (record.seeker.person, record.seeker.session, record.seeker.server,
                                  json.dumps(record.seeker.to_dict(), ensure_ascii=False), json.dumps(record.terms),
                                  record.since))
            await tx.announce(Change(PAIRING, 0))
        return partner

    async def claim(self, choose: Callable[[list[SeekRecord]], SeekRecord | str],
                    live: Collection[str]) -> SeekRecord | str:
        """A seek accepted from the seeks board: ``choose`` picks it among those waiting on servers ``live`` (or says
        why not, a text); the one picked is claimed (``CLAIMED``) under the lock, so two acceptors never both get
        it."""
        async with self._db.transaction() as tx:
            await self._db.lock(tx, _LOCK)
            chosen = choose([each for each in await _seeks(tx) if each.seeker.server in live])
            if isinstance(chosen, str):
                return chosen
            await tx.execute("UPDATE seeks SET code = ? WHERE session = ? AND code IS NULL",
                             (CLAIMED, chosen.seeker.session))
            await tx.announce(Change(PAIRING, 0))
        return chosen

    async def paired(self, session: str, code: str, partner: str) -> bool:
        """The match a claimed player joins is ``code``, against ``partner``; ``False`` when they left meanwhile."""
        async with self._db.transaction() as tx:
            changed = await tx.execute("UPDATE seeks SET code = ?, partner = ? WHERE session = ? AND code = ?",
                                       (code, partner, session, CLAIMED))
            await tx.announce(Change(PAIRING, 0))
        return changed > 0

    async def unseek(self, session: str, *, paired_too: bool = False) -> bool:
        """The terminal stops waiting; once paired, only when ``paired_too`` (it has gone, or joins now).
        Whether there was such a seek."""
        only = "" if paired_too else " AND code IS NULL"
        async with self._db.transaction() as tx:
            changed = await tx.execute(f"DELETE FROM seeks WHERE session = ?{only}", (session,))
            if changed:
                await tx.announce(Change(PAIRING, 0))
        return changed > 0

    # ---- challenges --------------------------------------------------------------------------------

    async def challenges(self) -> list[ChallengeRecord]:
        async with self._db.transaction(write=False) as tx:
            return await _challenges(tx)

    async def challenge(self, sender: Someone, target: str, target_name: str, terms: dict[str, Any],
                        refuse: Callable[[list[ChallengeRecord], bool], str | None],
                        target_fingerprint: str | None = None) -> ChallengeRecord | str:
        """A challenge from ``sender`` to ``target``, unless ``refuse`` (shown every challenge kept, and whether
        the two keys, ``sender``'s and ``target_fingerprint``, have a finished match together) says why not."""
        now = self._db.clock()
        async with self._db.transaction() as tx:
            await self._db.lock(tx, _LOCK)
            played = sender.fingerprint is not None and target_fingerprint is not None and bool(await tx.fetch(
                "SELECT 1 FROM finished_matches WHERE (fingerprint0 = ? AND fingerprint1 = ?) OR "
                "(fingerprint0 = ? AND fingerprint1 = ?) LIMIT 1",
                (sender.fingerprint, target_fingerprint, target_fingerprint, sender.fingerprint)))
            refusal = refuse(await _challenges(tx), played)
            if refusal is not None:
                return refusal
            rows = await tx.fetch("INSERT INTO challenges (sender, sender_session, sender_server, target, who, terms, "
                                  "sent_at, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                                  (sender.person, sender.session, sender.server, target,
                                   json.dumps({"sender": sender.to_dict(), "target_name": target_name},
                                              ensure_ascii=False), json.dumps(terms), now, OPEN))
            await tx.announce(Change(PAIRING, 0))
        return ChallengeRecord(int(rows[0][0]), sender, target, target_name, terms, now)

    async def settle(self, challenge: int, state: str, *, code: str | None = None, reason: str | None = None,
                     was: str = OPEN) -> bool:
        """The challenge is accepted (``code``) or declined (``reason``), if it still is ``was``."""
        async with self._db.transaction() as tx:
            changed = await tx.execute("UPDATE challenges SET state = ?, code = ?, reason = ? WHERE id = ? AND "
                                       "state = ?", (state, code, reason, challenge, was))
            if changed:
                await tx.announce(Change(PAIRING, 0))
        return changed > 0

    async def lapse(self, challenges: Collection[int]) -> set[int]:
        """Challenges withdrawn or lapsed, of those still open: one accepted or declined meanwhile (its answer read
        a moment after these were chosen) is kept for its players. The ids gone."""
        if not challenges:
            return set()
        async with self._db.transaction() as tx:
            rows = await tx.fetch(f"DELETE FROM challenges WHERE state = ? AND id IN "
                                  f"({', '.join('?' * len(challenges))}) RETURNING id", (OPEN, *challenges))
            if rows:
                await tx.announce(Change(PAIRING, 0))
        return {int(row[0]) for row in rows}

    async def drop(self, challenges: Collection[int]) -> None:
        """Challenges done with, whatever their state: answered and told, or their challenger gone."""
        if not challenges:
            return
        async with self._db.transaction() as tx:
            await tx.execute(f"DELETE FROM challenges WHERE id IN ({', '.join('?' * len(challenges))})",
                             tuple(challenges))
            await tx.announce(Change(PAIRING, 0))


async def _seeks(tx: Transaction) -> list[SeekRecord]:
    rows = await tx.fetch("SELECT seeker, terms, since, code, partner FROM seeks ORDER BY since, session")
    return [SeekRecord(Someone.from_dict(json.loads(seeker)), json.loads(terms), float(since), code, partner)
            for seeker, terms, since, code, partner in rows]


async def _challenges(tx: Transaction) -> list[ChallengeRecord]:
    rows = await tx.fetch("SELECT id, target, who, terms, sent_at, state, code, reason FROM challenges ORDER BY id")
    records = []
    for number, target, who, terms, sent_at, state, code, reason in rows:
        people = json.loads(who)
        records.append(ChallengeRecord(int(number), Someone.from_dict(people["sender"]), target,
                                       str(people["target_name"]), json.loads(terms), float(sent_at), state, code,
                                       reason))
    return records
