"""A tournament across two ``soluna serve`` processes on one PostgreSQL: two keyed players, one on each server, join
it from their lobbies (``t``, Enter, ``j``), are seated at its pairing across the servers by themselves, play it out
by the towers' keys, and both hear who won; the store has it finished with that result."""

from __future__ import annotations

import asyncssh

from soluna_tui.link.messages import MatchTerms
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.server.storage import open_storage
from soluna_tui.server.tournaments.engine import TournamentEngine
from soluna_tui.server.tournaments.records import Outcome, TournamentKind, TournamentPlan, TournamentState

from ..server.helpers import SshTerminal, keep_the_name, move_keys, wait_until
from ..server.test_tournament_e2e import join_on_screen
from .test_fleet import fleet, known

#: One star, four discs, no clock: the shortest match there is.
TERMS = MatchTerms(MatchOptions.preset("box", stars_to_win=1, discs=4).to_dict())
#: Seconds ahead the tournament starts: both players join first (two servers' clocks cannot be moved on).
STARTS_IN = 10.0


async def test_two_servers_seat_a_tournament_s_pair_across_them_and_both_hear_its_end(
        tmp_path, postgres_database) -> None:
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("ann", "bob")}
    store = await open_storage(postgres_database)
    try:
        async with fleet(tmp_path, postgres_database) as (first, second, key):
            engine = TournamentEngine(store)
            plan = TournamentPlan("Fleet Swiss", TournamentKind.SWISS, 1, store.clock() + STARTS_IN, TERMS)
            tournament = (await engine.announce(plan)).id
            players = {"ann": await SshTerminal.open(first.port, username="ann", client_keys=[keys["ann"]],
                                                     local_addr=("127.0.0.2", 0), **known(key)),
                       "bob": await SshTerminal.open(second.port, username="bob", client_keys=[keys["bob"]],
                                                     local_addr=("127.0.0.3", 0), **known(key))}
            try:
                for terminal in players.values():
                    await keep_the_name(terminal)
                    await join_on_screen(terminal, "Fleet Swiss")

                async def seated() -> str | None:
                    snapshot = await engine.snapshot(tournament)
                    pairing = snapshot.pairings[0] if snapshot.pairings else None
                    if pairing is None or pairing.code is None:
                        return None
                    stored = await store.matches.get(pairing.code)
                    return pairing.code if stored is not None and len(stored.seats) == 2 else None

                await wait_until(seated, timeout=STARTS_IN + 15, what="the pair seated across the servers")
                code = await seated()
                assert code is not None
                for _ in range(30):  # the player to move plays the first legal move by the towers' keys
                    stored = await store.matches.get(code)
                    match = Match.from_dict(stored.document)
                    if match.is_over:
                        break
                    mover = players[stored.seats[match.to_move].name]
                    start, target = move_keys(match, match.position.legal_moves[0])
                    await mover.wait_for_text("Your move")
                    await mover.press(start, "enter", target, "enter", pause=0.05)

                    async def moved(version: int = stored.version) -> bool:
                        now = await store.matches.get(code)
                        return now is None or now.version > version

                    await wait_until(moved, what="the move taken")
                winner = stored.seats[match.winner].name
                for terminal in players.values():
                    await terminal.wait_for_text("Tournament Fleet Swiss is", f"{winner} wins")
                snapshot = await engine.snapshot(tournament)
                assert snapshot.tournament.state is TournamentState.FINISHED
                (pairing,) = snapshot.pairings
                assert pairing.outcome is (Outcome.FIRST_WON if snapshot.entrant(pairing.first).name == winner
                                           else Outcome.SECOND_WON)
            finally:
                for terminal in players.values():
                    await terminal.close()
    finally:
        await store.close()
