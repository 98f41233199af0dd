"""Issue 42: tournaments in the store, on SQLite and PostgreSQL: announced, entered, paired once however many servers
try, results written once, and a tournament resumed by the engine after a restart, on another server."""

from __future__ import annotations

import asyncio

import pytest

from soluna_tui.server.storage import Storage, open_storage
from soluna_tui.server.storage.tournaments import tournament_changed, tournament_of
from soluna_tui.server.tournaments.engine import TournamentEngine
from soluna_tui.server.tournaments.records import (
    Entrant,
    Outcome,
    Pair,
    TournamentError,
    TournamentKind,
    TournamentPlan,
    TournamentState,
)
from soluna_tui.server.tournaments.standings import standings

from ..clean_up import within
from ..server.helpers import Clock
from .helpers import PLAN_TERMS

pytestmark = pytest.mark.slow


@pytest.fixture
async def open_store(database: str):
    """Open a store on the test's database; several calls are several servers sharing it, on one clock."""
    opened: list[Storage] = []
    clock = Clock()

    async def opener() -> Storage:
        store = await open_storage(database)
        store.clock = clock
        opened.append(store)
        return store

    yield opener
    for store in opened:
        await within(store.close(), "closing a store")


def swiss(rounds: int = 3, starts_at: float = 1060.0, **more) -> TournamentPlan:
    return TournamentPlan("Sunday Swiss", TournamentKind.SWISS, rounds, starts_at, PLAN_TERMS, **more)


async def test_a_tournament_is_announced_listed_and_read_back_whole(open_store) -> None:
    store = await open_store()
    with store.subscribe() as news:
        made = await store.tournaments.create(swiss(min_rating=1100, created_by="SHA256:ann"))
        assert tournament_of(await asyncio.wait_for(news.__anext__(), 5)) == made.id
    arena = await store.tournaments.create(TournamentPlan("Blitz", TournamentKind.ARENA, 30, 2000.0, PLAN_TERMS))
    assert await store.tournaments.get(made.id) == made
    assert made.state is TournamentState.UPCOMING and made.round == 0 and made.plan.terms == PLAN_TERMS
    assert made.plan.min_rating == 1100 and made.plan.created_by == "SHA256:ann"
    assert [each.id for each in await store.tournaments.listed()] == [arena.id, made.id]
    assert await store.tournaments.listed([TournamentState.RUNNING]) == []
    assert await store.tournaments.get(made.id + 100) is None
    assert tournament_of(tournament_changed(7)) == 7
    assert tournament_of(tournament_changed(7)._replace(code="ABCD")) is None


async def test_entrants_join_withdraw_and_come_back_by_key(open_store) -> None:
    store = await open_store()
    made = await store.tournaments.create(swiss())
    ann = Entrant("SHA256:ann", "ann", 1200, 1001.0)
    await store.tournaments.enter(made.id, ann)
    await store.tournaments.enter(made.id, Entrant("SHA256:bob", "bob", None, 1002.0))
    assert await store.tournaments.leave(made.id, "SHA256:bob")  # before the start: gone
    assert [each.fingerprint for each in (await store.tournaments.snapshot(made.id)).entrants] == ["SHA256:ann"]
    await store.tournaments.move(made.id, [TournamentState.UPCOMING], TournamentState.RUNNING)
    assert await store.tournaments.leave(made.id, "SHA256:ann")  # once running: paused, still in
    assert (await store.tournaments.snapshot(made.id)).entrants == (Entrant("SHA256:ann", "ann", 1200, 1001.0, True),)
    back = await store.tournaments.enter(made.id, Entrant("SHA256:ann", "ann the second", 1300, 1500.0))
    assert back == Entrant("SHA256:ann", "ann the second", 1200, 1001.0)  # the same entrant, unpaused, renamed
    await store.tournaments.move(made.id, [TournamentState.RUNNING], TournamentState.CANCELLED)
    with pytest.raises(TournamentError, match="cancelled"):
        await store.tournaments.enter(made.id, Entrant("SHA256:cat", "cat", None, 1600.0))
    assert not await store.tournaments.leave(made.id, "SHA256:ann")


