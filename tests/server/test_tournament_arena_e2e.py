"""An arena of four over real SSH, to its end: two players on asyncssh clients with keys, read by pyte (they join
from the list with ``t``, Enter and ``j``, are seated again each time their match ends, move by the towers' keys
and resign with ``R``), two more driven through the lobby as its fake guests are. Each match is two moves, then
the later name resigns (unless the four discs end it on the board first); the test counts the arena's points
itself from the matches as filed (2 a win, 4 a win after two in a row) and finds them on the tournament's page once
its time is up (the matches then in play counted, a pairing made as it ran out and never seated void)."""

from __future__ import annotations

import asyncio

from soluna_tui.server.tournaments.records import TournamentKind, TournamentPlan

from .helpers import SshTerminal, keep_the_name, running_server, terminals, wait_until
from .test_lobby import FakeGuest
from .test_tournament_e2e import KEYS, handled, join_on_screen, play_and_resign
from .test_tournament_lobby import TERMS, keyed

#: Matches to play before the arena's time is brought to its end: each player paired again at least once.
MATCHES_BEFORE_THE_END = 4


async def test_an_arena_of_four_is_played_to_its_end_over_ssh_with_points_and_streaks_as_counted(tmp_path) -> None:
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        lobby = server.lobby
        engine = lobby.tournaments.engine
        engine.rematch_wait = 0.0  # two left free together meet again at once
        # A pairing made just before the end is played, not missed: the grace outlasts the clock's jump to the end.
        lobby.tournaments.grace = 3600.0
        tournament = (await engine.announce(TournamentPlan("Arena", TournamentKind.ARENA, 10,
                                                           lobby.store.clock() + 30, TERMS))).id
        ssh = {name: await opened.open(name, key=KEYS[name], local_addr=(f"127.0.0.{number}", 0))
               for number, name in ((2, "ann"), (3, "bob"))}
        for terminal in ssh.values():
            await keep_the_name(terminal)
            await join_on_screen(terminal, "Arena")
        fakes = {name: keyed(name, number) for number, name in ((4, "cyd"), (5, "dan"))}
        for fake in fakes.values():
            lobby.arrive(fake)
            await handled(server, fake, {"type": "join_tournament", "id": tournament, "ask": 1})
        players: dict[str, SshTerminal | FakeGuest] = {**ssh, **fakes}
        real_clock = lobby.store.clock
        lobby.store.clock = lambda: real_clock() + 30  # everyone is in: the start comes now
        points = dict.fromkeys(players, 0)
        streak = dict.fromkeys(players, 0)
        played: set[int] = set()

        async def play_what_is_paired() -> bool:
            """Every pairing made and not played yet, played out, scored here; whether the arena is over."""
            snapshot = await engine.snapshot(tournament)
            for pairing in snapshot.pairings:
                if pairing.id in played:
                    continue

                async def seated_or_void(pairing_id: int = pairing.id) -> bool:
                    found = await lobby.store.tournaments.pairing(pairing_id)
                    if found is not None and found.finished and found.code is None:
                        return True  # made as the time ran out, never seated: void, scored for nobody
                    table = lobby.tables.get(found.code) if found is not None and found.code is not None else None
                    return table is not None and table.in_play

                await wait_until(seated_or_void, what="a pairing seated")
                if (await lobby.store.tournaments.pairing(pairing.id)).code is None:
                    played.add(pairing.id)
                    continue
                code = (await lobby.store.tournaments.pairing(pairing.id)).code
                table = lobby.tables[code]
                names = [seat.name for seat in table.seats]
                loser = max(range(2), key=lambda index: names[index])  # the later name loses
                winner = names[await play_and_resign(server, code, [players[name] for name in names], loser)]
                points[winner] += 4 if streak[winner] >= 2 else 2
                streak[winner] += 1
                streak[next(name for name in names if name != winner)] = 0
                played.add(pairing.id)
            return snapshot.tournament.state.over

        for _ in range(100):  # each player paired again as soon as their match is over
            await play_what_is_paired()
            if len(played) >= MATCHES_BEFORE_THE_END:
                break
            await asyncio.sleep(0.1)
        assert len(played) >= MATCHES_BEFORE_THE_END
        lobby.store.clock = lambda: real_clock() + 30 + 11 * 60  # its ten minutes are up: no more pairings
        for _ in range(100):
            if await play_what_is_paired():
                break
            await asyncio.sleep(0.1)
        for fake in fakes.values():
            await wait_until(lambda fake=fake: any("Tournament Arena is over" in message.get("text", "")
                                                   for message in fake.inbox), what="the winner announced")
        await handled(server, fakes["dan"], {"type": "tournament", "id": tournament, "ask": 2})
        page = fakes["dan"].last("tournament")
        assert page["tournament"]["state"] == "finished"
        assert {row["name"]: row["points"] for row in page["standings"]} == points
