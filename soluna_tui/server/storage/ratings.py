"""The ratings as the database keeps them: rated in the transaction that files a match, and listed.

The arithmetic is ``server/rating_model.py``'s; here, its rows: ``ratings`` (each keyed player's rating and
counts), ``rated_opponents`` (how often each pair met in rated matches) and ``established_keys`` (the trust
the leaderboard admits players by, spread as rated matches are filed). Work on one player's rating
holds the lock ``soluna-rating:KEY``, always taken in the same order, so two servers cannot deadlock; keys
that become established with them are written last, in order too.
"""

from __future__ import annotations

from ...rules import Match
from ...rules.strengths import Strength
from ..rating_model import (
    ESTABLISHED_BY,
    PAIR_RATED_PER_DAY,
    PAIR_WINDOW,
    Rating,
    decided_on_board,
    level_rating,
    level_refusal,
    rate,
    rate_against_level,
)
from .database import Database, Transaction
from .records import RatingChange, SeatRecord, Standing, computer_code


class Ratings:
    """Players' ratings: changed as rated matches are filed, and the leaderboard they make."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def leaderboard(self, limit: int = 20, offset: int = 0, minimum: int = 0,
                          opponents: int = 0) -> list[Standing]:
        """Rated players listed (``_listed``: ``minimum`` rated matches, ``opponents`` established opponents),
        best first (by the conservative estimate); equal ratings share a rank."""
        listed, params = _listed(minimum, opponents)
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch(
                "SELECT r.fingerprint, COALESCE(p.name, r.name), r.mu, r.sigma, r.played, r.won, r.lost, "
                "r.conservative FROM ratings r LEFT JOIN players p ON p.fingerprint = r.fingerprint "
                f"WHERE {listed} ORDER BY r.conservative DESC, r.played DESC, r.fingerprint LIMIT ? OFFSET ?",
                (*params, limit, offset))
            first_rank = await self._rank(tx, rows[0][7], minimum, opponents) if rows else 0
        standings, rank, previous = [], first_rank, None
        for position, (fingerprint, name, mu, sigma, played, won, lost, conservative) in enumerate(rows):
            if previous is not None and conservative != previous:
                rank = offset + position + 1
            previous = conservative
            standings.append(Standing(rank, fingerprint, name, Rating(mu, sigma), played, won, lost))
        return standings

    async def of(self, fingerprint: str) -> Rating | None:
        """The key ``fingerprint``'s rating, ``None`` before its first rated match."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch("SELECT mu, sigma FROM ratings WHERE fingerprint = ?", (fingerprint,))
        return Rating(rows[0][0], rows[0][1]) if rows else None

    async def rated_players(self, minimum: int = 0, opponents: int = 0) -> int:
        """How many players are on the leaderboard (as ``leaderboard`` lists them)."""
        listed, params = _listed(minimum, opponents)
        async with self._db.transaction(write=False) as tx:
            return int((await tx.fetch(f"SELECT COUNT(*) FROM ratings r WHERE {listed}", params))[0][0])

    async def standing(self, tx: Transaction, fingerprint: str, name: str | None, minimum: int,
                       opponents: int) -> Standing | None:
        """Inside ``tx``: the player's line (ranked once listed, as ``leaderboard`` lists), shown as ``name`` (else
        the name rated last); ``None`` before their first rated match."""
        rows = await tx.fetch("SELECT name, mu, sigma, played, won, lost, conservative FROM ratings "
                              "WHERE fingerprint = ?", (fingerprint,))
        if not rows:
            return None
        rated_name, mu, sigma, played, won, lost, conservative = rows[0]
        listed, params = _listed(minimum, opponents)
        ranked = await tx.fetch(f"SELECT 1 FROM ratings r WHERE r.fingerprint = ? AND {listed}",
                                (fingerprint, *params))
        rank = await self._rank(tx, conservative, minimum, opponents) if ranked else None
        return Standing(rank, fingerprint, name if name is not None else rated_name, Rating(mu, sigma), played, won,
                        lost)

    async def _rank(self, tx: Transaction, conservative: float, minimum: int, opponents: int) -> int:
        listed, params = _listed(minimum, opponents)
        rows = await tx.fetch(f"SELECT COUNT(*) FROM ratings r WHERE r.conservative > ? AND {listed}",
                              (conservative, *params))
        return int(rows[0][0]) + 1

    async def rate_pair(self, tx: Transaction, seats: tuple[SeatRecord, ...], winner: int,
                        now: float) -> tuple[RatingChange, ...]:
        """Inside ``tx``: both players' ratings after the match, and each one's rated matches against the other
        (either may become established by it: ``_spread_trust``); none when the pair has had its rated matches of
        the day (``ratings.PAIR_RATED_PER_DAY``)."""
        fingerprints = [seat.fingerprint or "" for seat in seats]  # keyed: ``is_rated`` said so
        for fingerprint in sorted(fingerprints):  # always in the same order: two servers cannot deadlock
            await self._db.lock(tx, f"soluna-rating:{fingerprint}")
        first, second = fingerprints
        today = await tx.fetch(
            "SELECT COUNT(*) FROM finished_matches WHERE ((fingerprint0 = ? AND fingerprint1 = ?) OR "
            "(fingerprint0 = ? AND fingerprint1 = ?)) AND finished_at > ? AND rating_changes <> '[]'",
            (first, second, second, first, now - PAIR_WINDOW))
        if today[0][0] >= PAIR_RATED_PER_DAY:
            return ()
        for player, opponent in ((first, second), (second, first)):
            await tx.execute("INSERT INTO rated_opponents (fingerprint, opponent, matches) VALUES (?, ?, 1) "
                             "ON CONFLICT (fingerprint, opponent) DO UPDATE SET matches = rated_opponents.matches + 1",
                             (player, opponent))
        before = []
        for fingerprint in fingerprints:
            rows = await tx.fetch("SELECT mu, sigma FROM ratings WHERE fingerprint = ?", (fingerprint,))
            before.append(Rating(*rows[0]) if rows else Rating())
        loser = 1 - winner
        after = [Rating(), Rating()]
        after[winner], after[loser] = rate(before[winner], before[loser])
        for seat_index, seat in enumerate(seats):
            won = int(seat_index == winner)
            rating = after[seat_index]
            await tx.execute(
                "INSERT INTO ratings (fingerprint, name, mu, sigma, conservative, played, won, lost, updated_at) "
                "VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?) ON CONFLICT (fingerprint) DO UPDATE SET "
                "name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, "
                "conservative = excluded.conservative, played = ratings.played + 1, "
                "won = ratings.won + excluded.won, lost = ratings.lost + excluded.lost, "
                "updated_at = excluded.updated_at",
                (seat.fingerprint, seat.identity, rating.mu, rating.sigma, rating.conservative, won, 1 - won, now))
        await self._spread_trust(tx, fingerprints, now)
        return tuple(RatingChange(fingerprint, before[index], after[index])
                     for index, fingerprint in enumerate(fingerprints))

    async def establish(self, fingerprints: tuple[str, ...]) -> None:
        """The keys the owner names established (``soluna serve --established``), and the trust spread from them
        to the players whose rated matches now count."""
        now = self._db.clock()
        async with self._db.transaction() as tx:  # each transaction writes its keys once, in one order
            await self._write_established(tx, fingerprints, "named", now)
        async with self._db.transaction() as tx:
            await self._spread_trust(tx, [], now, spread_from=fingerprints)

    async def anyone_established(self) -> bool:
        """Whether any key is established (else the leaderboard, when it asks for established opponents, lists no
        one: the owner names the first, ``soluna serve --established``)."""
        async with self._db.transaction(write=False) as tx:
            return bool(await tx.fetch("SELECT 1 FROM established_keys LIMIT 1"))

    async def established(self) -> dict[str, str]:
        """Every established key, with how it became so (``named``, ``listed`` or ``played``)."""
        async with self._db.transaction(write=False) as tx:
            rows = await tx.fetch("SELECT fingerprint, reason FROM established_keys ORDER BY fingerprint")
        return {fingerprint: reason for fingerprint, reason in rows}

    async def _spread_trust(self, tx: Transaction, keys: list[str], now: float,
                            spread_from: tuple[str, ...] = ()) -> None:
        """Inside ``tx``: each of ``keys`` (and of the opponents of the established ``spread_from``) that has had
        rated matches against ``ESTABLISHED_BY`` established keys (as many as there are, while fewer) becomes
        established, and so, in turn, its opponents that then have. Read first and written last, in one order, so
        two servers spreading at once cannot deadlock (one filing a match before the other's is written leaves a
        key that both would establish for its next rated match)."""
        known = int((await tx.fetch("SELECT COUNT(*) FROM (SELECT 1 FROM established_keys LIMIT ?) AS known_keys",
                                    (ESTABLISHED_BY,)))[0][0])
        if known == 0:
            return  # trust comes from keys the owner names: none yet
        earned: list[str] = []
        waiting = list(keys)
        for source in spread_from:
            waiting.extend(await self._may_trust(tx, source, min(ESTABLISHED_BY, known)))
        while waiting:
            key = waiting.pop()
            if key in earned or await tx.fetch("SELECT 1 FROM established_keys WHERE fingerprint = ?", (key,)):
                continue
            opponents = await tx.fetch(
                "SELECT o.opponent, e.fingerprint IS NOT NULL FROM rated_opponents o "
                "LEFT JOIN established_keys e ON e.fingerprint = o.opponent WHERE o.fingerprint = ?", (key,))
            trusted = sum(1 for opponent, established in opponents if established or opponent in earned)
            if trusted >= min(ESTABLISHED_BY, known + len(earned)):
                earned.append(key)
                # Written ones count at most ``earned`` short: only opponents so near are checked one by one.
                waiting.extend(await self._may_trust(tx, key, min(ESTABLISHED_BY, known + len(earned)) - len(earned)))
        await self._write_established(tx, tuple(earned), "played", now)

    @staticmethod
    async def _may_trust(tx: Transaction, key: str, written: int) -> list[str]:
        """The opponents of ``key``, not established, with rated matches against at least ``written`` keys the
        table holds as established: in one query, however many opponents ``key`` has."""
        rows = await tx.fetch(
            "SELECT c.opponent FROM rated_opponents c JOIN rated_opponents o ON o.fingerprint = c.opponent "
            "LEFT JOIN established_keys e ON e.fingerprint = o.opponent WHERE c.fingerprint = ? AND NOT EXISTS "
            "(SELECT 1 FROM established_keys x WHERE x.fingerprint = c.opponent) "
            "GROUP BY c.opponent HAVING COUNT(e.fingerprint) >= ? ORDER BY c.opponent", (key, written))
        return [row[0] for row in rows]

    @staticmethod
    async def _write_established(tx: Transaction, fingerprints: tuple[str, ...], reason: str, now: float) -> None:
        for fingerprint in sorted(set(fingerprints)):  # in one order: two servers cannot deadlock
            await tx.execute("INSERT INTO established_keys (fingerprint, reason, since) VALUES (?, ?, ?) "
                             "ON CONFLICT (fingerprint) DO NOTHING", (fingerprint, reason, now))

    async def rate_against_computer(self, tx: Transaction, fingerprint: str, identity: str, strength: Strength,
                                    match: Match, now: float) -> tuple[tuple[RatingChange, ...], str | None]:
        """Inside ``tx``: the keyed player (seat 0 of ``match``, over) rated against the level's fixed rating, unless
        ``ratings.level_refusal`` gives a reason not to: the changes (the player's, then the level's, which never
        moves) and that reason (``None``: rated). Such a match counts toward no leaderboard threshold."""
        await self._db.lock(tx, f"soluna-rating:{fingerprint}")
        rows = await tx.fetch("SELECT mu, sigma FROM ratings WHERE fingerprint = ?", (fingerprint,))
        before = Rating(*rows[0]) if rows else Rating()
        code = computer_code(strength.number)
        today = await tx.fetch(
            "SELECT COUNT(*) FROM finished_matches WHERE fingerprint0 = ? AND code = ? AND finished_at > ? "
            "AND rating_changes <> '[]'", (fingerprint, code, now - PAIR_WINDOW))
        refusal = level_refusal(before, strength, decided_on_board(match), int(today[0][0]))
        if refusal is not None:
            return (), refusal
        after = rate_against_level(before, strength, won=match.winner == 0)
        await tx.execute(
            "INSERT INTO ratings (fingerprint, name, mu, sigma, conservative, played, won, lost, updated_at) "
            "VALUES (?, ?, ?, ?, ?, 0, 0, 0, ?) ON CONFLICT (fingerprint) DO UPDATE SET name = excluded.name, "
            "mu = excluded.mu, sigma = excluded.sigma, conservative = excluded.conservative, "
            "updated_at = excluded.updated_at",
            (fingerprint, identity, after.mu, after.sigma, after.conservative, now))
        level = level_rating(strength)
        return (RatingChange(fingerprint, before, after), RatingChange(code, level, level)), None


def _listed(minimum: int, opponents: int) -> tuple[str, tuple[int, ...]]:
    """The condition on a rating ``r`` for the leaderboard to list its player, and its parameters: ``minimum``
    rated matches, against at least ``opponents`` different established keys (``opponents`` 0: the count alone)."""
    if opponents <= 0:
        return "r.played >= ?", (minimum,)
    return ("r.played >= ? AND (SELECT COUNT(*) FROM rated_opponents o JOIN established_keys e "
            "ON e.fingerprint = o.opponent WHERE o.fingerprint = r.fingerprint) >= ?", (minimum, opponents))
