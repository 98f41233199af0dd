"""Issue 29: the database goes away under a match played across two servers, and comes back.

Two servers in this process share one PostgreSQL (the ``pgserver`` wheel's), each reaching it through a
``DatabaseLine`` the test cuts (every connection dropped, new ones refused, as by a stopped database) and
mends. Real SSH players on both servers: ann on the first, bob on the second, eve watching on the first.

An outage of minutes or days is played in seconds: the servers' time (the store's clock, which every decision
reads) leaps over most of it (``Leap``), as if the database had stayed away that long.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import pytest

from soluna_tui.link.messages import PlayMove
from soluna_tui.rules import Match
from soluna_tui.rules.clock import ClockSetting, MatchClock
from soluna_tui.server.config import ADJOURN_AFTER
from soluna_tui.server.lobby.pending import PENDING
from soluna_tui.server.lobby.presence import DEAD_AFTER, HEARTBEAT
from soluna_tui.server.ssh.ssh_server import SolunaServer
from soluna_tui.server.storage import Storage, StoredMatch, open_storage

from ..server.helpers import TIMEOUT, SshTerminal, move_keys, play_a_move, running_server, wait_until
from ..server.test_clocks_e2e import CREATE, FIRST_CLOCK
from ..server.test_lobby_e2e import JOIN_KEYS
from ..server.test_two_players import secret_shown

CLOCK = ClockSetting(120.0, 0.0)
#: Seconds a seat is held (longer than any outage here: a move made during one is stored).
HOLD = 120.0
#: The longest a server may take to be back once the database is (the issue saw 28.6 s).
PROMPTLY = 3.5
#: Issue 39: a short clock, a shorter hold time, and an outage longer than either (the issue lost on time at 0.5+0
#: after a 324 s outage).
SHORT_CLOCK = ClockSetting(20.0, 0.0)
SHORT_HOLD = 3.0
SHORT_OUTAGE = 22.0
#: Issue 39's "Done when": a 6-minute outage played against a short hold time, at 3+2 (where any outage over five
#: minutes after a move could lose on time).
BLITZ = ClockSetting(180.0, 2.0)
SIX_MINUTES = 360.0


class Leap:
    """The time of both servers and of the test's store: the clock, ``ahead`` seconds on (a leap over an outage)."""

    def __init__(self, *stores: Storage) -> None:
        self.ahead = 0.0
        for store in stores:
            store.clock = self.now

    def now(self) -> float:
        return time.time() + self.ahead


