"""Tournaments in a lobby of fake guests, on SQLite and on PostgreSQL: joined, paired and seated automatically,
results recorded, standings as the test counts them, a missed pairing paused, the winner announced; the list and a
page for anyone (``tests/server/test_tournament_e2e.py`` plays them over SSH)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from soluna_tui.link.messages import MatchTerms
from soluna_tui.online.line_words import in_lines
from soluna_tui.rules import MatchOptions
from soluna_tui.rules.clock import ClockSetting
from soluna_tui.server.tournaments.records import TournamentKind, TournamentPlan

from .test_lobby import FakeGuest, move_message, wait_for

#: The cheapest match the server plays: one star, four discs.
TERMS = MatchTerms(MatchOptions.preset("box", stars_to_win=1, discs=4).to_dict())


def keyed(name: str, number: int) -> FakeGuest:
    return FakeGuest(name, f"10.0.0.{number}", fingerprint=f"SHA256:{name}")


#: A tournament starts this far ahead: everyone joins first, then its start is brought on (``start_now``).
STARTS_IN = 60.0


async def announce(lobby, kind: TournamentKind = TournamentKind.SWISS, length: int = 2,
                   starts_in: float = STARTS_IN, name: str = "Friday") -> int:
    plan = TournamentPlan(name, kind, length, lobby.store.clock() + starts_in, TERMS)
    return (await lobby.tournaments.engine.announce(plan)).id


def start_now(lobby) -> None:
    """Everyone is in: the tournament's start comes now (the store's clock moved on to it; a loaded machine may take
    longer than any start a test could wait for)."""
    real_clock = lobby.store.clock
    lobby.store.clock = lambda: real_clock() + STARTS_IN


def sent(guest: FakeGuest, kind: str) -> list[dict]:
    return [message for message in guest.inbox if message["type"] == kind]


def codes_paired(guest: FakeGuest) -> list[str]:
    return [message["code"] for message in sent(guest, "paired")]


async def seated_together(lobby, first: FakeGuest, second: FakeGuest) -> str:
    """Until both were last paired into the same match, and it is in play: its code."""
    def both() -> bool:
        mine, theirs = codes_paired(first), codes_paired(second)
        return (mine and theirs and mine[-1] == theirs[-1]
                and (table := lobby.tables.get(mine[-1])) is not None and table.in_play)

    await wait_for(both)
    return codes_paired(first)[-1]


async def resign_after_a_move_each(lobby, code: str, players: dict[str, FakeGuest], loser: str) -> str:
    """The opener and the other move once, then ``loser`` resigns, unless a move won the match on the board first
    (four discs end quickly): the winner's name, as the match was filed."""
    table = lobby.tables[code]
    by_seat = [players[seat.name] for seat in table.seats]
    opener = table.match.to_move

    def in_play() -> bool:  # over, it goes once both have left it for their next pairing
        now = lobby.tables.get(code)
        return now is not None and not now.finished

    for mover in (by_seat[opener], by_seat[1 - opener]):
        if in_play():
            await lobby.handle(mover, move_message(mover))
    if in_play():
        await lobby.handle(players[loser], {"type": "resign"})
    await wait_for(lambda: lobby.store.finished.latest_under(code))
    finished = await lobby.store.finished.latest_under(code)
    return finished.seats[finished.winner].name


async def test_a_swiss_of_three_is_paired_seated_and_scored_to_its_end_and_its_winner_announced(make_lobby) -> None:
    lobby = await make_lobby()
    players = {name: keyed(name, number) for number, name in enumerate(("ann", "bob", "cyd"), start=1)}
    watcher = FakeGuest("gus", "10.0.0.9")  # a guest: may look, may not enter
    tournament = await announce(lobby)
    for guest in (*players.values(), watcher):
        await lobby.arrive(guest)
    for guest in players.values():
        await lobby.handle(guest, {"type": "join_tournament", "id": tournament, "ask": 1})
        assert guest.last("tournament")["tournament"]["joined"] is True
    await lobby.handle(watcher, {"type": "join_tournament", "id": tournament, "ask": 2})
    assert "SSH key" in watcher.last("error")["text"]
    start_now(lobby)
    points = dict.fromkeys(players, 0.0)
    met: set[frozenset[str]] = set()
    for round_number in range(2):
        # One pair sits down by itself; the third has the bye (a point), told so.
        before = {name: len(codes_paired(guest)) for name, guest in players.items()}
        paired = 2 * (round_number + 1)
        await wait_for(lambda paired=paired: sum(len(codes_paired(guest)) for guest in players.values()) == paired)
        pair = [name for name, guest in players.items() if len(codes_paired(guest)) > before[name]]
        (bye,) = set(players) - set(pair)
        assert f"round {round_number + 1}: you have a bye" in " ".join(
            message["text"] for message in sent(players[bye], "notice"))
        code = await seated_together(lobby, players[pair[0]], players[pair[1]])
        assert frozenset(pair) not in met  # no rematch while avoidable
        met.add(frozenset(pair))
        winner = await resign_after_a_move_each(lobby, code, players, loser=pair[1])
        points[winner] += 1
        points[bye] += 1
    await wait_for(lambda: any("Tournament Friday is over" in message["text"]
                               for message in sent(watcher, "notice")))
    await lobby.handle(watcher, {"type": "tournament", "id": tournament, "ask": 3})
    page = watcher.last("tournament")
    assert page["tournament"]["state"] == "finished"
    assert {row["name"]: row["points"] for row in page["standings"]} == points
    best = max(points.values())
    leaders = sorted(name for name, score in points.items() if score == best)
    news = next(message["text"] for message in sent(watcher, "notice") if "Tournament Friday" in message["text"])
    assert all(name in news for name in leaders)
    assert [game["result"] for game in page["games"]].count("bye") == 2


