"""Runs in the server process.

The server's authority on matches: codes, seats, moves, spectators, held seats, forfeits.

Every terminal (a ``Guest``: a session's child, through its link) asks; the lobby checks the
request against the rules package and the store, and tells everyone at the match: a move as a
small ``moved`` update, anything else as the whole match. Every update carries the match's
``version`` (the store's), so a terminal that misses one sees the gap and asks for the whole state.

The store is the authority, so several servers share one lobby: each keeps in memory only its own
guests and a cache of the matches, writes every change with the version it read (a change that lost
the race is decided again on the new state) and learns of the others' changes from the store's
notifications, re-reading the match and telling its own guests. Each seat records which server's
session sits there; servers say they are alive every second, and a seat whose server falls silent
is held like a seat whose player disconnected: they may come back on any server with the same name
and proof (the same key, or the secret the game showed them), else the opponent wins by forfeit,
applied by whichever living server gets there first. Matches against the computer (played in the
session's own process) are kept in the store too, and held the same way. Codes and secrets never
reach the log; secrets reach the store only hashed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from dataclasses import field as data_field
from typing import Any, Protocol

from ..files import SaveError
from ..match_setup import NAME_LIMIT, clean_name
from ..play.wording import minutes
from ..rules import Match, MatchOptions, Move, NextOpener, SolunaError
from ..rules.round import other
from ..saves import SavedMatch
from .client_env import passes_for, skeleton, visible_text
from .end_reason import EndReason
from .gate import RateWindow, client_key
from .messages import (
    AskFinishedMatch,
    AskLeaderboard,
    AskRecord,
    AskRematch,
    CancelMatch,
    ChooseName,
    ComputerDropped,
    ComputerGameKept,
    ComputerOffer,
    ComputerResume,
    ComputerSaved,
    CreateMatch,
    ErrorReply,
    FinishedMatch,
    JoinMatch,
    LeaderboardPage,
    LeaderboardRow,
    LeaveMatch,
    ListedMatch,
    LobbyListing,
    MatchState,
    Moved,
    Notice,
    PlayerRecord,
    PlayMove,
    ProtocolError,
    RecentMatch,
    Reply,
    Request,
    SecretNeeded,
    SideResult,
    Standing,
    StartNextRound,
    SyncMatch,
    Waiting,
    WatchMatch,
    Welcome,
)
from .storage import (
    ComputerGameRecord,
    MatchNotFound,
    NameTaken,
    SeatRecord,
    Storage,
    StorageError,
    StorageUnavailable,
    StoredMatch,
    VersionConflict,
)
from .storage.secrets import clean_secret, hash_secret, secret_matches

log = logging.getLogger("soluna.server")

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: codes are read out loud and typed
CODE_PATTERN = re.compile(f"[{CODE_LETTERS}]{{4}}")
#: A seat's secret: six letters, shown to its player, asked for when they come back without their key.
SECRET_LENGTH = 6
#: Matches against the computer held for players gone at most (the oldest goes first beyond it).
MAX_HELD_GAMES = 256
#: Joins and watches by code a minute from one address (a player needs one or two).
CODES_PER_MINUTE = 10
#: Names that would read as someone else on an opponent's screen ("You win").
RESERVED_NAMES = {"you", "computer"}
#: Seconds between two "I am alive" of a server; silent for DEAD_AFTER, its seats are held.
HEARTBEAT = 1.0
DEAD_AFTER = 6.0
#: Tries to apply a change whose match another server changed meanwhile.
RETRIES = 8
#: Rows on one page of the leaderboard.
LEADERBOARD_PAGE = 20
CANNOT_SAVE = ("The server cannot save right now (its database is unavailable): that was not done. "
               "Nothing saved is lost; try again in a moment.")


def player_name(username: str) -> str:
    """The name shown for an SSH user: cleaned (no control, escape or invisible characters; fullwidth and
    styled letters made plain), short, and never a reserved name however it is spelt (look-alike letters,
    accents, zero-width characters), nor letters of two alphabets mixed to look like another name."""
    name = clean_name(visible_text(username), "guest")
    if passes_for(name, RESERVED_NAMES):
        name = f"{name} (guest)"
    return name


def guest_variant(name: str) -> str:
    """How a guest is shown whose name a player with a key holds."""
    return f"{name[:NAME_LIMIT - 8]} (guest)"


def same_secret(given: str | None, kept: str | None) -> bool:
    """Typed with spaces, dashes or in lower case it still counts (``kept`` is a hash from the store)."""
    return secret_matches(given, kept)


class Guest(Protocol):
    """A terminal at the lobby: who it is, and a way to tell it things."""

    name: str
    fingerprint: str | None
    address: str

    def send(self, message: Reply) -> None: ...


@dataclass(eq=False)
class Table:
    """One match of the store as this server last read it, with this server's guests at it."""

    stored: StoredMatch
    match: Match | None
    #: Seat index -> this server's guest sitting there.
    seated: dict[int, Guest] = data_field(default_factory=dict)
    spectators: set[Guest] = data_field(default_factory=set)
    lock: asyncio.Lock = data_field(default_factory=asyncio.Lock)

    @property
    def code(self) -> str:
        return self.stored.code

    @property
    def version(self) -> int:
        return self.stored.version

    @property
    def seats(self) -> tuple[SeatRecord, ...]:
        return self.stored.seats

    @property
    def waiting(self) -> bool:
        return self.match is None

    @property
    def finished(self) -> bool:
        return self.match is not None and self.match.is_over

    @property
    def in_play(self) -> bool:
        return self.match is not None and not self.match.is_over

    @property
    def hints(self) -> bool:
        return len(self.seats) == 2 and all(seat.hints for seat in self.seats)

    @property
    def guests(self) -> list[Guest]:
        return list(self.seated.values()) + list(self.spectators)

    def seat_of(self, guest: Guest) -> int | None:
        return next((index for index, each in self.seated.items() if each is guest), None)

    def fresh_match(self) -> Match:
        """A copy of the match to decide a change on (the cached one stays as stored)."""
        return Match.from_dict(self.stored.document)


@dataclass(frozen=True)
class Change:
    """What a request decided: the match's next state, and what each one at it is told."""

    match: Match | None
    seats: tuple[SeatRecord, ...]
    #: ``seat``: the two players' notices; ``watchers``: the spectators'; ``moved``: the move alone.
    news: dict[str, Any]
    #: ``WON``/``FORFEIT``: file it and keep it on screen; ``ABANDONED``: file it and let it go.
    finish: EndReason | None = None
    drop: bool = False