async def test_a_round_is_paired_once_however_many_servers_try_and_only_from_where_it_stood(open_store) -> None:
    one, other = await open_store(), await open_store()
    made = await one.tournaments.create(swiss())
    for name in ("ann", "bob", "cat"):
        await one.tournaments.enter(made.id, Entrant(f"SHA256:{name}", name, None, 1001.0))
    pairs = [Pair("SHA256:ann", "SHA256:bob"), Pair("SHA256:cat", None)]
    assert await one.tournaments.pair(made.id, 1, pairs) is None  # not running yet
    await one.tournaments.move(made.id, [TournamentState.UPCOMING], TournamentState.RUNNING)
    results = await asyncio.gather(one.tournaments.pair(made.id, 1, pairs), other.tournaments.pair(made.id, 1, pairs))
    paired = [each for each in results if each is not None]
    assert len(paired) == 1 and [(each.round, each.players, each.outcome) for each in paired[0]] == [
        (1, ("SHA256:ann", "SHA256:bob"), None), (1, ("SHA256:cat",), Outcome.FIRST_WON)]  # the bye, won
    game = paired[0][0]
    assert await other.tournaments.pair(made.id, 2, [Pair("SHA256:cat", "SHA256:ann")]) is None  # round 1 in play
    assert await one.tournaments.seat(game.id, "ABCD") and not await other.tournaments.seat(game.id, "WXYZ")
    assert (await other.tournaments.pairing_of_match("ABCD")).id == game.id
    ended = await asyncio.gather(one.tournaments.record(game.id, Outcome.SECOND_WON, pause=["SHA256:ann"]),
                                 other.tournaments.record(game.id, Outcome.FIRST_WON))
    assert [each.outcome for each in ended if each is not None] in ([Outcome.SECOND_WON], [Outcome.FIRST_WON])
    snapshot = await other.tournaments.snapshot(made.id)
    assert snapshot.tournament.round == 1 and len(snapshot.pairings) == 2
    if ended[0] is not None:  # the first write won: ann missed it, and is paused
        assert snapshot.entrant("SHA256:ann").paused
        assert await one.tournaments.pair(made.id, 2, [Pair("SHA256:ann", "SHA256:cat")]) is None
    assert await one.tournaments.pair(made.id, 3, [Pair("SHA256:bob", "SHA256:cat")]) is None  # not the next round
    assert await one.tournaments.pair(made.id, 2, [Pair("SHA256:bob", "SHA256:bob")]) is None  # one player twice
    assert await one.tournaments.pair(made.id, 2, [Pair("SHA256:bob", "SHA256:cat")]) is not None


async def test_a_swiss_of_five_runs_to_its_end_and_a_restart_or_another_server_resumes_it(open_store) -> None:
    """The engine alone, on the store: each round paired once (one bye a round), results told, the store closed and
    opened again mid-round (a restart) and the other server going on; the standings at the end as the results
    make them, and the winner kept."""
    first = await open_store()
    engine = TournamentEngine(first)
    made = await engine.announce(swiss(rounds=3, starts_at=1060.0))
    names = ["ann", "bob", "cat", "dan", "eve"]
    for name in names:
        await engine.join(made.id, f"SHA256:{name}", name)
    assert await engine.advance(made.id) == [] and await engine.due() == []  # not yet
    first.clock.now = 1060.0
    assert await engine.due() == [made.id]
    for round_number in (1, 2, 3):
        pairings = await engine.advance(made.id)
        assert await engine.advance(made.id) == []  # the round is made once
        assert [each.round for each in pairings] == [round_number] * 3 and sum(each.bye for each in pairings) == 1
        games = [each for each in pairings if not each.bye]
        await engine.result(games[0].id, Outcome.FIRST_WON)
        engine = TournamentEngine(await open_store())  # a restart mid-round: the other server goes on
        await within(first.close(), "a server stops")
        first = engine.store
        await engine.result(games[1].id, Outcome.SECOND_WON)
    assert await engine.advance(made.id) == []
    snapshot = await engine.snapshot(made.id)
    assert snapshot.tournament.state is TournamentState.FINISHED and snapshot.tournament.round == 3
    placings = standings(snapshot)
    assert snapshot.tournament.winner == placings[0].fingerprint
    assert sum(each.points for each in placings) == 3 * 3  # two games and a bye a round, a point each
    met = [frozenset(each.players) for each in snapshot.pairings if not each.bye]
    assert len(met) == len(set(met)) == 6
    assert sorted(each.first for each in snapshot.pairings if each.bye) == sorted(set(
        each.first for each in snapshot.pairings if each.bye))