async def test_a_player_away_at_the_pairing_misses_it_is_paused_and_comes_back_by_joining(make_lobby) -> None:
    lobby = await make_lobby()
    lobby.tournaments.grace = 0.5
    lobby.tournaments.engine.rematch_wait = 0.0  # two players alone in an arena meet again at once
    ann, bob = keyed("ann", 1), keyed("bob", 2)
    tournament = await announce(lobby, TournamentKind.ARENA, length=10)
    for guest in (ann, bob):
        await lobby.arrive(guest)
        await lobby.handle(guest, {"type": "join_tournament", "id": tournament, "ask": 1})
    await lobby.depart(bob)  # gone before the start
    start_now(lobby)
    await wait_for(lambda: any("did not come to the table" in message["text"] for message in sent(ann, "notice")))
    snapshot = await lobby.tournaments.engine.snapshot(tournament)
    assert snapshot.entrant("SHA256:bob").paused and not snapshot.entrant("SHA256:ann").paused
    (pairing,) = snapshot.pairings
    assert pairing.finished and pairing.points_of("SHA256:ann") == 1.0
    await wait_for(lambda: not any(table.waiting for table in lobby.tables.values()))  # none waits for nobody
    bob_again = keyed("bob", 2)
    await lobby.arrive(bob_again)
    await lobby.handle(bob_again, {"type": "tournament", "id": tournament, "ask": 1})
    assert bob_again.last("tournament")["paused"] is True
    await lobby.handle(bob_again, {"type": "join_tournament", "id": tournament, "ask": 2})
    assert bob_again.last("tournament")["paused"] is False
    await seated_together(lobby, ann, bob_again)  # paired again at once: an arena


async def test_the_list_shows_every_tournament_and_only_a_server_that_allows_it_lets_players_announce(
        make_lobby) -> None:
    lobby = await make_lobby()
    ann = keyed("ann", 1)
    await lobby.arrive(ann)
    await announce(lobby, starts_in=600, name="Later")
    await lobby.tournaments.engine.cancel(await announce(lobby, starts_in=600, name="Called off"))  # not listed
    await lobby.handle(ann, {"type": "tournaments", "ask": 1})
    listing = ann.last("tournaments")
    assert [line["name"] for line in listing["tournaments"]] == ["Later"] and listing["may_create"] is False
    create = {"type": "create_tournament", "name": "Mine", "kind": "arena", "length": 30, "starts_in": 10,
              "terms": {"options": TERMS.options, "clock": None, "rated": False, "hints": False}, "ask": 2}
    await lobby.handle(ann, create)
    assert ann.last("error")["text"] == "On this server only its owner announces tournaments."
    lobby.tournaments.player_tournaments = True
    await lobby.handle(ann, {**create, "ask": 3})
    assert ann.last("tournament")["tournament"]["name"] == "Mine"
    await lobby.handle(ann, {"type": "tournaments", "ask": 4})
    assert [line["name"] for line in ann.last("tournaments")["tournaments"]] == ["Later", "Mine"]


async def test_a_player_at_a_friendly_when_paired_is_told_to_leave_it_and_misses_the_pairing_if_not(
        make_lobby) -> None:
    lobby = await make_lobby()
    lobby.tournaments.grace = 0.5
    ann, bob, cyd = keyed("ann", 1), keyed("bob", 2), FakeGuest("cyd", "10.0.0.3")
    tournament = await announce(lobby, TournamentKind.ARENA, length=10)
    for guest in (ann, bob):
        await lobby.arrive(guest)
        await lobby.handle(guest, {"type": "join_tournament", "id": tournament, "ask": 1})
    await lobby.handle(ann, {"type": "create", "options": TERMS.options, "hints": False})  # a friendly with cyd
    await lobby.arrive(cyd)
    await lobby.handle(cyd, {"type": "join", "code": ann.last("waiting")["code"], "hints": False})
    start_now(lobby)
    # bob, free, makes the pairing's match whichever of them the pairing names first; ann is told to come
    await wait_for(lambda: any("Leave this match (n)" in message["text"] for message in sent(ann, "notice")))
    await wait_for(lambda: any("did not come to the table" in message["text"] for message in sent(bob, "notice")))
    snapshot = await lobby.tournaments.engine.snapshot(tournament)
    assert snapshot.entrant("SHA256:ann").paused and not snapshot.entrant("SHA256:bob").paused
    assert snapshot.pairings[0].points_of("SHA256:bob") == 1.0
    assert ann.match().players == ("ann", "cyd")  # the friendly goes on


