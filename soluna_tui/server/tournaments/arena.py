"""Runs in the server process: an arena's pairs among the players free now, as a pure function (``networkx``'s
maximum-weight matching, as the Swiss's).

A player who is not paused and not at a match is free; the free are paired at once, by these rules, each worth
more than all those after it together:

1. as many pairs as can be made;
2. nobody meets the opponent of their last match again where another pairing is possible (for two alone free who
   just met, once both have waited ``REMATCH_WAIT`` seconds with nobody else free);
3. of an odd number, the one who became free last waits for the next pairing;
4. players near each other in the standings meet (the smallest sum of the gaps in rank).

Who opens: as in a Swiss (``swiss.opener_first``): fewer openings, else not the last opener, else the higher-ranked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .records import Pair
from .swiss import SwissPlayer, cheapest_matching, opener_first

#: Seconds two players who just met, alone free, wait before they meet again (someone else may finish meanwhile).
REMATCH_WAIT = 15.0
_WAIT = "*wait"


@dataclass(frozen=True)
class ArenaPlayer:
    """A free player as an arena pairs them: who, their place in the standings (0 the best), their last opponent,
    since when they are free, and their openings as a Swiss counts them."""

    fingerprint: str
    rank: int
    last_opponent: str | None = None
    free_since: float = 0.0
    balance: int = 0
    opened_last: bool | None = None


def arena_pairs(free: Sequence[ArenaPlayer], now: float, rematch_wait: float = REMATCH_WAIT) -> list[Pair]:
    """Pairs among the ``free`` players at ``now`` (the one who opens first), best-ranked pairs first."""
    players = [each for each in free if _may_be_paired(each, free, now, rematch_wait)]
    if len(players) < 2:
        return []
    matching = cheapest_matching(_edges(players))
    by_key = {player.fingerprint: player for player in players}
    pairs = []
    for one, other in matching:
        if _WAIT in (one, other):
            continue
        first, second = opener_first(_as_swiss(by_key[one]), _as_swiss(by_key[other]))
        pairs.append((min(first.rank, second.rank), Pair(first.fingerprint, second.fingerprint)))
    return [pair for _, pair in sorted(pairs, key=lambda each: each[0])]


def _may_be_paired(player: ArenaPlayer, free: Sequence[ArenaPlayer], now: float, rematch_wait: float) -> bool:
    """Whether ``player`` can be paired now: someone free besides their last opponent, or both have waited."""
    others = [each for each in free if each.fingerprint != player.fingerprint]
    if any(each.fingerprint != player.last_opponent for each in others):
        return True
    return all(now - each.free_since >= rematch_wait for each in (player, *others))


def _as_swiss(player: ArenaPlayer) -> SwissPlayer:
    return SwissPlayer(player.fingerprint, 0.0, player.rank, balance=player.balance, opened_last=player.opened_last)


def _edges(players: Sequence[ArenaPlayer]) -> list[tuple[int, str, str]]:
    """Each possible pair's cost, every rule a digit of a number whose base is past the later rules' totals."""
    count = len(players) + len(players) % 2
    pairs = count // 2
    gap_unit = 1
    wait_unit = gap_unit * (pairs * count + 1)
    again_unit = wait_unit * (count + 1)
    edges = []
    for index, one in enumerate(players):
        for other in players[index + 1:]:
            again = one.last_opponent == other.fingerprint or other.last_opponent == one.fingerprint
            edges.append((again_unit * again + gap_unit * abs(one.rank - other.rank), one.fingerprint,
                          other.fingerprint))
    if len(players) % 2:
        newest = sorted(players, key=lambda each: each.free_since, reverse=True)
        for order, player in enumerate(newest):
            edges.append((wait_unit * order, player.fingerprint, _WAIT))
    return edges
