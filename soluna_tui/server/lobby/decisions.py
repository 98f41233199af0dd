"""Runs in the server process.

The match policy: what each request or event does to a two-player match, decided without I/O.

Every decision takes the match as read from the store (``MatchRead``), the ``Moment`` (the
store's time, this server, the servers alive then), who asks and what, and returns a
``Decision``: the ``Change`` to write (the match's next state, its seats, the ``News`` each one
at it hears, whether it ends), a refusal for the asker alone (``Refused``: one line;
``Resync``: their screen put back to the match as stored, with why), or ``None`` (nothing to do,
nothing to say). The write-and-retry loop (``writes.py``) calls a decision again on the new state
when another server changed the match first, so a decision never reads anything else.

``Referee`` holds the policy beyond the game's own rules: how long a seat is held for a player
who has gone. Rules to come (clocks, anti-stalling, anti-farming) are a field of the referee and
a check in the decisions they concern, each tested in ``tests/server/test_decisions.py``.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any

from ...link.end_reason import EndReason
from ...link.messages import PlayMove, StartNextRound
from ...link.names import skeleton
from ...match_setup import NAME_LIMIT
from ...play.wording import minutes
from ...rules import Match, MatchOptions, Move, NextOpener, SolunaError
from ...rules.round import other
from ..storage import SeatRecord, StoredMatch
from .news import NO_NEWS, MovePlayed, News


class MatchRead:
    """A match as read from the store: its record and, once both players sit, the match itself (a decision
    never changes it: it plays on ``fresh_match()``)."""

    def __init__(self, stored: StoredMatch) -> None:
        self.take(stored)

    def take(self, stored: StoredMatch) -> None:
        """The match as now read."""
        self.stored = stored
        self.code, self.version, self.seats = stored.code, stored.version, stored.seats
        self.match = Match.from_dict(stored.document) if stored.document is not None else None

    @property
    def waiting(self) -> bool:
        """Created, and waiting for its second player."""
        return self.match is None

    @property
    def finished(self) -> bool:
        return self.match is not None and self.match.is_over

    @property
    def in_play(self) -> bool:
        return self.match is not None and not self.match.is_over

    @property
    def hints(self) -> bool:
        """Perfect-play help, only where both players allowed it."""
        return len(self.seats) == 2 and all(seat.hints for seat in self.seats)

    def fresh_match(self) -> Match:
        """A copy of the match to decide a change on (the one read stays as stored)."""
        if self.stored.document is None:
            raise SolunaError("the match has not begun")
        return Match.from_dict(self.stored.document)


@dataclass(frozen=True)
class Moment:
    """When a decision is taken: the store's time, this server, and the servers alive then."""

    now: float
    server: str
    live: frozenset[str]

    def seat_free(self, seat: SeatRecord) -> bool:
        """Nobody sits there: the player left, or their server is gone."""
        return seat.server is None or (seat.server != self.server and seat.server not in self.live)

    def away(self, seat: SeatRecord) -> float | None:
        """``None`` while the player is here; else the seconds the seat is still held (0: not held)."""
        if not self.seat_free(seat):
            return None
        if seat.held_until is None:
            return 0.0
        return max(0.0, seat.held_until - self.now)


@dataclass(frozen=True)
class Change:
    """A match's next state: the match (``None`` while waiting), its seats, and what each one at it hears.

    ``finish``: ``WON``/``FORFEIT`` file it and keep it on screen, ``ABANDONED`` files it and lets it go;
    ``drop``: it goes from play unfiled (a waiting match whose creator left)."""

    match: Match | None
    seats: tuple[SeatRecord, ...]
    news: News = NO_NEWS
    finish: EndReason | None = None
    drop: bool = False


@dataclass(frozen=True)
class Refused:
    """Not done: the asker is told why, in one line."""

    text: str


@dataclass(frozen=True)
class Resync:
    """Not done: the asker's screen (which played ahead) is put back to the match as stored, with why."""

    notice: str


Decision = Change | Refused | Resync | None


@dataclass(frozen=True)
class Newcomer:
    """A player taking the free seat of a waiting match: the name they are known by, their key, hints allowed,
    and the hash of the secret that will let them back in."""

    name: str
    fingerprint: str | None
    hints: bool
    secret_hash: str


