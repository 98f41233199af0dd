"""Runs in the server process: a Swiss round's pairs, as a pure function (``networkx``'s maximum-weight matching).

Every player not paused is paired with one other, or, one of an odd number, gets the bye (a win). Among all the
ways to do that, the round takes the best by these rules, each worth more than all those after it together:

1. no rematch while one can be avoided (the fewest pairs that met before);
2. byes rotate: the bye goes to a player who had none (else to one with the fewest);
3. the bye goes to the lowest-ranked player it can;
4. openings kept even: the fewest pairs of two who have both opened two matches more than they followed (or both
   followed two more), where one of them would be three out;
5. score groups: players meet others of their own score where they can, and nobody is paired down (or up) more than
   needed: the largest gap in score between two opponents is as small as it can be, then the fewest pairs have
   that gap, then the next largest, and so on;
6. openings: the fewest pairs of two players who both ought to open (or both ought not to);
7. in a score group, the top half meets the bottom half in order (the first the first below the middle, and so on:
   in round 1, seeded by rating, the strongest do not meet at once).

Who opens a pair's match: the one who opened fewer of their matches; if even, the one who did not open their last;
if still even, the higher-ranked. Each rule is a weight on an edge of the complete graph of the players (a bye is
one more node), packed so that the weight of a rule outranks every later rule's total: the matching of maximum
weight is the best pairing by the rules, found by a well-kept library rather than a search of our own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .records import Pair

#: The bye's node in the graph (no key is this).
_BYE = "*bye"


@dataclass(frozen=True)
class SwissPlayer:
    """What pairing knows of a player: who, their score, their place in the standings (0 the best), whom they met
    (and how often), their byes, how many more matches they opened than not (``balance``), and whether they opened
    their last match (``None``: none yet)."""

    fingerprint: str
    score: float
    rank: int
    met: frozenset[str] = frozenset()
    byes: int = 0
    balance: int = 0
    opened_last: bool | None = None

    @property
    def opening_wish(self) -> int:
        """+1: ought to open the next match; -1: ought not; 0: either."""
        if self.balance:
            return -1 if self.balance > 0 else 1
        if self.opened_last is None:
            return 0
        return -1 if self.opened_last else 1


def opener_first(one: SwissPlayer, other: SwissPlayer) -> tuple[SwissPlayer, SwissPlayer]:
    """The two, the one who opens first: fewer openings, else not the last opener, else the higher-ranked."""
    def key(player: SwissPlayer) -> tuple[int, int, int]:
        return (player.balance, 1 if player.opened_last else 0, player.rank)

    return (one, other) if key(one) <= key(other) else (other, one)


def three_out(one: SwissPlayer, other: SwissPlayer) -> bool:
    """Whether one of the two would be three openings out whoever opens: both opened two more than they followed
    (or both followed two more)."""
    return min(abs(one.balance), abs(other.balance)) >= 2 and (one.balance > 0) == (other.balance > 0)


def cheapest_matching(edges: Sequence[tuple[int, str, str]]) -> set[tuple[str, str]]:
    """The pairs, as many as there can be, whose costs add up to the least, among ``edges`` (cost, one, other):
    networkx's maximum-weight matching, each edge weighed as the most costly one's cost less its own (Swiss and
    arena pairing alike)."""
    import networkx as nx  # only here: soluna's start-up does not pay for it

    graph = nx.Graph()
    for cost, one, other in edges:
        graph.add_edge(one, other, cost=cost)
    most = max(cost for _, _, cost in graph.edges(data="cost")) + 1
    for one, other, cost in graph.edges(data="cost"):
        graph[one][other]["weight"] = most - cost
    matching: set[tuple[str, str]] = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    return matching


def swiss_pairs(players: Sequence[SwissPlayer]) -> list[Pair]:
    """The round's pairs (the one who opens first), and a bye where the number is odd (last)."""
    if not players:
        return []
    if len(players) == 1:
        return [Pair(players[0].fingerprint, None)]
    matching = cheapest_matching(_edges(players))
    by_key = {player.fingerprint: player for player in players}
    pairs, bye = [], None
    for one, other in matching:
        if _BYE in (one, other):
            bye = Pair(other if one == _BYE else one, None)
            continue
        first, second = opener_first(by_key[one], by_key[other])
        pairs.append((min(first.rank, second.rank), Pair(first.fingerprint, second.fingerprint)))
    ordered = [pair for _, pair in sorted(pairs, key=lambda each: each[0])]
    return ordered + ([bye] if bye is not None else [])


def _edges(players: Sequence[SwissPlayer]) -> list[tuple[int, str, str]]:
    """Each possible pair's cost, every rule a digit of a number whose base is past the later rules' totals."""
    count = len(players) + len(players) % 2
    pairs = count // 2
    widest_gap = round(2 * (max(player.score for player in players) - min(player.score for player in players)))
    fold_base = pairs * count + 1
    colour_base = pairs + 1
    score_base = (pairs + 1) ** (widest_gap + 1)
    even_base = pairs + 1
    rank_base = count + 1
    bye_base = max(player.byes for player in players) + 2
    # The place of each rule's digit.
    fold_unit = 1
    colour_unit = fold_unit * fold_base
    score_unit = colour_unit * colour_base
    even_unit = score_unit * score_base
    rank_unit = even_unit * even_base
    byes_unit = rank_unit * rank_base
    rematch_unit = byes_unit * bye_base
    groups: dict[float, list[SwissPlayer]] = {}
    for player in sorted(players, key=lambda each: each.rank):
        groups.setdefault(player.score, []).append(player)
    place = {player.fingerprint: index for group in groups.values() for index, player in enumerate(group)}
    edges = []
    for index, one in enumerate(players):
        for other in players[index + 1:]:
            gap = round(2 * abs(one.score - other.score))
            fold = 0
            if gap == 0:
                fold = abs(abs(place[one.fingerprint] - place[other.fingerprint]) - len(groups[one.score]) // 2)
            cost = (rematch_unit * (other.fingerprint in one.met) + score_unit * (pairs + 1) ** gap
                    + even_unit * three_out(one, other)
                    + colour_unit * (one.opening_wish != 0 and one.opening_wish == other.opening_wish)
                    + fold_unit * fold)
            edges.append((cost, one.fingerprint, other.fingerprint))
    if len(players) % 2:
        lowest = max(player.rank for player in players)
        for player in players:
            edges.append((byes_unit * player.byes + rank_unit * (lowest - player.rank), player.fingerprint, _BYE))
    return edges
