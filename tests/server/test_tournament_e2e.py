"""Tournaments over real SSH: a Swiss of five (one bye a round) to its end, two of its players asyncssh clients with
keys on pseudo-terminals read by pyte (they open the list with ``t``, the page with Enter, join with ``j``, are seated
at each pairing by themselves, move by the towers' keys and resign with ``R``), three more driven through the lobby
as its fake guests are (``test_tournament_lobby.py``), on the cheapest terms (one star, four discs); the standings
the server shows are the ones the test counts. Cost: see docs/benchmarks.md's tests section."""

from __future__ import annotations

import re

import asyncssh

from soluna_tui.link.messages import REQUESTS
from soluna_tui.link.wire import from_wire
from soluna_tui.rules import Match
from soluna_tui.server.tournaments.records import Snapshot, TournamentKind, TournamentPlan

from .helpers import (
    SshTerminal,
    keep_the_name,
    move_keys,
    places_on_board,
    running_server,
    server_places,
    terminals,
    wait_until,
)
from .test_lobby import FakeGuest, move_message
from .test_tournament_lobby import TERMS, keyed

KEYS = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("ann", "bob")}


async def handled(server, guest: FakeGuest, message: dict) -> None:
    server.lobby.handle(guest, from_wire(message, REQUESTS))
    await server.lobby.settled()


async def join_on_screen(terminal: SshTerminal, name: str) -> None:
    """``t`` in the lobby, Enter on the tournament, ``j``: in."""
    await terminal.wait_for_text("Welcome,")
    await terminal.press("t")
    await terminal.wait_for_text(name)
    await terminal.press("enter")
    await terminal.wait_for_text("j joins")
    await terminal.press("j")
    await terminal.wait_for_text("You are in: you are seated at each pairing")
    await terminal.press("escape", "escape")


async def your_move(terminal: SshTerminal, match: Match) -> None:
    """Until ``terminal`` shows ``match`` as the server has it, its player to move, in one frame: "Your move" alone
    may still be the last match's (a tournament's next pairing follows at once), and keys typed there are lost."""
    places = server_places(match.round.table)
    try:
        await terminal.wait_for(lambda text: "Your move" in text and places_on_board(terminal.display) == places)
    except AssertionError as error:
        raise AssertionError(f"expected the places {places} and Your move\n{error}") from None


async def play_and_resign(server, code: str, seats: list[SshTerminal | FakeGuest], loser: int) -> int:
    """The opener and the other move once (a real match: not aborted), then the player at seat ``loser`` resigns,
    unless a move won the match on the board first (four discs end quickly): the winner's seat, as filed."""
    tables = server.lobby.tables

    def moved_on(version: int) -> bool:
        now = tables.get(code)
        return now is None or now.version > version  # gone: over, and left by both for their next pairing

    for _ in range(2):
        table = tables.get(code)
        if table is None or table.match.is_over:
            break
        match, version = table.match, table.version
        mover = seats[match.to_move]
        if isinstance(mover, SshTerminal):
            start, target = move_keys(match, match.position.legal_moves[0])
            await your_move(mover, match)
            await mover.press(start, "enter", target, "enter", pause=0.05)
        else:
            await handled(server, mover, move_message(mover))
        try:
            await wait_until(lambda version=version: moved_on(version), what="the move taken")
        except AssertionError as error:  # what the mover saw, for a failure's reader
            shown = mover.shown if isinstance(mover, SshTerminal) else "(a guest without a screen)"
            raise AssertionError(f"{error}; the mover's screen:\n{shown}") from None
    table = tables.get(code)
    if table is not None and not table.match.is_over:
        resigner = seats[loser]
        if isinstance(resigner, SshTerminal):
            await resigner.press("R")
            await resigner.wait_for_text("Resign")
            await resigner.press("y")
        else:
            await handled(server, resigner, {"type": "resign"})
    await wait_until(lambda: server.lobby.store.finished.latest_under(code), what="the match over and filed")
    finished = await server.lobby.store.finished.latest_under(code)
    assert finished is not None and finished.winner is not None
    return finished.winner


def told(terminal: SshTerminal, text: str) -> bool:
    """Whether the notices at the screen's right (beside the board, or over a dialog) say ``text``, its lines
    joined."""
    return text in " ".join(re.sub(r"[│▌─╮╯╭╰┃]", " ", terminal.sidebar).split())