def news(seat_notices: tuple[str | None, str | None] = (None, None), watchers: str | None = None,
         moved: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"seat": list(seat_notices), "watchers": watchers, "moved": moved}


@dataclass(eq=False)
class ComputerGame:
    """A match against the computer, played in a session's own process and kept in the store as it changes,
    so that it outlives the session (and the server): held for its player after a disconnect."""

    id: str
    identity: str
    fingerprint: str | None
    secret: str
    secret_hash: str
    saved: SavedMatch

    def to_message(self) -> ComputerGameKept:
        return ComputerGameKept(self.secret, saved_document(self.saved))


def saved_document(saved: SavedMatch) -> dict[str, Any]:
    return {"setup": saved.setup.to_dict(), "match": saved.match.to_dict(), "hints_used": list(saved.hints_used)}


def computer_offer(record: ComputerGameRecord, needs_secret: bool) -> ComputerOffer | None:
    """What the lobby offers to resume (``None`` if the kept document is unusable)."""
    try:
        saved = SavedMatch.from_document(record.document)
    except SaveError:
        return None
    return _offer(saved, needs_secret)


def _offer(saved: SavedMatch, needs_secret: bool) -> ComputerOffer:
    match = saved.match
    return ComputerOffer(saved.setup.computer_level or "?", match.round_number, match.stars, needs_secret)


@dataclass(frozen=True)
class _Arrive:
    """The lobby's own first step for a guest (queued like its requests, never sent by a child)."""


@dataclass(frozen=True)
class _Depart:
    """The lobby's own last step for a guest: whatever it was at is left (held)."""


Step = Request | _Arrive | _Depart


@dataclass
class Visitor:
    """What this server knows of one guest: the name shown, its secret, where it is."""

    name: str
    rated: bool
    name_chosen: bool
    secret: str
    secret_hash: str | None = None
    code: str | None = None
    game: ComputerGame | None = None
    queue: asyncio.Queue[Step] = data_field(default_factory=asyncio.Queue)
    worker: asyncio.Task | None = None
    last_listing: LobbyListing | None = None


