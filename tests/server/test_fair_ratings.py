"""Issue 29: ratings could be farmed with two addresses: two keys played one move each and the loser left, a
rated win after the hold time; five such matches put a throwaway key on the leaderboard. Now a match is rated
once a round has been decided on the board, a pair's matches move their ratings a few times a day, and the
leaderboard lists a player once they have played established opponents. Lobbies on SQLite and PostgreSQL with
fake guests, and a real server with SSH clients from two loopback addresses.
"""

from __future__ import annotations

from itertools import combinations

import asyncssh
import pytest

from soluna_tui.server.lobby.visitors import CodeTries
from soluna_tui.server.rating_model import PAIR_RATED_PER_DAY

from .helpers import TIMEOUT, SshTerminal, keep_the_name, play_a_move, running_server
from .test_fair_play import serve_config
from .test_lobby import FakeGuest, move_message, pair, wait_for
from .test_lobby_e2e import JOIN_KEYS
from .test_two_players import create_match


def keyed(name: str, address: str) -> FakeGuest:
    return FakeGuest(name, address=address, fingerprint=f"SHA256:{name}")


async def play_out(lobby, first: FakeGuest, second: FakeGuest) -> None:
    """A one-star match of three discs between them, played out with the first legal move; then both leave."""
    await pair(lobby, first, second, discs=3, stars_to_win=1)
    while not first.match().is_over:
        mover = (first, second)[first.match().to_move]
        await lobby.handle(mover, move_message(mover))
    await lobby.depart(first)
    await lobby.depart(second)


async def test_a_leave_after_one_move_each_is_no_rated_result_for_either_key(make_lobby) -> None:
    lobby = await make_lobby(hold_time=0.1, ranked_after=1, ranked_opponents=0)
    for number in range(5):  # the farm: each time the loser leaves after a move each
        farmer, sock = keyed("mallory", "10.6.6.6"), keyed(f"sock{number}", f"10.7.7.{number}")
        await pair(lobby, farmer, sock)
        await lobby.handle(farmer, move_message(farmer))
        await lobby.handle(sock, move_message(sock))
        await lobby.depart(sock)
        await wait_for(lambda farmer=farmer: farmer.match().is_over, timeout=5)
        assert farmer.last("match")["notice"] == f"sock{number} did not come back: mallory wins by forfeit."
        await lobby.depart(farmer)
    filed = await lobby.store.finished.newest()
    print(f"\nfive forfeits after a move each: {sum(each.rated for each in filed)} rated of {len(filed)}")
    assert [(each.result, each.winner, each.rated) for each in filed] == [("forfeit", 0, False)] * 5
    watcher = keyed("mallory", "10.6.6.6")
    await lobby.arrive(watcher)
    await lobby.handle(watcher, {"type": "leaderboard", "offset": 0})
    assert watcher.last("leaderboard")["total"] == 0 and watcher.last("leaderboard")["you"]["rating"] is None


async def test_a_key_that_beat_only_throwaway_keys_does_not_reach_the_leaderboard(make_lobby) -> None:
    lobby = await make_lobby()  # five rated matches, against three established opponents
    for number in range(5):  # whole rounds, decided on the board: rated, but against keys made for it
        await play_out(lobby, keyed("mallory", "10.6.6.6"), keyed(f"sock{number}", f"10.7.7.{number}"))
    filed = await lobby.store.finished.newest()
    assert len(filed) == 5 and all(each.rated for each in filed)
    farmer = keyed("mallory", "10.6.6.6")
    await lobby.arrive(farmer)
    await lobby.handle(farmer, {"type": "leaderboard", "offset": 0})
    board = farmer.last("leaderboard")
    await lobby.handle(farmer, {"type": "record"})
    print(f"\na key after 5 rated matches against 5 fresh keys: {board['total']} players listed, "
          f"rank {board['you']['rank']}")
    assert (board["total"], board["rows"], board["you"]["rank"]) == (0, [], None)
    assert (board["minimum"], board["opponents"]) == (5, 3) and board["you"]["rating"] is not None
    assert (farmer.last("record")["played"], farmer.last("record")["rank"]) == (5, None)


