"""Issue 42: what a tournament may be announced as, and who may enter it, without a store."""

from __future__ import annotations

import pytest

from soluna_tui.server.tournaments.engine import entry_refusal
from soluna_tui.server.tournaments.records import TournamentError, TournamentKind, TournamentPlan

from .helpers import PLAN_TERMS


def plan(kind: TournamentKind = TournamentKind.SWISS, length: int = 5, name: str = "Friday", **more) -> TournamentPlan:
    return TournamentPlan(name, kind, length, 1000.0, PLAN_TERMS, **more)


def test_a_plan_reads_as_its_kind_and_keeps_a_tidy_name() -> None:
    swiss, arena = plan(name="  Friday \t Swiss "), plan(TournamentKind.ARENA, 90)
    assert (swiss.name, swiss.rounds, swiss.minutes, swiss.ends_at) == ("Friday Swiss", 5, None, None)
    assert (arena.rounds, arena.minutes, arena.ends_at) == (None, 90, 1000.0 + 90 * 60)
    assert not swiss.rated and plan(TournamentKind.ARENA, 1).length == 1


@pytest.mark.parametrize(("changes", "error"), [
    ({"kind": "knockout"}, "a tournament is a swiss or an arena, not 'knockout'"),
    ({"name": ""}, "a tournament's name is 1 to 40 printable characters"),
    ({"name": "x" * 41}, "a tournament's name is 1 to 40 printable characters"),
    ({"name": "bell\x07"}, "a tournament's name is 1 to 40 printable characters"),
    ({"length": 0}, "a Swiss has 1 to 30 rounds, not 0"),
    ({"length": 31}, "a Swiss has 1 to 30 rounds, not 31"),
    ({"kind": TournamentKind.ARENA, "length": 24 * 60 + 1}, "an arena has 1 to 1440 minutes, not 1441"),
    ({"length": True}, "a Swiss has 1 to 30 rounds, not True"),
    ({"min_rating": -1}, "the minimum rating is a whole number, 0 or more"),
    ({"min_rated_matches": 2.5}, "the minimum rated matches is a whole number, 0 or more"),
])
def test_a_plan_that_is_no_tournament_is_refused_in_one_line(changes: dict, error: str) -> None:
    with pytest.raises(TournamentError) as refused:
        plan(**changes)
    assert str(refused.value) == error


def test_entry_asks_for_the_rating_and_the_rated_matches_the_tournament_wants() -> None:
    wanting = plan(min_rating=1100, min_rated_matches=5)
    assert entry_refusal(wanting, None, 0) == "this tournament is for ratings of 1100 or more; you have no rating yet"
    assert entry_refusal(wanting, 1099, 9) == ("this tournament is for ratings of 1100 or more; you have a rating "
                                               "of 1099")
    assert entry_refusal(wanting, 1100, 4) == ("this tournament is for players with 5 rated matches or more; you have "
                                               "4")
    assert entry_refusal(wanting, 1100, 5) is None and entry_refusal(plan(), None, 0) is None
