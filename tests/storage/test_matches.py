"""Matches in play: versions, conflicts between two servers, finishing in one transaction."""

from __future__ import annotations

import asyncio

import pytest

from soluna_tui.rules import Match, MatchOptions
from soluna_tui.rules.places import PlacedMove
from soluna_tui.server.storage import CodeTaken, MatchNotFound, StorageError, VersionConflict

from .conftest import finished_match, match_in_play, seats


async def _create(store, code: str = "ABCD"):
    match = match_in_play()
    return await store.matches.create(code, match.options.to_dict(), seats(), match.to_dict())


async def test_a_created_match_reads_back_at_version_one(store):
    created = await _create(store)
    stored = await store.matches.get("ABCD")
    assert stored == created
    assert stored.version == 1 and stored.seats == seats()
    assert Match.from_dict(stored.document).to_dict() == match_in_play().to_dict()
    with pytest.raises(CodeTaken):
        await _create(store)
    assert [item.code for item in await store.matches.active()] == ["ABCD"]


async def test_a_waiting_match_has_no_document_until_the_opponent_sits(store):
    waiting = await store.matches.create("WAIT", match_in_play().options.to_dict(), seats()[:1])
    assert waiting.document is None and len(waiting.seats) == 1
    version = await store.matches.update("WAIT", 1, match_in_play().to_dict(), seats())
    stored = await store.matches.get("WAIT")
    assert (version, stored.version, len(stored.seats)) == (2, 2, 2)
    assert stored.document is not None


async def test_an_update_from_an_old_version_is_refused_and_changes_nothing(store):
    await _create(store)
    played = match_in_play()
    played.play(played.position.legal_moves[0])
    assert await store.matches.update("ABCD", 1, played.to_dict()) == 2
    with pytest.raises(VersionConflict) as refused:
        await store.matches.update("ABCD", 1, match_in_play().to_dict())
    assert (refused.value.expected, refused.value.actual) == (1, 2)
    assert isinstance(refused.value, ValueError)
    assert (await store.matches.get("ABCD")).document == played.to_dict()
    with pytest.raises(MatchNotFound):
        await store.matches.update("ZZZZ", 1, played.to_dict())


async def test_a_move_between_alike_towers_reads_back_in_the_places_it_was_played(store):
    """The store's part of tests/server/test_places_e2e.py (run there on SQLite only): the second of two alike
    towers put on the first reads back so, not as the notation alone would place it (the first onto the second)."""
    match = Match(MatchOptions.preset("online", stars_to_win=1, discs=6), ("ann", "bob"), seed=1)
    table = match.round.table
    first, second = next((first, second) for first in range(len(table)) for second in range(first + 1, len(table))
                         if table[first] is not None and table[first] == table[second])
    move = next(move for move in match.position.legal_moves if move.mover == move.target == table[first])
    match.play(PlacedMove(move, mover_slot=second, target_slot=first))
    await store.matches.create("PLCE", match.options.to_dict(), seats(), match.to_dict())
    stored = Match.from_dict((await store.matches.get("PLCE")).document).round.table
    assert stored == match.round.table and stored[second] is None and stored[first] is not None


async def test_two_servers_writing_the_same_version_at_once_one_wins(open_store):
    first, second = await open_store(), await open_store()
    await _create(first)
    base = match_in_play()
    rounds = 8
    for attempt in range(rounds):
        version = (await first.matches.get("ABCD")).version
        one, other = Match.from_dict(base.to_dict()), Match.from_dict(base.to_dict())
        outcomes = await asyncio.gather(first.matches.update("ABCD", version, one.to_dict()),
                                        second.matches.update("ABCD", version, other.to_dict()),
                                        return_exceptions=True)
        assert sorted(type(outcome).__name__ for outcome in outcomes) == ["VersionConflict", "int"], attempt
        assert (await second.matches.get("ABCD")).version == version + 1
    assert (await first.matches.get("ABCD")).version == 1 + rounds