async def test_a_ring_of_four_keys_on_two_addresses_never_reaches_the_leaderboard_and_a_varied_field_does(
        make_lobby) -> None:
    """Issue 39: four keys taking turns on two addresses, 40 matches among themselves (all six pairs rated, their
    daily few each), at the defaults; beside them the owner's key (``--established``) and six regulars who all
    play each other from addresses of their own."""
    lobby = await make_lobby()
    lobby.matches.code_tries = CodeTries(per_minute=1000)  # a ring's 40 joins come over days, not in seconds
    regulars = [keyed(f"regular{number}", f"10.1.0.{number}") for number in range(7)]
    await lobby.store.ratings.establish(("SHA256:regular0",))
    for first, second in combinations(range(7), 2):
        await play_out(lobby, keyed(f"regular{first}", f"10.1.0.{first}"),
                       keyed(f"regular{second}", f"10.1.0.{second}"))
    ring = [f"sock{number}" for number in range(4)]
    for number in range(40):
        first, second = ring[number % 4], ring[(number + 1 + number // 4 % 3) % 4]
        await play_out(lobby, keyed(first, "10.6.6.6"), keyed(second, "10.7.7.7"))
        watcher = keyed(first, "10.6.6.6")
        await lobby.arrive(watcher)
        await lobby.handle(watcher, {"type": "leaderboard", "offset": 0})
        assert watcher.last("leaderboard")["you"]["rank"] is None
        await lobby.depart(watcher)
    ring_rated = [each for each in await lobby.store.finished.newest(100) if each.seats[0].identity in ring]
    assert len({frozenset((each.seats[0].identity, each.seats[1].identity)) for each in ring_rated if each.rated}) == 6
    board = watcher.last("leaderboard")
    print(f"\na ring of 4 keys, {sum(each.rated for each in ring_rated)} rated matches of 40: leaderboard "
          f"{[row['name'] for row in board['rows']]}")
    assert sorted(row["name"] for row in board["rows"]) == [guest.name for guest in regulars]


async def test_serve_established_names_keys_by_fingerprint_or_public_key_and_says_when_there_are_none(
        tmp_path, caplog, capsys) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()
    fingerprint = asyncssh.import_public_key(key).get_fingerprint()
    chosen = serve_config("--established", key, "--established", "SHA256:" + "A" * 43)
    assert chosen.established == (fingerprint, "SHA256:" + "A" * 43) and serve_config().established == ()
    for wrong, said in (("10.0.0.1", "is an address"), ("SHA256:abc", "not a SHA256 fingerprint")):
        with pytest.raises(SystemExit):
            serve_config("--established", wrong)
        assert said in capsys.readouterr().err
    async with running_server(tmp_path / "none"):
        pass
    assert "no key is established yet" in caplog.text
    caplog.clear()
    async with running_server(tmp_path / "named", established=(fingerprint,)) as server:
        assert await server.store.ratings.established() == {fingerprint: "named"}
    assert "no key is established yet" not in caplog.text


async def test_the_same_pair_s_matches_stop_moving_their_ratings_after_the_day_s_few(make_lobby) -> None:
    lobby = await make_lobby()
    for _ in range(PAIR_RATED_PER_DAY + 1):
        await play_out(lobby, keyed("ann", "10.0.0.1"), keyed("bob", "10.0.0.2"))
    rated = [each.rated for each in reversed(await lobby.store.finished.newest())]
    print(f"\n{len(rated)} matches between ann and bob in a day: {sum(rated)} rated")
    assert rated == [True] * PAIR_RATED_PER_DAY + [False]
    await play_out(lobby, keyed("ann", "10.0.0.1"), keyed("cyd", "10.0.0.3"))
    assert (await lobby.store.finished.newest())[0].rated  # another opponent: rated


# ---- over SSH, from two addresses -------------------------------------------------------------------------


@pytest.mark.slow
async def test_two_keys_from_two_addresses_leaving_after_a_move_each_over_ssh_are_not_rated(tmp_path) -> None:
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
    hold = 2
    async with running_server(tmp_path, hold_time=hold, ranked_after=1, ranked_opponents=0) as server:
        ann = await SshTerminal.open(server.port, username="ann", client_keys=[keys[0]], local_addr=("127.0.0.2", 0))
        bob = await SshTerminal.open(server.port, username="bob", client_keys=[keys[1]], local_addr=("127.0.0.3", 0))
        try:
            for terminal in (ann, bob):
                await keep_the_name(terminal)
            code = await create_match(ann)
            await bob.press(*JOIN_KEYS, pause=0.05)
            await bob.wait_for_text("Type the four-letter code")
            await bob.press(code.lower(), "enter")
            await play_a_move(server, code, [ann, bob])
            await play_a_move(server, code, [ann, bob])
            await bob.close()
            await ann.wait_for_text("Match over", "bob left: ann wins by forfeit", timeout=hold + TIMEOUT)
        finally:
            await ann.close()
            await bob.close()
        (filed,) = await server.store.finished.newest()
        board = await server.store.ratings.leaderboard(minimum=1)
    print(f"\ntwo keys from two addresses, a move each, bob left: filed {filed.result}, rated {filed.rated}; "
          f"{len(board)} players on the leaderboard")
    assert (filed.result, filed.winner, filed.rated) == ("forfeit", 0, False) and board == []