async def test_a_swiss_of_five_is_played_to_its_end_over_ssh_with_standings_as_counted(tmp_path) -> None:
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        lobby = server.lobby
        engine = lobby.tournaments.engine
        tournament = (await engine.announce(TournamentPlan("Club Swiss", TournamentKind.SWISS, 3,
                                                           lobby.store.clock() + 30, TERMS))).id
        ssh = {name: await opened.open(name, key=KEYS[name], local_addr=(f"127.0.0.{number}", 0))
               for number, name in ((2, "ann"), (3, "bob"))}
        for terminal in ssh.values():
            await keep_the_name(terminal)
        for terminal in ssh.values():
            await join_on_screen(terminal, "Club Swiss")
        fakes = {name: keyed(name, number) for number, name in ((4, "cyd"), (5, "dan"), (6, "eve"))}
        for fake in fakes.values():
            lobby.arrive(fake)
            await handled(server, fake, {"type": "join_tournament", "id": tournament, "ask": 1})
        fingerprints = {entrant.fingerprint: entrant.name for entrant in (await engine.snapshot(tournament)).entrants}
        assert sorted(fingerprints.values()) == ["ann", "bob", "cyd", "dan", "eve"]
        players: dict[str, SshTerminal | FakeGuest] = {**ssh, **fakes}
        real_clock = lobby.store.clock
        lobby.store.clock = lambda: real_clock() + 30  # everyone is in: the start comes now
        points = dict.fromkeys(players, 0.0)
        met: set[frozenset[str]] = set()
        for round_number in range(1, 4):
            async def paired(number: int = round_number) -> Snapshot | None:
                snapshot = await engine.snapshot(tournament)
                now = [each for each in snapshot.pairings if each.round == number]
                return snapshot if len(now) == 3 else None

            await wait_until(paired, what=f"round {round_number} paired")
            snapshot = await paired()
            for pairing in [each for each in snapshot.pairings if each.round == round_number]:
                names = [fingerprints[player] for player in pairing.players]
                if pairing.bye:
                    points[names[0]] += 1
                    continue
                assert frozenset(names) not in met  # no rematch while avoidable
                met.add(frozenset(names))
                await wait_until(lambda pairing_id=pairing.id: _in_play(server, pairing_id),
                                 what=f"{' and '.join(names)} seated")
                code = await _code(engine, tournament, pairing.id)
                table = lobby.tables[code]
                seats = [players[seat.name] for seat in table.seats]
                loser = max(range(2), key=lambda index: table.seats[index].name)  # the later name loses
                winner = await play_and_resign(server, code, seats, loser)
                points[table.seats[winner].name] += 1
        for fake in fakes.values():
            await wait_until(lambda fake=fake: any("Tournament Club Swiss is over" in message.get("text", "")
                                                   for message in fake.inbox), what="the winner announced")
        for terminal in ssh.values():  # told too, at their last match (a notice over its dialog, wrapped)
            await terminal.wait_for(lambda _, terminal=terminal: told(terminal, "Tournament Club Swiss is over"))
        watcher = FakeGuest("gus", "10.0.0.9")
        lobby.arrive(watcher)
        await handled(server, watcher, {"type": "tournament", "id": tournament, "ask": 1})
        page = watcher.last("tournament")
        assert page["tournament"]["state"] == "finished"
        assert {row["name"]: row["points"] for row in page["standings"]} == points
        assert [game["result"] for game in page["games"]].count("bye") == 3


async def _code(engine, tournament: int, pairing_id: int) -> str:
    snapshot = await engine.snapshot(tournament)
    (pairing,) = [each for each in snapshot.pairings if each.id == pairing_id]
    assert pairing.code is not None
    return pairing.code


async def _in_play(server, pairing_id: int) -> bool:
    pairing = await server.lobby.store.tournaments.pairing(pairing_id)
    table = server.lobby.tables.get(pairing.code) if pairing is not None and pairing.code is not None else None
    return table is not None and table.in_play


