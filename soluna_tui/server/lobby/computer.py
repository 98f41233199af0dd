"""Runs in the server process.

Matches against the computer: played in the session's own process, kept in the store as they change.

So a match against the computer outlives its session (and the server): held for its player after
a disconnect (weeks for a keyed player, the rest of the day for a guest: ``link/keeping.py``), offered
back in the lobby to the same name, and resumed with the same key or the secret the game showed,
analysis mode and hints used as they were. At most ``MAX_HELD_GAMES`` are held (the oldest goes
first beyond it).

A keyed player's rated match (``rated_level``: no hints, no take-backs, 12 discs) is filed when it
ends and rated against the level's calibrated rating (``FinishedMatches.file_computer_match``); the player
is told what it did. Leaving one does not escape it: starting another rated match gives up the one
held, lost (rated once a round was decided on the board, as any match).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...link.keeping import GUEST_KEEP, KEYED_KEEP, computer_keep, duration
from ...link.messages import (
    ComputerDropped,
    ComputerGameKept,
    ComputerOffer,
    ComputerResult,
    ComputerResume,
    ComputerSaved,
    Notice,
    ProtocolError,
    RatingShift,
    SecretNeeded,
)
from ...local.files import SaveError
from ...local.saves import SavedMatch
from ...rules import OptionError
from ...rules.end_reason import EndReason
from ...rules.strengths import CALIBRATED_DISCS, Strength, strength_of
from ..storage import ComputerGameRecord, SeatRecord, Storage, StorageError
from ..storage.secrets import GAME_GUESSES, clean_secret
from .guesses import Guesses, address_scope, game_scope
from .results import rating_shifts
from .visitors import Asker, CodeTries, Guest, Visitor, identities

if TYPE_CHECKING:
    from .presence import Presence

log = logging.getLogger("soluna.server")

#: Matches against the computer held for players gone at most (the oldest goes first beyond it).
MAX_HELD_GAMES = 1024


@dataclass(eq=False)
class ComputerGame:
    """A match against the computer kept for the session playing it now."""

    id: str
    identity: str
    fingerprint: str | None
    secret: str
    secret_hash: str
    saved: SavedMatch
    #: When this server took it up (a rated match is filed as started then).
    started_at: float = 0.0

    def to_message(self) -> ComputerGameKept:
        return ComputerGameKept(self.secret, saved_document(self.saved))

    def record(self, server: str, document: dict[str, Any]) -> ComputerGameRecord:
        """As the store keeps it, played on ``server``."""
        return ComputerGameRecord(self.id, server, self.identity, self.fingerprint, self.secret_hash, document, None,
                                  0.0)


def saved_document(saved: SavedMatch) -> dict[str, Any]:
    """The match as kept and sent back: everything a save keeps (analysis mode, hints used) but when it was saved."""
    document = saved.to_document()
    del document["saved_at"]
    return document


def computer_offer(record: ComputerGameRecord, needs_secret: bool) -> ComputerOffer | None:
    """What the lobby offers to resume (``None`` if the kept document is unusable)."""
    try:
        saved = SavedMatch.from_document(record.document)
    except SaveError:
        return None
    return offer_of(saved, needs_secret)


def rated_level(saved: SavedMatch, fingerprint: str | None) -> Strength | None:
    """The level a match against the computer is rated against, if it is rated: a keyed player's match set up
    rated (no hints, no take-backs: ``MatchSetup.rated``) on the table the levels were calibrated on, the
    computer at seat 2, no hint ever used."""
    setup = saved.setup
    if (fingerprint is None or not setup.rated or setup.hints or setup.computer_level is None
            or not setup.is_computer(1) or setup.options.discs != CALIBRATED_DISCS or any(saved.hints_used)
            or saved.analysis):
        return None
    return strength_of(setup.computer_level)


def level_words(saved: SavedMatch) -> str:
    """The computer's level in a match against it, as the list of who is online says it (``5``)."""
    level = saved.setup.computer_level
    if level is None:
        return "?"
    try:
        return str(strength_of(level).number)
    except OptionError:
        return level[:16] or "?"


def offer_of(saved: SavedMatch, needs_secret: bool) -> ComputerOffer:
    match = saved.match
    return ComputerOffer(saved.setup.computer_level or "?", match.round_number, match.stars, needs_secret)