class Lobby:
    """This server's part of the shared lobby: its guests, and a cache of every match in the store."""

    def __init__(self, store: Storage, hold_time: float, server_id: str | None = None,
                 heartbeat: float = HEARTBEAT) -> None:
        self.store = store
        self.hold_time = hold_time
        self.heartbeat = heartbeat
        self.dead_after = heartbeat * DEAD_AFTER / HEARTBEAT
        self.server_id = server_id or uuid.uuid4().hex[:12]
        self.tables: dict[str, Table] = {}
        self.visitors: dict[Guest, Visitor] = {}
        #: Servers alive (by their last heartbeat) and how many watch each match on each.
        self.live: set[str] = {self.server_id}
        self.watching: dict[str, int] = {}
        #: How many watch each match, on every living server.
        self.watchers: dict[str, int] = {}
        self.held_games: list[ComputerGameRecord] = []
        self._gone: dict[str, float] = {}
        self._codes_tried = RateWindow(CODES_PER_MINUTE)
        self._codes = random.SystemRandom()
        self._listing_due = False
        self._tasks: list[asyncio.Task] = []
        self._expiries: dict[str, asyncio.TimerHandle] = {}
        self._storage_down = False
        self._subscription: Any = None
        #: What each step does: one handler per kind of request (and the lobby's own arrive and depart).
        self._handlers: dict[type[Step], Callable[[Guest, Any], Awaitable[None]]] = {
            _Arrive: self._arrive, _Depart: self._depart, ChooseName: self._choose_name,
            AskLeaderboard: self._leaderboard, AskRecord: self._record, AskFinishedMatch: self._finished_match,
            CreateMatch: self._create, CancelMatch: self._cancel, JoinMatch: self._join, WatchMatch: self._watch,
            LeaveMatch: self._leave_by_choice, SyncMatch: self._sync, PlayMove: self._move,
            StartNextRound: self._next_round, AskRematch: self._rematch, ComputerSaved: self._computer_saved,
            ComputerDropped: self._computer_dropped, ComputerResume: self._computer_resume,
        }

    # ---- start-up and shutdown -----------------------------------------------------------

    async def start(self) -> int:
        """Say this server is alive, read every match, and follow the store's changes; the matches in play."""
        await self._heartbeat()
        await self._reload_all()
        loop = asyncio.get_running_loop()
        self._subscription = self.store.subscribe()
        self._tasks = [loop.create_task(self._follow(self._subscription), name="soluna-lobby-follow"),
                       loop.create_task(self._keep_alive(), name="soluna-lobby-heartbeat")]
        return sum(1 for table in self.tables.values() if table.in_play)

    async def close(self) -> None:
        """Finish every guest's requests, stop following the store, and let the other servers know at once."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.settled(), 5)
        for visitor in self.visitors.values():
            if visitor.worker is not None:
                visitor.worker.cancel()
        for timer in self._expiries.values():
            timer.cancel()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._subscription is not None:
            self._subscription.close()
        with contextlib.suppress(StorageError):
            await self.store.forget_servers(server=self.server_id)

    async def settled(self) -> None:
        """Wait until every request received so far has been acted on (tests, shutdown)."""
        for visitor in list(self.visitors.values()):
            await visitor.queue.join()

    # ---- guests coming and going (in order, each guest's requests one at a time) ----------

    def arrive(self, guest: Guest) -> None:
        visitor = Visitor(guest.name, guest.fingerprint is not None, guest.fingerprint is None,
                          "".join(self._codes.choice(CODE_LETTERS) for _ in range(SECRET_LENGTH)))
        self.visitors[guest] = visitor
        visitor.worker = asyncio.get_running_loop().create_task(self._serve(guest, visitor))
        visitor.queue.put_nowait(_Arrive())

    def depart(self, guest: Guest) -> None:
        """The terminal has gone: leave whatever match it was at (a seat, a game against the computer, is held)."""
        visitor = self.visitors.get(guest)
        if visitor is not None:
            visitor.queue.put_nowait(_Depart())

    def handle(self, guest: Guest, message: Request) -> None:
        """Queue one request from ``guest``; anything wrong is an ``error`` message back, never a raise."""
        visitor = self.visitors.get(guest)
        if visitor is not None:
            visitor.queue.put_nowait(message)

    async def _serve(self, guest: Guest, visitor: Visitor) -> None:
        while True:
            message = await visitor.queue.get()
            try:
                await self._act(guest, message)
            except Exception:  # noqa: BLE001 - a bug on one request must not stop this guest's others
                log.exception("the lobby failed on a %r request", _kind(message))
                guest.send(ErrorReply("Sorry: the server hit an internal error on that request."))
            finally:
                visitor.queue.task_done()
            if isinstance(message, _Depart):
                self.visitors.pop(guest, None)
                return

    async def _act(self, guest: Guest, message: Step) -> None:
        handler = self._handlers.get(type(message))
        kind = _kind(message)
        try:
            if handler is None:
                raise ProtocolError(f"no {kind!r} request is made of the server")
            await handler(guest, message)
        except (ProtocolError, SolunaError, SaveError) as error:
            log.info("request refused from %s: %s", guest.address, error)
            guest.send(ErrorReply("The server could not do that: the request was malformed."))
        except StorageUnavailable as error:
            log.warning("a %r request could not be saved: %s", kind, error)
            self._cannot_save(guest)

    def _cannot_save(self, guest: Guest) -> None:
        """The store is down: the guest (and the others at its match) hear it once, in one line."""
        visitor = self.visitors.get(guest)
        table = self.tables.get(visitor.code) if visitor is not None and visitor.code else None
        for each in table.guests if table is not None else [guest]:
            if each is guest and table is not None and table.match is not None:
                self._resync(table, guest, CANNOT_SAVE)  # what the player just did is undone on their screen
            else:
                each.send(Notice(CANNOT_SAVE, "error"))

    # ---- arriving, names --------------------------------------------------------------------

    async def _arrive(self, guest: Guest, message: _Arrive) -> None:
        visitor = self.visitors[guest]
        try:
            visitor.name = await self._shown_name(guest)
            await self._refresh_held_games()
        except StorageUnavailable as error:  # the lobby still works as far as it can: known by the SSH name
            log.warning("cannot look the player up: %s", error)
        self._welcome(guest)
        self._send_listing_to(guest, force=True)

    async def _shown_name(self, guest: Guest) -> str:
        """A keyed player's stored name (``name_chosen``), else the SSH name unless a key holds it."""
        visitor = self.visitors[guest]
        if guest.fingerprint is not None:
            known = await self.store.player(guest.fingerprint)
            if known is not None:
                await self.store.see_player(guest.fingerprint, known.name)
                visitor.name_chosen = True
                return known.name
        holder = await self.store.name_holder(guest.name)
        if holder is not None and holder.fingerprint != guest.fingerprint:
            return guest_variant(guest.name)
        return guest.name

    def _welcome(self, guest: Guest) -> None:
        visitor = self.visitors[guest]
        guest.send(Welcome(visitor.secret, self.hold_time, visitor.name, visitor.rated, visitor.name_chosen))

    async def _choose_name(self, guest: Guest, message: ChooseName) -> None:
        wanted = message.name.strip()
        visitor = self.visitors[guest]
        if guest.fingerprint is None:
            guest.send(ErrorReply("Only players who connect with an SSH key can keep a name: "
                                                 "connect with ssh -i KEY to have one."))
            return
        name = player_name(wanted)
        if not wanted or name != " ".join(wanted.split()) or "(guest)" in name.casefold():
            guest.send(ErrorReply(f"A name is 1 to {NAME_LIMIT} letters, digits or signs of one alphabet, "
                                                 "and not a word the game uses (you, computer, guest)."))
            return
        if visitor.code is not None:
            guest.send(ErrorReply("Leave the match you are at first (n), then choose a name."))
            return
        try:
            if await self.store.player(guest.fingerprint) is None:
                await self.store.see_player(guest.fingerprint, name)
            else:
                await self.store.rename_player(guest.fingerprint, name)
        except NameTaken:
            guest.send(ErrorReply(f"The name {name} belongs to another player: choose another."))
            return
        visitor.name, visitor.name_chosen = name, True
        self._welcome(guest)
        self._send_listing_to(guest, force=True)

    # ---- records: leaderboard, a player's own, a finished match ---------------------------------

    async def _leaderboard(self, guest: Guest, message: AskLeaderboard) -> None:
        offset = message.offset
        if offset < 0 or offset > 10**6:
            raise ProtocolError("an offset out of range")
        rows = await self.store.leaderboard(LEADERBOARD_PAGE, offset)
        total = await self.store.rated_players()
        you = None
        if guest.fingerprint is not None:
            summary = await self.store.player_summary(guest.fingerprint, recent=0)
            standing = summary.standing
            you = Standing(standing.rank if standing else None, standing.rating.shown if standing else None)
        guest.send(LeaderboardPage(offset, total, tuple(LeaderboardRow(row.rank, row.name, row.rating.shown, row.played,
                                                                       row.won) for row in rows), you))

    async def _record(self, guest: Guest, message: AskRecord) -> None:
        visitor = self.visitors[guest]
        reply = PlayerRecord(visitor.name, visitor.rated, None, None, 0, 0, 0)
        if guest.fingerprint is not None:
            summary = await self.store.player_summary(guest.fingerprint)
            if summary.standing is not None:
                standing = summary.standing
                reply = replace(reply, rating=standing.rating.shown, rank=standing.rank, played=standing.played,
                                won=standing.won, lost=standing.lost)
            reply = replace(reply, recent=tuple(_recent_line(finished, guest.fingerprint)
                                                for finished in summary.recent))
        guest.send(reply)

    async def _finished_match(self, guest: Guest, message: AskFinishedMatch) -> None:
        match_id = message.id
        finished = await self.store.finished_match(match_id) if 0 < match_id < 2**62 else None
        if finished is None:
            guest.send(ErrorReply("That match is not on record."))
            return
        guest.send(FinishedMatch(finished.id, (finished.names[0], finished.names[1]), EndReason(finished.result),
                                 finished.finished_at, finished.document))

    # ---- two-player matches -----------------------------------------------------------------

    async def _create(self, guest: Guest, message: CreateMatch) -> None:
        if self._busy(guest):
            return
        options = _options(message.options)
        hints = message.hints
        visitor = self.visitors[guest]
        seat = SeatRecord(visitor.name, visitor.name, guest.fingerprint, hints, await self._secret_hash(guest),
                          server=self.server_id)
        for _ in range(RETRIES):
            code = self._new_code()
            try:
                stored = await self.store.create_match(code, options.to_dict(), (seat,))
            except StorageError as error:
                if isinstance(error, StorageUnavailable):
                    raise
                continue
            table = self._install(stored, quiet=True)
            table.seated[0] = guest
            visitor.code = code
            guest.send(Waiting(code))
            return
        guest.send(ErrorReply("No free match code right now: try again."))

    async def _cancel(self, guest: Guest, message: CancelMatch) -> None:
        table = self._table_of(guest)
        if table is not None and table.waiting:
            await self._leave(guest)

    async def _join(self, guest: Guest, message: JoinMatch) -> None:
        code, hints, secret = message.code.upper(), message.hints, message.secret
        if self._busy(guest) or not self._may_try_a_code(guest):
            return
        table = await self._table(code)
        if table is None:
            guest.send(ErrorReply(f"No match has the code {code}."))
        elif table.waiting:
            await self._seat_opponent(table, guest, hints)
        elif table.finished:
            guest.send(ErrorReply(f"Match {code} is over."))
        else:
            await self._take_back_seat(table, guest, secret)

    async def _seat_opponent(self, table: Table, guest: Guest, hints: bool) -> None:
        visitor = self.visitors[guest]
        if table.seat_of(guest) is not None:
            guest.send(ErrorReply("That is your own match: wait for your opponent to join it."))
            return
        secret_hash = await self._secret_hash(guest)

        def decide(table: Table) -> Change | None:
            if not table.waiting:
                guest.send(ErrorReply(f"Someone else joined match {table.code} first."))
                return None
            creator = table.seats[0]
            name = visitor.name
            if skeleton(name) == skeleton(creator.name):
                name = f"{name[:NAME_LIMIT - 2]} 2"
            seats = (creator, SeatRecord(name, visitor.name, guest.fingerprint, hints, secret_hash,
                                         server=self.server_id))
            match = Match(_options(table.stored.options), (creator.name, name))
            return Change(match, seats, news((f"{name} has joined: the match begins.", None)))

        table = await self._apply(table.code, decide, seat_for=(guest, 1))
        if table is not None:
            log.info("match %s begins", _label(table))

    async def _take_back_seat(self, table: Table, guest: Guest, secret: str | None) -> None:
        visitor = self.visitors[guest]
        await self._refresh_live()
        seats = [index for index, seat in enumerate(table.seats)
                 if self._seat_free(seat) and seat.identity == visitor.name]
        if not seats:
            guest.send(ErrorReply(f"Match {table.code} has two players already: choose Watch to see it."))
            return
        index = None
        for candidate in seats:
            seat = table.seats[candidate]
            if seat.fingerprint is not None and seat.fingerprint == guest.fingerprint:
                index = candidate
                break
            if secret is not None and await asyncio.to_thread(same_secret, secret, seat.secret_hash):
                index = candidate
                # The player keeps the secret they know: this session's seats and games use it from now on.
                visitor.secret, visitor.secret_hash = clean_secret(secret), seat.secret_hash
                break
        if index is None:
            if secret is None:
                guest.send(SecretNeeded(table.code))
            else:
                guest.send(ErrorReply("That is not the secret of your seat: it was shown in the "
                                                     "panel beside the board while you played."))
            return
        secret_hash = await self._secret_hash(guest)

        def decide(table: Table) -> Change | None:
            seat = table.seats[index]
            if not self._seat_free(seat) or not table.in_play:
                guest.send(ErrorReply(f"Match {table.code} has two players already."))
                return None
            seats = _with_seat(table.seats, index, server=self.server_id, held_until=None, secret_hash=secret_hash)
            back = f"{seat.name} is back."
            notices = [back, back]
            notices[index] = "Welcome back."
            return Change(table.fresh_match(), seats, news(tuple(notices), back))

        await self._apply(table.code, decide, seat_for=(guest, index))

    async def _watch(self, guest: Guest, message: WatchMatch) -> None:
        code = message.code.upper()
        if self._busy(guest) or not self._may_try_a_code(guest):
            return
        table = await self._table(code)
        if table is None or table.waiting:
            guest.send(ErrorReply(f"No match in play has the code {code}."))
            return
        table.spectators.add(guest)
        self.visitors[guest].code = code
        self.watching[code] = self.watching.get(code, 0) + 1
        guest.send(self._state(table, guest, "You are watching: n returns to the lobby."))
        self._listing_changed()

    async def _leave_by_choice(self, guest: Guest, message: LeaveMatch) -> None:
        await self._leave(guest)
        self._send_listing_to(guest, force=True)

    async def _depart(self, guest: Guest, message: _Depart) -> None:
        await self._leave(guest)
        visitor = self.visitors[guest]
        game = visitor.game
        if game is not None and not game.saved.match.is_over:
            now = self.store.clock()
            await self.store.hold_computer_game(game.id, now + self.hold_time)
            await self.store.tidy_computer_games(sorted(self.live), now + self.hold_time, MAX_HELD_GAMES)
            await self._refresh_held_games()

    async def _sync(self, guest: Guest, message: SyncMatch) -> None:
        """A terminal saw a gap in the versions: the whole state again (nothing if it has left that match)."""
        code = message.code
        table = self._table_of(guest)
        if table is not None and table.code == code and table.match is not None:
            self._resync(table, guest)

    async def _move(self, guest: Guest, message: PlayMove) -> None:
        text = message.move
        moment = (message.round, message.ply)
        table, seat = self._seated(guest)
        if table is None:
            return

        def decide(table: Table) -> Change | None:
            if not table.in_play:
                self._resync(table, guest, "The match is over.")
                return None
            match = table.fresh_match()
            if moment != (match.round_number, match.round.ply):
                self._resync(table, guest, "That move came too late: the match had moved on.")
                return None
            try:
                move = Move.parse(text)
                match.play(move, seat)
            except SolunaError as error:
                self._resync(table, guest, f"Move not accepted: {error}.")
                return None
            seats = tuple(replace(each, rematch=False) for each in table.seats)
            moved = {"round": moment[0], "ply": moment[1], "move": str(move)}
            return Change(match, seats, news(moved=moved), finish=EndReason.WON if match.is_over else None)

        await self._apply(table.code, decide)

    async def _next_round(self, guest: Guest, message: StartNextRound) -> None:
        opener, round_number = message.opener, message.round
        table, seat = self._seated(guest)
        if table is None:
            return

        def decide(table: Table) -> Change | None:
            match = table.fresh_match()
            if round_number != match.round_number or not match.between_rounds:
                if round_number != match.round_number - 1:  # the other player started it first: no news
                    self._resync(table, guest, "The round had already moved on.")
                return None
            chooses = match.options.next_opener is NextOpener.LOSER_CHOOSES
            try:
                match.start_next_round(opener, seat if chooses else None)
            except SolunaError as error:
                self._resync(table, guest, f"Not accepted: {error}.")
                return None
            names, number = match.players, match.round_number
            if not chooses:
                line = f"Round {number}: {names[opener]} opens."
            elif opener == seat:
                line = f"{names[seat]} chose to open round {number}."
            else:
                line = f"{names[seat]} chose to move second: {names[opener]} opens round {number}."
            notices = [line, line]
            notices[seat] = None
            return Change(match, table.seats, news(tuple(notices), line))

        await self._apply(table.code, decide)

    async def _rematch(self, guest: Guest, message: AskRematch) -> None:
        table, seat = self._seated(guest, in_play=False)
        if table is None:
            return

        def decide(table: Table) -> Change | None:
            if not table.finished:
                guest.send(ErrorReply("The match is not over."))
                return None
            opponent = table.seats[other(seat)]
            if opponent.server is None:
                guest.send(ErrorReply(f"{opponent.name} has left: no rematch this time."))
                return None
            if opponent.rematch:
                match = table.match.rematch()
                opener = match.players[match.to_move]
                line = f"Rematch: {opener} opens."
                seats = tuple(replace(each, rematch=False) for each in table.seats)
                return Change(match, seats, news((line, line), line))
            if table.seats[seat].rematch:
                return None
            notices = [None, None]
            notices[other(seat)] = f"{table.seats[seat].name} asks for a rematch: choose Rematch to play again."
            return Change(table.fresh_match(), _with_seat(table.seats, seat, rematch=True), news(tuple(notices)))

        await self._apply(table.code, decide)

    # ---- matches against the computer ----------------------------------------------------

    async def _computer_saved(self, guest: Guest, message: ComputerSaved) -> None:
        """The session's match against the computer after a change: kept in the store in case the session ends."""
        saved = SavedMatch.from_document(message.save)
        if not saved.setup.vs_computer:
            raise ProtocolError("only a match against the computer is kept this way")
        visitor = self.visitors[guest]
        if saved.match.is_over:
            await self._drop_game(visitor)
            return
        game = visitor.game
        if game is None:
            game = ComputerGame(uuid.uuid4().hex, visitor.name, guest.fingerprint, visitor.secret,
                                await self._secret_hash(guest), saved)
        game.saved = saved
        visitor.game = game
        await self.store.keep_computer_game(ComputerGameRecord(
            game.id, self.server_id, game.identity, game.fingerprint, game.secret_hash, saved_document(saved), None,
            0.0))

    async def _computer_dropped(self, guest: Guest, message: ComputerDropped) -> None:
        """The match against the computer is over or given up: nothing to keep."""
        await self._drop_game(self.visitors[guest])

    async def _drop_game(self, visitor: Visitor) -> None:
        game, visitor.game = visitor.game, None
        if game is not None:
            await self.store.drop_computer_game(game.id)

    async def _computer_resume(self, guest: Guest, message: ComputerResume) -> None:
        """The player's own game, or one held for their name (with the same key or its secret)."""
        secret = message.secret
        visitor = self.visitors[guest]
        if visitor.game is not None:
            guest.send(visitor.game.to_message())
            return
        await self._refresh_held_games()
        held = self._held_game_for(guest)
        if held is None:
            guest.send(ErrorReply("No match against the computer is kept for you any more."))
            return
        same_key = held.fingerprint is not None and held.fingerprint == guest.fingerprint
        if not same_key:
            if secret is None:
                guest.send(SecretNeeded(None))
                return
            if not self._may_try_a_code(guest):
                return
            if not await asyncio.to_thread(same_secret, secret, held.secret_hash):
                guest.send(ErrorReply("That is not the secret of that match."))
                return
            visitor.secret, visitor.secret_hash = clean_secret(secret), held.secret_hash
        if not await self.store.claim_computer_game(held.id, self.server_id):
            guest.send(ErrorReply("That match was taken up on another terminal."))
            return
        saved = SavedMatch.from_document(held.document)
        game = ComputerGame(held.id, visitor.name, guest.fingerprint, visitor.secret, await self._secret_hash(guest),
                            saved)
        visitor.game = game
        await self.store.keep_computer_game(ComputerGameRecord(
            game.id, self.server_id, game.identity, game.fingerprint, game.secret_hash, held.document, None, 0.0))
        guest.send(game.to_message())
        await self._refresh_held_games()
        self._listing_changed()

    def _held_game_for(self, guest: Guest) -> ComputerGameRecord | None:
        name = self.visitors[guest].name
        held = [game for game in self.held_games if game.identity == name]
        return held[-1] if held else None

    def _computer_offer(self, guest: Guest) -> ComputerOffer | None:
        visitor = self.visitors[guest]
        if visitor.game is not None:
            return _offer(visitor.game.saved, needs_secret=False)
        held = self._held_game_for(guest)
        if held is None:
            return None
        return computer_offer(held, needs_secret=held.fingerprint is None or held.fingerprint != guest.fingerprint)

    async def _refresh_held_games(self) -> None:
        """Read the held games again; the lobby's guests hear of any change (one may be theirs)."""
        held = await self.store.held_computer_games()
        if held != self.held_games:
            self.held_games = held
            self._listing_changed()

    # ---- applying changes through the store ----------------------------------------------------

    async def _apply(self, code: str, decide: Callable[[Table], Change | None],
                     seat_for: tuple[Guest, int] | None = None) -> Table | None:
        """Decide on the match as last read and write it at that version; if another server changed it
        first, read it again and decide again. ``seat_for`` seats a local guest once the change is stored."""
        for _ in range(RETRIES):
            table = self.tables.get(code)
            if table is None:
                return None
            async with table.lock:
                if self.tables.get(code) is not table:
                    continue
                change = decide(table)
                if change is None:
                    return None
                try:
                    stored = await self._write(table, change)
                except (VersionConflict, MatchNotFound):
                    await self._reload(code)
                    continue
                if stored is None:
                    self._vanish(code, "")
                    return None
                if seat_for is not None:
                    guest, index = seat_for
                    table.seated[index] = guest
                    self.visitors[guest].code = code
                self._install(stored)
                if change.finish is not None:
                    log.info("match %s ends (%s)", _label(table), change.finish)
                return table
        log.warning("a change to a match kept losing the race to other servers; given up")
        return None

    async def _write(self, table: Table, change: Change) -> StoredMatch | None:
        """Store ``change``; the match as it now is (``None`` when it is gone from play)."""
        document = change.match.to_dict() if change.match is not None else None
        stored = table.stored
        if change.drop:
            await self.store.drop_match(stored.code, stored.version)
            return None
        if change.finish is not None:
            keep = change.finish is not EndReason.ABANDONED
            await self.store.finish_match(stored.code, stored.version, document, change.finish, change.seats,
                                          keep=keep, news=change.news)
            if not keep:
                return None
        else:
            await self.store.update_match(stored.code, stored.version, document, change.seats, news=change.news)
        now = self.store.clock()
        return replace(stored, version=stored.version + 1, seats=change.seats, document=document, updated_at=now,
                       news=change.news)

    def _install(self, stored: StoredMatch, quiet: bool = False) -> Table:
        """Take a match as read (or just written): cache it and tell this server's guests at it."""
        table = self.tables.get(stored.code)
        fresh = table is None or table.stored.created_at != stored.created_at
        if fresh:
            previous = table
            table = Table(stored, Match.from_dict(stored.document) if stored.document is not None else None)
            if previous is not None:
                table.seated, table.spectators = previous.seated, previous.spectators
            self.tables[stored.code] = table
            self._gone.pop(stored.code, None)
            if quiet or stored.document is None:
                self._listing_changed()
                return table
            old_version = None
        else:
            if stored.version <= table.version:
                return table
            old_version = table.version
            table.stored = stored
            table.match = Match.from_dict(stored.document) if stored.document is not None else None
        self._tell_local(table, old_version)
        self._schedule_expiry(table)
        self._listing_changed()
        return table

    def _schedule_expiry(self, table: Table) -> None:
        """A forfeit on time: at the moment the first held seat runs out (any living server may apply it)."""
        timer = self._expiries.pop(table.code, None)
        if timer is not None:
            timer.cancel()
        if not table.in_play:
            return
        held = [(seat.held_until, index) for index, seat in enumerate(table.seats)
                if seat.server is None and seat.held_until is not None]
        if not held:
            return
        until, index = min(held)
        delay = max(0.0, until - self.store.clock()) + 0.01
        code = table.code
        loop = asyncio.get_running_loop()
        self._expiries[code] = loop.call_later(delay, lambda: self._background(self._expire(code, index)))

    def _background(self, work: Any) -> None:
        """Run ``work`` beside the requests (kept until done, cancelled at close); a storage failure is
        logged, and the heartbeat's sweep tries again."""
        self._tasks = [task for task in self._tasks if not task.done()]
        self._tasks.append(asyncio.get_running_loop().create_task(self._quietly(work)))

    async def _quietly(self, work: Any) -> None:
        try:
            await work
        except StorageError as error:
            log.warning("cannot apply a change now: %s", error)

    def _tell_local(self, table: Table, old_version: int | None) -> None:
        """This server's guests at ``table`` hear of its new version: the move alone when it is the very next."""
        stored = table.stored
        # Seats this server thought its guests held, now given up by the store (another server thought
        # this one dead): its guests are here, so they take them back.
        for index, guest in list(table.seated.items()):
            if index >= len(table.seats) or table.seats[index].server != self.server_id:
                if table.in_play and index < len(table.seats):
                    self._background(self._reclaim(table.code, index, guest))
        if table.match is None:
            return
        story = stored.news or {}
        moved = story.get("moved")
        for guest in table.guests:
            index = table.seat_of(guest)
            notices = story.get("seat") or [None, None]
            notice = notices[index] if index is not None and index < len(notices) else story.get("watchers")
            if moved and old_version == stored.version - 1:
                guest.send(Moved(stored.code, stored.version, moved["round"], moved["ply"], moved["move"], notice))
            else:
                guest.send(self._state(table, guest, notice))

    async def _reclaim(self, code: str, index: int, guest: Guest) -> None:
        def decide(table: Table) -> Change | None:
            if table.seated.get(index) is not guest or table.seats[index].server == self.server_id:
                return None
            seats = _with_seat(table.seats, index, server=self.server_id, held_until=None)
            return Change(table.fresh_match(), seats, news())

        await self._apply(code, decide)

    def _vanish(self, code: str, notice: str) -> None:
        """A match is gone from play (abandoned, or a waiting match cancelled): its guests go back to the lobby."""
        table = self.tables.pop(code, None)
        if table is None:
            return
        self._gone[code] = table.stored.created_at
        timer = self._expiries.pop(code, None)
        if timer is not None:
            timer.cancel()
        for guest in table.guests:
            visitor = self.visitors.get(guest)
            if visitor is not None and visitor.code == code:
                visitor.code = None
            if notice:
                guest.send(Notice(notice))
        self.watching.pop(code, None)
        self._listing_changed()

    async def _table(self, code: str) -> Table | None:
        """The match with ``code``, read from the store if this server has not heard of it yet."""
        table = self.tables.get(code)
        if table is None and CODE_PATTERN.fullmatch(code):
            await self._reload(code)
            table = self.tables.get(code)
        return table

    async def _reload(self, code: str) -> None:
        stored = await self.store.get_match(code)
        if stored is None:
            table = self.tables.get(code)
            if table is not None:
                self._vanish(code, "" if table.finished else "Both players have left: the match is abandoned.")
            return
        if self._gone.get(code) == stored.created_at:
            return
        self._install(stored)

    async def _reload_all(self) -> None:
        matches = await self.store.active_matches()
        codes = {stored.code for stored in matches}
        for code in [code for code in self.tables if code not in codes]:
            self._vanish(code, "" if self.tables[code].finished else "Both players have left: the match is abandoned.")
        for stored in matches:
            self._install(stored)
        await self._refresh_held_games()

    async def _follow(self, subscription: Any) -> None:
        """Every server's changes, as the store announces them: re-read and tell this server's guests."""
        async for change in subscription:
            try:
                if change.resync:
                    await self._reload_all()
                    continue
                table = self.tables.get(change.code)
                if table is not None and table.version >= change.version:
                    continue
                await self._reload(change.code)
            except StorageError as error:
                log.warning("cannot re-read a match after a change: %s", error)
            except Exception:  # noqa: BLE001 - one bad row must not stop the following
                log.exception("following a change failed")

    # ---- presence: which server's session sits where, and what happens when one goes ----------

    async def _heartbeat(self) -> None:
        watching = {code: count for code, count in self.watching.items() if count > 0}
        self._note_live(await self.store.heartbeat(self.server_id, watching))

    def _note_live(self, servers: list[Any]) -> None:
        now = self.store.clock()
        self.live = {server.id for server in servers if server.seen_at >= now - self.dead_after} | {self.server_id}
        self.watchers = {}
        for server in servers:
            if server.id in self.live:
                for code, count in server.watching.items():
                    self.watchers[code] = self.watchers.get(code, 0) + count

    async def _refresh_live(self) -> None:
        with contextlib.suppress(StorageError):
            self._note_live(await self.store.servers())

    def _seat_free(self, seat: SeatRecord) -> bool:
        """Nobody sits there: the player left, or their server is gone."""
        return seat.server is None or (seat.server != self.server_id and seat.server not in self.live)

    async def _keep_alive(self) -> None:
        """Say this server is alive, and hold the seats of servers that are not, forfeit seats held too long."""
        while True:
            await asyncio.sleep(self.heartbeat)
            try:
                await self._heartbeat()
                if self._storage_down:
                    self._storage_down = False
                    log.warning("the database is back: every match is re-read")
                    await self._reload_all()
                await self._sweep()
            except StorageUnavailable as error:
                if not self._storage_down:
                    self._storage_down = True
                    log.warning("the database is unavailable: %s", error)
            except Exception:  # noqa: BLE001 - the heartbeat must go on
                log.exception("the lobby's heartbeat failed")

    async def _sweep(self) -> None:
        now = self.store.clock()
        for table in list(self.tables.values()):
            gone = [index for index, seat in enumerate(table.seats)
                    if seat.server is not None and seat.server not in self.live]
            expired = [index for index, seat in enumerate(table.seats)
                       if seat.server is None and seat.held_until is not None and seat.held_until <= now]
            if gone:
                await self._hold_gone(table, gone)
            elif expired and table.in_play:
                await self._expire(table.code, expired[0])
            elif table.finished and all(seat.server is None for seat in table.seats) and not table.guests:
                with contextlib.suppress(VersionConflict, MatchNotFound):
                    await self.store.drop_match(table.code, table.version)
        await self.store.tidy_computer_games(sorted(self.live), now + self.hold_time, MAX_HELD_GAMES)
        await self.store.forget_servers(seen_before=now - 24 * 3600)
        await self._refresh_held_games()

    async def _hold_gone(self, table: Table, indexes: list[int]) -> None:
        """The sessions at these seats were on a server that has stopped answering: their seats are held."""

        def decide(table: Table) -> Change | None:
            gone = [index for index in indexes if table.seats[index].server not in self.live | {None}]
            if not gone:
                return None
            if table.waiting:
                return Change(None, table.seats, news(), drop=True)
            until = self.store.clock() + self.hold_time if table.in_play else None
            seats = table.seats
            for index in gone:
                seats = _with_seat(seats, index, server=None, held_until=until, rematch=False)
            line = "; ".join(f"{table.seats[index].name} lost the connection" for index in gone)
            if table.in_play:
                line += f": held for {minutes(self.hold_time)}, then a forfeit."
            return Change(table.fresh_match(), seats, news((line, line), line))

        await self._apply(table.code, decide)

    async def _expire(self, code: str, index: int) -> None:
        """A held seat's time is up: the opponent wins by forfeit, or nobody does when both have gone."""

        def decide(table: Table) -> Change | None:
            seat = table.seats[index]
            if not table.in_play or seat.server is not None or seat.held_until is None:
                return None
            opponent = table.seats[other(index)]
            match = table.fresh_match()
            if opponent.server is None:
                log.info("match %s abandoned by both players", _label(table))
                line = "Both players have left: the match is abandoned."
                return Change(match, table.seats, news((line, line), line), finish=EndReason.ABANDONED)
            log.info("match %s: %s forfeits", _label(table), seat.name)
            match.forfeit(index)
            line = f"{seat.name} did not come back: {opponent.name} wins by forfeit."
            seats = _with_seat(table.seats, index, held_until=None)
            return Change(match, seats, news((line, line), line), finish=EndReason.FORFEIT)

        table = self.tables.get(code)
        spectators = list(table.spectators) if table is not None else []
        result = await self._apply(code, decide)
        if result is None and code not in self.tables:  # abandoned: its watchers are told
            for guest in spectators:
                guest.send(Notice("Both players have left: the match is abandoned."))

    # ---- helpers -------------------------------------------------------------------------

    def _busy(self, guest: Guest) -> bool:
        if self.visitors[guest].code is not None:
            guest.send(ErrorReply("Leave the match you are at first (n)."))
            return True
        return False

    def _may_try_a_code(self, guest: Guest) -> bool:
        """Joining or watching by code, a few times a minute per address: codes cannot be swept."""
        if self._codes_tried.allow(client_key(guest.address)):
            return True
        guest.send(ErrorReply("Too many tries: wait a minute before trying another code."))
        return False

    def _table_of(self, guest: Guest) -> Table | None:
        visitor = self.visitors.get(guest)
        return self.tables.get(visitor.code) if visitor is not None and visitor.code is not None else None

    def _seated(self, guest: Guest, in_play: bool = True) -> tuple[Table | None, int]:
        """The match ``guest`` plays at (in play, unless told otherwise) and its seat; a reply when none."""
        table = self._table_of(guest)
        seat = table.seat_of(guest) if table is not None else None
        if table is None or seat is None or table.match is None or (in_play and not table.in_play):
            guest.send(ErrorReply("You are not playing a match in progress."))
            return None, 0
        return table, seat

    def _new_code(self) -> str:
        while True:
            code = "".join(self._codes.choice(CODE_LETTERS) for _ in range(4))
            if code not in self.tables:
                return code

    async def _secret_hash(self, guest: Guest) -> str:
        """This guest's secret, hashed once (slowly, off the event loop)."""
        visitor = self.visitors[guest]
        if visitor.secret_hash is None:
            visitor.secret_hash = await asyncio.to_thread(hash_secret, visitor.secret)
        return visitor.secret_hash

    def _away(self, seat: SeatRecord) -> float | None:
        """``None`` while the player is here; else the seconds the seat is still held (0: not held)."""
        if not self._seat_free(seat):
            return None
        if seat.held_until is None:
            return 0.0
        return max(0.0, seat.held_until - self.store.clock())

    def _state(self, table: Table, guest: Guest, notice: str | None = None) -> MatchState:
        """The whole match as ``guest`` sees it (a player's own secret included)."""
        seat = table.seat_of(guest)
        away = [self._away(each) for each in table.seats]
        return MatchState(table.code, table.version, seat, table.match.to_dict(), table.hints, (away[0], away[1]),
                          self.visitors[guest].secret if seat is not None else None, notice)

    def _resync(self, table: Table, guest: Guest, notice: str | None = None) -> None:
        """Put the server's state back on a terminal that played ahead of it or missed an update."""
        guest.send(self._state(table, guest, notice))

    async def _leave(self, guest: Guest) -> None:
        visitor = self.visitors[guest]
        code, visitor.code = visitor.code, None
        table = self.tables.get(code) if code is not None else None
        if table is None:
            return
        if guest in table.spectators:
            table.spectators.discard(guest)
            self.watching[code] = max(0, self.watching.get(code, 0) - 1)
            self._listing_changed()
            return
        index = table.seat_of(guest)
        if index is None:
            return
        del table.seated[index]

        def decide(table: Table) -> Change | None:
            seat = table.seats[index]
            if seat.server != self.server_id:
                return None
            if table.waiting:
                return Change(None, table.seats, news(), drop=True)
            if table.finished:
                line = f"{seat.name} has left."
                return Change(table.fresh_match(), _with_seat(table.seats, index, server=None, rematch=False),
                              news((line, line), line))
            seats = _with_seat(table.seats, index, server=None, held_until=self.store.clock() + self.hold_time)
            notices = [None, None]
            notices[other(index)] = (f"{seat.name} has left: the seat is held for {minutes(self.hold_time)}, "
                                     "then you win by forfeit.")
            return Change(table.fresh_match(), seats,
                          news(tuple(notices), f"{seat.name} has left: the seat is held for "
                                               f"{minutes(self.hold_time)}."))

        try:
            await self._apply(code, decide)
        except StorageUnavailable:
            # Not written: the seat stays this server's until the heartbeat stops; then it is held like any.
            log.warning("a player left match %s but the database could not be told", _label(table))
        table = self.tables.get(code)
        if table is not None and table.finished and not table.guests and all(s.server is None for s in table.seats):
            with contextlib.suppress(VersionConflict, MatchNotFound):
                await self.store.drop_match(code, table.version)

    def _listing(self, guest: Guest) -> LobbyListing:
        """The matches in play (on every server), and the match against the computer ``guest`` may resume."""
        name = self.visitors[guest].name
        watchers = self.watchers
        matches = []
        for table in self.tables.values():
            if not table.in_play:
                continue
            match = table.match
            away = [self._seat_free(seat) for seat in table.seats]
            matches.append(ListedMatch(
                table.code, match.players, match.round_number, match.stars, watchers.get(table.code, 0),
                (away[0], away[1]), any(self._seat_free(seat) and seat.identity == name for seat in table.seats)))
        return LobbyListing(tuple(matches), self._computer_offer(guest))

    def _listing_changed(self) -> None:
        """Tell the guests in the lobby what is in play, once per turn of the loop however much changed."""
        if not self._listing_due:
            self._listing_due = True
            asyncio.get_running_loop().call_soon(self._send_listing)

    def _send_listing(self) -> None:
        self._listing_due = False
        for guest, visitor in list(self.visitors.items()):
            if visitor.code is None:
                self._send_listing_to(guest)

    def _send_listing_to(self, guest: Guest, force: bool = False) -> None:
        """The listing, unless this guest has just been sent the very same."""
        visitor = self.visitors.get(guest)
        if visitor is None:
            return
        listing = self._listing(guest)
        if force or listing != visitor.last_listing:
            visitor.last_listing = listing
            guest.send(listing)


