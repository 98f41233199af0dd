"""The server's authority on matches: codes, seats, moves, spectators, held seats, forfeits.

Every terminal (a ``Guest``: a session's child, through its link) asks; the
lobby checks the request against the rules package and tells everyone at the
match: a move as a small ``moved`` update, anything else as the whole match.
Every update carries the match's ``version``, bumped on every change, so a
terminal that misses one sees the gap and asks for the whole state (``sync``).

A player who leaves or disconnects has the seat held for a while and may come
back with the same name and proof: the same key, or the secret the game showed
them when they sat down; if not, the opponent wins by forfeit. A match against
the computer (played in the session's own process) is kept here too as it
changes, and held the same way. Two-player matches are written to the archive
as they change, and those in play are restored at start. Codes and secrets
never reach the log.
"""

from __future__ import annotations

import asyncio
import hmac
import itertools
import logging
import random
import re
import time
from dataclasses import dataclass
from typing import Any, Protocol

from ..match_setup import NAME_LIMIT, clean_name
from ..rules import Match, MatchOptions, Move, NextOpener, SolunaError
from ..rules.round import other
from ..saves import SavedMatch, SaveError
from .archive import ARCHIVE_FORMAT, ARCHIVE_VERSION, MatchArchive
from .client_env import skeleton, visible_text
from .gate import RateWindow, client_key
from .protocol import ProtocolError, field

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


def same_secret(given: str | None, kept: str | None) -> bool:
    """Compared in constant time; typed with spaces, dashes or in lower case it still counts."""
    if not given or not kept:
        return False
    cleaned = re.sub(r"[^A-Za-z]", "", given).upper()
    return hmac.compare_digest(cleaned.encode("ascii", "replace"), kept.encode("ascii"))


class Guest(Protocol):
    """A terminal at the lobby: who it is, and a way to tell it things."""

    name: str
    fingerprint: str | None
    address: str

    def send(self, message: dict[str, Any]) -> None: ...


def _seconds_left(hold: asyncio.TimerHandle | None) -> float | None:
    return None if hold is None else max(0.0, hold.when() - asyncio.get_running_loop().time())


@dataclass(eq=False)
class Seat:
    """A player's place at a match, kept while the player is away.

    ``name`` is shown; ``identity`` is the player's own name, which a returning player must have
    (they differ when two players share a name and the second is shown as "ann 2"). Coming back
    also takes proof: the same key, or the seat's ``secret`` (shown to its player only).
    """

    name: str
    identity: str
    fingerprint: str | None
    hints: bool
    secret: str | None = None
    guest: Guest | None = None
    hold: asyncio.TimerHandle | None = None

    def is_for(self, guest: Guest) -> bool:
        """An empty seat that ``guest`` could come back to (if they prove who they are)."""
        return self.guest is None and guest.name == self.identity

    def proven_by(self, guest: Guest, secret: str | None) -> bool:
        same_key = self.fingerprint is not None and guest.fingerprint == self.fingerprint
        return same_key or same_secret(secret, self.secret)

    def away(self) -> float | None:
        """``None`` while the player is here; else the seconds the seat is still held (0: not held)."""
        if self.guest is not None:
            return None
        return _seconds_left(self.hold) or 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "identity": self.identity, "fingerprint": self.fingerprint, "hints": self.hints,
                "secret": self.secret}


#: Numbers matches in the log (their codes, which let players back in, are never logged).
_match_numbers = itertools.count(1)


class RemoteMatch:
    """A code, one seat (waiting for an opponent) or two (a match in play), and its spectators."""

    def __init__(self, code: str, options: MatchOptions, seats: list[Seat], match: Match | None = None) -> None:
        self.code = code
        self.options = options
        self.seats = seats
        self.match = match
        self.spectators: set[Guest] = set()
        self.rematch_asked: set[int] = set()
        #: Bumped on every change everyone at the match is told of.
        self.version = 0
        self.number = next(_match_numbers)

    @property
    def label(self) -> str:
        """How the log names this match."""
        return f"#{self.number} ({' vs '.join(seat.name for seat in self.seats)})"

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

    def summary(self, guest: Guest) -> dict[str, Any]:
        """What the lobby lists about a match in play (the code is for the child, never shown);
        ``yours`` when ``guest`` may come back to a seat held there."""
        match = self.match
        return {"code": self.code, "players": list(match.players), "round": match.round_number,
                "stars": list(match.stars), "watchers": len(self.spectators),
                "away": [seat.guest is None for seat in self.seats],
                "yours": any(seat.is_for(guest) for seat in self.seats)}

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
                      field(player, "fingerprint", (str, type(None))), field(player, "hints", bool),
                      field(player, "secret", (str, type(None)), longest=SECRET_LENGTH))
                 for player in players]
        match = Match.from_dict(document.get("match"))
        return cls(code, match.options, seats, match)


