"""Issue 16, "matches end fairly" and the store's part: a sibling of ``test_hostile_clients.py``.

Stalling by leaving and coming back, ratings farmed by forfeits, a leave lost in a database outage,
two servers on one SQLite file, an idle SQLite server writing, and a match code shown to an impostor.
Real stores (SQLite and PostgreSQL), real servers on 127.0.0.1 and real SSH clients; each test prints
its figure under ``-s``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncssh
import pytest

from soluna_tui.cli import main
from soluna_tui.server.admin.serve_command import add_serve_command, config_from

from .helpers import TIMEOUT, SshTerminal, keep_the_name, play_a_move, running_server, served, wait_until
from .test_hostile_clients import fill
from .test_lobby import FakeGuest, create, finish_round, move_message, pair, wait_for
from .test_two_players import create_match, join_match, secret_shown

# ---- stalling: time away adds up over a match ---------------------------------------------------


async def test_leaving_and_coming_back_before_the_hold_runs_out_still_forfeits(make_lobby) -> None:
    """Issue 16: with a 10 s hold, leaving and coming back every 7.5 s never forfeited (the hold started again on
    each return). Here at a fifth of the scale: a 2 s hold, 1.5 s away each time."""
    hold, away = 2.0, 1.5
    lobby = await make_lobby(hold_time=hold)
    ann, bob = FakeGuest("ann"), FakeGuest("bob", address="10.0.0.2")
    code = await pair(lobby, ann, bob)
    await lobby.handle(ann, move_message(ann))
    await lobby.handle(bob, move_message(bob))  # real play: a forfeit is a result
    secret = bob.last("match")["secret"]
    started, absences, time_away = time.monotonic(), 0, 0.0
    while not ann.match().is_over and time.monotonic() - started < 5 * hold:
        left_at = time.monotonic()
        absences += 1
        await lobby.depart(bob)
        deadline = left_at + away
        while time.monotonic() < deadline and not ann.match().is_over:
            await asyncio.sleep(0.02)
        if ann.match().is_over:
            time_away += time.monotonic() - left_at
            break
        bob = FakeGuest("bob", address="10.0.0.2")
        await lobby.arrive(bob)
        await lobby.handle(bob, {"type": "join", "code": code, "hints": False, "secret": secret})
        time_away += time.monotonic() - left_at
    elapsed = time.monotonic() - started
    match = ann.match()
    outcome = f"forfeited during absence {absences}" if match.is_over else f"never forfeited in {absences} absences"
    print(f"\nleaving for {away:g} s at a time with a {hold:g} s hold: {outcome}, {elapsed:.1f} s after the first "
          f"leave, after {time_away:.1f} s away in all")
    assert match.is_over and match.forfeited_by == 1, f"never forfeited in {absences} absences"
    assert absences == 2 and time_away <= hold + 1.0
    assert "what is left of their time away" in " | ".join(
        message.get("notice") or "" for message in ann.inbox if message["type"] == "match")


# ---- rating farming -----------------------------------------------------------------------------


def keyed(name: str, address: str) -> FakeGuest:
    return FakeGuest(name, address=address, fingerprint=f"SHA256:{name}")


async def test_forfeits_without_a_move_are_aborted_and_farm_no_rating(make_lobby) -> None:
    """Issue 16: one key beat 4 fresh keys by forfeit in 49 s with no move played and went to #1."""
    lobby = await make_lobby(hold_time=0.1, ranked_after=1)
    farmer = keyed("mallory", "10.6.6.6")
    await lobby.arrive(farmer)
    started = time.monotonic()
    for number in range(4):
        victim = keyed(f"sock{number}", f"10.7.7.{number}")
        code = await create(lobby, farmer)
        await lobby.arrive(victim)
        await lobby.handle(victim, {"type": "join", "code": code, "hints": False})
        await lobby.depart(victim)
        await wait_for(lambda code=code: code not in lobby.tables, timeout=5)
        assert farmer.last("match_gone")["text"] == (f"sock{number} did not come back before both players had moved: "
                                                     "the match is aborted, and not rated.")
    farmed = time.monotonic() - started
    results = [(filed.result, filed.winner, filed.rated) for filed in await lobby.store.finished.newest()]
    await lobby.handle(farmer, {"type": "leaderboard", "offset": 0})
    board = farmer.last("leaderboard")
    print(f"\n4 forfeits without a move in {farmed:.1f} s: {results.count(('aborted', None, False))} aborted and "
          f"unrated; the leaderboard lists {board['total']} players")
    assert results == [("aborted", None, False)] * 4
    assert board["total"] == 0 and board["rows"] == [] and board["you"] == {"rank": None, "rating": None}


