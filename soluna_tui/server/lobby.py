"""The server's authority on two-player matches: codes, seats, moves, spectators, held seats, forfeits.

Every terminal (a ``Guest``: a session's child, through its link) asks; the
lobby checks the request against the rules package and broadcasts the whole
match to everyone at it. A player who leaves or disconnects has the seat held
for a while and may come back with the code (same name, and same key when the
first visit offered one); if not, the opponent wins by forfeit. Matches are
written to the archive as they change, and those in play are restored at start.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from dataclasses import dataclass
from typing import Any, Protocol

from ..match_setup import NAME_LIMIT, clean_name
from ..rules import Match, MatchOptions, Move, NextOpener, SolunaError
from ..rules.round import other
from .archive import ARCHIVE_FORMAT, ARCHIVE_VERSION, MatchArchive
from .client_env import skeleton, visible_text
from .gate import RateWindow, client_key
from .protocol import ProtocolError, field

log = logging.getLogger("soluna.server")

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O: codes are read out loud and typed
CODE_PATTERN = re.compile(f"[{CODE_LETTERS}]{{4}}")
#: Joins and watches by code a minute from one address (a player needs one or two).
CODES_PER_MINUTE = 10
#: Names that would read as someone else on an opponent's screen ("You win").
RESERVED_NAMES = {"you", "computer"}


def player_name(username: str) -> str:
    """The name shown for an SSH user: cleaned (no control, escape or invisible characters; fullwidth and
    styled letters made plain), short, and never a reserved name however it is spelt (look-alike letters,
    accents, zero-width characters)."""
    name = clean_name(visible_text(username), "guest")
    if skeleton(name) in RESERVED_NAMES:
        name = f"{name} (guest)"
    return name


def minutes(seconds: float) -> str:
    """A duration as players read it: ``45 seconds``, ``1 second``, ``5 minutes``."""
    count, unit = (round(seconds), "second") if seconds < 90 else (round(seconds / 60), "minute")
    return f"{count} {unit}{'' if count == 1 else 's'}"


class Guest(Protocol):
    """A terminal at the lobby: who it is, and a way to tell it things."""

    name: str
    fingerprint: str | None
    address: str

    def send(self, message: dict[str, Any]) -> None: ...


@dataclass(eq=False)
class Seat:
    """A player's place at a match, kept while the player is away.

    ``name`` is shown; ``identity`` is the player's own name, which a returning player must have
    (they differ when two players share a name and the second is shown as "ann 2").
    """

    name: str
    identity: str
    fingerprint: str | None
    hints: bool
    guest: Guest | None = None
    hold: asyncio.TimerHandle | None = None

    def may_return(self, guest: Guest) -> bool:
        """The same name, and the same key if the first visit offered one."""
        return (self.guest is None and guest.name == self.identity
                and (self.fingerprint is None or guest.fingerprint == self.fingerprint))

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "identity": self.identity, "fingerprint": self.fingerprint, "hints": self.hints}


class RemoteMatch:
    """A code, one seat (waiting for an opponent) or two (a match in play), and its spectators."""

    def __init__(self, code: str, options: MatchOptions, seats: list[Seat], match: Match | None = None) -> None:
        self.code = code
        self.options = options
        self.seats = seats
        self.match = match
        self.spectators: set[Guest] = set()
        self.rematch_asked: set[int] = set()

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
    def guests(self) -> list[Guest]:
        return [seat.guest for seat in self.seats if seat.guest is not None] + list(self.spectators)

    def seat_of(self, guest: Guest) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.guest is guest:
                return index
        return None

    @property
    def hints(self) -> bool:
        return len(self.seats) == 2 and all(seat.hints for seat in self.seats)

    def summary(self) -> dict[str, Any]:
        """What the lobby lists about a match in play (the code is for the child, never shown)."""
        match = self.match
        return {"code": self.code, "players": list(match.players), "round": match.round_number,
                "stars": list(match.stars), "watchers": len(self.spectators),
                "away": [seat.guest is None for seat in self.seats]}

    def result(self) -> str:
        if self.match.forfeited_by is not None:
            return "forfeit"
        return "won" if self.match.is_over else "playing"

    def to_document(self, result: str | None = None) -> dict[str, Any]:
        return {"format": ARCHIVE_FORMAT, "version": ARCHIVE_VERSION, "code": self.code,
                "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "result": result or self.result(),
                "players": [seat.to_dict() for seat in self.seats], "match": self.match.to_dict()}

    @classmethod
    def from_document(cls, document: dict[str, Any]) -> RemoteMatch:
        """A match restored from the archive, both seats empty (``SolunaError``/``ProtocolError`` if damaged)."""
        code = field(document, "code", str)
        players = field(document, "players", list)
        if not CODE_PATTERN.fullmatch(code) or len(players) != 2:
            raise ProtocolError("not a two-player match with a proper code")
        seats = [Seat(field(player, "name", str, longest=NAME_LIMIT),
                      field(player, "identity", str, longest=NAME_LIMIT),
                      field(player, "fingerprint", (str, type(None))), field(player, "hints", bool))
                 for player in players]
        match = Match.from_dict(document.get("match"))
        return cls(code, match.options, seats, match)


class Lobby:
    """Every match of the server and where every guest is; all on the event loop, none of it blocking."""

    def __init__(self, archive: MatchArchive, hold_time: float) -> None:
        self.archive = archive
        self.hold_time = hold_time
        self.matches: dict[str, RemoteMatch] = {}
        self.present: set[Guest] = set()
        self.place: dict[Guest, RemoteMatch] = {}
        self._codes_tried = RateWindow(CODES_PER_MINUTE)
        self._codes = random.SystemRandom()
        self._listing_due = False

    # ---- start-up and shutdown -----------------------------------------------------------

    def restore(self) -> int:
        """Bring back the matches in play from the archive, every seat held as after a disconnect."""
        for document in self.archive.load_active():
            try:
                remote = RemoteMatch.from_document(document)
            except (SolunaError, ProtocolError) as error:
                self.archive.set_aside(self.archive.active_dir / f"{document.get('code')}.json", str(error))
                continue
            if remote.match.is_over or remote.code in self.matches:
                continue
            self.matches[remote.code] = remote
            for index in (0, 1):
                self._hold(remote, index)
        return len(self.matches)

    def close(self) -> None:
        """Stop the hold timers (the server is stopping; the archive keeps every match in play)."""
        for remote in self.matches.values():
            for seat in remote.seats:
                if seat.hold is not None:
                    seat.hold.cancel()

    # ---- guests coming and going ---------------------------------------------------------

    def arrive(self, guest: Guest) -> None:
        self.present.add(guest)
        guest.send(self._listing())

    def depart(self, guest: Guest) -> None:
        """The terminal has gone: leave whatever match it was at (a seat is held)."""
        self._leave(guest)
        self.present.discard(guest)

    def handle(self, guest: Guest, message: dict[str, Any]) -> None:
        """Act on one request from ``guest``; anything wrong is an ``error`` message back, never a raise."""
        handler = getattr(self, f"_on_{message['type']}", None)
        try:
            if handler is None:
                raise ProtocolError(f"unknown request {message['type']!r}")
            handler(guest, message)
        except (ProtocolError, SolunaError) as error:
            log.info("request refused from %s: %s", guest.address, error)
            guest.send({"type": "error", "text": "The server could not do that: the request was malformed."})

    # ---- requests ------------------------------------------------------------------------

    def _on_create(self, guest: Guest, message: dict[str, Any]) -> None:
        if self._busy(guest):
            return
        options = _options(field(message, "options", dict))
        hints = field(message, "hints", bool)
        code = self._new_code()
        remote = RemoteMatch(code, options, [Seat(guest.name, guest.name, guest.fingerprint, hints, guest)])
        self.matches[code] = remote
        self.place[guest] = remote
        guest.send({"type": "waiting", "code": code})

    def _on_cancel(self, guest: Guest, message: dict[str, Any]) -> None:
        remote = self.place.get(guest)
        if remote is not None and remote.waiting:
            self._leave(guest)

    def _on_join(self, guest: Guest, message: dict[str, Any]) -> None:
        code = field(message, "code", str, longest=8).upper()
        hints = field(message, "hints", bool)
        if self._busy(guest) or not self._may_try_a_code(guest):
            return
        remote = self.matches.get(code)
        if remote is None:
            guest.send({"type": "error", "text": f"No match has the code {code}."})
        elif remote.waiting:
            self._seat_opponent(remote, guest, hints)
        elif remote.finished:
            guest.send({"type": "error", "text": f"Match {code} is over."})
        else:
            self._take_back_seat(remote, guest)

    def _seat_opponent(self, remote: RemoteMatch, guest: Guest, hints: bool) -> None:
        creator = remote.seats[0]
        if creator.guest is guest:
            guest.send({"type": "error", "text": "That is your own match: wait for your opponent to join it."})
            return
        name = guest.name
        if name.casefold() == creator.name.casefold():
            name = f"{name[:NAME_LIMIT - 2]} 2"
        remote.seats.append(Seat(name, guest.name, guest.fingerprint, hints, guest))
        remote.match = Match(remote.options, (creator.name, name))
        self.place[guest] = remote
        log.info("match %s: %s vs %s", remote.code, creator.name, name)
        self._changed(remote, {creator.guest: f"{name} has joined: the match begins."})
        self._listing_changed()

    def _take_back_seat(self, remote: RemoteMatch, guest: Guest) -> None:
        for seat in remote.seats:
            if seat.may_return(guest):
                if seat.hold is not None:
                    seat.hold.cancel()
                    seat.hold = None
                seat.guest = guest
                self.place[guest] = remote
                notice = f"{seat.name} is back."
                others = {other_guest: notice for other_guest in remote.guests if other_guest is not guest}
                self._changed(remote, others, {guest: "Welcome back."})
                self._listing_changed()
                return
        guest.send({"type": "error", "text": f"Match {remote.code} has two players already: choose Watch to see it."})

    def _on_watch(self, guest: Guest, message: dict[str, Any]) -> None:
        code = field(message, "code", str, longest=8).upper()
        if self._busy(guest) or not self._may_try_a_code(guest):
            return
        remote = self.matches.get(code)
        if remote is None or remote.waiting:
            guest.send({"type": "error", "text": f"No match in play has the code {code}."})
            return
        remote.spectators.add(guest)
        self.place[guest] = remote
        guest.send(self._state(remote, guest, remote.match.to_dict(), "You are watching: n returns to the lobby."))
        self._listing_changed()

    def _on_leave(self, guest: Guest, message: dict[str, Any]) -> None:
        self._leave(guest)
        guest.send(self._listing())

    def _on_move(self, guest: Guest, message: dict[str, Any]) -> None:
        text = field(message, "move", str, longest=40)
        moment = (field(message, "round", int), field(message, "ply", int))
        remote, seat = self._seated(guest)
        if remote is None:
            return
        match = remote.match
        if moment != (match.round_number, match.round.ply):
            self._resync(remote, guest, "That move came too late: the match had moved on.")
            return
        try:
            match.play(Move.parse(text), seat)
        except SolunaError as error:
            self._resync(remote, guest, f"Move not accepted: {error}.")
            return
        remote.rematch_asked.clear()
        self._changed(remote)
        if match.round.is_over:
            self._listing_changed()

    def _on_next_round(self, guest: Guest, message: dict[str, Any]) -> None:
        opener = field(message, "opener", int)
        round_number = field(message, "round", int)
        remote, seat = self._seated(guest)
        if remote is None:
            return
        match = remote.match
        if round_number != match.round_number or not match.between_rounds:
            if round_number != match.round_number - 1:  # the other player started it first: no news
                self._resync(remote, guest, "The round had already moved on.")
            return
        chooser = seat if match.options.next_opener is NextOpener.LOSER_CHOOSES else None
        try:
            match.start_next_round(opener, chooser)
        except SolunaError as error:
            self._resync(remote, guest, f"Not accepted: {error}.")
            return
        self._changed(remote)
        self._listing_changed()

    def _on_rematch(self, guest: Guest, message: dict[str, Any]) -> None:
        remote, seat = self._seated(guest, in_play=False)
        if remote is None:
            return
        if not remote.finished:
            guest.send({"type": "error", "text": "The match is not over."})
            return
        opponent = remote.seats[other(seat)]
        if opponent.guest is None:
            guest.send({"type": "error", "text": f"{opponent.name} has left: no rematch this time."})
            return
        remote.rematch_asked.add(seat)
        if len(remote.rematch_asked) < 2:
            opponent.guest.send({"type": "notice", "text": f"{remote.seats[seat].name} asks for a rematch: "
                                                           "choose Rematch to play again."})
            return
        remote.rematch_asked.clear()
        remote.match = remote.match.rematch()
        opener = remote.match.players[remote.match.to_move]
        self._changed(remote, {g: f"Rematch: {opener} opens." for g in remote.guests})
        self._listing_changed()

    # ---- helpers -------------------------------------------------------------------------

    def _busy(self, guest: Guest) -> bool:
        if guest in self.place:
            guest.send({"type": "error", "text": "Leave the match you are at first (n)."})
            return True
        return False

    def _may_try_a_code(self, guest: Guest) -> bool:
        """Joining or watching by code, a few times a minute per address: codes cannot be swept."""
        if self._codes_tried.allow(client_key(guest.address)):
            return True
        guest.send({"type": "error", "text": "Too many tries: wait a minute before trying another code."})
        return False

    def _seated(self, guest: Guest, in_play: bool = True) -> tuple[RemoteMatch | None, int]:
        """The match ``guest`` plays at (in play, unless told otherwise) and its seat; a reply when none."""
        remote = self.place.get(guest)
        seat = remote.seat_of(guest) if remote is not None else None
        if remote is None or seat is None or remote.match is None or (in_play and not remote.in_play):
            guest.send({"type": "error", "text": "You are not playing a match in progress."})
            return None, 0
        return remote, seat

    def _new_code(self) -> str:
        while True:
            code = "".join(self._codes.choice(CODE_LETTERS) for _ in range(4))
            if code not in self.matches:
                return code

    def _state(self, remote: RemoteMatch, guest: Guest, document: dict[str, Any],
               notice: str | None = None) -> dict[str, Any]:
        return {"type": "match", "code": remote.code, "seat": remote.seat_of(guest), "match": document,
                "hints": remote.hints, "away": [seat.guest is None for seat in remote.seats], "notice": notice}

    def _changed(self, remote: RemoteMatch, notices: dict[Guest, str] | None = None,
                 more: dict[Guest, str] | None = None) -> None:
        """The match changed: write it down and send it to everyone at it, with each one's news."""
        document = remote.match.to_dict()
        if remote.finished:
            self.archive.finish(remote.code, remote.to_document())
        else:
            self.archive.save(remote.code, remote.to_document())
        news = {**(notices or {}), **(more or {})}
        for guest in remote.guests:
            guest.send(self._state(remote, guest, document, news.get(guest)))

    def _resync(self, remote: RemoteMatch, guest: Guest, notice: str) -> None:
        """Put the server's state back on a terminal that played ahead of it."""
        guest.send(self._state(remote, guest, remote.match.to_dict(), notice))

    def _leave(self, guest: Guest) -> None:
        remote = self.place.pop(guest, None)
        if remote is None:
            return
        if guest in remote.spectators:
            remote.spectators.discard(guest)
            self._listing_changed()
            return
        index = remote.seat_of(guest)
        seat = remote.seats[index]
        seat.guest = None
        if remote.waiting:
            del self.matches[remote.code]
        elif remote.finished:
            remote.rematch_asked.clear()
            self._tell(remote, f"{seat.name} has left.")
            self._forget_if_empty(remote)
        else:
            self._hold(remote, index)
            self._changed(remote, {other_guest: f"{seat.name} has left: the seat is held for "
                                                f"{minutes(self.hold_time)}, then you win by forfeit."
                                   for other_guest in remote.guests})
            self._listing_changed()

    def _hold(self, remote: RemoteMatch, index: int) -> None:
        seat = remote.seats[index]
        if seat.hold is not None:
            seat.hold.cancel()
        seat.hold = asyncio.get_running_loop().call_later(self.hold_time, self._expire, remote, index)

    def _expire(self, remote: RemoteMatch, index: int) -> None:
        """A held seat's time is up: the opponent wins by forfeit, or nobody does when both have gone."""
        seat = remote.seats[index]
        seat.hold = None
        if seat.guest is not None or not remote.in_play or self.matches.get(remote.code) is not remote:
            return
        opponent = remote.seats[other(index)]
        if opponent.guest is None:
            log.info("match %s abandoned by both players", remote.code)
            self.archive.finish(remote.code, remote.to_document("abandoned"))
            if opponent.hold is not None:
                opponent.hold.cancel()
            self._tell(remote, "Both players have left: the match is abandoned.")
            for spectator in list(remote.spectators):
                self.place.pop(spectator, None)
            del self.matches[remote.code]
        else:
            log.info("match %s: %s forfeits", remote.code, seat.name)
            remote.match.forfeit(index)
            self._changed(remote, {guest: f"{seat.name} did not come back: {opponent.name} wins by forfeit."
                                   for guest in remote.guests})
            self._forget_if_empty(remote)
        self._listing_changed()

    def cannot_save(self, code: str, reason: str) -> None:
        """The archive could not write a match (a full disk): everyone at it is told."""
        remote = self.matches.get(code)
        if remote is not None:
            for guest in remote.guests:
                guest.send({"type": "notice", "severity": "error",
                            "text": f"The server cannot save this match ({reason}): if it stops, the match is lost."})

    def _tell(self, remote: RemoteMatch, text: str) -> None:
        for guest in remote.guests:
            guest.send({"type": "notice", "text": text})

    def _forget_if_empty(self, remote: RemoteMatch) -> None:
        """A finished match nobody looks at any more lives on in the archive only."""
        if remote.finished and not remote.guests:
            self.matches.pop(remote.code, None)

    def _listing(self) -> dict[str, Any]:
        return {"type": "lobby", "matches": [remote.summary() for remote in self.matches.values() if remote.in_play]}

    def _listing_changed(self) -> None:
        """Tell the guests in the lobby what is in play, once per turn of the loop however much changed."""
        if not self._listing_due:
            self._listing_due = True
            asyncio.get_running_loop().call_soon(self._send_listing)

    def _send_listing(self) -> None:
        self._listing_due = False
        listing = self._listing()
        for guest in self.present:
            if guest not in self.place:
                guest.send(listing)


def _options(document: dict[str, Any]) -> MatchOptions:
    """Match options from a request, each value checked by ``MatchOptions`` itself."""
    allowed = {"stars_to_win", "discs", "next_layout", "next_opener", "first_opener"}
    if not set(document) <= allowed:
        raise ProtocolError("unknown match options")
    try:
        return MatchOptions(**document)
    except TypeError as error:
        raise ProtocolError(f"bad match options: {error}") from None
