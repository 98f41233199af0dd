"""The table a game screen plays at: who sits where, and how actions reach the match.

``LocalTable`` owns the match on this terminal and saves it after every change.
The game screen only talks to a table, so a remote table (the SSH server's) can
stand in for it without the screen knowing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..rules import Match, Move, OutOfTurnError, PlacedMove
from ..rules.clock import ClockReading, MatchClock, clock_turn
from ..rules.end_reason import EndReason, rematch_allowed
from ..rules.strengths import PERFECT
from .files import SaveError
from .judgements import RoundVerdicts, known_verdicts
from .match_setup import MatchSetup
from .saves import SavedMatch

if TYPE_CHECKING:
    from ..rules.solver import Solver


class Seat(StrEnum):
    """Who plays a seat, as this terminal sees it."""

    HUMAN = "human"  # at this keyboard
    COMPUTER = "computer"
    REMOTE = "remote"  # someone elsewhere (over SSH)


#: Short names for the seats (the server side imports these).
HUMAN, COMPUTER, REMOTE = Seat.HUMAN, Seat.COMPUTER, Seat.REMOTE


class Table:
    """What every table offers the game screen.

    A table whose match can change from elsewhere (a remote opponent) calls
    ``changed()``; the screen that shows it sets ``on_change`` (it may be called
    from any thread) and redraws. ``notices`` are one-line news for the player
    ("Bob has disconnected"), taken by the screen as it shows them.
    """

    setup: MatchSetup
    match: Match
    hints_used: list[int]
    #: Analysis mode (every move marked won or lost); kept with a saved match.
    analysis_on = False
    #: Why the last change could not be saved, if it could not.
    save_problem: str | None = None
    #: Set by the screen showing this table; called after a change made elsewhere.
    on_change: Callable[[], None] | None = None
    #: Set by a screen that can redraw its keys alone; called instead of ``on_change`` when nothing shown changed
    #: but what the player may ask (``keys_changed``).
    on_keys_change: Callable[[], None] | None = None
    #: Whether finished matches at this table count in this terminal's stats (``MatchFlow.count_in_stats``).
    records_stats = False
    #: What this terminal's player needs to come back to the match after losing the connection
    #: ("code ABCD, secret KQXPMR"), shown beside the board; empty where there is no coming back.
    comeback = ""
    #: How many watch the match (over SSH: the server says), and the names of those who do not hide.
    spectators = 0
    spectator_names: tuple[str, ...] = ()
    #: Each seat's rating as players see it, beside the name in the tally (over SSH, a keyed player's: the server
    #: says; ``None``: a guest, no rated match yet, or a match on this terminal).
    seat_ratings: tuple[int | None, int | None] = (None, None)
    #: A match may have a clock (kept here, or by the server over SSH): as last read, and when
    #: (``time.monotonic()``).
    clock: ClockReading | None = None
    clock_read_at = 0.0
    #: How a match ended when that is not on the board: on time, by forfeit over SSH (``None`` otherwise).
    ended: EndReason | None = None
    #: Lines about a finished match beyond its board, for its summary: what a rated match did to each
    #: player's rating (over SSH).
    result_notes: tuple[str, ...] = ()
    #: The tournament the match is played for (over SSH: no rematch, no new match from its end; ``None``: none).
    tournament: str | None = None

    def __init__(self) -> None:
        self.notices: list[str] = []

    def changed(self, notice: str | None = None) -> None:
        """The match changed from elsewhere (and, maybe, there is news to show)."""
        if notice:
            self.notices.append(notice)
        if self.on_change is not None:
            self.on_change()

    def keys_changed(self) -> None:
        """Nothing shown changed but what the player may ask (over SSH: their own move, confirmed, may now be
        asked back): the keys alone, where the screen can redraw them alone."""
        if self.on_keys_change is not None:
            self.on_keys_change()
        elif self.on_change is not None:
            self.on_change()

    def take_notices(self) -> list[str]:
        taken, self.notices = self.notices, []
        return taken

    @property
    def hints_allowed(self) -> bool:
        """Whether perfect-play help (hints, analysis) may be shown at this table."""
        return True

    def seat(self, player: int) -> Seat:
        """Who plays ``player``'s seat: this keyboard, the computer or someone elsewhere."""
        raise NotImplementedError

    @property
    def mode_label(self) -> str:
        """What the tally says of the table after the discs: "two players", "level 5", "side line"."""
        return self.setup.mode_label

    @property
    def side_lines_allowed(self) -> bool:
        """Whether a side line may start from this match: not from a match between players over SSH in
        play, for its players or its spectators (it would be an analysis board beside the game)."""
        return self.match.is_over or REMOTE not in (self.seat(0), self.seat(1))

    @property
    def resigning_aborts(self) -> bool:
        """Whether resigning now would abort the match rather than lose it (over SSH, before both players have
        moved: nobody wins, and it is not rated)."""
        return False

    def away_until(self, player: int) -> float | None:
        """While ``player`` is disconnected, when (``time.monotonic()``) their held seat runs out; else ``None``."""
        return None

    @property
    def local_players(self) -> tuple[int, ...]:
        return tuple(player for player in (0, 1) if self.seat(player) == HUMAN)

    @property
    def offers_rematch(self) -> bool:
        """A finished match may be played again from here: by a player at this terminal, unless one of them had
        gone (a forfeit over SSH)."""
        return bool(self.local_players) and rematch_allowed(self.ended)

    @property
    def can_undo(self) -> bool:
        raise NotImplementedError

    @property
    def can_redo(self) -> bool:
        raise NotImplementedError

    def resigner(self) -> int | None:
        """The player who may resign here now (asked first), if any."""
        return None

    def time_runs_out_at(self) -> float | None:
        """When (``time.monotonic()``) the running clock reaches zero, where this table decides it: the screen
        calls ``time_is_up`` then. ``None``: no clock runs here, or the server keeps it."""
        return None

    def time_is_up(self) -> bool:
        """Whether a clock kept here has run out: the match is then lost on time."""
        return False

    def pause_clock(self, paused: bool) -> None:
        """Stop the clock kept here (a dialog is up, the game is closing), or let it run again."""

    def keep_time(self) -> None:
        """Save the time a clock kept here has used so far (a terminal closed without quitting loses little)."""

    def resign(self, player: int) -> None:
        raise OutOfTurnError("nobody can resign here")

    def play(self, placed: PlacedMove, player: int) -> None:
        """Play a move from and onto its places (every screen at the table shows those places)."""
        raise NotImplementedError

    def undo(self) -> list[Move]:
        raise NotImplementedError

    def undo_refusal(self) -> UndoTooLateError | None:
        """Why an undo now would be refused (``undo`` raises it), before anything is stopped for it; ``None``:
        it would not be (it may still find the time run out, and lose the match on time)."""
        return None

    def redo(self) -> list[Move]:
        raise NotImplementedError

    def start_next_round(self, opener: int | None, chooser: int | None) -> None:
        raise NotImplementedError

    def judged(self, solver: Solver | None = None) -> None:
        """The finished match has been reviewed (its positions solved by ``solver``, the shared one by default):
        keep what can help later."""


