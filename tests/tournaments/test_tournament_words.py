"""What the lobby's news and a tournament's page say of a tournament over agree: one winner, a shared first place,
nobody who scored."""

from __future__ import annotations

from dataclasses import replace

from soluna_tui.online.screens.tournament import state_words
from soluna_tui.server.lobby.tournament_view import line_of, page_of, winner_words
from soluna_tui.server.tournaments.engine import winner_of
from soluna_tui.server.tournaments.records import Outcome, Snapshot, TournamentState

from .helpers import entrants, swiss_snapshot


def over(snapshot: Snapshot) -> Snapshot:
    """``snapshot`` finished, its winner as the engine files it."""
    finished = replace(snapshot, tournament=replace(snapshot.tournament, state=TournamentState.FINISHED))
    return replace(finished, tournament=replace(finished.tournament, winner=winner_of(finished)))


def test_a_shared_first_place_is_said_alike_in_the_news_the_page_and_the_list() -> None:
    snapshot = over(swiss_snapshot(1, entrants("ann", "bob", "cyd", "dan"),
                                   [(1, "ann", "bob", Outcome.FIRST_WON), (1, "cyd", "dan", Outcome.FIRST_WON)]))
    assert winner_words(snapshot) == "Tournament Weekly is over: ann and cyd share first place, 1 point."
    assert state_words(page_of(snapshot, None, 2000.0), None) == "Over: ann and cyd share first place, 1 point."
    assert line_of(snapshot, None).winner is None  # the list names no single winner


def test_one_winner_is_named_with_their_points_in_the_news_and_on_the_page() -> None:
    snapshot = over(swiss_snapshot(2, entrants("ann", "bob"),
                                   [(1, "ann", "bob", Outcome.FIRST_WON), (2, "bob", "ann", Outcome.SECOND_WON)]))
    assert winner_words(snapshot) == "Tournament Weekly is over: ann wins with 2 points."
    assert state_words(page_of(snapshot, None, 2000.0), None) == "Over: ann won with 2 points."
    assert line_of(snapshot, None).winner == "ann"


def test_a_tournament_nobody_scored_in_names_no_winner_anywhere() -> None:
    snapshot = over(swiss_snapshot(1, entrants("ann", "bob", "cyd", "dan"),
                                   [(1, "ann", "bob", Outcome.NEITHER), (1, "cyd", "dan", Outcome.NEITHER)]))
    assert winner_words(snapshot) == "Tournament Weekly is over: nobody scored a point."
    assert state_words(page_of(snapshot, None, 2000.0), None) == "Over: nobody scored a point."
    assert line_of(snapshot, None).winner is None

