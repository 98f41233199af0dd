"""Issue 42: an arena's pairs among the free players, checked against every possible pairing of small fields."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from soluna_tui.server.tournaments.arena import ArenaPlayer, arena_pairs

from .test_swiss import matchings


@st.composite
def free_players(draw: st.DrawFn, most: int = 7) -> list[ArenaPlayer]:
    count = draw(st.integers(2, most))
    names = [f"p{index}" for index in range(count)]
    return [ArenaPlayer(name, rank, draw(st.sampled_from([None, *names[:rank], *names[rank + 1:]])),
                        draw(st.floats(0, 100)), draw(st.integers(-2, 2)), draw(st.sampled_from([None, True, False])))
            for rank, name in enumerate(names)]


def cost(field: list[ArenaPlayer], pairs: list[tuple[str, str | None]]) -> tuple:
    """By the documented rules, worst first: players left out, pairs that met in the last match of either, how
    recently the one waiting became free (0: the newest), the gaps in rank."""
    by_key = {each.fingerprint: each for each in field}
    again = sum(1 for one, other in pairs if other is not None and (by_key[one].last_opponent == other
                                                                     or by_key[other].last_opponent == one))
    newest = sorted(field, key=lambda each: each.free_since, reverse=True)
    waiting = next((newest.index(by_key[one]) for one, other in pairs if other is None), 0)
    gaps = sum(abs(by_key[one].rank - by_key[other].rank) for one, other in pairs if other is not None)
    return (again, waiting, gaps)


@settings(max_examples=150, deadline=None)
@given(free_players())
def test_the_free_are_paired_as_the_rules_say_of_every_pairing_there_is(field: list[ArenaPlayer]) -> None:
    """Once everyone has waited long enough: as many pairs as there can be, nobody meets their last opponent
    where another pairing avoids it, the one who became free last waits, near ranks meet."""
    pairs = arena_pairs(field, now=1000.0)
    assert len(pairs) == len(field) // 2
    paired = [player for pair in pairs for player in pair.players]
    assert len(paired) == len(set(paired))
    ours = [(pair.first, pair.second) for pair in pairs]
    left = [each.fingerprint for each in field if each.fingerprint not in paired]
    ours += [(alone, None) for alone in left]
    best = min(cost(field, each) for each in matchings([player.fingerprint for player in field]))
    assert cost(field, ours) == best


def test_two_who_just_met_wait_for_someone_else_before_they_meet_again() -> None:
    """Alone free, they wait ``rematch_wait`` seconds; a third free player is paired with one of them at once: the
    one free longer (the other, newer, waits)."""
    ann, bob = ArenaPlayer("ann", 0, "bob", free_since=100.0), ArenaPlayer("bob", 1, "ann", free_since=104.0)
    assert arena_pairs([ann, bob], now=110.0, rematch_wait=15.0) == []
    assert [pair.players for pair in arena_pairs([ann, bob], now=119.0, rematch_wait=15.0)] == [("ann", "bob")]
    cat = ArenaPlayer("cat", 2, None, free_since=105.0)
    assert [set(pair.players) for pair in arena_pairs([ann, bob, cat], now=105.0)] == [{"ann", "cat"}]