#: What the creator of a match its joiner left before both had moved is told.
OWN_WORDS = "sock did not come back before both players had moved: the match is aborted, and not rated."


async def test_a_match_ended_here_tells_its_own_words_when_its_news_comes_before_the_write_returns(
        make_lobby) -> None:
    """The news of a write can reach this server before the write returns (a CI run under load): the match's
    guests are told what ended it ("sock did not come back..."), not the words of a reading that finds it gone."""
    lobby = await make_lobby(hold_time=0.1, ranked_after=1)
    assert await told_while_the_abort_is_written(lobby) == [OWN_WORDS]  # the store's news followed meanwhile


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)  # a join reads again where servers share
async def test_a_match_ended_here_as_a_join_reads_it_again_tells_its_own_words(make_lobby) -> None:
    """A join by code reads the match again on a shared database (news of its start elsewhere may not have come);
    while a write here ends it, the read leaves it to the write, which tells its guests what ended it."""
    lobby = await make_lobby(hold_time=0.1, ranked_after=1)
    assert await told_while_the_abort_is_written(lobby, lambda code: lobby.cache.table_for(code, fresh=True)) == [
        OWN_WORDS]


async def test_a_match_ended_here_as_every_match_is_read_again_tells_its_own_words(make_lobby) -> None:
    """Every match read again (the store back, news missed) while a write here ends one: the read, not finding it,
    leaves it to the write, which tells its guests what ended it."""
    lobby = await make_lobby(hold_time=0.1, ranked_after=1)
    assert await told_while_the_abort_is_written(lobby, lambda _code: lobby.cache.reload_all()) == [OWN_WORDS]


async def told_while_the_abort_is_written(lobby, read: Callable[[str], Awaitable[object]] | None = None) -> list[str]:
    """A match mallory made and sock joined and left, aborted when sock's seat is no longer held, its write held
    open 0.2 s once stored (the store's news of it comes meanwhile), ``read`` started then: what mallory is told."""
    finish = lobby.store.matches.finish
    reads: list[asyncio.Task] = []

    async def finish_then_read(code, *args, **kwargs):
        await finish(code, *args, **kwargs)
        if read is not None:
            reads.append(asyncio.ensure_future(read(code)))
        await asyncio.sleep(0.2)

    lobby.store.matches.finish = finish_then_read
    farmer, victim = keyed("mallory", "10.6.6.6"), keyed("sock", "10.7.7.1")
    await lobby.arrive(farmer)
    code = await create(lobby, farmer)
    await lobby.arrive(victim)
    await lobby.handle(victim, {"type": "join", "code": code, "hints": False})
    await lobby.depart(victim)
    await wait_for(lambda: code not in lobby.tables
                   and any(message["type"] == "match_gone" for message in farmer.inbox), timeout=5)
    await asyncio.gather(*reads)
    assert len(reads) == (read is not None)  # the read ran inside the write
    return [message["text"] for message in farmer.inbox if message["type"] == "match_gone"]


async def test_a_forfeit_after_a_decided_round_is_rated_but_not_between_keys_from_one_address(make_lobby) -> None:
    lobby = await make_lobby(hold_time=0.1, ranked_after=1, ranked_opponents=0)
    for opponent in (keyed("bob", "10.0.0.2"), keyed("cyd", "10.0.0.1")):  # cyd sits where ann does
        ann = keyed("ann", "10.0.0.1")
        await pair(lobby, ann, opponent, discs=6, stars_to_win=2)
        await finish_round(lobby, {0: ann, 1: opponent})  # a round decided on the board: a forfeit is rated
        await lobby.depart(opponent)
        await wait_for(lambda ann=ann: ann.match().is_over, timeout=5)
        await lobby.depart(ann)
    (same_address, apart) = await lobby.store.finished.newest()
    assert (apart.result, apart.winner, apart.rated) == ("forfeit", 0, True)
    assert (same_address.result, same_address.winner, same_address.rated) == ("forfeit", 0, False)
    assert all(seat.addresses == () for seat in apart.seats + same_address.seats)  # never filed
    watcher = keyed("ann", "10.0.0.9")
    await lobby.arrive(watcher)
    await lobby.handle(watcher, {"type": "leaderboard", "offset": 0})
    assert [row["name"] for row in watcher.last("leaderboard")["rows"]] == ["ann", "bob"]


