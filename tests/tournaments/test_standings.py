"""Issue 42: standings computed by hand on small tournaments, against the code's (Swiss with Buchholz and
Sonneborn-Berger; an arena's points with streaks)."""

from __future__ import annotations

from soluna_tui.server.tournaments.records import Outcome, TournamentKind
from soluna_tui.server.tournaments.standings import standings

from .helpers import entrants, swiss_snapshot

FIRST, SECOND, DRAW, NEITHER = Outcome.FIRST_WON, Outcome.SECOND_WON, Outcome.DRAW, Outcome.NEITHER


def lines(snapshot) -> list[tuple]:
    return [(each.rank, each.fingerprint, each.points, each.buchholz, each.sonneborn_berger, each.played, each.won)
            for each in standings(snapshot)]


def test_a_swiss_of_five_ranks_by_points_then_buchholz_then_sonneborn_berger() -> None:
    """Three rounds, a bye each. By hand: points A 1, B 1 (a bye), C 2.5, D 2.5, E 2. Buchholz (opponents'
    points, a bye nothing): A 1+2.5+2.5 = 6, B 1+2 = 3, C 2.5+1+2 = 5.5, D 2.5+1 = 3.5, E 1+2.5 = 3.5.
    Sonneborn-Berger (points of those beaten, half of those drawn): A 1, B 0, C 1.25+1+2 = 4.25, D 1.25+1 = 2.25,
    E 1."""
    games = [(1, "A", "B", FIRST), (1, "C", "D", DRAW), (1, "E", None, FIRST),
             (2, "A", "C", SECOND), (2, "E", "B", FIRST), (2, "D", None, FIRST),
             (3, "C", "E", FIRST), (3, "A", "D", SECOND), (3, "B", None, FIRST)]
    snapshot = swiss_snapshot(3, entrants("A", "B", "C", "D", "E"), games)
    assert lines(snapshot) == [(1, "C", 2.5, 5.5, 4.25, 3, 2), (2, "D", 2.5, 3.5, 2.25, 2, 1),
                               (3, "E", 2.0, 3.5, 1.0, 2, 1), (4, "A", 1.0, 6.0, 1.0, 3, 1),
                               (5, "B", 1.0, 3.0, 0.0, 2, 0)]


def test_players_equal_on_points_and_both_tie_breaks_share_a_rank_listed_by_rating() -> None:
    snapshot = swiss_snapshot(3, entrants("A", "B", "C", "D", ratings={"C": 1200, "A": 1100}),
                              [(1, "A", "B", FIRST), (1, "C", "D", FIRST)])
    assert [(each[0], each[1]) for each in lines(snapshot)] == [(1, "C"), (1, "A"), (3, "B"), (3, "D")]


def test_a_match_nobody_won_scores_nothing_and_a_match_in_play_counts_once_it_ends() -> None:
    snapshot = swiss_snapshot(3, entrants("A", "B", "C", "D"), [(1, "A", "B", NEITHER), (1, "C", "D", None)])
    assert {each[1]: each[2:] for each in lines(snapshot)} == {
        "A": (0.0, 0.0, 0.0, 1, 0), "B": (0.0, 0.0, 0.0, 1, 0), "C": (0.0, 0.0, 0.0, 0, 0), "D": (0.0, 0.0, 0.0, 0, 0)}


def test_an_arena_gives_two_a_win_and_doubles_them_after_two_wins_in_a_row_until_a_match_is_not_won() -> None:
    """By hand, in the order played: A wins, wins, wins (on fire: 4), loses (the streak ends), wins: 2+2+4+0+2 = 10.
    B wins twice (4) and is on fire. C wins, wins, draws on fire (2): 6. The others lost all they played."""
    games = [(1, "A", "X", FIRST), (1, "B", "Y", FIRST), (1, "C", "Z", FIRST),
             (2, "X", "A", SECOND), (2, "Y", "B", SECOND), (2, "Z", "C", SECOND),
             (3, "A", "Z", FIRST), (4, "C", "Y", DRAW), (5, "X", "A", FIRST), (6, "A", "Y", FIRST)]
    snapshot = swiss_snapshot(60, entrants("A", "B", "C", "X", "Y", "Z"), games, TournamentKind.ARENA)
    placings = {each.fingerprint: each for each in standings(snapshot)}
    assert {name: (each.rank, each.points, each.won, each.played, each.on_fire)
            for name, each in placings.items()} == {
        "A": (1, 10.0, 4, 5, False), "C": (2, 6.0, 2, 3, False), "B": (3, 4.0, 2, 2, True),
        "X": (4, 2.0, 1, 3, False), "Y": (5, 1.0, 0, 4, False), "Z": (6, 0.0, 0, 3, False)}