class UndoTooLateError(OutOfTurnError):
    """A take-back that would need time already spent: the player's clock holds no more than the increment the
    move gained."""


class MatchKeeper(Protocol):
    """Where a local table keeps its match after each change: this computer's save slot and finished
    matches (``SaveStore``), or, over SSH, the server (which keeps no file: no path comes back)."""

    def save(self, saved: SavedMatch) -> None: ...

    def discard(self) -> None: ...

    def keep_finished(self, saved: SavedMatch, replacing: Path | None = None) -> Path | None: ...

    def withdraw_finished(self, path: Path) -> None: ...


class LocalTable(Table):
    """Both seats on this terminal, or one human against the computer (seat 2)."""

    records_stats = True

    def __init__(self, setup: MatchSetup, match: Match | None = None, store: MatchKeeper | None = None,
                 hints_used: tuple[int, int] = (0, 0), analysis_on: bool = False, clock: MatchClock | None = None,
                 ended: EndReason | None = None) -> None:
        super().__init__()
        self.setup = setup
        self.match = match if match is not None else setup.new_match()
        self.store = store
        self.hints_used = list(hints_used)
        self.analysis_on = analysis_on
        self.ended = ended
        #: Where the clock reads the time (``time.monotonic``, as the screen's timers and clock panel do; a test
        #: may set a time of its own before the clock first runs).
        self.time_source: Callable[[], float] = time.monotonic
        #: The match's clock (a saved one as it was saved), stopped until a screen shows the match.
        self.match_clock = clock if clock is not None or setup.clock is None else MatchClock.fresh(setup.clock)
        self._clock_paused = True
        self._clock_follows_match()
        #: Whether this match, finished, has been kept for replay (once, however often it is saved after).
        self.kept_finished = False
        #: The file it was kept in, where the store keeps files (so a take-back can withdraw it).
        self._kept_path: Path | None = None

    @classmethod
    def from_saved(cls, saved: SavedMatch, store: MatchKeeper | None) -> LocalTable:
        """The saved match at a table again, as it was saved."""
        return cls(saved.setup, saved.match, store, saved.hints_used, saved.analysis, saved.clock, saved.ended)

    def seat(self, player: int) -> Seat:
        return COMPUTER if self.setup.is_computer(player) else HUMAN

    # ---- the clock -----------------------------------------------------------------------

    def _clock_follows_match(self, moved: Sequence[int] = (), taken_back: Sequence[int] = (),
                             now: float | None = None) -> None:
        """The clock after a change: the player whose turn it is has theirs running (none while paused or once
        the match is over); each of ``moved`` has just made a move (played or redone: it gains the increment),
        each of ``taken_back`` has had one undone (the increment it gained is taken back; see ``rules/clock.py``)."""
        clock = self.match_clock
        if clock is None:
            return
        now = self.time_source() if now is None else now
        turn = None if self._clock_paused else clock_turn(self.match)
        clock = clock.after_change(now, turn, moved, taken_back)
        self.match_clock, self.clock, self.clock_read_at = clock, clock.reading(now), now

    def pause_clock(self, paused: bool) -> None:
        if self.match_clock is None or paused == self._clock_paused:
            return
        self._clock_paused = paused
        self._clock_follows_match()
        if paused:
            self.save()  # the time used so far, kept: the clock is stopped while the game is closed

    def time_runs_out_at(self) -> float | None:
        return self.match_clock.runs_out_at() if self.match_clock is not None else None

    def keep_time(self) -> None:
        if self.match_clock is not None and self.match_clock.running is not None:
            self.save()

    def time_is_up(self) -> bool:
        """The running clock has reached zero: its player loses the match on time (saved as such)."""
        now = self.time_source()
        loser = self.match_clock.flagged(now) if self.match_clock is not None else None
        if loser is None or self.match.is_over:
            return False
        self.match_clock = self.match_clock.ran_out(loser, now) if self.match_clock is not None else None
        self.match.forfeit(loser)
        self.ended = EndReason.TIME
        self._clock_follows_match(now=now)
        self.save()
        return True

    def _saved(self, verdicts: tuple[RoundVerdicts, ...] = ()) -> SavedMatch:
        """The match as it is saved: its clock stopped now (the time used so far charged)."""
        clock = self.match_clock.run(None, self.time_source()) if self.match_clock is not None else None
        return SavedMatch(self.setup, self.match, (self.hints_used[0], self.hints_used[1]), self.analysis_on,
                          verdicts, clock, self.ended)

    def save(self) -> None:
        """Write the match after a change; a finished match leaves no save behind, and is kept for replay."""
        if self.store is None:
            return
        try:
            if self.match.is_over:
                self.store.discard()  # first: a finished match that cannot be kept must not come back as unfinished
                if not self.kept_finished:
                    self.kept_finished = True
                    self._kept_path = self.store.keep_finished(self._finished())
            else:
                self.store.save(self._saved())
            self.save_problem = None
        except SaveError as error:
            self.save_problem = str(error)

    def _finished(self, verdicts: tuple[RoundVerdicts, ...] = ()) -> SavedMatch:
        return replace(self._saved(verdicts), analysis=False)

    def judged(self, solver: Solver | None = None) -> None:
        """Keep the verdicts the review found with the kept match: ``soluna export`` then solves nothing again."""
        if self.store is None or self._kept_path is None or not self.match.is_over:
            return
        with suppress(SaveError):  # only time is lost: the match itself is kept already
            self.store.keep_finished(self._finished(known_verdicts(self.match, solver)), replacing=self._kept_path)

    def _withdraw_finished(self) -> None:
        """The finished match was taken back: it is kept for replay no longer (nor counted in the stats:
        ``MatchFlow.taken_back``)."""
        try:
            if self._kept_path is not None and self.store is not None:
                self.store.withdraw_finished(self._kept_path)
        except SaveError as error:
            self.save_problem = str(error)
        self.kept_finished, self._kept_path = False, None

    def play(self, placed: PlacedMove, player: int) -> None:
        """Play the move, unless the mover's time ran out first: then the match is lost on time."""
        if self.time_is_up():
            return
        self.match.play(placed, player)
        self._clock_follows_match(moved=(player,))
        self.save()

    def resigner(self) -> int | None:
        """The human to move (two here), or the one human against the computer, whoever is to move."""
        match = self.match
        if match.is_over or match.round.is_over:
            return None
        humans = self.local_players
        if len(humans) == 1:
            return humans[0]
        return match.to_move if match.to_move in humans else None

    def resign(self, player: int) -> None:
        """``player`` gives the match up: the opponent wins it, and it counts as played (a resignation
        is not taken back)."""
        if player != self.resigner():
            raise OutOfTurnError("that player cannot resign now")
        self.match.forfeit(player)
        self.ended = EndReason.RESIGNED  # kept with the match: its export, replay and stats say "resigned"
        self._clock_follows_match()
        self.save()

    def _human_moves_in_round(self) -> int:
        round_ = self.match.round
        return sum(self.seat(round_.mover_at(ply)) is not COMPUTER for ply in range(round_.ply))

    @property
    def can_undo(self) -> bool:
        if not self.match.can_undo or self.match.forfeited_by is not None or self.setup.rated:
            return False  # nothing to take back, a resignation (final), or a rated match (no take-backs)
        # Against the computer, taking back only its opening move is pointless: it would play it again.
        return COMPUTER not in (self.seat(0), self.seat(1)) or self._human_moves_in_round() > 0

    def _movers_to_take_back(self) -> list[int]:
        """Who made the moves an undo takes back, the last first: the last move; against the computer, its
        replies and the move before them (a move of this keyboard's)."""
        round_ = self.match.round
        movers = []
        for ply in reversed(range(round_.ply)):
            movers.append(round_.mover_at(ply))
            if self.seat(movers[-1]) is not COMPUTER:
                break
        return movers

    def undo(self) -> list[Move]:
        """Take back the last move; against the computer, its reply and your move together.

        The clock cannot be wound up: each move taken back loses the increment it gained, and the time spent
        thinking stays spent (``rules/clock.py``). A take-back that would need time already spent is refused
        (``UndoTooLateError``); one that comes once the running clock is at zero takes nothing back: the match
        is lost on time (as a move would be)."""
        if not self.can_undo:
            raise OutOfTurnError("nothing to undo")
        if self.time_is_up():
            return []
        refusal = self._too_late_to_undo(self.time_source())
        if refusal is not None:
            raise refusal
        movers = self._movers_to_take_back()
        was_over = self.match.is_over
        undone = [self.match.undo().move for _ in movers]
        self._clock_follows_match(taken_back=movers)
        self.save()
        if was_over and not self.match.is_over:
            self._withdraw_finished()
        return undone

    def undo_refusal(self) -> UndoTooLateError | None:
        now = self.time_source()
        if not self.can_undo or self.match_clock is None or self.match_clock.flagged(now) is not None:
            return None  # nothing to take back, or the time has run out: the undo loses the match on time
        return self._too_late_to_undo(now)

    def _too_late_to_undo(self, now: float) -> UndoTooLateError | None:
        """The refusal of a take-back that would need time already spent at ``now`` (``None``: it needs none)."""
        clock = self.match_clock
        if clock is None:
            return None
        short = clock.short_of_time(self._movers_to_take_back(), now)
        if short is None:
            return None
        return UndoTooLateError(f"Too late to undo: {self.match.players[short]} has spent that move's "
                                f"{clock.setting.increment:g} s.")

    @property
    def can_redo(self) -> bool:
        return self.match.can_redo

    def redo(self) -> list[Move]:
        """Replay the last undone move; against the computer, its reply too, up to your next turn. Each move
        is played again, and gains its increment again; once the running clock is at zero, nothing is replayed:
        the match is lost on time (as a move would be)."""
        if not self.can_redo:
            raise OutOfTurnError("nothing to redo")
        if self.time_is_up():
            return []
        movers = [self.match.to_move]
        redone = [self.match.redo().move]
        while self.match.can_redo and self.seat(self.match.to_move) is COMPUTER:
            movers.append(self.match.to_move)
            redone.append(self.match.redo().move)
        self._clock_follows_match(moved=movers)
        self.save()
        return redone

    def start_next_round(self, opener: int | None, chooser: int | None) -> None:
        self.match.start_next_round(opener, chooser)
        self._clock_follows_match()
        self.save()


#: The level of the computer that answers in a side line: perfect play, the teacher's.
SIDE_LINE_LEVEL = PERFECT.level


class SideLineTable(LocalTable):
    """Play on from an earlier position of a match, on its copy (``Match.branch``): never saved, kept or
    counted. By hand, or against the computer on ``computer_seat`` (the player plays the other side)."""

    records_stats = False

    def __init__(self, branch: Match, *, computer_seat: int | None = None, hints: bool = True,
                 analysis_on: bool = False) -> None:
        level = SIDE_LINE_LEVEL if computer_seat is not None else None
        setup = MatchSetup(branch.options, branch.players, level, branch.seed, hints=hints, review=False)
        super().__init__(setup, branch, store=None, analysis_on=analysis_on)
        self.computer_seat = computer_seat

    def seat(self, player: int) -> Seat:
        return COMPUTER if player == self.computer_seat else HUMAN

    @property
    def mode_label(self) -> str:
        return "side line"

    def resigner(self) -> int | None:
        return None  # nothing to give up: Escape leaves a side line
