"""Issue 29 in the store: the rating rules a farmer cannot meet cheaply: a round decided on the board, a pair's
rated matches a day, and a leaderboard that lists a player once they have played established opponents. Both
databases."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from soluna_tui.rules import Match, MatchOptions
from soluna_tui.server.rating_model import PAIR_RATED_PER_DAY, PAIR_WINDOW
from soluna_tui.server.storage.schema import MIGRATIONS

from ..server.helpers import Clock
from .conftest import finished_match, match_in_play, seats

# ---- rated only once a round has been decided on the board -----------------------------------------------


def decided_then_in_play(seed: int = 3) -> Match:
    """A two-star match whose first round was decided on the board, the second just begun."""
    rng = random.Random(seed)
    match = Match(MatchOptions.preset("online", stars_to_win=2, discs=6), ("ann", "bob"), seed=seed)
    while not match.between_rounds:
        match.play(rng.choice(match.position.legal_moves))
    match.start_next_round(match.next_opener())
    return match


@pytest.mark.parametrize("result", ["forfeit", "time"])
async def test_a_forfeit_before_a_round_is_decided_keeps_its_winner_and_is_not_rated(store, result) -> None:
    for code, match in (("EARLY", match_in_play()), ("LATER", decided_then_in_play())):
        await store.matches.create(code, match.options.to_dict(), seats(), match.to_dict())
        match.forfeit(1)
        filed = await store.matches.finish(code, 1, match.to_dict(), result)
        assert (filed.winner, filed.rated) == (0, code == "LATER")
    assert [row.name for row in await store.ratings.leaderboard()] == ["ann", "bob"]
    assert (await store.ratings.leaderboard())[0].played == 1


# ---- a pair's rated matches a day ---------------------------------------------------------------------


async def play(store, code: str, first: str, second: str, winner: int = 0, seed: int = 1):
    match = match_in_play()
    names = (first.removeprefix("SHA256:"), second.removeprefix("SHA256:"))
    await store.matches.create(code, match.options.to_dict(), seats(first, second, names), match.to_dict())
    return await store.matches.finish(code, 1, finished_match(winner=winner, seed=seed).to_dict(), "won")


async def test_the_same_pair_moves_its_ratings_a_few_times_a_day(store) -> None:
    clock = Clock()
    store.clock = clock
    rated = []
    for number in range(PAIR_RATED_PER_DAY + 1):
        clock.now += 60
        rated.append((await play(store, f"P{number:03}", "SHA256:ann", "SHA256:bob", winner=number % 2)).rated)
    assert rated == [True] * PAIR_RATED_PER_DAY + [False]
    assert (await play(store, "CYD1", "SHA256:cyd", "SHA256:ann")).rated  # another pair: rated
    standing = (await store.players.summary("SHA256:bob")).standing
    assert standing is not None and standing.played == PAIR_RATED_PER_DAY
    clock.now += PAIR_WINDOW - 60 * PAIR_RATED_PER_DAY + 61  # a day after the first of them
    assert (await play(store, "NEXT", "SHA256:bob", "SHA256:ann")).rated


# ---- the leaderboard: established opponents ----------------------------------------------------------


async def test_a_player_is_listed_after_matches_against_established_opponents_not_throwaway_keys(store) -> None:
    farmer, regulars = "SHA256:farmer", [f"SHA256:reg{number}" for number in range(4)]
    await store.ratings.establish((regulars[0],))  # the owner's key: the regulars earn trust by playing it
    for number in range(5):  # five fresh keys, each beaten once: five rated matches
        assert (await play(store, f"F{number:03}", farmer, f"SHA256:sock{number}")).rated
    games = 0
    for _ in range(3):  # four regulars each play the three others three times
        for first, second in combinations(regulars, 2):
            games += 1
            await play(store, f"R{games:03}", first, second, winner=games % 2, seed=games)
    await play(store, "FREG", farmer, regulars[0])  # one established opponent is not enough
    board = await store.ratings.leaderboard(minimum=5, opponents=3)
    assert sorted(row.fingerprint for row in board) == regulars
    assert await store.ratings.rated_players(minimum=5, opponents=3) == 4
    farmed = (await store.players.summary(farmer, minimum=5, opponents=3)).standing
    assert farmed is not None and farmed.played == 6 and farmed.rank is None
    assert farmer in {row.fingerprint for row in await store.ratings.leaderboard(minimum=5)}  # by the count alone
    for number, regular in enumerate(regulars[1:3]):  # two more: three established opponents
        await play(store, f"FRG{number}", farmer, regular)
    listed = await store.ratings.leaderboard(minimum=5, opponents=3)
    assert farmer in {row.fingerprint for row in listed}
    assert (await store.players.summary(farmer, minimum=5, opponents=3)).standing.rank == [
        row.fingerprint for row in listed].index(farmer) + 1


async def test_the_migration_counts_each_pair_s_rated_matches_filed_before_it(store) -> None:
    await play(store, "OLD1", "SHA256:ann", "SHA256:bob")
    await play(store, "OLD2", "SHA256:bob", "SHA256:ann")
    await play(store, "OLD3", "SHA256:ann", "SHA256:cyd")
    number = next(index for index, statements in enumerate(MIGRATIONS)
                  if any("CREATE TABLE rated_opponents" in statement for statement in statements))
    async with store.transaction() as tx:
        await tx.execute("DELETE FROM rated_opponents")
        await tx.execute(MIGRATIONS[number][-1])  # the migration's count, from the finished matches
        rows = await tx.fetch("SELECT fingerprint, opponent, matches FROM rated_opponents "
                              "ORDER BY fingerprint, opponent")
    assert rows == [("SHA256:ann", "SHA256:bob", 2), ("SHA256:ann", "SHA256:cyd", 1),
                    ("SHA256:bob", "SHA256:ann", 2), ("SHA256:cyd", "SHA256:ann", 1)]