async def test_a_player_who_leaves_misses_a_pairing_is_paused_and_comes_back_over_ssh(tmp_path) -> None:
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        lobby = server.lobby
        lobby.tournaments.grace = 1.0  # a second to sit down, not a minute
        lobby.tournaments.engine.rematch_wait = 0.0  # two alone in an arena meet again at once
        engine = lobby.tournaments.engine
        tournament = (await engine.announce(TournamentPlan("Blitz", TournamentKind.ARENA, 30,
                                                           lobby.store.clock() + 30, TERMS))).id
        ann = await opened.open("ann", key=KEYS["ann"], local_addr=("127.0.0.2", 0))
        await keep_the_name(ann)
        await join_on_screen(ann, "Blitz")
        cyd = keyed("cyd", 4)
        lobby.arrive(cyd)
        await handled(server, cyd, {"type": "join_tournament", "id": tournament, "ask": 1})
        await ann.close()  # ann leaves before the start
        real_clock = lobby.store.clock
        lobby.store.clock = lambda: real_clock() + 30

        async def paused() -> bool:
            snapshot = await engine.snapshot(tournament)
            entrant = next(each for each in snapshot.entrants if each.name == "ann")
            return entrant.paused and len(snapshot.pairings) == 1 and snapshot.pairings[0].finished

        await wait_until(paused, what="ann paused after the pairing she missed")
        assert any("your opponent did not come to the table" in message.get("text", "") for message in cyd.inbox)
        ann = await opened.open("ann", key=KEYS["ann"], local_addr=("127.0.0.2", 0))
        await ann.wait_for_text("Welcome,")
        await ann.press("t")
        await ann.wait_for_text("Blitz")
        await ann.press("enter")
        await ann.wait_for_text("You are paused", "cyd")
        await ann.press("j")  # back: paired from the next pairing on, at once in an arena
        await ann.wait_for(lambda screen: "Your move" in screen or "Waiting for cyd." in screen)
        snapshot = await engine.snapshot(tournament)
        assert not next(each for each in snapshot.entrants if each.name == "ann").paused
        assert len(snapshot.pairings) == 2 and not snapshot.pairings[1].finished


async def test_a_server_restarted_in_the_middle_of_a_swiss_round_goes_on_with_it_over_ssh(tmp_path) -> None:
    cyd = keyed("cyd", 4)
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        lobby = server.lobby
        engine = lobby.tournaments.engine
        tournament = (await engine.announce(TournamentPlan("Restart Swiss", TournamentKind.SWISS, 2,
                                                           lobby.store.clock() + 30, TERMS))).id
        ann = await opened.open("ann", key=KEYS["ann"], local_addr=("127.0.0.2", 0))
        await keep_the_name(ann)
        await join_on_screen(ann, "Restart Swiss")
        lobby.arrive(cyd)
        await handled(server, cyd, {"type": "join_tournament", "id": tournament, "ask": 1})
        real_clock = lobby.store.clock
        lobby.store.clock = lambda: real_clock() + 30
        await wait_until(lambda: _in_play_of(server, tournament), what="round 1 seated")
        code = await _in_play_of(server, tournament)
        table = lobby.tables[code]
        version = table.version
        if table.seats[table.match.to_move].name == "ann":
            start, target = move_keys(table.match, table.match.position.legal_moves[0])
            await your_move(ann, table.match)
            await ann.press(start, "enter", target, "enter", pause=0.05)
        else:
            await handled(server, cyd, move_message(cyd))
        await wait_until(lambda: lobby.tables[code].version > version, what="the first move")
    # The server stops in the middle of round 1, and starts again on the same database.
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        real_clock = server.lobby.store.clock
        server.lobby.store.clock = lambda: real_clock() + 30
        ann = await opened.open("ann", key=KEYS["ann"], local_addr=("127.0.0.2", 0))
        await ann.wait_for(lambda screen: "Your move" in screen or "Waiting for cyd." in screen)  # back at once
        cyd = keyed("cyd", 4)
        server.lobby.arrive(cyd)
        await handled(server, cyd, {"type": "join", "code": code, "hints": False})  # the key is proof enough
        players = {"ann": ann, "cyd": cyd}
        points = {"ann": 0.0, "cyd": 0.0}
        table = server.lobby.tables[code]
        winner = await play_and_resign(server, code, [players[seat.name] for seat in table.seats], loser=1)
        points[table.seats[winner].name] += 1
        await wait_until(lambda: _in_play_of(server, tournament, 2), what="round 2 paired and seated by this server")
        code = await _in_play_of(server, tournament, 2)
        table = server.lobby.tables[code]
        winner = await play_and_resign(server, code, [players[seat.name] for seat in table.seats], loser=1)
        points[table.seats[winner].name] += 1
        await ann.wait_for(lambda _: told(ann, "Tournament Restart Swiss is over"))
        snapshot = await server.lobby.tournaments.engine.snapshot(tournament)
        assert [each.round for each in snapshot.pairings] == [1, 2]
        scored = {name: 0.0 for name in points}
        for pairing in snapshot.pairings:
            for fingerprint in pairing.players:
                scored[snapshot.entrant(fingerprint).name] += pairing.points_of(fingerprint)
        assert scored == points


async def _in_play_of(server, tournament: int, round_number: int = 1) -> str | None:
    """The code of the tournament's match of ``round_number``, once both its players sit there and it is in play."""
    snapshot = await server.lobby.tournaments.engine.snapshot(tournament)
    pairing = next((each for each in snapshot.pairings if each.round == round_number and not each.bye), None)
    table = server.lobby.tables.get(pairing.code) if pairing is not None and pairing.code is not None else None
    return pairing.code if table is not None and table.in_play and len(table.seated) == 2 else None
