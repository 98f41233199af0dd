"""Ratings: only rated matches move them; the leaderboard and each player's own record."""

from __future__ import annotations

import pytest

from soluna_tui.server.rating_model import Rating, is_rated, rate, win_chance

from .conftest import finished_match, match_in_play, seats

ANN, BOB, CAROL = "SHA256:ann", "SHA256:bob", "SHA256:carol"


async def _play(store, code: str, winner: int, first=ANN, second=BOB, names=("ann", "bob"), result="won"):
    match = match_in_play()
    await store.matches.create(code, match.options.to_dict(), seats(first, second, names), match.to_dict())
    ended = finished_match(winner=winner)
    return await store.matches.finish(code, 1, ended.to_dict(), result)


def test_a_win_raises_the_winner_and_lowers_the_loser():
    winner, loser = rate(Rating(), Rating())
    assert winner.mu > Rating().mu > loser.mu
    assert winner.sigma < Rating().sigma and loser.sigma < Rating().sigma
    assert Rating().shown == 1000 and winner.shown > 1000 > loser.shown
    assert win_chance(winner, loser) > 0.5
    assert Rating.from_dict(winner.to_dict()) == winner


@pytest.mark.parametrize("fingerprints, winner, rated", [
    ((ANN, BOB), 0, True), ((ANN, None), 0, False), ((None, None), 1, False), ((ANN, ANN), 0, False),
    ((ANN, BOB), None, False)])
def test_only_two_different_keyed_players_with_a_winner_are_rated(fingerprints, winner, rated):
    assert is_rated(fingerprints, winner) is rated


async def test_a_rated_match_updates_both_players(store):
    filed = await _play(store, "AAAA", winner=1)
    before = {change.fingerprint: change.before for change in filed.rating_changes}
    after = {change.fingerprint: change.after for change in filed.rating_changes}
    assert before == {ANN: Rating(), BOB: Rating()}
    assert after[BOB].mu > after[ANN].mu
    board = await store.ratings.leaderboard()
    assert [(row.rank, row.fingerprint, row.played, row.won, row.lost) for row in board] == [
        (1, BOB, 1, 1, 0), (2, ANN, 1, 0, 1)]
    assert board[0].rating == after[BOB]
    second = await _play(store, "BBBB", winner=1)
    assert second.rating_changes[1].before == after[BOB]  # the next match starts from the last one's ratings


async def test_guests_and_abandoned_matches_change_no_rating(store):
    assert not (await _play(store, "GGGG", winner=0, second=None)).rated
    assert not (await _play(store, "SELF", winner=0, second=ANN)).rated
    assert not (await _play(store, "GONE", winner=0, result="abandoned")).rated
    assert await store.ratings.leaderboard() == []
    summary = await store.players.summary(ANN)
    assert summary.standing is None
    assert [item.code for item in summary.recent] == ["GONE", "SELF", "GGGG"]


async def test_the_leaderboard_ranks_by_the_conservative_estimate_and_shows_held_names(store):
    await store.players.see(CAROL, "Carol")
    for number in range(3):
        await _play(store, f"CA{number}B", winner=0, first=CAROL, second=BOB, names=("carol", "bob"))
    await _play(store, "ANNB", winner=0)
    board = await store.ratings.leaderboard()
    assert [row.name for row in board] == ["Carol", "ann", "bob"]  # Carol: the name her key holds
    assert [row.rank for row in board] == [1, 2, 3]
    assert [row.rating.conservative for row in board] == sorted((row.rating.conservative for row in board),
                                                                 reverse=True)
    assert [row.fingerprint for row in await store.ratings.leaderboard(limit=1, offset=1)] == [ANN]
    summary = await store.players.summary(BOB)
    assert (summary.standing.rank, summary.standing.played, summary.standing.lost) == (3, 4, 4)
    assert [item.code for item in summary.recent] == ["ANNB", "CA2B", "CA1B", "CA0B"]
    assert [item.code for item in await store.finished.of_player(BOB, limit=2)] == ["ANNB", "CA2B"]
    assert summary.player is None  # Bob has played but never been seen by key on this store


async def test_players_with_equal_ratings_share_a_rank(store):
    await _play(store, "AAAA", winner=0, first=ANN, second=BOB)
    await _play(store, "CCCC", winner=0, first=CAROL, second="SHA256:dave", names=("carol", "dave"))
    board = await store.ratings.leaderboard()
    assert [row.rank for row in board] == [1, 1, 3, 3]
    assert (await store.players.summary(CAROL)).standing.rank == 1
