"""Runs in the server process.

Two-player matches, as their guests ask: create one (a four-letter code), join it, watch it,
leave it, come back to a held seat with proof (the same key, or the secret the game showed), and
the moves, rounds, resignations and rematches played there.

Each request finds the asker's match and seat, then has the ``Referee`` decide on the match as
stored and the ``Writer`` store the change; everyone at the match hears it as the store has it.
A match may be created with one of the clocks the referee offers; each seat keeps the addresses
its player sat down from, for the store to tell whether the match may be rated.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from functools import partial
from typing import Any

from ...link.messages import (
    AnswerTakeback,
    AskRematch,
    AskTakeback,
    BackAtTable,
    CancelMatch,
    CreateMatch,
    JoinMatch,
    LeaveMatch,
    PlayMove,
    Resign,
    SecretNeeded,
    StartNextRound,
    SyncMatch,
    Waiting,
    WatchMatch,
)
from ...rules.clock import MatchClock
from ..gate import client_key
from ..storage import SeatRecord, StorageError, StorageUnavailable
from ..storage.secrets import SecretTry, clean_secret
from .decision_values import TOURNAMENT_TERM, Change, Decision, Newcomer, match_options
from .decisions import Referee
from .guesses import Guesses, seat_count_scope, seat_limits
from .listing import Listing
from .pending import PendingMoves
from .presence import Presence
from .results import ended_under_code
from .tables import Table, label
from .takebacks import answer_takeback, ask_takeback
from .visitors import Asker, CodeTries, Guest, identities, random_letters
from .writes import RETRIES, Writer

log = logging.getLogger("soluna.server")


class TwoPlayerMatches:
    """The requests about two-player matches (see the module's docstring): each has the ``Referee`` decide
    and the ``Writer`` store what it decided; codes tried are counted, and the lobby's listing follows."""

    def __init__(self, writer: Writer, referee: Referee, presence: Presence, code_tries: CodeTries,
                 listing: Listing, guesses: Guesses) -> None:
        self.writer, self.cache, self.store = writer, writer.cache, writer.store
        self.referee, self.presence, self.code_tries, self.listing = referee, presence, code_tries, listing
        self.guesses = guesses
        self.pending = PendingMoves(writer, referee, presence)

    # ---- where the asker is ---------------------------------------------------------------------------

    def _busy(self, asker: Asker) -> bool:
        if asker.visitor.code is not None:
            asker.refuse("Leave the match you are at first (n).")
            return True
        return False

    def _seated(self, asker: Asker, in_play: bool = True) -> tuple[Table, int] | None:
        """The match the asker plays at (in play, unless told otherwise) and its seat; refused when none."""
        table = self.cache.table_of(asker.guest)
        seat = table.seat_of(asker.guest) if table is not None else None
        if table is None or seat is None or table.match is None or (in_play and not table.in_play):
            asker.refuse("You are not playing a match in progress.")
            return None
        return table, seat

    # ---- creating, joining, watching -------------------------------------------------------------------

    async def create(self, asker: Asker, request: CreateMatch) -> None:
        await self.open(asker, request, self.referee.clock_for(request.clock))

    async def open(self, asker: Asker, request: CreateMatch, clock: MatchClock | None,
                   terms: Mapping[str, Any] | None = None) -> None:
        """A match waiting for an opponent, on ``request``'s options and ``clock`` (one the referee offers, or a
        tournament's: any its owner set), ``terms`` kept with its options (``TAKEBACKS_TERM``)."""
        if self._busy(asker):
            return
        options = match_options(request.options)
        visitor = asker.visitor
        seat = SeatRecord(visitor.name, visitor.name, asker.guest.fingerprint, request.hints,
                          await visitor.hashed_secret(), server=self.presence.server_id,
                          addresses=(client_key(asker.guest.address),))
        for _ in range(RETRIES):
            code = self._new_code()
            try:
                stored = await self.store.matches.create(code, {**options.to_dict(), **(terms or {})}, (seat,),
                                                       clock=clock.to_document() if clock is not None else None)
            except StorageUnavailable:
                raise
            except StorageError:
                continue  # a code another server has just taken: draw another
            table = self.cache.install(stored, quiet=True)
            table.seated[0] = asker.guest
            visitor.code = code
            asker.answer(Waiting(code))
            return
        asker.refuse("No free match code right now: try again.")

    def _new_code(self) -> str:
        while True:
            code = random_letters(4)
            if code not in self.cache.tables:
                return code

    async def cancel(self, asker: Asker, request: CancelMatch) -> None:
        """Stop waiting for an opponent (nothing, if the match has begun meanwhile)."""
        table = self.cache.table_of(asker.guest)
        if table is not None and table.waiting:
            await self.leave(asker)

    async def join(self, asker: Asker, request: JoinMatch) -> None:
        code = request.code.upper()
        if self._busy(asker) or not self.code_tries.allow(asker):
            return
        table = await self.cache.table_for(code, fresh=True)
        if table is None or table.finished:
            # A player back at a match that ended without them is told how it ended.
            ended = await ended_under_code(self.store, code, asker.guest, asker.visitor, self.referee.hold_time)
            asker.refuse(ended or (f"Match {code} is over." if table is not None else f"No match has the code {code}."))
        elif table.waiting:
            await self._seat_opponent(asker, table, request.hints)
        else:
            await self._take_back_seat(asker, table, request.secret)

    async def join_paired(self, asker: Asker, code: str, hints: bool) -> bool:
        """Join the waiting match ``code`` a quick match or an accepted challenge made for this player, as a join by
        code does (no code was typed: none counts as tried). Whether they sat down."""
        if self._busy(asker):
            return False
        table = await self.cache.table_for(code, fresh=True)
        if table is None or not table.waiting:
            asker.refuse("Your opponent's match has gone: its creator left it.")
            return False
        await self._seat_opponent(asker, table, hints)
        return asker.visitor.code == code

    async def _seat_opponent(self, asker: Asker, table: Table, hints: bool) -> None:
        if table.seat_of(asker.guest) is not None:
            asker.refuse("That is your own match: wait for your opponent to join it.")
            return
        creator = table.seats[0].server
        if creator is not None and creator not in self.presence.live:
            await self.presence.refresh()  # its creator's server silent a moment ago: heard again since, perhaps
        newcomer = Newcomer(asker.visitor.name, asker.guest.fingerprint, hints, await asker.visitor.hashed_secret(),
                            client_key(asker.guest.address))
        joined = await self.writer.apply(
            table.code, lambda table: self.referee.seat_opponent(table, self.presence.moment(), newcomer),
            asker, seat_at=1)
        if joined is not None:
            log.info("match %s begins", label(joined))

    async def _take_back_seat(self, asker: Asker, table: Table, secret: str | None) -> None:
        """A player back at their seat: the same key is proof enough, else the seat's secret (or this very
        session's, for a player who left with ``n`` and comes back). Whoever sat there (a connection half dead,
        the player's other terminal) is sent away."""
        await self.presence.refresh()
        candidates = self.referee.seats_to_take_back(table, identities(asker.guest, asker.visitor))
        if not candidates and secret is None:
            asker.refuse(f"Match {table.code} has two players already: choose Watch to see it.")
            return
        index = await self._proven_seat(asker, table, candidates or [0, 1], secret)
        if index is None:
            return
        replaced = table.seated.get(index)
        secret_hash = await asker.visitor.hashed_secret()
        address = client_key(asker.guest.address)
        taken = await self.writer.apply(
            table.code, lambda table: self.referee.take_back_seat(table, self.presence.moment(), index,
                                                                  secret_hash, address),
            asker, seat_at=index)
        if taken is not None and replaced is not None and replaced is not asker.guest:
            self.cache.send_away(replaced, table.code)

    async def _proven_seat(self, asker: Asker, table: Table, candidates: list[int], secret: str | None) -> int | None:
        """Which of the seats the asker proved theirs; ``None`` (and the asker told what to do) when none."""
        visitor = asker.visitor
        for candidate in candidates:
            seat = table.seats[candidate]
            if seat.fingerprint is not None and seat.fingerprint == asker.guest.fingerprint:
                return candidate
            if visitor.secret_hash is not None and seat.secret_hash == visitor.secret_hash:
                return candidate  # this very session sat there (it left with n): its own secret is proof
        if secret is None:
            asker.answer(SecretNeeded(table.code))
            return None
        # Limits first, hashes after: a guess the limits refuse costs no hashing at all.
        targets = [candidate for candidate in candidates if table.seats[candidate].secret_hash is not None]
        tried = await self.guesses.allow(asker, seat_limits(table, targets, asker))
        if tried is None:
            return None
        for candidate in targets:
            seat_hash = table.seats[candidate].secret_hash
            if seat_hash is not None and await self.guesses.matches(secret, seat_hash):
                await self.guesses.right(tried)
                # The player keeps the secret they know: this session's seats and games use it from now on.
                visitor.keep_secret(clean_secret(secret), seat_hash)
                return candidate
        await self._guessed_at(asker, table, targets, tried)
        asker.refuse("That is not the secret of your seat: it was shown in the panel beside the board while "
                     "you played.")
        return None

    async def _guessed_at(self, asker: Asker, table: Table, seats: list[int], tried: SecretTry) -> None:
        """A wrong secret was tried at ``seats``: the log says so, and the player sitting at a seat tried from an
        address not theirs is told on their screen (on whichever server they are)."""
        address = client_key(asker.guest.address)
        for index in seats:
            tries = tried.tries.get(seat_count_scope(table, index))
            if tries is None:  # tried from its own player's address: a typing slip
                log.info("a wrong secret for seat %d of match %s from its player's address", index + 1, label(table))
                continue
            log.warning("a wrong secret for seat %d of match %s from %s: %d tried at that seat lately",
                        index + 1, label(table), address, tries)
            line = f"Someone tried a wrong secret for your seat ({tries} so far): keep yours to yourself."
            await self.writer.apply(table.code, partial(self.referee.warn, index=index, line=line))

    async def watch(self, asker: Asker, request: WatchMatch) -> None:
        code = request.code.upper()
        if self._busy(asker) or not self.code_tries.allow(asker):
            return
        table = await self.cache.table_for(code, fresh=True)
        if table is None or table.waiting:
            asker.refuse(f"No match in play has the code {code}.")
            return
        table.spectators.add(asker.guest)
        asker.visitor.code = code
        tournament = table.stored.options.get(TOURNAMENT_TERM)
        about = f"A match of {tournament}. " if tournament is not None else ""
        asker.guest.send(self.cache.state(table, asker.guest, f"{about}You are watching: n returns to the lobby."))

    # ---- leaving ---------------------------------------------------------------------------------------

    async def leave_by_choice(self, asker: Asker, request: LeaveMatch) -> None:
        """Back to the lobby, from a match between players or against the computer. A terminal leaving a match it no
        longer sits at (the server seated it at its next, a tournament's pairing, as it left) leaves nothing: it is
        shown the match it is at."""
        visitor = asker.visitor
        if request.code is not None and visitor.code is not None and request.code != visitor.code:
            table = self.cache.tables.get(visitor.code)
            if table is not None:
                self.cache.show(table, asker.guest)
            return
        visitor.computer = None
        await self.leave(asker)
        self.listing.send_to(asker.guest, force=True)

    async def leave(self, asker: Asker) -> None:
        """Whatever match the asker is at is left: a spectator goes, a seat in play is held."""
        visitor = asker.visitor
        code, visitor.code = visitor.code, None
        table = self.cache.tables.get(code) if code is not None else None
        if code is None or table is None:
            return
        if asker.guest in table.spectators:
            table.spectators.discard(asker.guest)
            return
        index = table.seat_of(asker.guest)
        if index is None:
            return
        del table.seated[index]
        left_at = self.store.clock()

        def decide(table: Table) -> Decision:
            if self.presence.store_down:  # known already: not tried (a write that waited out the outage would be
                raise StorageUnavailable("the database is down")  # decided on clocks not yet given the time back)
            return self.referee.leave(table, self.presence.moment(), index)

        try:
            await self.writer.apply(code, decide)
        except StorageUnavailable:
            # Not written: remembered, and told to the store by the heartbeat's sweep once it can be written.
            self.presence.departures[(code, index)] = left_at
            self.presence.store_away(left_at)
            log.warning("a player left match %s but the database could not be told: it will be once it can",
                        label(table))
        await self.cache.drop_if_deserted(code)

    async def reclaim(self, code: str, index: int, guest: Guest) -> None:
        """This server's guest still sits where the store gave its seat up (another server thought this one
        dead): it takes the seat back."""

        def decide(table: Table) -> Decision:
            if table.seated.get(index) is not guest:
                return None
            return self.referee.reclaim(table, self.presence.moment(), index)

        await self.writer.apply(code, decide)

    # ---- at the match --------------------------------------------------------------------------------

    async def sync(self, asker: Asker, request: SyncMatch) -> None:
        """A terminal saw a gap in the versions: the whole state again (nothing if it has left that match)."""
        table = self.cache.table_of(asker.guest)
        if table is not None and table.code == request.code and table.match is not None:
            asker.guest.send(self.cache.state(table, asker.guest))

    async def move(self, asker: Asker, request: PlayMove) -> None:
        """A move, stored at once; while the store cannot take it, kept pending (``pending.py``)."""
        seated = self._seated(asker)
        if seated is None:
            return
        table, seat = seated
        made_at = self.store.clock()

        def decide(table: Table) -> Decision:
            decision = self.referee.play_move(table, seat, request, self.presence.moment())
            if isinstance(decision, Change) and self.presence.store_down:
                raise StorageUnavailable("the database is down")  # known already: not tried, kept at once
            return decision

        try:
            await self.writer.apply(table.code, decide, asker)
        except StorageUnavailable:
            self.presence.store_away(made_at)  # the heartbeat writes it once the store is back
            self.pending.keep(table, seat, request, asker, made_at)

    async def next_round(self, asker: Asker, request: StartNextRound) -> None:
        seated = self._seated(asker)
        if seated is not None:
            table, seat = seated
            await self.writer.apply(
                table.code, lambda table: self.referee.start_next_round(table, seat, request, self.presence.moment()),
                asker)

    async def rematch(self, asker: Asker, request: AskRematch) -> None:
        seated = self._seated(asker, in_play=False)
        if seated is not None:
            table, seat = seated
            await self.writer.apply(
                table.code, lambda table: self.referee.ask_rematch(table, seat, self.presence.moment()), asker)

    async def resign(self, asker: Asker, request: Resign) -> None:
        seated = self._seated(asker)
        if seated is not None:
            table, seat = seated
            await self.writer.apply(
                table.code, lambda table: self.referee.resign(table, seat, self.presence.moment()), asker)

    async def ask_takeback(self, asker: Asker, request: AskTakeback) -> None:
        """``u`` in a match between two players: the opponent is asked to take the asker's last move back."""
        seated = self._seated(asker)
        if seated is not None:
            table, seat = seated
            await self.writer.apply(
                table.code, lambda table: ask_takeback(table, seat, self.presence.moment()), asker)

    async def answer_takeback(self, asker: Asker, request: AnswerTakeback) -> None:
        """The opponent's takeback request answered: accepted (the move taken back on every screen), or declined."""
        seated = self._seated(asker)
        if seated is not None:
            table, seat = seated
            await self.writer.apply(
                table.code, lambda table: answer_takeback(table, seat, request.accept, self.presence.moment()), asker)

    # ---- coming back ---------------------------------------------------------------------------------

    async def back_at_table(self, asker: Asker) -> None:
        """A keyed player arrives while a seat of theirs is held in a match in play: they sit there again at once
        (the key is the proof), the clock as it stands, instead of in the lobby."""
        fingerprint = asker.guest.fingerprint
        if fingerprint is None or asker.visitor.code is not None:
            return
        held = next((table for table in self.cache.tables.values() if table.in_play and any(
            seat.fingerprint == fingerprint and seat.server is None for seat in table.seats)), None)
        if held is None:
            return
        asker.guest.send(BackAtTable(held.code))
        await self._take_back_seat(asker, held, None)