async def test_a_tournament_on_a_clock_the_lobby_does_not_offer_seats_its_pair_on_it_named_and_no_takeback(
        make_lobby) -> None:
    lobby = await make_lobby()
    clock = ClockSetting(120.0, 1.0)  # 2+1: not one of the lobby's clocks, still the tournament's
    assert clock not in lobby.referee.clocks
    ann, bob = keyed("ann", 1), keyed("bob", 2)
    plan = TournamentPlan("Odd", TournamentKind.SWISS, 1, lobby.store.clock() + STARTS_IN, replace(TERMS, clock=clock))
    tournament = (await lobby.tournaments.engine.announce(plan)).id
    for guest in (ann, bob):
        await lobby.arrive(guest)
        await lobby.handle(guest, {"type": "join_tournament", "id": tournament, "ask": 1})
    start_now(lobby)
    code = await seated_together(lobby, ann, bob)
    assert lobby.tables[code].clock.setting == clock
    assert not sent(ann, "error") and not sent(bob, "error")
    table = lobby.tables[code]
    opener = (ann, bob)[[seat.name for seat in table.seats].index(table.seats[table.match.to_move].name)]
    await lobby.handle(opener, move_message(opener))
    await lobby.handle(opener, {"type": "ask_takeback"})
    assert opener.last("error")["text"] == "No takebacks in a tournament match."
    assert ann.last("match")["tournament"] == bob.last("match")["tournament"] == "Odd"  # named at the table
    watcher = FakeGuest("gus", "10.0.0.9")
    await lobby.arrive(watcher)
    await lobby.handle(watcher, {"type": "watch", "code": code})
    assert watcher.last("match")["notice"] == "A match of Odd. You are watching: n returns to the lobby."
    assert in_lines(watcher.last("match")["notice"]) == "A match of Odd."  # in lines, the keys' words go


async def test_withdrawing_from_a_tournament_over_or_not_entered_is_refused_in_a_line(make_lobby) -> None:
    lobby = await make_lobby()
    ann, bob = keyed("ann", 1), keyed("bob", 2)
    tournament = await announce(lobby)
    for guest in (ann, bob):
        await lobby.arrive(guest)
    await lobby.handle(ann, {"type": "join_tournament", "id": tournament, "ask": 1})
    await lobby.handle(bob, {"type": "withdraw_tournament", "id": tournament, "ask": 2})
    assert bob.last("error")["text"] == "You are not in that tournament."
    await lobby.tournaments.engine.cancel(tournament)
    pages = len(sent(ann, "tournament"))
    await lobby.handle(ann, {"type": "withdraw_tournament", "id": tournament, "ask": 3})
    assert ann.last("error")["text"] == "That tournament is cancelled."
    assert len(sent(ann, "tournament")) == pages  # no page printed again as if it had worked


async def test_a_pair_tended_while_its_first_player_creates_their_match_gets_one_match_and_one_paired_each(
        make_lobby, monkeypatch) -> None:
    """While the pairing's first player creates its match (seated at it, the pairing not yet recording it), the
    next tending leaves the other waiting for it: it does not create a second match, whose loser would be cancelled
    and told Paired twice (the bell twice, a screen flipping to a match that goes)."""
    lobby = await make_lobby()
    players = {name: keyed(name, number) for number, name in enumerate(("ann", "bob"), start=1)}
    tournament = await announce(lobby, length=1)
    for guest in players.values():
        await lobby.arrive(guest)
        await lobby.handle(guest, {"type": "join_tournament", "id": tournament, "ask": 1})
    desk = lobby.tournaments
    create = type(desk)._create
    created: list[str | None] = []

    async def create_then_tend(self, asker, snapshot, pairing, opponent):
        code = await create(self, asker, snapshot, pairing, opponent)
        created.append(code)
        if len(created) == 1:  # the first creation, its match open and not yet recorded: a tending comes now
            await self.tend()
            for _ in range(20):
                await asyncio.sleep(0)  # whatever that tending queued runs meanwhile
        return code

    monkeypatch.setattr(type(desk), "_create", create_then_tend)
    start_now(lobby)
    await seated_together(lobby, players["ann"], players["bob"])
    assert len(created) == 1, created
    assert [len(codes_paired(guest)) for guest in players.values()] == [1, 1]
