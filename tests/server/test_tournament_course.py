"""A tournament's course through what servers go through, with fake guests on SQLite and PostgreSQL: a server
restarted in the middle of a Swiss round (the round goes on, the next is paired by the new server), two servers
sharing one tournament (players seated across them, each told by their own), and an arena of four to its end (points
with the streak, counted here)."""

from __future__ import annotations

import asyncio

from soluna_tui.server.lobby import Lobby
from soluna_tui.server.storage import open_storage
from soluna_tui.server.tournaments.records import TournamentKind

from ..clean_up import within
from .test_lobby import FakeGuest, SettledLobby, move_message, wait_for
from .test_tournament_lobby import STARTS_IN, announce, codes_paired, keyed, sent, start_now


async def opened(database: str, ahead: float = 0.0) -> SettledLobby:
    """A server on ``database``, its clock ``ahead`` (as one started after ``start_now``)."""
    store = await open_storage(database)
    if ahead:
        real_clock = store.clock
        store.clock = lambda: real_clock() + ahead
    lobby = Lobby(store, 60.0, heartbeat=0.1)
    await lobby.start()
    return SettledLobby(lobby)


async def closed(lobby: SettledLobby) -> None:
    try:
        await within(lobby.close(), "closing a lobby")
    finally:
        await within(lobby.store.close(), "closing a lobby's store")


def lobby_of(guest: FakeGuest, lobbies: dict[str, SettledLobby]) -> SettledLobby:
    return lobbies[guest.name]


async def play_out(lobbies: dict[str, SettledLobby], code: str, players: dict[str, FakeGuest]) -> str:
    """Moves until the match is over (the first legal move each time; one star, four discs: a few moves), then the
    winner's name."""
    any_lobby = next(iter(lobbies.values()))
    for _ in range(40):
        await any_lobby.cache.reload(code)
        table = any_lobby.tables[code]
        if table.finished:
            return table.seats[table.match.winner].name
        mover = players[table.seats[table.match.to_move].name]
        await wait_for(lambda mover=mover, version=table.version: any(
            message.get("version", -1) >= version for message in mover.inbox if message["type"] in ("match", "moved")))
        await lobby_of(mover, lobbies).handle(mover, move_message(mover))
    raise AssertionError(f"match {code} never ended")


async def round_played(lobbies: dict[str, SettledLobby], players: dict[str, FakeGuest], tournament: int,
                       number: int) -> dict[str, float]:
    """Round ``number`` of a Swiss: every pair seated by itself and played out; the points it gave, by name."""
    engine = next(iter(lobbies.values())).tournaments.engine

    async def paired() -> bool:
        snapshot = await engine.snapshot(tournament)
        return any(each.round == number for each in snapshot.pairings)

    await wait_for(paired)
    snapshot = await engine.snapshot(tournament)
    names = {entrant.fingerprint: entrant.name for entrant in snapshot.entrants}
    points: dict[str, float] = {}
    for pairing in [each for each in snapshot.pairings if each.round == number]:
        if pairing.bye:
            points[names[pairing.first]] = 1.0
            continue

        async def seated(pairing_id: int = pairing.id, first: str = pairing.first) -> bool:
            stored = await engine.store.tournaments.pairing(pairing_id)
            table = lobbies[names[first]].tables.get(stored.code) if stored.code else None
            return table is not None and table.in_play

        await wait_for(seated)
        code = (await engine.store.tournaments.pairing(pairing.id)).code
        points[await play_out(lobbies, code, players)] = 1.0
    return points


async def test_a_server_restarted_in_the_middle_of_a_swiss_round_goes_on_with_it(database) -> None:
    first = await opened(database)
    players = {name: keyed(name, number) for number, name in enumerate(("ann", "bob", "cyd"), start=1)}
    try:
        tournament = await announce(first)
        for guest in players.values():
            await first.arrive(guest)
            await first.handle(guest, {"type": "join_tournament", "id": tournament, "ask": 1})
        start_now(first)
        await wait_for(lambda: sum(len(codes_paired(guest)) for guest in players.values()) == 2)
        code = next(codes_paired(guest)[-1] for guest in players.values() if codes_paired(guest))
        await wait_for(lambda: first.tables[code].in_play)
        opener = players[first.tables[code].seats[first.tables[code].match.to_move].name]
        await first.handle(opener, move_message(opener))
    finally:
        await closed(first)  # the server stops in the middle of round 1
    second = await opened(database, ahead=STARTS_IN)
    try:
        back = {name: keyed(name, number) for number, name in enumerate(("ann", "bob", "cyd"), start=1)}
        for guest in back.values():
            await second.arrive(guest)
        await wait_for(lambda: code in second.tables)
        for seat in second.tables[code].seats:  # back at their match by its code: the key is proof enough
            guest = back[seat.name]
            if not any(message["type"] == "match" for message in guest.inbox):
                await second.handle(guest, {"type": "join", "code": code, "hints": False})
        lobbies = dict.fromkeys(back, second)
        snapshot = await second.tournaments.engine.snapshot(tournament)
        assert [each.code for each in snapshot.pairings if not each.bye] == [code]  # the round as it stood
        scores = dict.fromkeys(back, 0.0)
        scores[next(name for name, guest in back.items() if not any(
            seat.fingerprint == guest.fingerprint for seat in second.tables[code].seats))] += 1  # the bye
        scores[await play_out(lobbies, code, back)] += 1
        for name, points in (await round_played(lobbies, back, tournament, 2)).items():
            scores[name] += points
        await wait_for(lambda: any("Tournament Friday is over" in message["text"]
                                   for guest in back.values() for message in sent(guest, "notice")))
        await second.handle(back["ann"], {"type": "tournament", "id": tournament, "ask": 9})
        page = back["ann"].last("tournament")
        assert page["tournament"]["state"] == "finished"
        assert {row["name"]: row["points"] for row in page["standings"]} == scores
    finally:
        await closed(second)


