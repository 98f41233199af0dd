"""A player's card as the store has it, read in one transaction: who they are and since when, where they stand,
their rating over their last rated matches (the graph), their record against one other key, and their latest
finished matches (each opponent by the name they hold now)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from .database import Database
from .finished import FinishedMatches
from .players import Players
from .ratings import Ratings
from .records import FinishedMatch, PlayerRecord, RatingChange, Standing


@dataclass(frozen=True, slots=True)
class CardRecord:
    """A keyed player's card: their record (``None``: a key never seen), their standing (``None`` before a rated
    match), their rating after each of their last rated matches, oldest first, after the one before them all
    (``graph``), their matches won and lost against the key asking (``None``: asked by none, or by themselves) and
    their latest finished matches, newest first."""

    player: PlayerRecord | None
    standing: Standing | None
    graph: tuple[int, ...]
    against: tuple[int, int] | None
    recent: tuple[FinishedMatch, ...]


class PlayerCards:
    """Cards read from the ``players``, ``ratings`` and ``finished_matches`` tables."""

    def __init__(self, database: Database, players: Players, ratings: Ratings, finished: FinishedMatches) -> None:
        self._db = database
        self._players = players
        self._ratings = ratings
        self._finished = finished

    async def card(self, fingerprint: str, viewer: str | None = None, recent: int = 10, points: int = 40,
                   minimum: int = 0, opponents: int = 0) -> CardRecord:
        """The key ``fingerprint``'s card, seen by the key ``viewer``: ``recent`` matches, a graph of at most
        ``points`` ratings, ranked as the leaderboard ranks (``minimum`` rated matches, ``opponents`` established
        opponents)."""
        async with self._db.transaction(write=False) as tx:
            player = await self._players.read(tx, fingerprint)
            standing = await self._ratings.standing(tx, fingerprint, player.name if player is not None else None,
                                                    minimum, opponents)
            rated = await tx.fetch(
                "SELECT rating_changes FROM finished_matches WHERE (fingerprint0 = ? OR fingerprint1 = ?) AND "
                "rating_changes <> '[]' ORDER BY finished_at DESC, id DESC LIMIT ?",
                (fingerprint, fingerprint, max(points - 1, 1)))
            against = None
            if viewer is not None and viewer != fingerprint:
                met = await tx.fetch(
                    "SELECT winner, fingerprint0, COUNT(*) FROM finished_matches WHERE ((fingerprint0 = ? AND "
                    "fingerprint1 = ?) OR (fingerprint0 = ? AND fingerprint1 = ?)) AND winner IS NOT NULL "
                    "GROUP BY winner, fingerprint0", (fingerprint, viewer, viewer, fingerprint))
                won = sum(int(count) for winner, first, count in met if (first == fingerprint) == (winner == 0))
                against = (won, sum(int(count) for _, _, count in met) - won)
            matches = await self._finished.read_of_player(tx, fingerprint, recent)
        return CardRecord(player, standing, _graph(fingerprint, [row[0] for row in reversed(rated)]), against,
                          tuple(matches))


def _graph(fingerprint: str, changes_texts: list[str]) -> tuple[int, ...]:
    """The key's rating before the first of these rated matches (oldest first), then after each, as players see
    ratings."""
    points: list[int] = []
    for text in changes_texts:
        mine = [change for change in map(RatingChange.from_dict, json.loads(text)) if change.fingerprint == fingerprint]
        if mine:
            if not points:
                points.append(mine[0].before.shown)
            points.append(mine[0].after.shown)
    return tuple(points)
