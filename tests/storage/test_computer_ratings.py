"""Rated matches against the computer in the store: the player's rating moves against the level's calibrated one,
the level's never does; no round decided, a level far below the player or the day's few against one level: unrated.
None of it counts toward the leaderboard's thresholds. Both databases."""

from __future__ import annotations

import pytest

from soluna_tui.rules import Match, MatchOptions
from soluna_tui.rules.strengths import strength_of
from soluna_tui.server.rating_model import LEVEL_BELOW, PAIR_RATED_PER_DAY, Rating, rate_against_level
from soluna_tui.server.storage import SeatRecord

from ..server.helpers import Clock
from .conftest import finished_match, match_in_play, seats

ANN = SeatRecord("ann", "ann", "SHA256:ann", False)


def against_computer(winner: int, seed: int = 1) -> dict:
    """A finished one-star match, its winner ``winner`` (0: the player)."""
    return finished_match(winner=winner, seed=seed, discs=12).to_dict()


async def test_a_won_match_moves_the_player_s_rating_and_not_the_level_s(store) -> None:
    level = strength_of("5")
    filed, unrated = await store.finished.file_computer_match(ANN, level, against_computer(0), "won", 100.0)
    assert unrated is None and filed.rated and filed.winner == 0 and filed.code == "computer-5"
    mine, its = filed.rating_changes
    assert (mine.before, mine.after) == (Rating(), rate_against_level(Rating(), level, won=True))
    assert mine.after.shown > mine.before.shown
    assert its.before == its.after == Rating(level.mu, level.sigma) and its.after.shown == level.rating
    assert [seat.name for seat in filed.seats] == ["ann", "Computer (level 5)"]
    summary = await store.players.summary("SHA256:ann")
    assert summary.standing is not None and summary.standing.rating == mine.after
    # Between people only: no match played, won or lost, not on the board with its thresholds; the computer's
    # won and lost beside them, and the match among the recent ones.
    assert (summary.standing.played, summary.standing.won, summary.standing.lost) == (0, 0, 0)
    assert summary.computer == (1, 0) and [each.id for each in summary.recent] == [filed.id]
    assert await store.ratings.leaderboard(minimum=1) == [] and await store.ratings.rated_players(minimum=1) == 0
    lost, _ = await store.finished.file_computer_match(ANN, level, against_computer(1, seed=2), "forfeit", 100.0)
    assert lost.rating_changes[0].after.mu < mine.after.mu
    assert (await store.players.summary("SHA256:ann")).computer == (1, 1)


async def test_a_match_with_no_round_decided_on_the_board_moves_nothing(store) -> None:
    match = match_in_play()  # a move made, no round decided
    match.forfeit(0)
    filed, unrated = await store.finished.file_computer_match(ANN, strength_of("4"), match.to_dict(), "forfeit", 100.0)
    assert unrated == "Unrated: no round was decided on the board." and not filed.rated
    assert (await store.players.summary("SHA256:ann")).standing is None


async def test_a_level_is_no_farm_the_day_s_few_and_not_far_below_the_player(store) -> None:
    clock = Clock()
    store.clock = clock
    weakest = strength_of("1")
    said = []
    for number in range(PAIR_RATED_PER_DAY + 1):
        clock.now += 60
        _, unrated = await store.finished.file_computer_match(ANN, weakest, against_computer(0, seed=number), "won",
                                                              0.0)
        said.append(unrated)
    assert said[:-1] == [None] * PAIR_RATED_PER_DAY
    assert said[-1] == f"Unrated: {PAIR_RATED_PER_DAY} rated matches against level 1 (random) in 24 hours already."
    clock.now += 24 * 3600
    rating = (await store.players.summary("SHA256:ann")).standing.rating
    while rating.shown - LEVEL_BELOW <= weakest.rating:  # beating level 1 day after day lifts a rating so far
        clock.now += 24 * 3600 / PAIR_RATED_PER_DAY
        filed, unrated = await store.finished.file_computer_match(ANN, weakest, against_computer(0), "won", 0.0)
        assert unrated is None
        rating = filed.rating_changes[0].after
    _, unrated = await store.finished.file_computer_match(ANN, weakest, against_computer(0), "won", 0.0)
    assert unrated == (f"Unrated: level 1 (random), rated 1297, is more than {LEVEL_BELOW} below your rating "
                       f"({rating.shown}).")
    filed, unrated = await store.finished.file_computer_match(ANN, strength_of("4"), against_computer(0), "won", 0.0)
    assert unrated is None and filed.rated  # a level near the player's rating still counts


async def test_computer_matches_make_no_one_an_established_opponent(store) -> None:
    """Five computer matches do not make a key an opponent whose matches count toward the leaderboard."""
    for number in range(5):
        sock = SeatRecord(f"sock{number}", f"sock{number}", f"SHA256:sock{number}", False)
        for level in ("3", "4", "5", "6", "7"):
            await store.finished.file_computer_match(sock, strength_of(level), against_computer(0, seed=number),
                                                     "won", 0.0)
        match = Match(MatchOptions.preset("online", stars_to_win=1, discs=6), ("mallory", f"sock{number}"), seed=1)
        await store.matches.create(f"S{number:03}", match.options.to_dict(),
                                 seats("SHA256:mallory", f"SHA256:sock{number}", ("mallory", f"sock{number}")),
                                 match.to_dict())
        await store.matches.finish(f"S{number:03}", 1, finished_match(winner=0, seed=number).to_dict(), "won")
    assert [row.name for row in await store.ratings.leaderboard(minimum=5, opponents=0)] == ["mallory"]
    assert await store.ratings.leaderboard(minimum=5, opponents=3) == []


@pytest.mark.parametrize("result", ["abandoned", "aborted"])
async def test_only_a_match_someone_won_is_filed_so(store, result) -> None:
    with pytest.raises(ValueError, match="won or forfeited"):
        await store.finished.file_computer_match(ANN, strength_of("5"), against_computer(0), result, 0.0)
