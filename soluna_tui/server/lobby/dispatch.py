"""Runs in the server process.

The lobby's front: guests arrive, ask and depart, and each request goes, in order, to the part
that does it.

Each guest's requests are queued and acted on one at a time (its arrival first, its departure
last), so what one player asks never overtakes what they asked before. A request that makes no
sense is one ``error`` line back; a bug on one request is logged and the guest told, and its
other requests go on; a store that is down is one line to everyone at the asker's match.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from ...link.messages import (
    AnswerTakeback,
    AskCard,
    AskFinishedMatch,
    AskLeaderboard,
    AskRecord,
    AskRematch,
    AskTakeback,
    CancelMatch,
    ChooseName,
    ComputerDropped,
    ComputerResume,
    ComputerSaved,
    CreateMatch,
    JoinMatch,
    KeepChoices,
    LeaveMatch,
    LobbyChoices,
    LobbyListing,
    MuteChat,
    Notice,
    PlayMove,
    ProtocolError,
    Question,
    ReportChat,
    Request,
    Resign,
    Say,
    StartNextRound,
    SyncMatch,
    TellPerson,
    WatchMatch,
    Welcome,
)
from ...local.files import SaveError
from ...rules import SolunaError
from ...rules.wording import minutes
from ..gate import client_key
from ..rating_model import PAIR_RATED_PER_DAY, RANKED_AFTER, RANKED_OPPONENTS
from ..storage import ComputerGameRecord, Storage, StorageError, StorageUnavailable, Subscription
from ..storage.browsers import BROWSERS
from ..storage.pairing import PAIRING
from ..storage.records import PLAYER
from ..storage.tournaments import TOURNAMENT
from .cards import Cards
from .chat import TalkRooms
from .choices import Choices
from .computer import ComputerGames
from .decisions import Referee
from .guesses import Guesses
from .listing import InPlay, Listing, in_play, listing_for
from .names import Names, welcome
from .online import key_person
from .pairing import Pairings
from .presence import HEARTBEAT, Presence
from .records import Records
from .results import ended_while_away, rating_shifts
from .roster import Roster
from .sign_ins import SignIns
from .tables import MatchCache, Table
from .talk import TalkPolicy
from .tells import Tells
from .tournament_desk import GRACE, TournamentDesk
from .two_player import TwoPlayerMatches
from .upkeep import Background, Upkeep, cancel_and_wait
from .visitors import Arrive, Asker, CodeTries, Depart, Guest, Step, Visitor, identities
from .writes import Writer

log = logging.getLogger("soluna.server")

#: Short enough to show whole in the notice lines beside the board.
CANNOT_SAVE = "Not done: the server cannot save right now. Nothing saved is lost."
#: How long closing waits for the requests already received.
CLOSE_WAIT = 5.0

Handler = Callable[[Asker, Any], Awaitable[None]]


class Lobby:
    """This server's part of the shared lobby: its guests, and a cache of every match in the store."""

    def __init__(self, store: Storage, hold_time: float, server_id: str | None = None, heartbeat: float = HEARTBEAT,
                 referee: Referee | None = None, ranked_after: int = RANKED_AFTER,
                 ranked_opponents: int = RANKED_OPPONENTS, talk: TalkPolicy | None = None, quick_match: bool = True,
                 challenges: bool = True, browser_page: Callable[[Guest], str | None] = lambda guest: None,
                 player_tournaments: bool = False, tournament_grace: float = GRACE) -> None:
        """``referee``: the match policy (by default, ``hold_time`` seconds away a match and the preset clocks;
        a referee given holds seats for its own ``hold_time``); ``ranked_after``: the rated matches a player
        has played before the leaderboard lists them, against ``ranked_opponents`` established opponents;
        ``talk``: the owner's flags for table talk (by default, on for everyone); ``quick_match`` and
        ``challenges``: whether players are paired, and challenges passed on; ``browser_page``: the web door's
        address to show a guest who may sign a browser in as themselves (``None``: not offered to them);
        ``player_tournaments``: keyed players may announce tournaments; ``tournament_grace``: the seconds a player
        paired in a tournament has to sit down."""
        self.store = store
        self.referee = referee = referee if referee is not None else Referee(hold_time)
        self.hold_time = hold_time = referee.hold_time
        self.server_id = server_id or uuid.uuid4().hex[:12]
        self.visitors: dict[Guest, Visitor] = {}
        self.presence = Presence(store, self.server_id, heartbeat)
        self.background = Background()
        self._last_in_play: InPlay | None = None
        self.listing = Listing(self.visitors, self._in_play, self._listing_for)
        self.cache = MatchCache(store, self.visitors, self.presence.moment, self)
        # Who is online on every server (their heartbeats carry it), and how many watch each match.
        self.roster = Roster(self.server_id, self.visitors, self.cache.tables, lambda: self.presence.live,
                             store.clock, self.listing.changed)
        self.presence.passengers = self.roster
        # Table talk: said here, passed to every server through the store, heard and told.
        self.talk = TalkRooms(store, talk if talk is not None else TalkPolicy(), self.visitors, self.cache.tables,
                              self.roster, background=self.background.run)
        self.writer = Writer(store, self.cache)
        code_tries, guesses = CodeTries(), Guesses(store)
        self.games = ComputerGames(store, self.presence, code_tries, self.listing.changed, guesses)
        self.matches = TwoPlayerMatches(self.writer, referee, self.presence, code_tries, self.listing, guesses)
        self.upkeep = Upkeep(self.presence, self.cache, self.writer, referee, self.games, self.background,
                             self.matches.pending)
        self.names = Names(store)
        self.choices = Choices(store)
        self.records = Records(store, ranked_after, ranked_opponents,
                               numbered=lambda fingerprint: self.roster.number_of(key_person(fingerprint)))
        # Player cards and who sits at each seat; tells, passed between servers as table talk is.
        self.cards = Cards(store, self.roster, self.records)
        self.tells = Tells(store, self.talk, self.roster, self.visitors)
        # Quick matches and challenges (the store keeps them: they meet across servers).
        self.pairing = Pairings(store, self.visitors, self.roster, self.presence, self.matches, quick_match,
                                challenges)
        # Tournaments: asked for, joined, and tended (every server; the engine decides each step once).
        self.tournaments = TournamentDesk(store, self.pairing.meeting, self.matches, self.cache,
                                          lambda: self.presence.settling, player_tournaments, tournament_grace)
        self.upkeep.tend = self.tournaments.stir
        # Browsers signed in as a keyed player: codes, and the browsers listed and signed out.
        self.sign_ins = SignIns(store, browser_page)
        self._subscription: Subscription | None = None
        #: What each step does: one handler per kind of request (and the lobby's own arrive and depart).
        self._handlers: dict[type[Step], Handler] = {
            Arrive: self._arrive, Depart: self._depart, ChooseName: self._choose_name,
            AskLeaderboard: self.records.leaderboard, AskRecord: self.records.record,
            AskFinishedMatch: self.records.finished_match, AskCard: self.cards.card, TellPerson: self.tells.tell,
            CreateMatch: self.matches.create, CancelMatch: self.matches.cancel, JoinMatch: self.matches.join,
            WatchMatch: self.matches.watch, LeaveMatch: self.matches.leave_by_choice, SyncMatch: self.matches.sync,
            PlayMove: self.matches.move, StartNextRound: self.matches.next_round, AskRematch: self.matches.rematch,
            Resign: self.matches.resign, AskTakeback: self.matches.ask_takeback,
            AnswerTakeback: self.matches.answer_takeback,
            ComputerSaved: self.games.saved, ComputerDropped: self.games.dropped, ComputerResume: self.games.resume,
            KeepChoices: self._keep_choices, **self.pairing.handlers,
            Say: self.talk.say, MuteChat: self.talk.mute, ReportChat: self._report, **self.sign_ins.handlers,
            **self.tournaments.handlers,
        }

    @property
    def tables(self) -> dict[str, Table]:
        """Every match in play (and waiting), by code, as this server last read it."""
        return self.cache.tables

    @property
    def held_games(self) -> list[ComputerGameRecord]:
        return self.games.held

    # ---- start-up and shutdown -----------------------------------------------------------

    async def start(self) -> int:
        """Give back the matches of a store no server served for a while, say this server is alive, read every
        match, and follow the store's changes; the matches in play."""
        await self.upkeep.resume()
        await self.presence.beat()
        await self._reread()
        self._subscription = self.store.subscribe()
        self.store.on_talk = self._heard_talk
        self.background.keep(self._follow(self._subscription), name="soluna-lobby-follow")
        self.background.keep(self.upkeep.keep_alive(self._reread), name="soluna-lobby-heartbeat")
        self.background.keep(self.pairing.watch(), name="soluna-lobby-pairing")
        return sum(1 for table in self.tables.values() if table.in_play)

    async def close(self) -> None:
        """Finish every guest's requests, stop following the store, and let the other servers know at once."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.settled(), CLOSE_WAIT)
        await cancel_and_wait([visitor.worker for visitor in self.visitors.values() if visitor.worker is not None])
        self.upkeep.close()
        self.roster.close()
        self.listing.close()
        self.store.on_talk = None
        await self.pairing.close()
        await self.tournaments.close()
        await self.background.close()
        if self._subscription is not None:
            self._subscription.close()
        with contextlib.suppress(StorageError):
            await self.store.servers.mark_served()  # when this server stopped: a restart gives that time back
            await self.store.servers.forget(server=self.server_id)

    async def settled(self) -> None:
        """Wait until every request received so far has been acted on (tests, shutdown)."""
        for visitor in list(self.visitors.values()):
            await visitor.queue.join()

    async def _reread(self) -> None:
        await self.cache.reload_all()
        await self.games.refresh()

    async def _follow(self, subscription: Subscription) -> None:
        """Every server's changes, as the store announces them: re-read and tell this server's guests."""
        async for change in subscription:
            try:
                if change.code is None:  # the store lost track: everything again
                    await self._reread()
                    self.pairing.stir()
                    self.tournaments.stir()
                    continue
                if change.code == PAIRING:  # seeks or challenges, on any server
                    self.pairing.stir()
                    continue
                if change.code.startswith(TOURNAMENT):  # a tournament changed, on any server
                    self.tournaments.stir()
                    continue
                if change.code == BROWSERS:  # a browser signed out: the web door's to act on
                    continue
                if change.code.startswith(PLAYER):  # a key's name or rating changed, on any server
                    await self._show_as_now(change.code.removeprefix(PLAYER))
                    continue
                await self.cache.reload_after_writes(change.code, older_than=change.version)
            except StorageError as error:
                log.warning("cannot re-read a match after a change: %s", error)
            except Exception:  # noqa: BLE001 - one bad row must not stop the following
                log.exception("following a change failed")

    # ---- guests coming and going (in order, each guest's requests one at a time) ----------

    def arrive(self, guest: Guest) -> None:
        visitor = Visitor.of(guest, self.store.clock())
        self.visitors[guest] = visitor
        visitor.worker = asyncio.get_running_loop().create_task(self._serve(guest, visitor))
        visitor.queue.put_nowait(Arrive())

    def depart(self, guest: Guest) -> None:
        """The terminal has gone: leave whatever match it was at (a seat, a game against the computer, is held)."""
        visitor = self.visitors.get(guest)
        if visitor is not None:
            visitor.queue.put_nowait(Depart())

    def way_back(self, guest: Guest) -> str | None:
        """How ``guest``'s player finds their match again once this session ends (its last line): the code and
        the secret of a seat in play (the one they sit at, or one they left for the lobby, still held for them)
        and how long it is held; the secret of a match against the computer; ``None`` when there is none."""
        visitor = self.visitors.get(guest)
        if visitor is None:
            return None
        now = self.presence.moment().now
        for table in self.tables.values():
            for index, seat in enumerate(table.seats if table.in_play else ()):
                by_secret = table.seated.get(index) is guest or (
                    visitor.secret_hash is not None and seat.secret_hash == visitor.secret_hash)
                by_key = guest.fingerprint is not None and seat.fingerprint == guest.fingerprint
                if table.seated.get(index) is guest or (seat.server is None and (by_secret or by_key)):
                    proofs = ["the same key"] * by_key + [f"your secret {visitor.secret}"] * by_secret
                    held = minutes(self.referee.time_away_left(seat, now))
                    return (f"Your seat in match {table.code} is held for {held}: connect again and join "
                            f"{table.code} with {', or '.join(proofs)}.")
        return self.games.way_back(guest, visitor)

    def handle(self, guest: Guest, message: Request) -> None:
        """Queue one request from ``guest``; anything wrong is an ``error`` message back, never a raise."""
        visitor = self.visitors.get(guest)
        if visitor is not None:
            visitor.queue.put_nowait(message)

    async def _serve(self, guest: Guest, visitor: Visitor) -> None:
        while True:
            step = await visitor.queue.get()
            asker = Asker(guest, visitor, step.ask if isinstance(step, Question) else None)
            try:
                await self._act(asker, step)
            except Exception:  # noqa: BLE001 - a bug on one request must not stop this guest's others
                log.exception("the lobby failed on a %r request", _kind(step))
                asker.refuse("Sorry: the server hit an internal error on that request.")
            finally:
                visitor.queue.task_done()
            if isinstance(step, Depart):
                self.roster.leave(guest)
                self.talk.leave(guest)
                self.tells.leave(guest)
                self.cards.leave(guest)
                self.visitors.pop(guest, None)
                return
            await self._follow_online(guest)
            await self.pairing.after_step(guest)

    async def _act(self, asker: Asker, step: Step) -> None:
        handler = self._handlers.get(type(step))
        kind = _kind(step)
        try:
            if handler is None:
                raise ProtocolError(f"no {kind!r} request is made of the server")
            await handler(asker, step)
        except (ProtocolError, SolunaError, SaveError) as error:
            log.info("request refused from %s: %s", asker.guest.address, error)
            asker.refuse("The server could not do that: the request was malformed.")
        except StorageUnavailable as error:
            log.warning("a %r request could not be saved: %s", kind, error)
            self._cannot_save(asker)

    def _heard_talk(self, payload: str) -> None:
        """Table talk or a tell, passed on by any server."""
        if not self.tells.heard(payload):
            self.talk.heard(payload)

    async def _report(self, asker: Asker, request: ReportChat) -> None:
        """A line reported: a tell shown to the asker, or a line of a room's talk."""
        if not await self.tells.report(asker, request):
            await self.talk.report(asker, request)

    def _cannot_save(self, asker: Asker) -> None:
        """The store is down: the asker (and the others at its match) hear it once, in one line."""
        table = self.cache.table_of(asker.guest)
        for guest in table.guests if table is not None else [asker.guest]:
            if guest is not asker.guest:
                guest.send(Notice(CANNOT_SAVE, "error"))
            elif table is not None and table.match is not None:
                guest.send(self.cache.state(table, guest, CANNOT_SAVE))  # what they just did is undone on screen
            elif asker.ask is not None:
                asker.refuse(CANNOT_SAVE)  # to the screen that asked
            else:
                guest.send(Notice(CANNOT_SAVE, "error"))

    # ---- arriving, departing, names ------------------------------------------------------

    async def _arrive(self, asker: Asker, step: Arrive) -> None:
        choices = rating = None
        try:
            await self.names.look_up(asker.guest, asker.visitor)
            choices = await self.choices.of(asker.guest)
            rating = await self._rating(asker.guest)
            await self.games.refresh()
        except StorageUnavailable as error:  # the lobby still works as far as it can: known by the SSH name
            log.warning("cannot look the player up: %s", error)
        await self.talk.arrive(asker.guest)  # whom they muted, before the lobby's talk is told
        asker.guest.send(self._welcome(asker, choices))
        self.listing.send_to(asker.guest, force=True)
        self.roster.enter(asker.guest, rating, hidden=choices is not None and choices.hidden)
        self.pairing.arrive(asker.guest, choices)
        try:
            ended = await ended_while_away(self.store, asker.guest, asker.visitor, self.hold_time)
        except StorageUnavailable:
            ended = None  # told another time: the store keeps the match
        if ended is not None:
            asker.guest.send(Notice(ended))
        await self.matches.back_at_table(asker)  # a keyed player's match running: straight back to their seat

    async def _depart(self, asker: Asker, step: Depart) -> None:
        await self.matches.leave(asker)
        await self.games.depart(asker.guest)
        await self.pairing.depart(asker.guest)

    async def _choose_name(self, asker: Asker, request: ChooseName) -> None:
        if await self.names.choose(asker, request):
            asker.answer(self._welcome(asker))
            self.listing.send_to(asker.guest, force=True)

    async def _keep_choices(self, asker: Asker, request: KeepChoices) -> None:
        """The lobby's settings, kept with a key; whether the player hides from the list of who is online."""
        self.roster.hide(asker.guest, request.choices.hidden)
        self.pairing.choices(asker.guest, request.choices)
        await self.choices.keep(asker, request)

    async def _rating(self, guest: Guest) -> int | None:
        """A keyed player's rating as players see it (``None``: a guest, or no rated match yet)."""
        rating = await self.store.ratings.of(guest.fingerprint) if guest.fingerprint is not None else None
        return rating.shown if rating is not None else None

    async def _follow_online(self, guest: Guest) -> None:
        """After each of a guest's steps: its line in the list of who is online made again; back from a match, with
        its rating and name read again (they may have moved meanwhile); at a match, told who sits at its seats."""
        self.talk.follow(guest)
        table = self.cache.table_of(guest)
        if table is not None and self.cards.untold(table):
            try:
                await self.cards.tell_seats(table, [guest])
            except StorageError as error:
                log.warning("cannot read the ratings of a match's players: %s", error)
        if self.roster.follow(guest) and guest.fingerprint is not None:
            try:
                await self._show_as_now(guest.fingerprint, guest)
            except StorageError as error:
                log.warning("cannot read a player's rating for the list of who is online: %s", error)

    async def _show_as_now(self, fingerprint: str, only: Guest | None = None) -> None:
        """The key ``fingerprint``'s terminals here (or ``only`` that one) as the store has its player now: its rating
        in every list (who is online, the challenges it sent), on every terminal; and the name it holds, told to each
        terminal in the lobby (one at a match keeps the name it sits under until back)."""
        guests = [guest for guest in self.visitors if guest.fingerprint == fingerprint and only in (None, guest)]
        if not guests:
            return
        known, rating = await self.store.players.get(fingerprint), await self._rating(guests[0])
        for guest in guests:
            visitor = self.visitors.get(guest)
            if visitor is None:
                continue
            self.roster.rate(guest, rating)
            if known is not None and known.name != visitor.name and visitor.code is None and visitor.computer is None:
                visitor.name, visitor.name_chosen = known.name, True
                self.roster.follow(guest)
                guest.send(self._welcome(Asker(guest, visitor)))
        self.pairing.stir()

    def _welcome(self, asker: Asker, choices: LobbyChoices | None = None) -> Welcome:
        """Who this player is, and this server's rules: time away, the clocks offered, the leaderboard's minimum;
        on arrival, the lobby's settings the player's key left."""
        return replace(welcome(asker.visitor, self.hold_time), clocks=self.referee.clocks,
                       browser_link=self.sign_ins.offered(asker.guest),
                       ranked_after=self.records.minimum, ranked_opponents=self.records.opponents,
                       pair_rated_per_day=PAIR_RATED_PER_DAY, choices=choices,
                       quick_match=self.pairing.seeks.enabled, challenges=self.pairing.book.enabled)

    # ---- what the cache's changes mean for the rest (tables.Listener) ---------------------

    def match_changed(self, table: Table) -> None:
        self.upkeep.schedule_expiry(table)
        self.listing.changed()
        for guest in table.guests:  # an opponent come, a match over: their lines in the list of who is online
            self.roster.follow(guest)
            self.talk.follow(guest)  # and the rooms they hear (a match over: its players hear its spectators)
        if self.cards.untold(table):
            self.background.run(self.cards.tell_seats(table))  # and who sits at each seat, rated how
        if table.finished:
            self.tournaments.stir()  # a tournament's match over: its result recorded
        if table.finished and not table.ratings_asked:
            table.ratings_asked = True
            self.background.run(self._tell_ratings(table))

    async def _tell_ratings(self, table: Table) -> None:
        """A match just over: what it did to each player's rating, as filed, to everyone here at it."""
        finished = await self.store.finished.latest_under(table.code)
        if finished is None or finished.started_at != table.stored.created_at:
            return
        shifts = rating_shifts(finished)
        if not shifts or self.tables.get(table.code) is not table or not table.finished:
            return
        table.ratings = shifts
        for guest in table.guests:
            guest.send(self.cache.state(table, guest))

    def match_gone(self, code: str) -> None:
        self.upkeep.cancel_expiry(code)
        self.roster.match_gone(code)
        self.talk.match_gone(code)
        self.cards.forget(code)
        self.listing.changed()

    def seat_taken_over(self, table: Table, index: int, guest: Guest) -> None:
        self.background.run(self.matches.reclaim(table.code, index, guest))

    def _in_play(self) -> InPlay:
        self._last_in_play = in_play(self.tables.values(), self.roster.watcher_counts, self.presence.moment(),
                                     self._last_in_play)
        return self._last_in_play

    def _listing_for(self, guest: Guest, visitor: Visitor, matches: InPlay) -> LobbyListing:
        return listing_for(identities(guest, visitor), guest.fingerprint, client_key(guest.address), matches,
                           self.games.offer(guest, visitor))


def _kind(step: Step) -> str:
    """How the log names a step: a request's wire type, or the lobby's own step."""
    return step.TYPE if isinstance(step, Request) else type(step).__name__.lower()