async def test_the_leaderboard_lists_players_with_enough_rated_matches(make_lobby) -> None:
    lobby = await make_lobby(ranked_after=2, ranked_opponents=0)
    ann, bob = keyed("ann", "10.0.0.1"), keyed("bob", "10.0.0.2")
    for round_played in (1, 2):
        await pair(lobby, ann, bob, discs=3, stars_to_win=1)
        while not ann.match().is_over:
            mover = (ann, bob)[ann.match().to_move]
            await lobby.handle(mover, move_message(mover))
        await lobby.handle(ann, {"type": "leaderboard", "offset": 0})
        board = ann.last("leaderboard")
        assert board["minimum"] == 2
        if round_played == 1:
            assert (board["total"], board["rows"], board["you"]["rank"]) == (0, [], None)
            assert board["you"]["rating"] is not None  # rated, not ranked yet
        await lobby.depart(ann)
        await lobby.depart(bob)
        ann, bob = keyed("ann", "10.0.0.1"), keyed("bob", "10.0.0.2")
    assert board["total"] == 2 and {row["name"] for row in board["rows"]} == {"ann", "bob"}
    assert all(row["played"] == 2 for row in board["rows"])


# ---- a leave during a database outage -----------------------------------------------------------


async def test_a_leave_while_the_disk_is_full_is_written_once_it_is_not(tiny_disk) -> None:
    """Issue 16: on a full disk bob left; once the database was back ann still saw "Waiting for bob", bob's seat
    still named the live server, and when ann left she forfeited to bob."""
    hold = 6
    async with running_server(tiny_disk, hold_time=hold) as server:
        ann = await SshTerminal.open(server.port, username="ann")
        bob = await SshTerminal.open(server.port, username="bob")
        try:
            code = await create_match(ann)
            await join_match(bob, code)
            await play_a_move(server, code, [ann, bob])
            await play_a_move(server, code, [ann, bob])  # both have moved: a forfeit is a result
            await ann.wait_for_text("Your move")
            await server.store.checkpoint()  # the write-ahead log emptied: the next writes need room of their own
            filler = fill(tiny_disk)
            left = time.monotonic()
            await bob.close()
            await wait_until(lambda: not any(session.name == "bob" for session in server.sessions),
                             what="bob's session ending")
            await ann.pump(1.0)
            assert "bob has left" not in ann.text  # not written yet: nothing to say
            filler.unlink()
            await ann.wait_for_text("bob has left")
            told = time.monotonic() - left
            stored = await server.store.matches.get(code)
            assert stored.seats[1].server is None and stored.seats[1].held_until is not None
            await ann.wait_for_text("Match over", "bob left: ann wins by forfeit", timeout=hold + TIMEOUT)
            forfeited = time.monotonic() - left
        finally:
            await ann.close()
            await bob.close()
        (filed,) = await server.store.finished.newest()
    print(f"\nbob left on a full disk; told to ann {told:.1f} s later (the disk freed after 1 s), "
          f"his seat forfeited {forfeited:.1f} s after he left ({hold} s hold)")
    assert (filed.result, filed.winner) == ("forfeit", 0)
    assert forfeited < hold + 3  # counted from when the disk was freed: none runs while the database is away


# ---- one server per SQLite file -----------------------------------------------------------------


async def test_a_second_server_on_one_sqlite_file_is_refused_with_one_line(tmp_path) -> None:
    """Issue 16: two servers on one SQLite file split silently (a join on one is never seen by the other)."""
    async with served(tmp_path) as first:
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(path for path in sys.path if path)}
        second = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "soluna_tui.cli", "serve", "--allow-root", "--host", "127.0.0.1", "--port", "0",
            "--data-dir", str(tmp_path), stderr=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL,
            env=environment)
        lines: list[str] = []
        try:
            while line := await asyncio.wait_for(second.stderr.readline(), TIMEOUT * 2):
                lines.append(line.decode().rstrip())
                assert "listening" not in lines[-1], "a second server started on the same SQLite file"
            status = await asyncio.wait_for(second.wait(), TIMEOUT)
        finally:
            if second.returncode is None:
                second.kill()
                await second.wait()
        assert first.process.returncode is None  # the first goes on
    lines = [line for line in lines if "running as root (--allow-root)" not in line]  # the tests run as root
    print(f"\nthe second server: exit {status}, {lines[-1]!r}")
    assert status == 1 and len(lines) == 1
    assert lines[0].startswith("soluna serve: cannot serve: another soluna serve (process ")
    assert "SQLite serves one server" in lines[0] and "--database postgresql://" in lines[0]


# ---- an idle server on SQLite writes nothing ----------------------------------------------------


def files_of(folder: Path) -> dict[str, tuple[int, int]]:
    """The database and its write-ahead log: size and time of last change of each."""
    found = {}
    for name in ("soluna.sqlite3", "soluna.sqlite3-wal"):
        path = folder / name
        if path.exists():
            status = path.stat()
            found[name] = (status.st_size, status.st_mtime_ns)
    return found