class ComputerGames:
    """The matches against the computer of this server's guests, and those held in the store for players gone."""

    def __init__(self, store: Storage, servers: Presence, code_tries: CodeTries, changed: Callable[[], None],
                 guesses: Guesses) -> None:
        self.store = store
        self.servers = servers
        self.code_tries = code_tries
        self.guesses = guesses
        self._changed = changed
        #: The match each of this server's guests plays against the computer.
        self.playing: dict[Guest, ComputerGame] = {}
        #: Every match held for a player gone (on any server), as last read.
        self.held: list[ComputerGameRecord] = []
        #: The rated match each guest last ended: its finished state follows, to be filed.
        self.ended: dict[Guest, ComputerGame] = {}

    async def saved(self, asker: Asker, request: ComputerSaved) -> None:
        """The session's match after a change: kept in the store in case the session ends."""
        saved = SavedMatch.from_document(request.save)
        if not saved.setup.vs_computer:
            raise ProtocolError("only a match against the computer is kept this way")
        visitor = asker.visitor
        visitor.computer = level_words(saved)
        if saved.match.is_over:
            await self._finish(asker, saved)
            return
        game = self.playing.get(asker.guest)
        if game is not None and game.saved.match.seed != saved.match.seed:  # another match: this one is left
            await self._give_up(asker, game.id, game.saved, game.identity, game.fingerprint, game.started_at)
            await self._drop(asker.guest)
            game = None
        if game is None:
            game = ComputerGame(uuid.uuid4().hex, visitor.name, asker.guest.fingerprint, visitor.secret,
                                await visitor.hashed_secret(), saved, self.store.clock())
            if rated_level(saved, asker.guest.fingerprint) is not None:
                await self._give_up_held(asker)
        game.saved = saved
        self.playing[asker.guest] = game
        await self.store.computer_games.keep(game.record(self.servers.server_id, saved_document(saved)))

    async def dropped(self, asker: Asker, request: ComputerDropped) -> None:
        """The match is over or given up: nothing to keep (a rated one's result follows)."""
        game = self.playing.get(asker.guest)
        await self._drop(asker.guest)
        if game is not None and game.saved.setup.rated:
            self.ended[asker.guest] = game

    async def _finish(self, asker: Asker, saved: SavedMatch) -> None:
        """A match over: nothing to keep; filed and rated if it was a rated match this server kept as it was
        played (each rated match once), the player told what it did to their rating."""
        guest = asker.guest
        game = self.ended.pop(guest, None) or self.playing.get(guest)
        await self._drop(guest)
        strength = rated_level(saved, guest.fingerprint)
        if (game is None or strength is None or rated_level(game.saved, game.fingerprint) != strength
                or game.fingerprint != guest.fingerprint or game.saved.match.seed != saved.match.seed):
            return
        shifts, refusal = await self._file(asker.visitor.name, game.fingerprint, strength, saved, game.started_at)
        guest.send(ComputerResult(shifts, refusal))

    async def _file(self, name: str, fingerprint: str | None, strength: Strength, saved: SavedMatch,
                    started_at: float) -> tuple[tuple[RatingShift, ...], str | None]:
        """File a rated match that is over: what it did to each seat's rating, or why it was not rated."""
        match = saved.match
        result = EndReason.FORFEIT if match.forfeited_by is not None else EndReason.WON
        seat = SeatRecord(name, name, fingerprint, False)
        finished, refusal = await self.store.finished.file_computer_match(seat, strength, match.to_dict(), result,
                                                                 started_at)
        return rating_shifts(finished), refusal

    async def _give_up_held(self, asker: Asker) -> None:
        """A keyed player starts a rated match: any rated match held for them (left unfinished) is given up."""
        await self.refresh()
        fingerprint = asker.guest.fingerprint
        for held in [game for game in self.held if game.fingerprint == fingerprint]:
            try:
                kept = SavedMatch.from_document(held.document)
            except SaveError:
                continue
            if rated_level(kept, fingerprint) is None or kept.match.is_over:
                continue
            if not await self.store.computer_games.claim(held.id, self.servers.server_id):
                continue  # taken up meanwhile, on another terminal
            try:
                await self._give_up(asker, held.id, kept, held.identity, fingerprint, held.updated_at)
            except StorageError:
                await self.store.computer_games.hold(held.id, held.held_until or self.store.clock() + KEYED_KEEP)
                raise
        await self.refresh()

    async def _give_up(self, asker: Asker, game_id: str, kept: SavedMatch, name: str, fingerprint: str | None,
                       started_at: float) -> None:
        """A rated match left unfinished for another: lost, filed (rated once a round was decided on the board, as
        any match) and no longer kept; its player is told what came of it. Any other match: nothing to do."""
        strength = rated_level(kept, fingerprint)
        if strength is None or kept.match.is_over:
            return
        kept.match.forfeit(0)
        shifts, refusal = await self._file(name, fingerprint, strength, kept, started_at)
        await self.store.computer_games.drop(game_id)
        said = f"rating {shifts[0].before} to {shifts[0].after}" if shifts and refusal is None else "unrated"
        # Short: it shows in the few lines beside the board of the match just begun.
        asker.guest.send(Notice(f"Lost: your unfinished rated match (level {strength.number}), {said}.", "warning"))

    async def _drop(self, guest: Guest) -> None:
        game = self.playing.pop(guest, None)
        if game is not None:
            await self.store.computer_games.drop(game.id)

    async def resume(self, asker: Asker, request: ComputerResume) -> None:
        """The player's own match, or one held for their name (with the same key, or its secret)."""
        visitor, guest = asker.visitor, asker.guest
        playing = self.playing.get(guest)
        if playing is not None:
            asker.answer(playing.to_message())
            return
        await self.refresh()
        held = self._held_for(guest, visitor)
        if held is None:
            asker.refuse("No match against the computer is kept for you any more.")
            return
        if held.fingerprint is None or held.fingerprint != guest.fingerprint:
            if request.secret is None:
                asker.answer(SecretNeeded(None))
                return
            if not self.code_tries.allow(asker):
                return
            tried = await self.guesses.allow(asker, {game_scope(held.id, asker): GAME_GUESSES})
            if tried is None:
                return
            if not await self.guesses.matches(request.secret, held.secret_hash):
                log.warning("a wrong secret for a match against the computer held for its player, from %s: %d tried "
                            "at that match lately", address_scope(asker).partition(":")[2],
                            tried.tries.get(game_scope(held.id, asker), 0))
                asker.refuse("That is not the secret of that match.")
                return
            await self.guesses.right(tried)
            visitor.keep_secret(clean_secret(request.secret), held.secret_hash)
        if not await self.store.computer_games.claim(held.id, self.servers.server_id):
            asker.refuse("That match was taken up on another terminal.")
            return
        game = ComputerGame(held.id, visitor.name, guest.fingerprint, visitor.secret, await visitor.hashed_secret(),
                            SavedMatch.from_document(held.document))
        self.playing[guest] = game
        await self.store.computer_games.keep(game.record(self.servers.server_id, held.document))
        asker.answer(game.to_message())
        visitor.computer = level_words(game.saved)
        await self.refresh()
        self._changed()

    async def depart(self, guest: Guest) -> None:
        """The session has gone: its match, unless over, is held for the player (weeks with a key, the rest of the
        day without)."""
        self.ended.pop(guest, None)
        game = self.playing.pop(guest, None)
        if game is not None and not game.saved.match.is_over:
            keep = computer_keep(game.fingerprint is not None)
            await self.store.computer_games.hold(game.id, self.store.clock() + keep)
            await self.tidy()
            await self.refresh()

    async def tidy(self) -> None:
        """Games of servers gone are held (as long as a keyed player's: ``refresh`` shortens a guest's), those held
        past their time go, and so do the oldest beyond the most kept."""
        await self.store.computer_games.tidy(sorted(self.servers.live), self.store.clock() + KEYED_KEEP,
                                             MAX_HELD_GAMES)

    async def refresh(self) -> None:
        """Read the held games again; the lobby's guests hear of any change (one may be theirs)."""
        held = await self.store.computer_games.held()
        if held == self.held:
            return
        longest = self.store.clock() + GUEST_KEEP
        too_long = [game for game in held
                    if game.fingerprint is None and game.held_until is not None and game.held_until > longest]
        for game in too_long:  # a guest's game held by ``tidy``
            await self.store.computer_games.hold(game.id, longest)
        if too_long:
            held = await self.store.computer_games.held()
        self.held = held
        self._changed()

    def way_back(self, guest: Guest, visitor: Visitor) -> str | None:
        """How this guest's match against the computer is found again, if it plays one (a session's last line)."""
        game = self.playing.get(guest)
        if game is None or game.saved.match.is_over:
            return None
        if game.fingerprint is not None:
            return (f"Your match against the computer is kept for {duration(KEYED_KEEP)}: connect again with the "
                    f"same key to resume it (or without it, with your secret {visitor.secret}).")
        return (f"Your match against the computer is kept for {duration(GUEST_KEEP)}: connect again and resume it "
                f"with your secret {visitor.secret}.")

    def _held_for(self, guest: Guest, visitor: Visitor) -> ComputerGameRecord | None:
        """The newest game held for this player: under one of their names, or their key."""
        names = identities(guest, visitor)
        fingerprint = guest.fingerprint
        held = [game for game in self.held
                if game.identity in names or (fingerprint is not None and game.fingerprint == fingerprint)]
        return held[-1] if held else None

    def offer(self, guest: Guest, visitor: Visitor) -> ComputerOffer | None:
        """The match against the computer the lobby offers this guest to resume, if any."""
        playing = self.playing.get(guest)
        if playing is not None:
            return offer_of(playing.saved, needs_secret=False)
        held = self._held_for(guest, visitor)
        if held is None:
            return None
        return computer_offer(held, needs_secret=held.fingerprint is None or held.fingerprint != guest.fingerprint)
