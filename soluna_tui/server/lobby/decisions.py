"""Runs in the server process.

The match policy: what each request or event does to a two-player match, decided without I/O.

Every decision takes the match as read from the store (``MatchRead``), the ``Moment`` (the
store's time, this server, the servers alive then), who asks and what, and returns a
``Decision``: the ``Change`` to write (the match's next state, its seats, the ``News`` each one
at it hears, whether it ends), a refusal for the asker alone (``Refused``: one line;
``Resync``: their screen put back to the match as stored, with why), or ``None`` (nothing to do,
nothing to say). The write-and-retry loop (``writes.py``) calls a decision again on the new state
when another server changed the match first, so a decision never reads anything else.

``Referee`` holds the policy beyond the game's own rules, each rule a field of the referee and a
check in the decisions it concerns, each tested in ``tests/server/test_decisions.py``:

- time away adds up over a match: ``hold_time`` is how long, in all, a player may be away from one
  match; each absence holds the seat for what is left of it (leaving and coming back does not
  start it again), and when it is spent the seat is forfeited;
- a match may have a clock (``clocks``: the settings offered), kept with the match
  (``clocks.MatchClock``); a player whose clock runs out loses on time;
- time nobody could play counts against no clock and nobody's time away: a match every server was
  down for, or played on while the database was away, is given back as it was (``resume``), however
  long that was; the seats of a server that died are held from when another notices, its player's
  running clock charged nothing since its last heartbeat (``hold_gone``); a move the database could
  not take at once is kept however long, and decided as of when it was made (``play_waited_move``);
- past ``adjourn_after`` (a day) of such time, a match is adjourned instead (``adjourn``): kept with its clocks
  stopped where they stood and no seat held, so nobody loses on time or by forfeit, until both players are
  here again, on any server (``go_on``);
- a player may resign: the opponent wins (rated as a forfeit would be);
- a forfeit, a loss on time or a resignation before real play (both players have moved, ``real_play``)
  aborts the match instead: nobody wins, nothing is rated. The store rates only keyed players who never
  sat down from one address (each seat keeps its ``addresses`` while in play), once a round was decided
  on the board (``server/rating_model.py`` has every rule of what is rated).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace

from ...link.messages import PlayMove, StartNextRound
from ...link.safe_names import skeleton
from ...local.match_setup import NAME_LIMIT
from ...rules import Match, NextOpener, SolunaError, parse_move_record
from ...rules.clock import PRESETS, ClockSetting, MatchClock, clock_turn
from ...rules.end_reason import EndReason, real_play
from ...rules.round import other
from ...rules.wording import minutes
from ..config import ADJOURN_AFTER
from ..storage import SeatRecord
from .decision_values import (
    TOURNAMENT_TERM,
    BadOptions,
    Change,
    Decision,
    Keep,
    MatchRead,
    Moment,
    Newcomer,
    Refused,
    Resync,
    away_used,
    match_options,
    seen_from,
    with_seat,
)
from .news import MovePlayed, News
from .takebacks import lapsed_by_move

#: Why a waiting match cannot be joined while its creator's server is silent (see ``Referee.hold_gone``).
CREATOR_SILENT = "The server of the player waiting there is not answering: try again in a moment."
#: Seconds without a server that are given back to the matches in play (``Referee.resume``); less is no matter.
RESUME_GAP = 1.0


@dataclass(frozen=True)
class Referee:
    """Decides every change to a two-player match (see the module's docstring); ``hold_time`` is how long, in
    seconds and in all over a match, a player may be away before the opponent wins by forfeit; ``clocks`` are
    the clocks a match may be created with."""

    hold_time: float
    clocks: tuple[ClockSetting, ...] = PRESETS
    #: Seconds nobody could play past which a match is adjourned (``ADJOURN_AFTER``; tests shorten it).
    adjourn_after: float = ADJOURN_AFTER

    def time_away_left(self, seat: SeatRecord, now: float) -> float:
        """Seconds the player at ``seat`` may still be away from the match: how long their seat is held if they
        leave now (or, away already, is still held)."""
        return max(0.0, self.hold_time - away_used(seat, now))

    def clock_for(self, setting: ClockSetting | None) -> MatchClock | None:
        """A new match's clock (``None``: no clock); ``BadOptions`` for a clock this server does not offer."""
        if setting is None:
            return None
        if setting not in self.clocks:
            raise BadOptions(f"a clock this server does not offer ({setting.label})")
        return MatchClock.fresh(setting)

    # ---- seats: joining, leaving, coming back --------------------------------------------------------

    def seat_opponent(self, read: MatchRead, moment: Moment, newcomer: Newcomer) -> Decision:
        """The second player sits down and the match begins (a name that looks like the creator's gets a " 2");
        the opener's clock starts, if it has one."""
        if not read.waiting:
            return Refused(f"Someone else joined match {read.code} first.")
        creator = read.seats[0]
        if creator.server is not None and creator.server not in moment.live:
            return Refused(CREATOR_SILENT)  # the match would begin with its creator's seat held at once
        name = newcomer.name
        if skeleton(name) == skeleton(creator.name):
            name = f"{name[:NAME_LIMIT - 2]} 2"
        seat = SeatRecord(name, newcomer.name, newcomer.fingerprint, newcomer.hints, newcomer.secret_hash,
                          server=moment.server, addresses=(newcomer.address,) if newcomer.address else ())
        match = Match(match_options(read.stored.options), (creator.name, name))
        clock = read.clock.run(clock_turn(match), moment.now) if read.clock is not None else None
        return Change(match, (creator, seat), News.to_seat(0, f"{name} has joined: the match begins."), clock=clock)

    def seats_to_take_back(self, read: MatchRead, identities: Collection[str]) -> list[int]:
        """The seats of a match in play that a player known by one of ``identities`` may prove are theirs:
        free ones (they left), and taken ones too (a connection half dead that the server has not noticed yet,
        or the same player on another terminal): proof takes a seat back at once."""
        if not read.in_play:
            return []
        return [index for index, seat in enumerate(read.seats) if seat.identity in identities]

    def take_back_seat(self, read: MatchRead, moment: Moment, index: int, secret_hash: str,
                       address: str | None = None) -> Decision:
        """A player who proved the seat theirs (key or secret) sits there again, from ``address``, whoever sat
        there (the session there is theirs, and is closed); ``secret_hash`` is the secret that lets them back in
        from now on. Their time away is added up."""
        seat = read.seats[index]
        if not read.in_play:
            return Refused(f"Match {read.code} is over.")
        used = min(self.hold_time, away_used(seat, moment.now))
        seats = with_seat(read.seats, index, server=moment.server, held_until=None, secret_hash=secret_hash,
                          away_used=used, away_since=None, addresses=seen_from(seat, address))
        back = f"{seat.name} is back." if moment.seat_free(seat) else f"{seat.name} reconnected."
        lines = [back, back]
        lines[index] = "Welcome back." + (f" Time away left in this match: {minutes(self.hold_time - used)}."
                                          if used >= 1 else "")
        if read.adjourned:
            lines[index] = "Welcome back: the match is adjourned until both players are here."
        return Change(read.fresh_match(), seats, News((lines[0], lines[1]), back))

    def leave(self, read: MatchRead, moment: Moment, index: int, at: float | None = None) -> Decision:
        """The player at ``index`` left (on this server; at ``at``, the store's time, when that was earlier than
        now): a waiting match goes, a finished one lets them go, a match in play holds their seat for what is
        left of their time away (none left: the opponent wins by forfeit)."""
        seat = read.seats[index]
        if seat.server != moment.server:
            return None
        if read.waiting:
            return Change(None, read.seats, drop=True)
        if read.finished:
            line = f"{seat.name} has left."
            return Change(read.fresh_match(), with_seat(read.seats, index, server=None, rematch=False),
                          News.to_all(line))
        if read.adjourned:
            return self._away_while_adjourned(read, [index], f"{seat.name} has left")
        left_at = moment.now if at is None else min(at, moment.now)
        seats, held = self._hold(read.seats, index, left_at)
        if left_at + held <= moment.now:
            return self._out_of_time_away(read, moment, seats, index,
                                          f"{seat.name} has left with no time away left")
        held -= moment.now - left_at  # written late (the database was away): held from when they left
        what = f"held for {minutes(held)}" + ("" if held >= self.hold_time else ", what is left of their time away")
        return Change(read.fresh_match(), seats,
                      News.to_seat(other(index), f"{seat.name} has left: the seat is {what}, then you win by forfeit.",
                                   watchers=f"{seat.name} has left: the seat is {what}."))

    def _hold(self, seats: tuple[SeatRecord, ...], index: int, at: float) -> tuple[tuple[SeatRecord, ...], float]:
        """The seats with ``index`` held from ``at`` for what is left of its player's time away, and that time."""
        seat = seats[index]
        held = max(0.0, self.hold_time - seat.away_used)
        return with_seat(seats, index, server=None, held_until=at + held, away_since=at, rematch=False), held

    def reclaim(self, read: MatchRead, moment: Moment, index: int) -> Decision:
        """This server's guest still sits at a seat another server held for it (thinking this one dead): the
        player never left, so no time away is counted; a seat its player has taken back on another server since
        is theirs there."""
        if read.seats[index].server is not None:  # still this server's, or taken back elsewhere with proof
            return None
        seats = with_seat(read.seats, index, server=moment.server, held_until=None, away_since=None)
        back = f"{read.seats[index].name} is back."  # every screen told the seat was held hears it is not
        lines: list[str | None] = [back, back]
        lines[index] = None
        return Change(read.fresh_match(), seats, News((lines[0], lines[1]), back))

    def warn(self, read: MatchRead, index: int, line: str) -> Decision:
        """A line for the player at ``index`` alone, while they sit at a match in play (a stranger tried a
        wrong secret for their seat); nothing when nobody sits there."""
        if not read.in_play or read.seats[index].server is None:
            return None
        return Change(read.fresh_match(), read.seats, News.to_seat(index, line))

    # ---- presence: servers gone, held seats run out -------------------------------------------------

    def hold_gone(self, read: MatchRead, moment: Moment, indexes: list[int],
                  last_heard: Mapping[str, float] | None = None) -> Decision:
        """The sessions at these seats were on a server that has stopped answering: their seats are held from now
        for what is left of their time away. A running clock of such a seat is charged nothing from that server's
        last heartbeat (``last_heard``) until now: its player could not move. A waiting match goes once its
        creator's server has been silent for as long as a seat is held (at once if it was never heard): a server
        only slow for a moment still has its player waiting there. Nobody may join it meanwhile
        (``seat_opponent``): a joiner would wait out the hold of a seat whose server may be gone for good."""
        gone = [index for index in indexes
                if (server := read.seats[index].server) is not None and server not in moment.live]
        if not gone:
            return None
        if read.waiting:
            heard = (last_heard or {}).get(read.seats[0].server or "")
            if heard is not None and moment.now < heard + self.hold_time:
                return None
            return Change(None, read.seats, drop=True)
        line = "; ".join(f"{read.seats[index].name} lost the connection" for index in gone)
        if not read.in_play:
            seats = read.seats
            for index in gone:
                seats = with_seat(seats, index, server=None, held_until=None, rematch=False)
            return Change(read.fresh_match(), seats, News.to_all(line))
        if read.adjourned:
            return self._away_while_adjourned(read, gone, line)
        seats, held = read.seats, []
        for index in gone:
            seats, time_held = self._hold(seats, index, moment.now)
            held.append(time_held)
        if min(held) <= 0:
            return self._out_of_time_away(read, moment, seats, gone[held.index(min(held))], line)
        if max(held) - min(held) < 1:
            line += f": held for {minutes(min(held))}, then a forfeit."
        else:
            line = "; ".join(f"{read.seats[index].name} lost the connection (held for {minutes(time_held)})"
                             for index, time_held in zip(gone, held, strict=True)) + ": then a forfeit."
        clock: MatchClock | None | Keep = Keep.CLOCK
        running = read.clock.running if read.clock is not None else None
        if read.clock is not None and running in gone and last_heard is not None:
            heard = last_heard.get(read.seats[running].server or "")
            clock = read.clock.credited(heard, moment.now) if heard is not None else Keep.CLOCK
        return Change(read.fresh_match(), seats, News.to_all(line), clock=clock)

    def resume(self, read: MatchRead, moment: Moment, since: float, down: str = "The server was down",
               changed_after: float | None = None) -> Decision:
        """Nobody could play from ``since`` until now (every server stopped, or the store was away: ``down`` says
        which to the players): the match is given back as it was then. Its clock runs on from now as it stood, and
        a held seat is held from now for what was left of its player's time away; past ``adjourn_after``, it is
        adjourned instead (``adjourn``). A match changed after ``changed_after`` (``since`` unless given) was given
        back already (by another server), or had a move kept meanwhile written (decided as of then); an adjourned
        match waits for its players. A store found away gives ``changed_after`` as when the try failed: a write can
        land while that try still waits, after ``since`` but before the outage."""
        gap = moment.now - since
        changed_since = since if changed_after is None else changed_after
        if not read.in_play or read.adjourned or read.stored.updated_at > changed_since or gap < RESUME_GAP:
            return None
        if gap >= self.adjourn_after:
            return self.adjourn(read.fresh_match(), read.seats, read.clock, moment, since,
                                News.to_all(f"{down} for {a_long_while(gap)}: {ADJOURNED}"))
        seats = tuple(replace(seat, held_until=seat.held_until + gap,
                              away_since=None if seat.away_since is None else seat.away_since + gap)
                      if seat.server is None and seat.held_until is not None else seat for seat in read.seats)
        clock = read.clock.credited(since, moment.now) if read.clock is not None else None
        line = f"{down} for {minutes(gap)}: no clock ran and no time away counted."
        return Change(read.fresh_match(), seats, News.to_all(line), clock=clock)

    def adjourn(self, match: Match, seats: tuple[SeatRecord, ...], clock: MatchClock | None, moment: Moment,
                since: float, news: News) -> Change:
        """Nobody could play ``match`` from ``since`` until now, longer than ``adjourn_after``: it is adjourned, told
        in ``news``. Its clocks stand where they stood at ``since`` and no seat is held (a player away is away on
        nobody's time), so nobody loses on time or by forfeit; it goes on once both players are here (``go_on``)."""
        kept = tuple(replace(seat, server=None, held_until=None, away_since=None, rematch=False,
                             away_used=min(self.hold_time, away_used(seat, since)))
                     if moment.seat_free(seat) else seat for seat in seats)
        stopped = clock.run(None, since) if clock is not None else None
        return Change(match, kept, news, clock=stopped, adjourned_at=moment.now)

    @staticmethod
    def go_on(read: MatchRead, moment: Moment) -> Decision:
        """Both players of an adjourned match are here (on any server): it goes on, the clock of the player to move
        running from now as it stood."""
        if not read.adjourned or any(moment.seat_free(seat) for seat in read.seats):
            return None
        match = read.fresh_match()
        turn = clock_turn(match)
        clock = read.clock.run(turn, moment.now) if read.clock is not None else None
        whose = f": {read.seats[turn].name}'s clock runs" if clock is not None and turn is not None else ""
        return Change(match, read.seats, News.to_all(f"Both players are here: the adjourned match goes on{whose}."),
                      clock=clock, adjourned_at=None)

    @staticmethod
    def _waits_for_both(read: MatchRead, moment: Moment) -> bool:
        """Adjourned, and a player is not here: nothing is played (``go_on`` says when it goes on)."""
        return read.adjourned and any(moment.seat_free(seat) for seat in read.seats)

    @staticmethod
    def _away_while_adjourned(read: MatchRead, indexes: list[int], why: str) -> Change:
        """The players at ``indexes`` went while the match is adjourned: their seats wait for them, held for nobody's
        time."""
        seats = read.seats
        for index in indexes:
            seats = with_seat(seats, index, server=None, held_until=None, away_since=None, rematch=False)
        return Change(read.fresh_match(), seats, News.to_all(f"{why}: the match stays adjourned until both players "
                                                             "are here."))

    def expire(self, read: MatchRead, moment: Moment, index: int) -> Decision:
        """A held seat's time is up: the opponent wins by forfeit (the match is aborted before real play), or
        nobody does when both have gone."""
        seat = read.seats[index]
        if not read.in_play or seat.server is not None or seat.held_until is None:
            return None
        return self._out_of_time_away(read, moment, read.seats, index, f"{seat.name} did not come back")

    def _out_of_time_away(self, read: MatchRead, moment: Moment, seats: tuple[SeatRecord, ...], index: int,
                          why: str) -> Change:
        """The player at ``index`` has spent their time away (``why`` says how): the opponent wins by forfeit;
        before real play the match is aborted; when the opponent has gone too, it is abandoned."""
        opponent = seats[other(index)]
        match = read.fresh_match()
        clock = read.clock.run(None, moment.now) if read.clock is not None else None
        if opponent.server is None:
            return Change(match, seats, News.to_all(ABANDONED), finish=EndReason.ABANDONED, clock=clock)
        if not real_play(match):
            return self._aborted(match, seats, clock, why)
        match.forfeit(index)
        line = f"{why}: {opponent.name} wins by forfeit."
        return Change(match, with_seat(seats, index, held_until=None), News.to_all(line), finish=EndReason.FORFEIT,
                      clock=clock)

    @staticmethod
    def _aborted(match: Match, seats: tuple[SeatRecord, ...], clock: MatchClock | None, why: str) -> Change:
        line = f"{why} before both players had moved: the match is aborted, and not rated."
        return Change(match, seats, News.to_all(line), finish=EndReason.ABORTED, clock=clock)

    def flag(self, read: MatchRead, moment: Moment) -> Decision:
        """The running clock has run out: its player loses on time (before real play, the match is aborted)."""
        clock = read.clock
        seat = clock.flagged(moment.now) if clock is not None and read.in_play else None
        if clock is None or seat is None:
            return None
        stopped = clock.ran_out(seat, moment.now)
        match = read.fresh_match()
        name, opponent = read.seats[seat].name, read.seats[other(seat)].name
        if not real_play(match):
            return self._aborted(match, read.seats, stopped, f"{name}'s time ran out")
        match.forfeit(seat)
        return Change(match, with_seat(read.seats, seat, held_until=None),
                      News.to_all(f"{name}'s time ran out: {opponent} wins on time."), finish=EndReason.TIME,
                      clock=stopped)

    def due(self, read: MatchRead, moment: Moment) -> Decision:
        """Whatever has come due in a match in play: a clock run out, else a held seat whose time is up."""
        if not read.in_play:
            return None
        flagged = self.flag(read, moment)
        if flagged is not None:
            return flagged
        expired = [index for index, seat in enumerate(read.seats)
                   if seat.server is None and seat.held_until is not None and seat.held_until <= moment.now]
        return self.expire(read, moment, expired[0]) if expired else None

    @staticmethod
    def next_due(read: MatchRead) -> float | None:
        """The store's time something next comes due in a match in play (``due``), if anything will."""
        if not read.in_play:
            return None
        times = [seat.held_until for seat in read.seats if seat.server is None and seat.held_until is not None]
        if read.clock is not None and (runs_out := read.clock.runs_out_at()) is not None:
            times.append(runs_out)
        return min(times) if times else None

    # ---- play ---------------------------------------------------------------------------------------

    def play_move(self, read: MatchRead, seat: int, request: PlayMove, moment: Moment) -> Decision:
        """A move by the player at ``seat``, at the moment they saw (a late one is refused; one after their clock
        ran out loses on time); their clock stops, gains the increment, and the opponent's runs. An adjourned match
        takes none until both players are here (the opponent's clock would run while they are away); with both
        here, the move ends the adjournment."""
        if self._waits_for_both(read, moment):
            return Resync(STILL_ADJOURNED)
        return self._play_move(read, seat, request, moment)

    def _play_move(self, read: MatchRead, seat: int, request: PlayMove, moment: Moment) -> Decision:
        if not read.in_play:
            return Resync("The match is over.")
        flagged = self.flag(read, moment)
        if flagged is not None:
            return flagged
        match = read.fresh_match()
        if (request.round, request.ply) != (match.round_number, match.round.ply):
            return Resync("That move came too late: the match had moved on.")
        try:
            match.play(parse_move_record(request.move), seat)
        except SolunaError as error:
            return Resync(f"Move not accepted: {error}.")
        # The move as the match keeps it, with its places: every screen puts the towers where the mover did.
        placed = match.round.placed_moves[-1]
        seats, lapsed = lapsed_by_move(tuple(replace(each, rematch=False) for each in read.seats), seat)
        lines: list[str | None] = [None, None]
        lines[other(seat)] = lapsed  # a takeback the opponent asked for lapses, and they are told
        clock = read.clock.after_move(seat, moment.now, clock_turn(match)) if read.clock is not None else None
        news = News((lines[0], lines[1]), moved=MovePlayed(request.round, request.ply, str(placed)))
        return Change(match, seats, news,
                      finish=EndReason.WON if match.is_over else None, clock=clock,
                      adjourned_at=None if read.adjourned else Keep.ADJOURNMENT)

    def play_waited_move(self, read: MatchRead, seat: int, request: PlayMove, moment: Moment,
                         made_at: float) -> Decision:
        """A move the store could not take when it was made (at ``made_at``: the moment the clocks stopped, when the
        store was found away before), now that it can, however long that took: decided as of then, so the mover's
        clock is charged until then and the opponent's runs from now; the wait counts against no clock. Every
        player hears what became of it in one line (a refused one puts the mover's screen back)."""
        name = read.seats[seat].name
        decided = self._play_move(read, seat, request, replace(moment, now=made_at))
        if isinstance(decided, Change) and decided.news.moved is not None:
            gap = moment.now - made_at
            # Past a day, or adjourned already by another server that was back first: saved into the adjournment.
            if (gap >= self.adjourn_after or read.adjourned) and decided.finish is None and decided.match is not None:
                lines = [f"{name}'s move is saved"] * 2
                lines[seat] = "Your move is saved"
                told = [f"{line}, but the database was away for {a_long_while(gap)}: {ADJOURNED}" for line in lines]
                clock = decided.clock if isinstance(decided.clock, MatchClock) else None
                return self.adjourn(decided.match, decided.seats, clock, moment, made_at,
                                    News((told[0], told[1]), told[1 - seat], decided.news.moved))
            clock = decided.clock.credited(made_at, moment.now) if isinstance(decided.clock, MatchClock) else None
            lines = [f"{name}'s move waited for the database: it is saved now."] * 2
            lines[seat] = "Your move is saved: the database is back."
            return replace(decided, clock=clock, news=News((lines[0], lines[1]), lines[1 - seat],
                                                           decided.news.moved))
        if isinstance(decided, Change):  # their time had run out before they moved
            return decided
        why = "the match had moved on"
        if not read.in_play:
            return Resync(f"Your move was not saved: {why}.")
        lines = [f"{name}'s move was not saved: {why}."] * 2
        lines[seat] = f"Your move was not saved: {why}."
        clock = read.clock.credited(made_at, moment.now) if read.clock is not None else None
        return Change(read.fresh_match(), read.seats, News((lines[0], lines[1]), lines[1 - seat]), clock=clock)

    def start_next_round(self, read: MatchRead, seat: int, request: StartNextRound, moment: Moment) -> Decision:
        """The next round, opened by the loser's choice or the rules'; a late duplicate says nothing. The clock
        that runs goes from the loser's (choosing) to the opener's (not while an adjourned match waits for a player,
        as ``play_move``)."""
        if self._waits_for_both(read, moment):
            return Resync(STILL_ADJOURNED)
        flagged = self.flag(read, moment)
        if flagged is not None:
            return flagged
        match = read.fresh_match()
        if request.round != match.round_number or not match.between_rounds:
            if request.round == match.round_number - 1:  # the other player started it first: no news
                return None
            return Resync("The round had already moved on.")
        chooses = match.options.next_opener is NextOpener.LOSER_CHOOSES
        opener = request.opener
        try:
            match.start_next_round(opener, seat if chooses else None)
        except SolunaError as error:
            return Resync(f"Not accepted: {error}.")
        names, number = match.players, match.round_number
        if not chooses:
            line = f"Round {number}: {names[opener]} opens."
        elif opener == seat:
            line = f"{names[seat]} chose to open round {number}."
        else:
            line = f"{names[seat]} chose to move second: {names[opener]} opens round {number}."
        clock = read.clock.run(clock_turn(match), moment.now) if read.clock is not None else None
        return Change(match, read.seats, News.to_seat(other(seat), line, watchers=line), clock=clock,
                      adjourned_at=None if read.adjourned else Keep.ADJOURNMENT)

    def resign(self, read: MatchRead, seat: int, moment: Moment) -> Decision:
        """The player at ``seat`` gives the match up: the opponent wins it, rated as a forfeit is (before real play,
        the match is aborted); the clock stops. A clock already run out loses on time first."""
        if not read.in_play:
            return Refused("The match is over already.")
        flagged = self.flag(read, moment)
        if flagged is not None:
            return flagged
        match = read.fresh_match()
        clock = read.clock.run(None, moment.now) if read.clock is not None else None
        name, opponent = read.seats[seat].name, read.seats[other(seat)].name
        if not real_play(match):
            return self._aborted(match, read.seats, clock, f"{name} resigned")
        match.forfeit(seat)
        return Change(match, with_seat(read.seats, seat, resigned=True),
                      News.to_all(f"{name} resigned: {opponent} wins the match."), finish=EndReason.RESIGNED,
                      clock=clock)

    def ask_rematch(self, read: MatchRead, seat: int, moment: Moment) -> Decision:
        """A rematch starts once both players have asked; the first to ask is told it waits for the other, the
        second that the other had asked already. The rematch starts with a fresh clock and each player's whole
        time away."""
        if read.match is None or not read.finished:
            return Refused("The match is not over.")
        if read.ended is EndReason.FORFEIT:
            return Refused("No rematch after a forfeit.")
        if read.stored.options.get(TOURNAMENT_TERM) is not None:
            return Refused("No rematch in a tournament: your next pairing seats you by itself.")
        asker, opponent = read.seats[seat].name, read.seats[other(seat)]
        if opponent.server is None:
            return Refused(f"{opponent.name} has left: no rematch this time.")
        if opponent.rematch:
            match = read.match.rematch()
            begins = f"the rematch begins: {match.players[match.to_move]} opens."
            lines = [f"{asker} agreed: {begins}"] * 2
            lines[seat] = f"{opponent.name} had asked already: {begins}"
            seats = tuple(replace(each, rematch=False, away_used=0.0, away_since=None, resigned=False, takebacks=0)
                          for each in read.seats)
            clock = (MatchClock.fresh(read.clock.setting).run(clock_turn(match), moment.now)
                     if read.clock is not None else None)
            return Change(match, seats, News((lines[0], lines[1]), f"Rematch: {match.players[match.to_move]} opens."),
                          clock=clock)
        if read.seats[seat].rematch:
            return None
        lines = [f"{asker} asks for a rematch: press r to play again."] * 2
        lines[seat] = f"Rematch asked: it starts when {opponent.name} asks too."
        return Change(read.fresh_match(), with_seat(read.seats, seat, rematch=True), News((lines[0], lines[1])))


#: What the players at a match are told of the time the database was away (``Referee.resume``).
DATABASE_AWAY = "The database was away"
#: What the players at a match adjourned are told, after how long nobody could play (``Referee.adjourn``).
ADJOURNED = "the match is adjourned, its clocks stopped where they stood, until both players are here."
#: What a player who moves in an adjourned match while the other is away is told (the move is taken back).
STILL_ADJOURNED = "The match is adjourned: it goes on once both players are here."


def a_long_while(seconds: float) -> str:
    """A time nobody could play, as players read it: ``25 hours`` from two hours up, else as ``minutes`` says it."""
    return f"{seconds / 3600:.0f} hours" if seconds >= 2 * 3600 else minutes(seconds)
#: What everyone at a match both players left (and did not come back to) is told.
ABANDONED = "Both players have left: the match is abandoned."
#: What a server tells its guests of a match another server aborted (that server's guests hear why).
ABORTED = "The match was aborted before both players had moved: it is not rated."