class DatabaseLine:
    """A Unix socket standing in for PostgreSQL's: everything passes until ``cut``, and again after ``mend``."""

    def __init__(self, target: Path, folder: Path) -> None:
        self.target, self.folder = target, folder
        self.path = folder / target.name
        self._listener: asyncio.Server | None = None
        self._pipes: set[asyncio.StreamWriter] = set()

    def url(self, url: str) -> str:
        """``url`` (a socket-folder URL, as pgserver gives) through this line."""
        parts = urlsplit(url)
        query = {**parse_qs(parts.query), "host": [str(self.folder)]}
        return urlunsplit(parts._replace(query=urlencode(query, doseq=True)))

    async def mend(self) -> None:
        self._listener = await asyncio.start_unix_server(self._pass, path=str(self.path))

    async def cut(self) -> None:
        """Every connection dropped, the socket gone: new connections are refused until ``mend``."""
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        for writer in list(self._pipes):
            writer.transport.abort()
        self._pipes.clear()

    async def _pass(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream = await asyncio.open_unix_connection(str(self.target))
        except OSError:
            writer.transport.abort()
            return
        self._pipes |= {writer, upstream}
        await asyncio.gather(_pump(reader, upstream), _pump(upstream_reader, writer), return_exceptions=True)
        for each in (writer, upstream):
            self._pipes.discard(each)
            each.transport.abort()


async def _pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    while data := await source.read(65536):
        sink.write(data)
        await sink.drain()
    sink.transport.abort()


def postgres_socket(url: str) -> Path:
    """The socket file of the PostgreSQL that ``url`` names by its folder."""
    folder = Path(parse_qs(urlsplit(url).query)["host"][0])
    (socket,) = [path for path in folder.glob(".s.PGSQL.*") if not path.name.endswith(".lock")]
    return socket


@contextlib.asynccontextmanager
async def two_servers(tmp_path: Path, database: str, clock: ClockSetting = CLOCK, hold: float = HOLD,
                      ) -> AsyncIterator[tuple[SolunaServer, SolunaServer, Storage, list[DatabaseLine]]]:
    """Two servers on ``database``, each through a line of its own, offering ``clock`` and holding seats for
    ``hold``; and the store as the test reads it."""
    target = postgres_socket(database)
    lines = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        line = DatabaseLine(target, tmp_path / name)
        await line.mend()
        lines.append(line)
    options = {"clocks": (clock,), "hold_time": hold}
    store = await open_storage(database)
    try:
        async with (running_server(tmp_path / "a", database=lines[0].url(database), **options) as first,
                    running_server(tmp_path / "b", database=lines[1].url(database), **options) as second):
            yield first, second, store, lines
    finally:
        await store.close()
        for line in lines:
            await line.cut()


async def match_across(first: SolunaServer, second: SolunaServer, clock: ClockSetting = CLOCK,
                       ) -> tuple[str, SshTerminal, SshTerminal, SshTerminal]:
    """Ann creates a match with the clock on the first server, bob joins from the second, eve watches on the first;
    ann has moved: bob's clock runs."""
    ann = await SshTerminal.open(first.port, username="ann")
    bob = await SshTerminal.open(second.port, username="bob")
    eve = await SshTerminal.open(first.port, username="eve")
    await ann.wait_for_text("Welcome, ann.")
    await ann.press(*FIRST_CLOCK, pause=0.05)
    await ann.wait_for_text(f"Clock           ◂ {clock.brief} ▸")
    await ann.press(*CREATE, pause=0.05)
    text = await ann.wait_for_text("Your match code:")
    code = re.search(r"Your match code:\s+((?:[A-Z] ){3}[A-Z])", text).group(1).replace(" ", "")
    await bob.wait_for_text("Welcome, bob.")
    await bob.press(*JOIN_KEYS, pause=0.05)
    await bob.wait_for_text("Type the four-letter code")
    await bob.press(code.lower(), "enter")
    await ann.wait_for_text("Your move", "bob has joined")
    await eve.wait_for_text("ann vs bob: round 1")
    await eve.press("down", "down", "down", "enter", "enter")  # watch the first match listed
    await eve.wait_for_text("You are watching")
    await play_a_move(first, code, [ann, bob])
    await bob.wait_for_text("Your move")
    return code, ann, bob, eve


async def cut_both(lines: list[DatabaseLine]) -> float:
    for line in lines:
        await line.cut()
    return time.time()


async def in_step(first: SolunaServer, second: SolunaServer, code: str, bob: SshTerminal) -> None:
    """Until the second server has heard of ann's last move on the first, and bob's screen shows it: a database cut
    before then hides it from the second server until it is back (bob, told it is ann's move, could not move)."""
    await wait_until(lambda: second.lobby.tables[code].version == first.lobby.tables[code].version,
                     what="the second server hearing of the last move")
    await bob.wait_for_text("Your move")


async def real_play(first: SolunaServer, second: SolunaServer, code: str, ann: SshTerminal,
                    bob: SshTerminal) -> None:
    """Both players move once (real play: a clock run out now loses on time; before, it aborts), and the second
    server and bob's screen have ann's move (``in_step``)."""
    for _ in range(2):
        await play_a_move(first, code, [ann, bob])
    await in_step(first, second, code, bob)


def reached(*servers: SolunaServer) -> float:
    """The earliest of the moments each server's last write went through: a server finding the database away
    later stops the clocks no earlier than its own (``Presence.store_away``), nor earlier than this."""
    return min(server.store.reached_at for server in servers)


async def clock_then_cut(store: Storage, code: str, lines: list[DatabaseLine]) -> tuple[MatchClock, float]:
    """The match's clock as stored, then the database cut from both servers: the clock, and when it was cut."""
    before = MatchClock.from_document((await store.matches.get(code)).clock)
    return before, await cut_both(lines)


@dataclass(frozen=True)
class MoveMoment:
    """When bob's move was made, as far as the test can know it without asking the server's own stamp: after his
    first key was sent, and no later than his server began to handle the move's request (its stamp is taken there,
    before it tries to write: a stamp taken once the write failed would be up to ``REQUEST_WAIT`` later)."""

    earliest: float
    latest: float


async def bob_moves(second: SolunaServer, code: str, bob: SshTerminal, database_away: bool = True) -> MoveMoment:
    """Bob plays the first legal move by the towers' keys, once his screen shows the match as his server has it (a
    key pressed before his screen shows ann's last move would pick up a tower on her turn). When he did: from his
    first key until his server took up the request; during an outage (``database_away``), once his screen says the
    move waits for the database (``PENDING``)."""
    match = second.lobby.tables[code].match
    if match.round.ply:
        await bob.wait_for_text(f"{match.round.ply:2}. {match.players[1 - match.to_move]}", "Your move")
    mover, target = move_keys(match, match.position.legal_moves[0])
    handlers = second.lobby._handlers  # the moment the server takes the request up, seen from outside it
    handle, received = handlers[PlayMove], []

    async def timed(asker, request) -> None:
        received.append(time.time())
        await handle(asker, request)

    handlers[PlayMove] = timed
    try:
        earliest = time.time()
        await bob.press(mover, "enter", target, "enter", pause=0.05)
        await wait_until(lambda: bool(received), what="bob's move taken up by his server")
        if database_away:
            await bob.wait_for_notice(PENDING)
    finally:
        handlers[PlayMove] = handle
    return MoveMoment(earliest, received[0])


async def mend_both_at(lines: list[DatabaseLine], moment: float, store: Storage, servers: tuple[SolunaServer, ...],
                       stagger: float = 0.0, clock: Callable[[], float] = time.time) -> list[float]:
    """The database back at ``moment`` for the first server, ``stagger`` seconds later for the second (the outage is
    the scenario: waited for on purpose); how long each server took to be back on it (its heartbeat written, by the
    servers' ``clock``)."""
    mended = []
    for number, line in enumerate(lines):
        await asyncio.sleep(max(0.0, moment + number * stagger - time.time()))
        await line.mend()
        mended.append(clock())
    lags = [0.0] * len(servers)
    deadline = time.time() + TIMEOUT + 30  # what the issue saw, and more: a figure rather than a hang
    while not all(lags) and time.time() < deadline:
        heard = {server.id: server.seen_at for server in await store.servers.known()}
        for index, server in enumerate(servers):
            if not lags[index] and heard.get(server.lobby.server_id, 0.0) > mended[index]:
                lags[index] = clock() - mended[index]
        await asyncio.sleep(0.05)
    assert all(lags), "a server never came back on the database"
    return lags


async def no_server_taken_for_dead(store: Storage, code: str, back_at: float,
                                   terminals: list[SshTerminal]) -> StoredMatch:
    """Once both servers have been back (since ``back_at``) long enough to take a silent one for dead: neither
    was, and nobody heard anyone lost the connection. The match as stored then."""
    await asyncio.sleep(max(0.0, back_at + DEAD_AFTER + 2 * HEARTBEAT - time.time()))  # what a false hold needs
    stored = await store.matches.get(code)
    assert stored is not None
    for terminal in terminals:
        await terminal.pump(0.3)  # everything it was sent until now, read
        assert b"lost the" not in terminal.received, terminal.shown
    return stored


def charged(before: MatchClock, after: MatchClock, moved: MoveMoment, increment: float = 0.0) -> float:
    """What bob's clock was charged for his move beyond the time he took until he moved (his ``increment`` added
    back): 0 for a charge the moment of his move accounts for, else by how much it falls outside it (more:
    positive)."""
    spent = before.left[1] - after.left[1] + increment
    since = before.since or 0.0
    return max(0.0, spent - (moved.latest - since)) - max(0.0, (moved.earliest - since) - spent)


async def test_a_ten_second_outage_under_a_match_across_two_servers(tmp_path, postgres_database) -> None:
    async with two_servers(tmp_path, postgres_database) as (first, second, store, lines):
        code, ann, bob, eve = await match_across(first, second)
        try:
            before, cut_at = await clock_then_cut(store, code, lines)
            moved = await bob_moves(second, code, bob)
            # The second server is back 2 s after the first, which must not take it for dead meanwhile.
            lags = await mend_both_at(lines, cut_at + 10, store, (first, second), stagger=2.0)
            mended_at = cut_at + 12
            saved = "bob's move waited for the database: it is saved now."
            await bob.wait_for_notice("Your move is saved: the database is back.")
            await ann.wait_for_notice(saved)
            await eve.wait_for_notice(saved)
            await ann.wait_for_text(" 2. bob", "Your move")
            stored = await no_server_taken_for_dead(store, code, mended_at + max(lags), [ann, bob, eve])
            after = MatchClock.from_document(stored.clock)
            print(f"\na 10 s outage: back on the database {lags[0]:.1f} s and {lags[1]:.1f} s after it; bob's move "
                  f"made {moved.earliest - cut_at:.1f} s into it, charged {charged(before, after, moved):+.2f} s "
                  "beyond his thinking")
            assert [seat.server for seat in stored.seats] == [first.lobby.server_id, second.lobby.server_id]
            assert max(lags) < PROMPTLY
            assert after.running == 0 and after.left[0] == before.left[0] and after.since >= mended_at - 1
            assert abs(charged(before, after, moved)) < 1.0  # the wait for the database counts for nobody
        finally:
            for terminal in (ann, bob, eve):
                await terminal.close()


async def test_a_long_outage_is_waited_out_and_a_player_who_left_meanwhile_is_held_from_its_end(
        tmp_path, postgres_database) -> None:
    """The 60 s outage issue 29 measured (a server then came back 28.6 s after the database). Ann, gone meanwhile,
    is held from when the database is back: time away does not run while it is away (issue 39)."""
    outage = 60.0
    async with two_servers(tmp_path, postgres_database) as (first, second, store, lines):
        code, ann, bob, eve = await match_across(first, second)
        try:
            before, cut_at = await clock_then_cut(store, code, lines)
            moved = await bob_moves(second, code, bob)
            await ann.close()
            left_at = time.time()
            lags = await mend_both_at(lines, cut_at + outage, store, (first, second))
            # Each hears both changes, in either order (the newest notice stays): the move, then ann gone, or not.
            await eve.wait_for_text(" 2. bob", "away: ")
            await bob.wait_for_text(" 2. bob", "away: ")
            stored = await no_server_taken_for_dead(store, code, cut_at + outage + max(lags), [bob, eve])
            after = MatchClock.from_document(stored.clock)
            held_from = stored.seats[0].held_until - HOLD
            back_at = cut_at + outage
            print(f"\na {outage:g} s outage: back on the database {lags[0]:.1f} s and {lags[1]:.1f} s after it; ann, "
                  f"gone {left_at - cut_at:.1f} s into it, held from {held_from - back_at:+.1f} s of its end; "
                  f"bob charged {charged(before, after, moved):+.2f} s beyond his thinking")
            assert max(lags) < PROMPTLY
            assert stored.seats[0].server is None and back_at - 0.5 <= held_from <= back_at + max(lags) + 1.0
            assert stored.seats[1].server == second.lobby.server_id
            assert Match.from_dict(stored.document).round.ply == 2  # bob's move, made during the outage
            assert abs(charged(before, after, moved)) < 1.0
        finally:
            for terminal in (ann, bob, eve):
                await terminal.close()



@pytest.mark.parametrize("bob_moves_meanwhile", [True, False], ids=["a move kept", "nobody moves"])
async def test_an_outage_longer_than_the_clock_and_the_hold_time_decides_nothing(
        tmp_path, postgres_database, bob_moves_meanwhile: bool) -> None:
    """Issue 39: bob's clock runs with less time left than the outage lasts, and seats are held for less. Bob's move
    made meanwhile is kept and saved, and nobody loses on time: both clocks stood still while the database was away
    (bob's clock as of his move, or of when the servers found the database away: at most a heartbeat after)."""
    async with two_servers(tmp_path, postgres_database, SHORT_CLOCK, SHORT_HOLD) as (first, second, store, lines):
        code, ann, bob, eve = await match_across(first, second, SHORT_CLOCK)
        try:
            await real_play(first, second, code, ann, bob)
            there_at = reached(first, second)
            before, cut_at = await clock_then_cut(store, code, lines)
            # Bob's clock stood as of his move (its moment known within a window), or as of when the servers found
            # the database away (at most a heartbeat after the cut).
            stood = MoveMoment(cut_at, cut_at + HEARTBEAT)
            if bob_moves_meanwhile:
                stood = await bob_moves(second, code, bob)
            bob_left = before.left[1] - (stood.earliest - before.since)  # the most he can have left
            assert bob_left < SHORT_OUTAGE  # the outage alone would run his clock out
            # The others see the clocks stop (they do not run down to nothing on the screens meanwhile).
            for terminal in (ann, eve):
                await terminal.wait_for_text("The database is away")
            await asyncio.sleep(max(0.0, before.since + before.left[1] + 1 - time.time()))
            for terminal in (ann, eve):
                await terminal.pump(0.3)
                assert "0:00.0" not in terminal.shown, terminal.shown  # (the notice itself goes after 20 s)
            lags = await mend_both_at(lines, cut_at + SHORT_OUTAGE, store, (first, second))
            # Past the moment the servers apply what came due meanwhile (a clock run out, a seat held too long).
            stored = await no_server_taken_for_dead(store, code, cut_at + SHORT_OUTAGE + max(lags), [ann, bob, eve])
            after = MatchClock.from_document(stored.clock)
            match = Match.from_dict(stored.document)
            print(f"\na {SHORT_OUTAGE:g} s outage, {SHORT_HOLD:g} s held, bob with {bob_left:.1f} s left: his clock "
                  f"left at {after.left[1]:.1f} s, ann's at {after.left[0]:.1f} s of {before.left[0]:.1f} s")
            for terminal in (ann, bob, eve):
                assert b"ran out" not in terminal.received and b"not saved" not in terminal.received, terminal.shown
            assert not match.is_over and match.round.ply == (4 if bob_moves_meanwhile else 3)
            assert after.running == (0 if bob_moves_meanwhile else 1) and after.since >= cut_at + SHORT_OUTAGE - 1
            assert after.left[0] == before.left[0]
            # As of his move or of when the servers found the database away: at most a heartbeat off, and half a
            # second (CI once charged 0.55 s past the moment his server took the move up); and never before the
            # servers last reached the database (a try that waited on a loaded machine may have begun before).
            most_left = before.left[1] - max(0.0, min(stood.earliest, there_at) - before.since)
            assert before.left[1] - (stood.latest - before.since) - HEARTBEAT - 0.5 <= after.left[1] <= most_left
            if bob_moves_meanwhile:
                await bob.wait_for_notice("Your move is saved: the database is back.")
                await ann.wait_for_text(" 4. bob", "Your move")
            else:
                await bob.wait_for_text("The database was away for")
        finally:
            for terminal in (ann, bob, eve):
                await terminal.close()


async def test_a_six_minute_outage_against_a_short_hold_time_loses_nobody_on_time(tmp_path, postgres_database) -> None:
    """Issue 39's "Done when": at 3+2, a move made during a 6-minute outage (the servers' time leaps over it) with
    seats held 3 s is saved as of when it was made; nobody loses on time or by forfeit, and both clocks stand where
    they stood (before, the mover was charged the whole outage: at 0.5+0 and 324 s the mover lost on time)."""
    async with two_servers(tmp_path, postgres_database, BLITZ, SHORT_HOLD) as (first, second, store, lines):
        leap = Leap(first.store, second.store, store)
        code, ann, bob, eve = await match_across(first, second, BLITZ)
        try:
            await real_play(first, second, code, ann, bob)
            before, cut_at = await clock_then_cut(store, code, lines)
            moved = await bob_moves(second, code, bob)
            for terminal in (ann, eve):
                await terminal.wait_for_text("The database is away")
            await asyncio.sleep(SHORT_HOLD + HEARTBEAT)  # past the hold time in real time too (the scenario)
            leap.ahead = SIX_MINUTES
            back_at = time.time()
            lags = await mend_both_at(lines, back_at, store, (first, second), clock=leap.now)
            await bob.wait_for_notice("Your move is saved: the database is back.")
            stored = await no_server_taken_for_dead(store, code, back_at + max(lags), [ann, bob, eve])
            after = MatchClock.from_document(stored.clock)
            match = Match.from_dict(stored.document)
            bob_charged = charged(before, after, moved, BLITZ.increment)
            print(f"\na {(leap.now() - cut_at) / 60:.1f}-minute outage, seats held {SHORT_HOLD:g} s, at 3+2: bob's "
                  f"move saved, charged {bob_charged:+.2f} s beyond his thinking; ann's clock {after.left[0]:.1f} s "
                  f"of {before.left[0]:.1f} s")
            for terminal in (ann, bob, eve):
                for word in (b"ran out", b"wins", b"not saved", b"lost the"):
                    assert word not in terminal.received, terminal.shown
            assert not match.is_over and match.round.ply == 4
            assert after.running == 0 and after.left[0] == before.left[0]
            assert after.since >= cut_at + SIX_MINUTES - 1
            assert abs(bob_charged) < 1.0  # the outage counts for nobody
            assert [seat.server for seat in stored.seats] == [first.lobby.server_id, second.lobby.server_id]
            await ann.wait_for_text(" 4. bob", "Your move")
        finally:
            for terminal in (ann, bob, eve):
                await terminal.close()


async def test_a_day_long_outage_adjourns_the_match_until_both_players_are_back_on_any_server(
        tmp_path, postgres_database) -> None:
    """Issue 39: past a day without the database the match is adjourned (kept, both clocks stopped where they stood,
    no seat held: no loss on time or by forfeit however long), both players told; ann, gone meanwhile, comes back
    on the other server, and the match goes on, bob's clock running from where it stood."""
    async with two_servers(tmp_path, postgres_database, BLITZ, SHORT_HOLD) as (first, second, store, lines):
        leap = Leap(first.store, second.store, store)
        code, ann, bob, eve = await match_across(first, second, BLITZ)
        back = None
        try:
            await real_play(first, second, code, ann, bob)
            secret = secret_shown(ann)
            there_at = reached(first, second)
            before, cut_at = await clock_then_cut(store, code, lines)
            for terminal in (bob, eve):
                await terminal.wait_for_text("The database is away")
            await ann.close()  # gone during the outage
            leap.ahead = ADJOURN_AFTER + 3600
            back_at = time.time()
            lags = await mend_both_at(lines, back_at, store, (first, second), clock=leap.now)
            for terminal in (bob, eve):  # told it is adjourned (then that ann left: it stays adjourned)
                await terminal.wait_for(lambda _, terminal=terminal: "adjourned" in terminal.sidebar)
            # Past the hold time and what would take a server for dead: nothing more comes of it.
            stored = await no_server_taken_for_dead(store, code, back_at + max(lags), [bob, eve])
            stood = MatchClock.from_document(stored.clock)
            print(f"\na day and an hour without the database: {stored.adjourned_at is not None and 'adjourned'}, "
                  f"clocks stood at {stood.left[0]:.1f} s and {stood.left[1]:.1f} s (bob's ran "
                  f"{before.left[1] - stood.left[1]:.1f} s from ann's move until the clocks stopped)")
            assert stored.adjourned_at is not None and stood.running is None
            bob_left = before.left[1] - (cut_at - before.since)  # as the database went
            # Stopped once found away (at most a heartbeat and a moment after the cut), and never before the
            # servers last reached the database (CI: a try begun before ann's move, failed after the cut).
            most_left = before.left[1] - max(0.0, there_at - before.since)
            assert stood.left[0] == before.left[0] and bob_left - HEARTBEAT - 0.5 <= stood.left[1] <= most_left
            assert stored.seats[0].server is None and stored.seats[0].held_until is None
            assert Match.from_dict(stored.document).round.ply == 3
            for terminal in (bob, eve):
                for word in (b"ran out", b"wins", b"forfeit"):
                    assert word not in terminal.received, terminal.shown
            back = await SshTerminal.open(second.port, username="ann")  # on the other server
            await back.wait_for_text("Return to your match")
            await back.press("enter")
            await back.wait_for_text("type the secret")
            await back.press(secret.lower(), "enter")
            for terminal in (back, bob):
                await terminal.wait_for(lambda _, terminal=terminal: "the adjourned match goes on" in terminal.sidebar)
            resumed = await store.matches.get(code)
            going = MatchClock.from_document(resumed.clock)
            assert resumed.adjourned_at is None and going.running == 1 and going.left == stood.left
            await bob_moves(second, code, bob, database_away=False)
            await back.wait_for_text(" 4. bob", "Your move")
        finally:
            for terminal in (ann, bob, eve, back):
                if terminal is not None:
                    await terminal.close()