def _with_seat(seats: tuple[SeatRecord, ...], index: int, **changes: Any) -> tuple[SeatRecord, ...]:
    return tuple(replace(seat, **changes) if number == index else seat for number, seat in enumerate(seats))


def _label(table: Table) -> str:
    """How the log names a match (never by its code, which lets players back in)."""
    started = time.strftime("%H:%M:%S", time.localtime(table.stored.created_at))
    return f"({' vs '.join(seat.name for seat in table.seats)}, created {started})"


def _recent_line(finished: Any, fingerprint: str) -> RecentMatch:
    """One of a player's finished matches, from their side."""
    mine = next((index for index, seat in enumerate(finished.seats) if seat.fingerprint == fingerprint), 0)
    theirs = 1 - mine
    try:
        stars = list(Match.from_dict(finished.document).stars)
    except SolunaError:
        stars = [0, 0]
    if finished.result == EndReason.ABANDONED:
        result = SideResult.ABANDONED
    else:
        result = SideResult.WON if finished.winner == mine else SideResult.LOST
    return RecentMatch(finished.id, finished.seats[theirs].name if len(finished.seats) > 1 else "?", result,
                       finished.result == EndReason.FORFEIT, (stars[mine], stars[theirs]), finished.finished_at)


def _kind(step: Step) -> str:
    """How the log names a step: a request's wire type, or the lobby's own step."""
    return step.TYPE if isinstance(step, Request) else type(step).__name__.strip("_").lower()


def _options(document: dict[str, Any]) -> MatchOptions:
    """Match options from a request, each value checked by ``MatchOptions`` itself."""
    allowed = {"stars_to_win", "discs", "next_layout", "next_opener", "first_opener"}
    if not set(document) <= allowed:
        raise ProtocolError("unknown match options")
    try:
        return MatchOptions(**document)
    except TypeError as error:
        raise ProtocolError(f"bad match options: {error}") from None