async def test_two_servers_share_one_tournament_and_seat_its_players_across_them(postgres_database) -> None:
    # PostgreSQL alone: two servers never share a SQLite file.
    servers = [await opened(postgres_database), await opened(postgres_database)]
    try:
        players = {name: keyed(name, number) for number, name in enumerate(("ann", "bob", "cyd", "dan"), start=1)}
        lobbies = {name: servers[index % 2] for index, name in enumerate(players)}  # ann, cyd here; bob, dan there
        tournament = await announce(servers[0], length=1, starts_in=3.0)  # two clocks: no moving them on
        for name, guest in players.items():
            await lobbies[name].arrive(guest)
            await lobbies[name].handle(guest, {"type": "join_tournament", "id": tournament, "ask": 1})
        scores = await round_played(lobbies, players, tournament, 1)
        for guest in players.values():
            await wait_for(lambda guest=guest: any("Tournament Friday is over" in message["text"]
                                                   for message in sent(guest, "notice")))
        snapshot = await servers[1].tournaments.engine.snapshot(tournament)
        assert [each.round for each in snapshot.pairings] == [1, 1]  # paired once, though both servers tend it
        await servers[1].handle(players["bob"], {"type": "tournament", "id": tournament, "ask": 2})
        standings = {row["name"]: row["points"] for row in players["bob"].last("tournament")["standings"]}
        assert standings == {name: scores.get(name, 0.0) for name in players}
    finally:
        for server in servers:
            await closed(server)


async def test_an_arena_of_four_pairs_players_again_as_they_finish_and_scores_streaks_to_its_end(make_lobby) -> None:
    lobby = await make_lobby()
    engine = lobby.tournaments.engine
    engine.rematch_wait = 0.0
    lobby.tournaments.grace = 600.0  # the arena's end brought on below must not make a pairing just made missed
    players = {name: keyed(name, number) for number, name in enumerate(("ann", "bob", "cyd", "dan"), start=1)}
    tournament = await announce(lobby, TournamentKind.ARENA, length=1)
    for guest in players.values():
        await lobby.arrive(guest)
        await lobby.handle(guest, {"type": "join_tournament", "id": tournament, "ask": 1})
    start_now(lobby)
    lobbies = dict.fromkeys(players, lobby)
    streak = dict.fromkeys(players, 0)
    scores = dict.fromkeys(players, 0)
    played: set[int] = set()

    async def play_what_is_paired() -> bool:
        """Every pairing made and not played yet, played out in the order made, scored here (2 a win, 4 once on
        fire: after two wins in a row); whether the arena is over."""
        snapshot = await engine.snapshot(tournament)
        for pairing in snapshot.pairings:
            if pairing.id in played:
                continue

            async def in_play(pairing_id: int = pairing.id) -> bool:
                code = (await engine.store.tournaments.pairing(pairing_id)).code
                return code is not None and code in lobby.tables and lobby.tables[code].in_play

            await wait_for(in_play)
            code = (await engine.store.tournaments.pairing(pairing.id)).code
            seats = [seat.name for seat in lobby.tables[code].seats]
            winner = await play_out(lobbies, code, players)
            scores[winner] += 4 if streak[winner] >= 2 else 2
            streak[winner] += 1
            streak[next(name for name in seats if name != winner)] = 0
            played.add(pairing.id)
        return snapshot.tournament.state.over

    for _ in range(200):  # each player paired again as soon as their match is over: six matches, at least
        await play_what_is_paired()
        if len(played) >= 6:
            break
        await asyncio.sleep(0.05)
    real_clock = lobby.store.clock
    lobby.store.clock = lambda: real_clock() + 90  # its minute is up: no more pairings, the matches in play count
    for _ in range(100):
        if await play_what_is_paired():
            break
        await asyncio.sleep(0.05)
    await wait_for(lambda: any("Tournament Friday is over" in message["text"]
                               for message in sent(players["ann"], "notice")))
    assert len(played) >= 6
    await lobby.handle(players["ann"], {"type": "tournament", "id": tournament, "ask": 2})
    page = players["ann"].last("tournament")
    assert {row["name"]: row["points"] for row in page["standings"]} == scores