@dataclass(eq=False)
class ComputerGame:
    """A match against the computer, played in a session's own process and kept here as it changes,
    so that it outlives the session: held for its player (proof as for a seat) after a disconnect."""

    identity: str
    fingerprint: str | None
    secret: str
    saved: SavedMatch
    hold: asyncio.TimerHandle | None = None

    def to_message(self) -> dict[str, Any]:
        saved = self.saved
        return {"type": "computer_game", "secret": self.secret,
                "save": {"setup": saved.setup.to_dict(), "match": saved.match.to_dict(),
                         "hints_used": list(saved.hints_used)}}

    def offer(self, needs_secret: bool) -> dict[str, Any]:
        """What the lobby offers to resume."""
        match = self.saved.match
        return {"level": self.saved.setup.computer_level, "round": match.round_number, "stars": list(match.stars),
                "needs_secret": needs_secret}


class Lobby:
    """Every match of the server and where every guest is; all on the event loop, none of it blocking."""

    def __init__(self, archive: MatchArchive, hold_time: float) -> None:
        self.archive = archive
        self.hold_time = hold_time
        self.matches: dict[str, RemoteMatch] = {}
        self.present: set[Guest] = set()
        self.place: dict[Guest, RemoteMatch] = {}
        #: Each guest's secret, for the seats it takes and its matches against the computer.
        self.secrets: dict[Guest, str] = {}
        #: The match against the computer each guest plays (or played last), and those held for guests gone.
        self.games: dict[Guest, ComputerGame] = {}
        self.held_games: list[ComputerGame] = []
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
        for game in self.held_games:
            if game.hold is not None:
                game.hold.cancel()

    # ---- guests coming and going ---------------------------------------------------------

    def arrive(self, guest: Guest) -> None:
        self.present.add(guest)
        guest.send({"type": "welcome", "secret": self._secret_of(guest), "hold_seconds": self.hold_time})
        guest.send(self._listing(guest))

    def depart(self, guest: Guest) -> None:
        """The terminal has gone: leave whatever match it was at (a seat, a game against the computer, is held)."""
        self._leave(guest)
        self.present.discard(guest)
        self.secrets.pop(guest, None)
        game = self.games.pop(guest, None)
        if game is not None and not game.saved.match.is_over:
            self.held_games.append(game)
            game.hold = asyncio.get_running_loop().call_later(self.hold_time, self._let_go, game)
            if len(self.held_games) > MAX_HELD_GAMES:
                oldest = self.held_games[0]
                oldest.hold.cancel()
                self._let_go(oldest)

    def handle(self, guest: Guest, message: dict[str, Any]) -> None:
        """Act on one request from ``guest``; anything wrong is an ``error`` message back, never a raise."""
        handler = getattr(self, f"_on_{message['type']}", None)
        try:
            if handler is None:
                raise ProtocolError(f"unknown request {message['type']!r}")
            handler(guest, message)
        except (ProtocolError, SolunaError, SaveError) as error:
            log.info("request refused from %s: %s", guest.address, error)
            guest.send({"type": "error", "text": "The server could not do that: the request was malformed."})

    # ---- requests ------------------------------------------------------------------------

    def _on_create(self, guest: Guest, message: dict[str, Any]) -> None:
        if self._busy(guest):
            return
        options = _options(field(message, "options", dict))
        hints = field(message, "hints", bool)
        code = self._new_code()
        seat = Seat(guest.name, guest.name, guest.fingerprint, hints, self._secret_of(guest), guest)
        remote = RemoteMatch(code, options, [seat])
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
        secret = message.get("secret")
        if secret is not None:
            secret = field(message, "secret", str, longest=20)
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
            self._take_back_seat(remote, guest, secret)

    def _seat_opponent(self, remote: RemoteMatch, guest: Guest, hints: bool) -> None:
        creator = remote.seats[0]
        if creator.guest is guest:
            guest.send({"type": "error", "text": "That is your own match: wait for your opponent to join it."})
            return
        name = guest.name
        if name.casefold() == creator.name.casefold():
            name = f"{name[:NAME_LIMIT - 2]} 2"
        remote.seats.append(Seat(name, guest.name, guest.fingerprint, hints, self._secret_of(guest), guest))
        remote.match = Match(remote.options, (creator.name, name))
        self.place[guest] = remote
        log.info("match %s begins", remote.label)
        self._changed(remote, {creator.guest: f"{name} has joined: the match begins."})
        self._listing_changed()

    def _take_back_seat(self, remote: RemoteMatch, guest: Guest, secret: str | None) -> None:
        seats = [seat for seat in remote.seats if seat.is_for(guest)]
        if not seats:
            guest.send({"type": "error",
                        "text": f"Match {remote.code} has two players already: choose Watch to see it."})
            return
        seat = next((seat for seat in seats if seat.proven_by(guest, secret)), None)
        if seat is None:
            if secret is None:
                guest.send({"type": "secret_needed", "code": remote.code})
            else:
                guest.send({"type": "error", "text": "That is not the secret of your seat: it was shown in the "
                                                     "panel beside the board while you played."})
            return
        if seat.hold is not None:
            seat.hold.cancel()
            seat.hold = None
        seat.guest = guest
        self.place[guest] = remote
        notice = f"{seat.name} is back."
        others = {other_guest: notice for other_guest in remote.guests if other_guest is not guest}
        self._changed(remote, {**others, guest: "Welcome back."})
        self._listing_changed()

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
        guest.send(self._state(remote, guest, "You are watching: n returns to the lobby."))
        self._listing_changed()

    def _on_leave(self, guest: Guest, message: dict[str, Any]) -> None:
        self._leave(guest)
        guest.send(self._listing(guest))

    def _on_sync(self, guest: Guest, message: dict[str, Any]) -> None:
        """A terminal saw a gap in the versions: the whole state again (nothing if it has left that match)."""
        code = field(message, "code", str, longest=8)
        remote = self.place.get(guest)
        if remote is not None and remote.code == code and remote.match is not None:
            self._resync(remote, guest)

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
            move = Move.parse(text)
            match.play(move, seat)
        except SolunaError as error:
            self._resync(remote, guest, f"Move not accepted: {error}.")
            return
        remote.rematch_asked.clear()
        self._changed(remote, moved=(moment, move))
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
        chooses = match.options.next_opener is NextOpener.LOSER_CHOOSES
        try:
            match.start_next_round(opener, seat if chooses else None)
        except SolunaError as error:
            self._resync(remote, guest, f"Not accepted: {error}.")
            return
        names, number = match.players, match.round_number
        if not chooses:
            news = f"Round {number}: {names[opener]} opens."
        elif opener == seat:
            news = f"{names[seat]} chose to open round {number}."
        else:
            news = f"{names[seat]} chose to move second: {names[opener]} opens round {number}."
        self._changed(remote, {other_guest: news for other_guest in remote.guests if other_guest is not guest})
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

    # ---- matches against the computer ----------------------------------------------------

    def _on_computer_saved(self, guest: Guest, message: dict[str, Any]) -> None:
        """The session's match against the computer after a change: kept here in case the session ends."""
        saved = SavedMatch.from_document(field(message, "save", dict, longest=10))
        if not saved.setup.vs_computer:
            raise ProtocolError("only a match against the computer is kept this way")
        if saved.match.is_over:
            self.games.pop(guest, None)
            return
        kept = self.games.get(guest)
        secret = kept.secret if kept is not None else self._secret_of(guest)
        self.games[guest] = ComputerGame(guest.name, guest.fingerprint, secret, saved)

    def _on_computer_dropped(self, guest: Guest, message: dict[str, Any]) -> None:
        """The match against the computer is over or given up: nothing to keep."""
        self.games.pop(guest, None)

    def _on_computer_resume(self, guest: Guest, message: dict[str, Any]) -> None:
        """The player's own game, or one held for their name (with the same key or its secret)."""
        secret = message.get("secret")
        if secret is not None:
            secret = field(message, "secret", str, longest=20)
        game = self.games.get(guest)
        if game is not None:
            guest.send(game.to_message())
            return
        held = [game for game in self.held_games if game.identity == guest.name]
        if not held:
            guest.send({"type": "error", "text": "No match against the computer is kept for you any more."})
            return
        game = held[-1]
        same_key = game.fingerprint is not None and game.fingerprint == guest.fingerprint
        if not same_key:
            if secret is None:
                guest.send({"type": "secret_needed", "code": None})
                return
            if not self._may_try_a_code(guest):
                return
            if not same_secret(secret, game.secret):
                guest.send({"type": "error", "text": "That is not the secret of that match."})
                return
        self.held_games.remove(game)
        if game.hold is not None:
            game.hold.cancel()
            game.hold = None
        self.games[guest] = game
        guest.send(game.to_message())
        self._listing_changed()

    def _let_go(self, game: ComputerGame) -> None:
        if game in self.held_games:
            self.held_games.remove(game)
            self._listing_changed()

    def _computer_offer(self, guest: Guest) -> dict[str, Any] | None:
        game = self.games.get(guest)
        if game is not None:
            return game.offer(needs_secret=False)
        held = [game for game in self.held_games if game.identity == guest.name]
        if not held:
            return None
        game = held[-1]
        return game.offer(needs_secret=game.fingerprint is None or game.fingerprint != guest.fingerprint)

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

    def _secret_of(self, guest: Guest) -> str:
        secret = self.secrets.get(guest)
        if secret is None:
            secret = self.secrets[guest] = "".join(self._codes.choice(CODE_LETTERS) for _ in range(SECRET_LENGTH))
        return secret

    def _state(self, remote: RemoteMatch, guest: Guest, notice: str | None = None) -> dict[str, Any]:
        """The whole match as ``guest`` sees it (a player's own secret included)."""
        seat = remote.seat_of(guest)
        return {"type": "match", "code": remote.code, "version": remote.version, "seat": seat,
                "match": remote.match.to_dict(), "hints": remote.hints,
                "away": [each.away() for each in remote.seats],
                "secret": remote.seats[seat].secret if seat is not None else None, "notice": notice}

    def _changed(self, remote: RemoteMatch, notices: dict[Guest, str] | None = None,
                 moved: tuple[tuple[int, int], Move] | None = None) -> None:
        """The match changed: a new version, written down and sent to everyone at it with each one's news
        (a move alone as a ``moved`` update, played at ``round`` and ``ply``; anything else whole)."""
        remote.version += 1
        if remote.finished:
            self.archive.finish(remote.code, remote.to_document())
        else:
            self.archive.save(remote.code, remote.to_document())
        notices = notices or {}
        for guest in remote.guests:
            if moved is None:
                guest.send(self._state(remote, guest, notices.get(guest)))
            else:
                (round_number, ply), move = moved
                guest.send({"type": "moved", "code": remote.code, "version": remote.version,
                            "round": round_number, "ply": ply, "move": str(move), "notice": notices.get(guest)})

    def _resync(self, remote: RemoteMatch, guest: Guest, notice: str | None = None) -> None:
        """Put the server's state back on a terminal that played ahead of it or missed an update."""
        guest.send(self._state(remote, guest, notice))

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
                                   if other_guest is remote.seats[other(index)].guest else
                                   f"{seat.name} has left: the seat is held for {minutes(self.hold_time)}."
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
            log.info("match %s abandoned by both players", remote.label)
            self.archive.finish(remote.code, remote.to_document("abandoned"))
            if opponent.hold is not None:
                opponent.hold.cancel()
            self._tell(remote, "Both players have left: the match is abandoned.")
            for spectator in list(remote.spectators):
                self.place.pop(spectator, None)
            del self.matches[remote.code]
        else:
            log.info("match %s: %s forfeits", remote.label, seat.name)
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

    def _listing(self, guest: Guest) -> dict[str, Any]:
        """The matches in play, and the match against the computer ``guest`` may resume, if any."""
        return {"type": "lobby", "matches": [remote.summary(guest) for remote in self.matches.values()
                                             if remote.in_play],
                "computer": self._computer_offer(guest)}

    def _listing_changed(self) -> None:
        """Tell the guests in the lobby what is in play, once per turn of the loop however much changed."""
        if not self._listing_due:
            self._listing_due = True
            asyncio.get_running_loop().call_soon(self._send_listing)

    def _send_listing(self) -> None:
        self._listing_due = False
        for guest in self.present:
            if guest not in self.place:
                guest.send(self._listing(guest))


def _options(document: dict[str, Any]) -> MatchOptions:
    """Match options from a request, each value checked by ``MatchOptions`` itself."""
    allowed = {"stars_to_win", "discs", "next_layout", "next_opener", "first_opener"}
    if not set(document) <= allowed:
        raise ProtocolError("unknown match options")
    try:
        return MatchOptions(**document)
    except TypeError as error:
        raise ProtocolError(f"bad match options: {error}") from None