def with_seat(seats: tuple[SeatRecord, ...], index: int, **changes: Any) -> tuple[SeatRecord, ...]:
    """The seats with seat ``index`` changed."""
    return tuple(replace(seat, **changes) if number == index else seat for number, seat in enumerate(seats))


class BadOptions(SolunaError):
    """Match options that are not options of this game."""


def match_options(document: dict[str, Any]) -> MatchOptions:
    """Match options from a request or the store, each value checked by ``MatchOptions`` itself
    (``OptionError``, a ``SolunaError``, when one is wrong)."""
    allowed = {"stars_to_win", "discs", "next_layout", "next_opener", "first_opener"}
    if not set(document) <= allowed:
        raise BadOptions("unknown match options")
    try:
        return MatchOptions(**document)
    except TypeError as error:
        raise BadOptions(f"bad match options: {error}") from None


@dataclass(frozen=True)
class Referee:
    """Decides every change to a two-player match (see the module's docstring); ``hold_time`` is how long
    a seat is held, in seconds, for a player who has gone before the opponent wins by forfeit."""

    hold_time: float

    # ---- seats: joining, leaving, coming back --------------------------------------------------------

    def seat_opponent(self, read: MatchRead, moment: Moment, newcomer: Newcomer) -> Decision:
        """The second player sits down and the match begins (a name that looks like the creator's gets a " 2")."""
        if not read.waiting:
            return Refused(f"Someone else joined match {read.code} first.")
        creator = read.seats[0]
        name = newcomer.name
        if skeleton(name) == skeleton(creator.name):
            name = f"{name[:NAME_LIMIT - 2]} 2"
        seat = SeatRecord(name, newcomer.name, newcomer.fingerprint, newcomer.hints, newcomer.secret_hash,
                          server=moment.server)
        match = Match(match_options(read.stored.options), (creator.name, name))
        return Change(match, (creator, seat), News.to_seat(0, f"{name} has joined: the match begins."))

    def seats_to_take_back(self, read: MatchRead, identities: Collection[str]) -> list[int]:
        """The seats of a match in play that a player known by one of ``identities`` may prove are theirs:
        free ones (they left), and taken ones too (a connection half dead that the server has not noticed yet,
        or the same player on another terminal): proof takes a seat back at once."""
        if not read.in_play:
            return []
        return [index for index, seat in enumerate(read.seats) if seat.identity in identities]

    def take_back_seat(self, read: MatchRead, moment: Moment, index: int, secret_hash: str) -> Decision:
        """A player who proved the seat theirs (key or secret) sits there again, whoever sat there (the session
        there is theirs, and is closed); ``secret_hash`` is the secret that lets them back in from now on."""
        seat = read.seats[index]
        if not read.in_play:
            return Refused(f"Match {read.code} is over.")
        seats = with_seat(read.seats, index, server=moment.server, held_until=None, secret_hash=secret_hash)
        back = f"{seat.name} is back." if moment.seat_free(seat) else f"{seat.name} reconnected."
        lines = [back, back]
        lines[index] = "Welcome back."
        return Change(read.fresh_match(), seats, News((lines[0], lines[1]), back))

    def leave(self, read: MatchRead, moment: Moment, index: int) -> Decision:
        """The player at ``index`` left (on this server): a waiting match goes, a finished one lets them go,
        a match in play holds their seat."""
        seat = read.seats[index]
        if seat.server != moment.server:
            return None
        if read.waiting:
            return Change(None, read.seats, drop=True)
        if read.finished:
            line = f"{seat.name} has left."
            return Change(read.fresh_match(), with_seat(read.seats, index, server=None, rematch=False),
                          News.to_all(line))
        held = minutes(self.hold_time)
        seats = with_seat(read.seats, index, server=None, held_until=moment.now + self.hold_time)
        return Change(read.fresh_match(), seats,
                      News.to_seat(other(index), f"{seat.name} has left: the seat is held for {held}, "
                                                 "then you win by forfeit.",
                                   watchers=f"{seat.name} has left: the seat is held for {held}."))

    def reclaim(self, read: MatchRead, moment: Moment, index: int) -> Decision:
        """This server's guest still sits at a seat another server held for it (thinking this one dead); a seat
        its player has taken back on another server since is theirs there."""
        if read.seats[index].server is not None:  # still this server's, or taken back elsewhere with proof
            return None
        seats = with_seat(read.seats, index, server=moment.server, held_until=None)
        return Change(read.fresh_match(), seats)

    # ---- presence: servers gone, held seats run out -------------------------------------------------

    def hold_gone(self, read: MatchRead, moment: Moment, indexes: list[int]) -> Decision:
        """The sessions at these seats were on a server that has stopped answering: their seats are held."""
        gone = [index for index in indexes
                if (server := read.seats[index].server) is not None and server not in moment.live]
        if not gone:
            return None
        if read.waiting:
            return Change(None, read.seats, drop=True)
        until = moment.now + self.hold_time if read.in_play else None
        seats = read.seats
        for index in gone:
            seats = with_seat(seats, index, server=None, held_until=until, rematch=False)
        line = "; ".join(f"{read.seats[index].name} lost the connection" for index in gone)
        if read.in_play:
            line += f": held for {minutes(self.hold_time)}, then a forfeit."
        return Change(read.fresh_match(), seats, News.to_all(line))

    def expire(self, read: MatchRead, moment: Moment, index: int) -> Decision:
        """A held seat's time is up: the opponent wins by forfeit, or nobody does when both have gone."""
        seat = read.seats[index]
        if not read.in_play or seat.server is not None or seat.held_until is None:
            return None
        opponent = read.seats[other(index)]
        match = read.fresh_match()
        if opponent.server is None:
            return Change(match, read.seats, News.to_all(ABANDONED), finish=EndReason.ABANDONED)
        match.forfeit(index)
        line = f"{seat.name} did not come back: {opponent.name} wins by forfeit."
        return Change(match, with_seat(read.seats, index, held_until=None), News.to_all(line),
                      finish=EndReason.FORFEIT)

    # ---- play ---------------------------------------------------------------------------------------

    def play_move(self, read: MatchRead, seat: int, request: PlayMove) -> Decision:
        """A move by the player at ``seat``, at the moment they saw (a late one is refused)."""
        if not read.in_play:
            return Resync("The match is over.")
        match = read.fresh_match()
        if (request.round, request.ply) != (match.round_number, match.round.ply):
            return Resync("That move came too late: the match had moved on.")
        try:
            move = Move.parse(request.move)
            match.play(move, seat)
        except SolunaError as error:
            return Resync(f"Move not accepted: {error}.")
        seats = tuple(replace(each, rematch=False) for each in read.seats)
        return Change(match, seats, News(moved=MovePlayed(request.round, request.ply, str(move))),
                      finish=EndReason.WON if match.is_over else None)

    def start_next_round(self, read: MatchRead, seat: int, request: StartNextRound) -> Decision:
        """The next round, opened by the loser's choice or the rules'; a late duplicate says nothing."""
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
        return Change(match, read.seats, News.to_seat(other(seat), line, watchers=line))

    def ask_rematch(self, read: MatchRead, seat: int) -> Decision:
        """A rematch starts once both players have asked; the first to ask is told it waits for the other, the
        second that the other had asked already."""
        if read.match is None or not read.finished:
            return Refused("The match is not over.")
        if read.match.forfeited_by is not None:
            return Refused("No rematch after a forfeit.")
        asker, opponent = read.seats[seat].name, read.seats[other(seat)]
        if opponent.server is None:
            return Refused(f"{opponent.name} has left: no rematch this time.")
        if opponent.rematch:
            match = read.match.rematch()
            begins = f"the rematch begins: {match.players[match.to_move]} opens."
            lines = [f"{asker} agreed: {begins}"] * 2
            lines[seat] = f"{opponent.name} had asked already: {begins}"
            seats = tuple(replace(each, rematch=False) for each in read.seats)
            return Change(match, seats, News((lines[0], lines[1]), f"Rematch: {match.players[match.to_move]} opens."))
        if read.seats[seat].rematch:
            return None
        lines = [f"{asker} asks for a rematch: choose Rematch to play again."] * 2
        lines[seat] = f"Rematch asked: it starts when {opponent.name} asks too."
        return Change(read.fresh_match(), with_seat(read.seats, seat, rematch=True), News((lines[0], lines[1])))


#: What everyone at a match both players left (and did not come back to) is told.
ABANDONED = "Both players have left: the match is abandoned."
