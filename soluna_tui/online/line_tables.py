"""Runs in the child.

The matches of the lobby in lines: the matches in play listed and watched by number, a seat taken back, a match
begun (played or watched: the line mode's core at a ``RemoteTable``, every move told), a rematch, back to the lobby;
and a match against the computer, kept by the server (``ComputerKeeper``), resumed from the lobby.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ..line_mode.line_game import LineGame
from ..link.messages import (
    BackAtTable,
    ComputerDropped,
    ComputerGameKept,
    ComputerOffer,
    ComputerResult,
    ComputerResume,
    ComputerSaved,
    JoinMatch,
    LeaveMatch,
    ListedMatch,
    LobbyListing,
    MatchGone,
    MatchState,
    Moved,
    Request,
    SyncMatch,
    WatchMatch,
)
from ..local.files import SaveError
from ..local.match_setup import MatchSetup
from ..local.saves import SavedMatch
from ..local.table import LocalTable, Table
from ..rules import Match, MatchOptions, OptionError, SolunaError
from ..rules.strengths import CALIBRATED_DISCS, FIRST_MATCHED, check_level, level_words, strength_of
from ..rules.wording import minutes, plural
from .line_state import LobbyState
from .line_words import in_lines, listed_words
from .remote_table import RemoteTable


class ComputerKeeper:
    """Where a match against the computer is kept over SSH: sent to the server, which keeps it for this player
    through a lost connection (and files and rates a rated one as it ended); nothing is written here."""

    def __init__(self, send: Callable[[Request], None]) -> None:
        self._send = send

    def save(self, saved: SavedMatch) -> None:
        self._send(ComputerSaved(saved.to_document()))

    def discard(self) -> None:
        self._send(ComputerDropped())

    def keep_finished(self, saved: SavedMatch, replacing: Path | None = None) -> Path | None:
        if saved.setup.rated and replacing is None:
            self._send(ComputerSaved(saved.to_document()))
        return None

    def withdraw_finished(self, path: Path) -> None:
        """Nothing was kept here, so nothing to take back."""


class TablesPart(LobbyState):
    """A match at a table: between players (played or watched), or against the computer."""

    def _listing(self, message: LobbyListing) -> None:
        self.matches = message.matches
        offered, self.computer = self.computer, message.computer
        if message.computer is not None and offered is None and self.game is None:
            self._say(f"{self._offer_words(message.computer)} Type resume to go on with it.")

    def _offer_words(self, offer: ComputerOffer) -> str:
        secret = " (type resume and its secret: it was kept for another terminal)" if offer.needs_secret else ""
        return (f"Your match against the computer at {level_words(offer.level)} is kept: round {offer.round}, "
                f"stars {offer.stars[0]} to {offer.stars[1]}{secret}.")

    @property
    def _keeper(self) -> ComputerKeeper:
        return ComputerKeeper(self._send)

    def _match_news(self, message: MatchState | Moved) -> None:
        code = message.code
        if code != self.following:
            return  # about a match this terminal has left meanwhile
        if message.notice is not None:
            message = replace(message, notice=in_lines(message.notice))
        remote, game = self.remote, self.game
        if isinstance(message, Moved) and remote is not None and remote.code == code and remote.opponents_move(message):
            message = replace(message, notice=self._bell + (message.notice or ""))  # the bell with the move's news
        if remote is not None and game is not None and remote.code == code:
            over = remote.match.is_over
            if over and isinstance(message, MatchState):
                remote.on_change = None  # the rematch, if it is one, is told as a match of its own
                remote.update(message)
                if remote.match.is_over:
                    remote.on_change = game.changed_elsewhere
                    game.changed_elsewhere()
                else:
                    game.stop()
                    self._sit_at(remote)
                return
            remote.update(message)
            if remote.watching and isinstance(message, Moved):
                self._active()  # following a match that moves is not idleness
            return
        if not isinstance(message, MatchState):
            self._send(SyncMatch(code))  # a move before the whole match: ask for it
            return
        self.seeking, self.waiting_code = False, None
        self.remote = RemoteTable(message, self._send)
        if message.notice is not None:
            self.remote.notices.append(message.notice)
        self._sit_at(self.remote)

    def _back_at_table(self, message: BackAtTable) -> None:
        """Connected again while this player's match runs: straight back to their seat (its state follows)."""
        self.following = message.code
        self._say(f"Your match {message.code} is running: back at your seat.")

    def _takeback_asked(self) -> bool:
        """The opponent asks to take their last move back, unanswered (``accept`` or ``decline`` answers it)."""
        remote = self.remote
        return remote is not None and not remote.watching and remote.takeback not in (None, remote.my_seat)

    def _sit_at(self, remote: RemoteTable) -> None:
        """The match at ``remote`` in lines, introduced with the server's news of it."""
        back = "lobby goes back to the lobby" + ("" if remote.watching else
                                                 f" (your seat is held for {minutes(self.hold_seconds)})")
        said = (f"{'Watching' if remote.watching else 'Playing'} match {remote.code}: say TEXT talks, talk reads the "
                f"last lines, {back}.")
        self.game = LineGame(remote, self._runner, self._say_lines, rematch=self._ask_rematch,
                             notice=" ".join([*remote.take_notices(), said]))
        self.game.start()

    def _ask_rematch(self, match: Match) -> None:
        """A rematch of a match between players is asked of the server: it begins once both asked."""
        if self.remote is not None:
            try:
                self.remote.ask_for_rematch()  # the server says what came of it
            except SolunaError as error:
                self._say(str(error))

    def _match_gone(self, message: MatchGone) -> None:
        if message.code == self.following and self.remote is not None:
            self._back_to_lobby(message.text, gone=True)
        else:
            self._say(message.text)

    def _back_to_lobby(self, notice: str, gone: bool = False) -> None:
        """Leave the match (a seat in a match still in play is held for the player), and say the lobby again."""
        remote, game = self.remote, self.game
        held = remote is not None and not gone and not remote.watching and not remote.match.is_over
        if game is not None:
            game.stop()
            game.table.on_change = None
            # Which match is left (none named: against the computer, which stays kept, offered in the lobby).
            self._send(LeaveMatch(remote.code if remote is not None else None))
        self.remote = self.game = None
        self.following = None
        way_back = (f"Your seat is held for {minutes(self.hold_seconds)}: type matches, then return, to take it "
                    "back." if held and remote is not None else "")
        self._say(notice, f"Back in the lobby. {way_back}".strip(),
                  "Type help for the menu, or quit to leave Soluna.")

    def _cmd_computer(self, argument: str) -> None:
        try:
            level = check_level(argument) if argument else self.choices.level or FIRST_MATCHED.level
        except OptionError:
            self._say(f"There is no level {argument[:12]}: type computer and a level from 1 to 10, like computer 5.")
            return
        setup = self._computer_setup(level)
        table = self._computer_table(SavedMatch(setup, setup.new_match()))
        table.save()
        self._play_computer(table)

    def _computer_setup(self, level: str) -> MatchSetup:
        """A match against the computer on the terms offered. A guest's has hints; a keyed player's follows the
        Hints setting, and with hints off on 12 discs it is rated against the level's rating (as the full-screen
        lobby's settings make it)."""
        choices = self.choices
        options = MatchOptions.preset(choices.rules, stars_to_win=choices.stars, discs=choices.discs,
                                      first_opener=choices.opener)
        hints = not self.rated or choices.hints
        ranked = not hints and options.discs == CALIBRATED_DISCS
        return MatchSetup.against_computer(level, options, name=self.name, hints=hints, review=hints, rated=ranked)

    def _computer_table(self, saved: SavedMatch) -> LocalTable:
        table = LocalTable.from_saved(saved, self._keeper)
        setup = saved.setup
        if setup.rated and setup.computer_level is not None:
            table.notices.append(f"Rated against level {strength_of(setup.computer_level).rated}: no hints, no "
                                 "take-backs.")
        return table

    def _play_computer(self, table: LocalTable) -> None:
        self.following = None
        self.game = LineGame(table, self._runner, self._say_lines, rematch=self._computer_rematch,
                             notice="Type lobby to go back to the lobby: the server keeps this match for you.")
        self.game.start()

    def _computer_rematch(self, match: Match) -> Table:
        assert self.game is not None  # a rematch is asked for by the game
        setup = self.game.table.setup.with_seed(None)
        table = self._computer_table(SavedMatch(setup, match.rematch(setup.seed)))
        table.save()
        return table

    def _cmd_resume(self, argument: str) -> None:
        if self.computer is None:
            self._say("No match against the computer is kept for you.")
            return
        if self.computer.needs_secret and not argument:
            self._say("That match was kept for another terminal: type resume and its secret, like resume KQXPMR.")
            return
        self._send(ComputerResume(argument.upper() or None))

    def _resume_computer(self, message: ComputerGameKept) -> None:
        try:
            saved = SavedMatch.from_document(message.save)
        except SaveError as error:
            self._say(f"That match could not be resumed: {error}.")
            return
        self.secret = message.secret or self.secret
        self._play_computer(self._computer_table(saved))

    def _computer_result(self, message: ComputerResult) -> None:
        self._say(*(shift.line for shift in message.ratings), message.unrated or "")

    def _cmd_matches(self, argument: str) -> None:
        if not self.matches:
            self._say("No match in play. Type quick for a quick match.")
            return
        self._say(f"{plural(len(self.matches), 'match')} in play:",
                  *(listed_words(number, listed) for number, listed in enumerate(self.matches, 1)),
                  "Type watch and a number to watch one.")

    def _listed(self, argument: str) -> ListedMatch | None:
        if argument.isascii() and argument.isdigit() and 1 <= int(argument) <= len(self.matches):
            return self.matches[int(argument) - 1]
        code = argument.upper()
        return next((listed for listed in self.matches if listed.code == code), None)

    def _cmd_watch(self, argument: str) -> None:
        listed = self._listed(argument) if argument else None
        if listed is None:
            self._say("Which match? Type watch and its number from matches, like watch 1."
                      if self.matches else "No match in play to watch.")
            return
        self.following = listed.code
        self._send(WatchMatch(listed.code))

    def _cmd_return(self, argument: str) -> None:
        listed = next((listed for listed in self.matches if listed.yours), None)
        if listed is None:
            self._say("No seat of yours is held in a match in play.")
            return
        self.following = listed.code
        self._send(JoinMatch(listed.code, self.choices.hints))