async def test_an_idle_sqlite_server_writes_nothing_and_empties_its_log_after_play(tmp_path) -> None:
    """Issue 16: an idle SQLite server wrote a WAL page a second for its heartbeat and checkpointed only at 4 MiB."""
    wal = tmp_path / "soluna.sqlite3-wal"
    idle_seconds = 3.0
    async with running_server(tmp_path) as server:
        # Emptied after the start's writes, and none waiting for the next emptying (one that came as the log was
        # emptied, on a loaded machine, would be emptied a few seconds later: a write, but not an idle server's).
        await wait_until(lambda: (not wal.exists() or wal.stat().st_size == 0) and not server.store.checkpoint_due,
                         timeout=TIMEOUT, what="the write-ahead log emptied after the start")
        before = files_of(tmp_path)
        await asyncio.sleep(idle_seconds)  # idle on purpose: what an idle server writes is the figure
        after = files_of(tmp_path)
        written = after.get("soluna.sqlite3-wal", (0, 0))[0] - before.get("soluna.sqlite3-wal", (0, 0))[0]
        print(f"\nan idle server on SQLite, {idle_seconds:g} s: {written} bytes written to the write-ahead log")
        assert after == before, f"an idle server changed its files: {before} then {after}"
        key = asyncssh.generate_private_key("ssh-ed25519")
        ann = await SshTerminal.open(server.port, username="ann", client_keys=[key])
        try:
            await keep_the_name(ann)  # the key and the name are written
            await wait_until(lambda: wal.exists() and wal.stat().st_size > 0, what="a write")
            grown = wal.stat().st_size
            started = time.monotonic()
            await wait_until(lambda: wal.stat().st_size == 0, what="the write-ahead log emptied after play")
        finally:
            await ann.close()
    print(f"after play the write-ahead log of {grown} bytes was emptied {time.monotonic() - started:.1f} s later")


# ---- a match code never shown to someone not seated -----------------------------------------------


async def test_an_impostor_at_a_held_seat_is_asked_for_the_secret_without_seeing_the_code(tmp_path) -> None:
    """Issue 16: an impostor's lobby showed the code of a match in play in the secret prompt."""
    async with running_server(tmp_path, hold_time=120) as server:
        ann = await SshTerminal.open(server.port, username="ann")
        bob = await SshTerminal.open(server.port, username="bob")
        mallory = None
        try:
            code = await create_match(ann)
            await join_match(bob, code)
            await bob.wait_for_text("Waiting for ann.", "secret ")
            secret = secret_shown(bob)
            await bob.close()
            await ann.wait_for_text("bob has left")
            mallory = await SshTerminal.open(server.port, username="bob")  # the name is not proof
            await mallory.wait_for_text("Your seat: ann vs bob", "Return to your match")
            await mallory.press("enter")
            text = await mallory.wait_for_text("type the secret")
            await mallory.press("zzzzzz", "enter")
            text += await mallory.wait_for_text("That is not the secret")
            received = mallory.received.decode(errors="replace")
            shown = [where for where, seen in (("screen", text), ("terminal output", received))
                     if re.search(rf"\b{code}\b", seen)]
            print(f"\nthe code of the match mallory tried to take: shown in {shown or 'nothing'}")
            assert not shown
            assert secret not in received
        finally:
            await ann.close()
            if mallory is not None:
                await mallory.close()


# ---- the options -----------------------------------------------------------------------------------


def serve_config(*argv: str):
    parser = argparse.ArgumentParser()
    add_serve_command(parser.add_subparsers(), lambda low, high, what: int, Path)
    return config_from(parser.parse_args(["serve", *argv]))


def test_serve_offers_the_clocks_it_is_given_and_lists_players_after_a_few_rated_matches(capsys) -> None:
    default = serve_config()
    assert [clock.label for clock in default.clocks] == ["3+2", "10+5"] and default.ranked_after == 5
    chosen = serve_config("--clocks", "1+0,0.5+1,1+0", "--ranked-after", "3")
    assert [clock.label for clock in chosen.clocks] == ["1+0", "0:30+1"] and chosen.ranked_after == 3
    assert default.ranked_opponents == 3 and serve_config("--ranked-opponents", "0").ranked_opponents == 0
    assert serve_config("--clocks", "none").clocks == ()
    for wrong, said in (("3", "'3' is not a clock"), ("0+0", "a clock gives 1 second"),
                        ("1+0,2+0,3+0,4+0,5+0,6+0,7+0", "at most 6 clocks")):
        with pytest.raises(SystemExit):
            main(["serve", "--clocks", wrong])
        error = capsys.readouterr().err
        assert said in error and error.count("\n") == 1