async def test_finishing_files_the_match_and_removes_it_from_play_together(store):
    await _create(store)
    ended = finished_match(winner=1)
    filed = await store.matches.finish("ABCD", 1, ended.to_dict(), "won")
    assert (filed.code, filed.result, filed.winner) == ("ABCD", "won", 1)
    assert await store.matches.get("ABCD") is None
    assert await store.finished.get(filed.id) == filed
    assert await store.finished.latest_under("ABCD") == filed
    assert Match.from_dict(filed.document).to_dict() == ended.to_dict()
    with pytest.raises(MatchNotFound):
        await store.matches.finish("ABCD", 2, ended.to_dict(), "won")


@pytest.mark.parametrize("result, document", [("won", match_in_play().to_dict()), ("drawn", None),
                                              ("won", {"format": "soluna-match", "version": 1})])
async def test_a_finish_that_fails_leaves_the_match_in_play(store, result, document):
    await _create(store)
    with pytest.raises(StorageError):
        await store.matches.finish("ABCD", 1, document or finished_match().to_dict(), result)
    assert (await store.matches.get("ABCD")).version == 1
    assert await store.finished.newest() == []


async def test_a_finish_from_an_old_version_is_refused(store):
    await _create(store)
    await store.matches.update("ABCD", 1, match_in_play().to_dict())
    with pytest.raises(VersionConflict):
        await store.matches.finish("ABCD", 1, finished_match().to_dict(), "won")
    assert (await store.matches.get("ABCD")).version == 2
    assert await store.finished.latest_under("ABCD") is None


async def test_two_servers_finishing_at_once_file_the_match_once(open_store):
    first, second = await open_store(), await open_store()
    await _create(first)
    ended = finished_match().to_dict()
    outcomes = await asyncio.gather(first.matches.finish("ABCD", 1, ended, "won"),
                                    second.matches.finish("ABCD", 1, ended, "won"), return_exceptions=True)
    assert sorted(type(outcome).__name__ for outcome in outcomes) == ["FinishedMatch", "MatchNotFound"]
    assert len(await first.finished.newest()) == 1


async def test_an_abandoned_match_has_no_winner_and_a_forfeit_has_one(store):
    await _create(store, "ABAN")
    abandoned = await store.matches.finish("ABAN", 1, match_in_play().to_dict(), "abandoned")
    assert abandoned.winner is None and not abandoned.rated
    await _create(store, "FORF")
    forfeited = match_in_play()
    forfeited.forfeit(0)
    filed = await store.matches.finish("FORF", 1, forfeited.to_dict(), "forfeit")
    assert filed.winner == 1 and not filed.rated  # no round decided on the board yet: not rated
    assert [item.code for item in await store.finished.newest()] == ["FORF", "ABAN"]
    assert [item.code for item in await store.finished.newest(before_id=filed.id)] == ["ABAN"]


async def test_a_cancelled_waiting_match_is_dropped_without_a_trace(store):
    await store.matches.create("WAIT", match_in_play().options.to_dict(), seats()[:1])
    with pytest.raises(VersionConflict):
        await store.matches.drop("WAIT", 3)
    await store.matches.drop("WAIT", 1)
    assert await store.matches.get("WAIT") is None and await store.finished.newest() == []
    await _create(store, "WAIT")  # the code is free again


async def test_an_adjourned_match_keeps_when_it_was_adjourned_until_a_change_says_otherwise(store):
    """Issue 39: a match nobody could play for over a day is kept adjourned (``adjourned_at``), in play."""
    await _create(store)
    assert (await store.matches.get("ABCD")).adjourned_at is None
    await store.matches.update("ABCD", 1, match_in_play().to_dict(), seats(), adjourned_at=1234.5)
    adjourned = await store.matches.get("ABCD")
    assert adjourned.adjourned_at == 1234.5 and [each.code for each in await store.matches.active()] == ["ABCD"]
    await store.matches.update("ABCD", 2, match_in_play().to_dict())
    assert (await store.matches.get("ABCD")).adjourned_at is None
