"""Runs in the server process.

What the store remembers of finished matches, as players ask for it: the leaderboard a page at a
time (only players with at least ``minimum`` rated matches are listed and ranked, so a key that won
a match or two cannot top it), a player's own record (rating, rank, recent matches) and one
finished match to replay.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ...link.messages import (
    AskFinishedMatch,
    AskLeaderboard,
    AskRecord,
    FinishedMatch,
    LeaderboardPage,
    LeaderboardRow,
    PlayerRecord,
    ProtocolError,
    RecentMatch,
    SideResult,
    Standing,
)
from ...rules import Match, SolunaError
from ...rules.end_reason import EndReason
from ..rating_model import RANKED_AFTER, RANKED_OPPONENTS
from ..storage import FinishedMatch as FiledMatch
from ..storage import Storage
from .results import seat_in
from .visitors import Asker

#: Rows on one page of the leaderboard.
LEADERBOARD_PAGE = 20
#: The furthest a page may start (past the last player, a page is empty).
LAST_OFFSET = 10**6
#: A guest has no key to look its matches up by: its record is its matches of this visit among the newest filed.
GUEST_LOOKS_BACK = 200
#: The most recent matches a record lists.
RECENT_LISTED = 10


def recent_line(finished: FiledMatch, mine: int) -> RecentMatch:
    """One of a player's finished matches, from their side (the seat ``mine``), and how it ended."""
    theirs = 1 - mine
    try:
        stars = list(Match.from_dict(finished.document).stars)
    except SolunaError:
        stars = [0, 0]
    if finished.result == EndReason.ABANDONED:
        result = SideResult.ABANDONED
    elif finished.result == EndReason.ABORTED:
        result = SideResult.ABORTED
    else:
        result = SideResult.WON if finished.winner == mine else SideResult.LOST
    changes = finished.rating_changes
    rating = (changes[mine].before.shown, changes[mine].after.shown) if len(changes) > mine else None
    return RecentMatch(finished.id, finished.seats[theirs].name if len(finished.seats) > 1 else "?", result,
                       finished.result == EndReason.FORFEIT, (stars[mine], stars[theirs]), finished.finished_at,
                       finished.result == EndReason.TIME, rating=rating, ended=EndReason(finished.result))


def seat_of_key(finished: FiledMatch, fingerprint: str) -> int:
    return next((index for index, seat in enumerate(finished.seats) if seat.fingerprint == fingerprint), 0)


class Records:
    """Answers questions about finished matches and ratings; ``minimum`` is how many rated matches put a player
    on the leaderboard, against at least ``opponents`` different established opponents."""

    def __init__(self, store: Storage, minimum: int = RANKED_AFTER, opponents: int = RANKED_OPPONENTS,
                 numbered: Callable[[str], int | None] = lambda fingerprint: None) -> None:
        """``numbered``: the number a key's player is told as (their card is asked by it)."""
        self.store = store
        self.minimum = minimum
        self.opponents = opponents
        self.numbered = numbered

    async def leaderboard(self, asker: Asker, request: AskLeaderboard) -> None:
        offset = request.offset
        if offset < 0 or offset > LAST_OFFSET:
            raise ProtocolError("an offset out of range")
        rows = await self.store.ratings.leaderboard(LEADERBOARD_PAGE, offset, self.minimum, self.opponents)
        total = await self.store.ratings.rated_players(self.minimum, self.opponents)
        you = None
        fingerprint = asker.guest.fingerprint
        if fingerprint is not None:
            standing = (await self.store.players.summary(fingerprint, recent=0, minimum=self.minimum,
                                                        opponents=self.opponents)).standing
            you = Standing(standing.rank if standing else None, standing.rating.shown if standing else None)
        page = tuple(LeaderboardRow(row.rank or 0, row.name, row.rating.shown, row.played, row.won,
                                    self.numbered(row.fingerprint)) for row in rows)
        asker.answer(LeaderboardPage(offset, total, page, you, self.minimum, self.opponents))

    async def record(self, asker: Asker, request: AskRecord) -> None:
        visitor, fingerprint = asker.visitor, asker.guest.fingerprint
        reply = PlayerRecord(visitor.name, visitor.rated, None, None, 0, 0, 0)
        if fingerprint is not None:
            summary = await self.store.players.summary(fingerprint, minimum=self.minimum, opponents=self.opponents)
            standing = summary.standing
            if standing is not None:
                reply = replace(reply, rating=standing.rating.shown, rank=standing.rank, played=standing.played,
                                won=standing.won, lost=standing.lost)
            reply = replace(reply, recent=tuple(recent_line(finished, seat_of_key(finished, fingerprint))
                                                for finished in summary.recent), computer=summary.computer)
        else:
            reply = await self._guest_record(asker, reply)
        asker.answer(reply)

    async def _guest_record(self, asker: Asker, reply: PlayerRecord) -> PlayerRecord:
        """A guest's record: the matches it finished at a guest's seat since it arrived (unrated, kept with no key:
        found by the name it sat under, this visit only)."""
        mine = [(finished, seat) for finished in await self.store.finished.newest(GUEST_LOOKS_BACK)
                if finished.finished_at >= asker.visitor.arrived
                and (seat := seat_in(finished, asker.guest, asker.visitor)) is not None
                and finished.seats[seat].fingerprint is None]
        decided = [(finished, seat) for finished, seat in mine if finished.winner is not None]
        won = sum(1 for finished, seat in decided if finished.winner == seat)
        return replace(reply, played=len(decided), won=won, lost=len(decided) - won,
                       recent=tuple(recent_line(finished, seat) for finished, seat in mine[:RECENT_LISTED]))

    async def finished_match(self, asker: Asker, request: AskFinishedMatch) -> None:
        match_id = request.id
        finished = await self.store.finished.get(match_id) if 0 < match_id < 2**62 else None
        if finished is None:
            asker.refuse("That match is not on record.")
            return
        asker.answer(FinishedMatch(finished.id, (finished.names[0], finished.names[1]), EndReason(finished.result),
                                   finished.finished_at, finished.document))