async def test_joining_asks_for_the_rating_and_rated_matches_the_tournament_wants(open_store) -> None:
    store = await open_store()
    engine = TournamentEngine(store)
    made = await engine.announce(swiss(min_rating=900, min_rated_matches=1))
    with pytest.raises(TournamentError, match="ratings of 900 or more; you have no rating yet"):
        await engine.join(made.id, "SHA256:ann", "ann")
    with pytest.raises(TournamentError, match="past"):
        await engine.announce(swiss(starts_at=100.0))
    for _ in range(2):
        await engine.announce(swiss(created_by="SHA256:ann"))
    with pytest.raises(TournamentError, match="you have 2 tournaments announced already"):
        await engine.announce(swiss(created_by="SHA256:ann"))
    await engine.announce(swiss(created_by="SHA256:bob"))
    with pytest.raises(TournamentError, match="stars"):
        await engine.announce(TournamentPlan("Odd", TournamentKind.SWISS, 3, 1100.0,
                                             PLAN_TERMS.__class__({"stars_to_win": 99})))


async def test_an_arena_pairs_the_free_stops_pairing_at_its_end_and_finishes_once_the_last_match_ends(
        open_store) -> None:
    store = await open_store()
    engine = TournamentEngine(store, rematch_wait=0.0)
    made = await engine.announce(TournamentPlan("Blitz", TournamentKind.ARENA, 10, 1000.0, PLAN_TERMS))
    for name in ("ann", "bob", "cat", "dan"):
        await engine.join(made.id, f"SHA256:{name}", name)
    first = await engine.advance(made.id)
    assert len(first) == 2 and not any(each.bye for each in first)
    star = first[0].first
    await engine.result(first[0].id, win_for(first[0], star))
    store.clock.now += 30
    again = await engine.advance(made.id)  # the two who finished: nobody else is free, they meet again
    assert [set(each.players) for each in again] == [set(first[0].players)]
    await engine.result(first[1].id, Outcome.FIRST_WON)
    await engine.result(again[0].id, win_for(again[0], star))
    store.clock.now += 30
    third = await engine.advance(made.id)
    assert len(third) == 2 and all(set(each.players) not in ({*first[0].players}, {*first[1].players})
                                   for each in third)
    mine = next(each for each in third if star in each.players)
    other = next(each for each in third if star not in each.players)
    missed = await engine.missed(other.id, [other.second])
    assert missed.outcome is Outcome.FIRST_WON
    assert (await engine.snapshot(made.id)).entrant(other.second).paused
    store.clock.now = 1000.0 + 10 * 60  # the end: no new pairings, the match in play finishes and counts
    assert await engine.advance(made.id) == []
    assert (await engine.snapshot(made.id)).tournament.state is TournamentState.RUNNING
    await engine.result(mine.id, win_for(mine, star))
    assert await engine.advance(made.id) == []
    snapshot = await engine.snapshot(made.id)
    assert snapshot.tournament.state is TournamentState.FINISHED
    assert snapshot.tournament.winner == star and standings(snapshot)[0].points == 2 + 2 + 4  # the third on fire


def win_for(pairing, player: str) -> Outcome:
    return Outcome.FIRST_WON if pairing.first == player else Outcome.SECOND_WON


async def test_two_servers_advancing_one_arena_at_once_pair_each_player_once(open_store) -> None:
    one, other = TournamentEngine(await open_store()), TournamentEngine(await open_store())
    made = await one.announce(TournamentPlan("Blitz", TournamentKind.ARENA, 10, 1000.0, PLAN_TERMS))
    for name in ("ann", "bob", "cat", "dan", "eve", "fay"):
        await other.join(made.id, f"SHA256:{name}", name)
    first, second = await asyncio.gather(one.advance(made.id), other.advance(made.id))
    paired = [player for pairing in (*first, *second) for player in pairing.players]
    assert len(paired) == 6 and len(set(paired)) == 6 and [] in (first, second)
    assert len((await one.snapshot(made.id)).pairings) == 3
