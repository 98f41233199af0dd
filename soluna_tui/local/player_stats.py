"""Statistics kept in the data directory: matches, rounds, accuracy over time, puzzle streaks.

Written atomically like the saves; a file that cannot be read is moved aside
(never deleted) and counting starts afresh. Every update re-reads the file under a
lock, so two copies of the game counting at once both count.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..rules.end_reason import EndReason, gave_up_words, read_end_reason
from ..rules.json_fields import read_field, read_items
from ..rules.strengths import FIRST_MATCHED, MATCHED_FROM, Strength, check_level, level_words, nearest_in_accuracy
from .files import (
    SaveError,
    default_data_dir,
    document_text,
    file_lock,
    move_aside,
    read_json_document,
    remove_leftovers,
    write_atomically,
)
from .match_setup import clean_name

if TYPE_CHECKING:
    from ..rules import Match
    from .match_setup import MatchSetup

STATS_FORMAT = "soluna-stats"
STATS_VERSION = 1
STATS_FILE = "stats.json"
STATS_LOCK = "stats.lock"
MODES = ("two players", "computer")
#: Finished matches kept in the record (the oldest go first beyond this).
MATCH_HISTORY_LIMIT = 500
#: No match has more rounds than this (13 at most, with 7 stars to win).
MAX_ROUNDS = 100


def _fraction(value: float | None) -> float | None:
    return None if value is None else float(value)


@dataclass(frozen=True)
class MatchRecord:
    """One finished match as the stats remember it."""

    finished: str
    mode: str  # "two players" or "computer"
    level: str | None
    names: tuple[str, str]
    winner: int
    stars: tuple[int, int]
    round_winners: tuple[int, ...]
    accuracy: tuple[float | None, float | None]
    hints: tuple[int, int]
    #: The moves each player made (what each accuracy is a share of); ``None`` in records written before it was kept.
    moves: tuple[int, int] | None = None
    #: How it ended when not on the board (``resigned``, ``time``: an ``EndReason``); ``None`` on the board, and in
    #: records written before it was kept.
    ended: str | None = None

    @property
    def gave_up(self) -> str | None:
        """``resigned``, ``ran out of time``: what the loser did, where the match was not played out."""
        return gave_up_words(EndReason(self.ended)) if self.ended is not None else None

    @classmethod
    def from_dict(cls, document: dict[str, Any]) -> MatchRecord:
        where = "a match record"
        names = read_items(document, "names", str, where=where, count=2)
        stars = read_items(document, "stars", int, where=where, count=2)
        hints = read_items(document, "hints", int, where=where, count=2)
        accuracy = read_items(document, "accuracy", float, type(None), where=where, count=2)
        finished = read_field(document, "finished", str, where=where)
        level = read_field(document, "level", str, type(None), where=where, default=None)
        moves = (read_items(document, "moves", int, where=where, count=2)
                 if document.get("moves") is not None else None)
        ended = read_field(document, "ended", str, type(None), where=where, default=None)
        if ended is not None and read_end_reason(ended) is None:
            raise ValueError(f"unknown end of a match {ended!r}"[:80])
        if level is not None:
            level = check_level(level)  # an OptionError (a ValueError) when unknown; the old "trap" is "perfect"
        record = cls(
            finished="".join(char for char in finished[:32] if char.isprintable()),
            mode=read_field(document, "mode", str, where=where),
            level=level,
            names=(clean_name(names[0], "Player 1"), clean_name(names[1], "Player 2")),
            winner=read_field(document, "winner", int, where=where),
            stars=(stars[0], stars[1]),
            round_winners=tuple(read_items(document, "round_winners", int, where=where, longest=MAX_ROUNDS)),
            accuracy=(_fraction(accuracy[0]), _fraction(accuracy[1])),
            hints=(hints[0], hints[1]),
            moves=(moves[0], moves[1]) if moves is not None else None,
            ended=ended,
        )
        if record.winner not in (0, 1) or any(winner not in (0, 1) for winner in record.round_winners):
            raise ValueError("a winner is not player 0 or 1")
        if record.mode not in MODES:
            raise ValueError(f"unknown mode {record.mode!r}"[:80])
        if min(*record.stars, *record.hints, *(record.moves or ())) < 0:
            raise ValueError("a negative count of stars, hints or moves")
        if any(value is not None and not 0 <= value <= 1 for value in record.accuracy):
            raise ValueError("an accuracy outside 0-100%")
        return record

    @property
    def mode_key(self) -> str:
        """``two players`` or ``vs level 10 (perfect)``: how the stats group matches."""
        return f"vs {level_words(self.level or '')}" if self.mode == "computer" else "two players"


@dataclass
class PuzzleRecord:
    solved: int = 0
    failed: int = 0
    streak: int = 0
    best_streak: int = 0

    def count(self, solved: bool) -> None:
        if solved:
            self.solved += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        else:
            self.failed += 1
            self.streak = 0


@dataclass
class ModeSummary:
    """Matches and rounds played and won (by seat 1: you, against the computer) in one mode."""

    matches: int = 0
    matches_won: int = 0
    rounds: int = 0
    rounds_won: int = 0
    wins_by_name: dict[str, int] = field(default_factory=dict)
    #: Matches not played out, by what the loser did and who: ``{"resigned": {"You": 2}}``.
    gave_up: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_dict(self, against_computer: bool) -> dict[str, Any]:
        """As JSON; "won" means won by you, so two-player modes count wins by name only."""
        document = asdict(self)
        if not against_computer:
            del document["matches_won"], document["rounds_won"]
        return document


@dataclass
class Stats:
    matches: list[MatchRecord] = field(default_factory=list)
    puzzles: PuzzleRecord = field(default_factory=PuzzleRecord)

    def record_match(self, record: MatchRecord) -> None:
        self.matches.append(record)
        del self.matches[:-MATCH_HISTORY_LIMIT]

    def withdraw_match(self, record: MatchRecord) -> None:
        """Forget a recorded match (the last record equal to ``record``): it was taken back, it never ended."""
        for index in range(len(self.matches) - 1, -1, -1):
            if self.matches[index] == record:
                del self.matches[index]
                return

    def by_mode(self) -> dict[str, ModeSummary]:
        summaries: dict[str, ModeSummary] = defaultdict(ModeSummary)
        for record in self.matches:
            summary = summaries[record.mode_key]
            summary.matches += 1
            summary.rounds += len(record.round_winners)
            summary.matches_won += record.winner == 0
            summary.rounds_won += sum(winner == 0 for winner in record.round_winners)
            name = record.names[record.winner]
            summary.wins_by_name[name] = summary.wins_by_name.get(name, 0) + 1
            if record.gave_up is not None:
                losers = summary.gave_up.setdefault(record.gave_up, {})
                loser = record.names[1 - record.winner]
                losers[loser] = losers.get(loser, 0) + 1
        return dict(summaries)

    def accuracy_over_time(self, limit: int = 10) -> list[tuple[str, str, float]]:
        """The latest accuracies: (date, player, share of best-outcome moves), oldest first."""
        return [(date, name, accuracy) for date, name, _, accuracy in self.latest_accuracies(limit)]

    def latest_accuracies(self, limit: int = 10) -> list[tuple[str, str, str, float]]:
        """The latest accuracies with whom each was played against: (date, player, opponent (the
        computer's level, or the other player's name), share of best-outcome moves), oldest first."""
        points = []
        for record in self.matches:
            seats = (0,) if record.mode == "computer" else (0, 1)
            for seat in seats:
                accuracy = record.accuracy[seat]
                if accuracy is not None:
                    against = level_words(record.level or "") if record.mode == "computer" else record.names[1 - seat]
                    points.append((record.finished[:10], record.names[seat], against, accuracy))
        return points[-limit:]

    def recent_accuracy(self, count: int = MATCHED_FROM) -> tuple[float, int] | None:
        """Your share of best-outcome moves over your last ``count`` matches against the computer played without
        a hint (whose accuracy is known), and how many there were; ``None`` without one."""
        recent = [record for record in self.matches if record.mode == "computer" and record.accuracy[0] is not None
                  and record.hints[0] == 0][-count:]
        if not recent:
            return None
        # Each match weighs as many moves as you made in it (a record from before moves were kept: as the others).
        known = [record.moves[0] for record in recent if record.moves is not None and record.moves[0] > 0]
        usual = sum(known) / len(known) if known else 1.0
        weights = [record.moves[0] if record.moves is not None and record.moves[0] > 0 else usual
                   for record in recent]
        total = sum(weight * (record.accuracy[0] or 0.0) for weight, record in zip(weights, recent, strict=True))
        return total / sum(weights), len(recent)

    def to_json(self) -> str:
        return document_text(STATS_FORMAT, STATS_VERSION, {
            "matches": [asdict(record) for record in self.matches],
            "puzzles": asdict(self.puzzles),
        })

    @classmethod
    def from_document(cls, document: dict[str, Any]) -> Stats:
        try:
            matches = [MatchRecord.from_dict(item) for item in read_items(
                document, "matches", dict, where="the stats file", longest=MATCH_HISTORY_LIMIT, default=[])]
            counts = read_field(document, "puzzles", dict, where="the stats file", default={})
            puzzles = PuzzleRecord(**{key: read_field(counts, key, int, where="the puzzle counts")
                                      for key in counts})
            if min(asdict(puzzles).values()) < 0:
                raise ValueError("a negative puzzle count")
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
            raise SaveError(f"the stats file is damaged ({type(error).__name__}: {error})") from None
        return cls(matches, puzzles)


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S")


class PlayedAt(Protocol):
    """What the stats read of the table a match was played at (a ``Table``, which stands above the stats)."""

    @property
    def setup(self) -> MatchSetup: ...

    @property
    def match(self) -> Match: ...

    @property
    def hints_used(self) -> list[int]: ...

    @property
    def ended(self) -> EndReason | None: ...


def match_record(table: PlayedAt, accuracy: tuple[float | None, float | None]) -> MatchRecord:
    """The stats' record of the finished match at ``table``."""
    match = table.match
    setup = table.setup
    if match.winner is None:
        raise ValueError("an unfinished match has no record in the stats")
    return MatchRecord(
        finished=now(),
        mode="computer" if setup.vs_computer else "two players",
        level=setup.computer_level,
        names=match.players,
        winner=match.winner,
        stars=match.stars,
        round_winners=tuple(outcome.winner for outcome in match.outcomes),
        accuracy=accuracy,
        hints=(table.hints_used[0], table.hints_used[1]),
        moves=(moves_made(match, 0), moves_made(match, 1)),
        ended=table.ended.value if table.ended is not None else None,
    )


def moves_made(match: Match, player: int) -> int:
    """How many moves ``player`` made over the match's rounds."""
    return sum(played.mover_at(ply) == player for played in match.rounds for ply in range(played.ply))


@dataclass(frozen=True)
class LevelChoice:
    """The level "Match my strength" chose, and the one line that says which and why."""

    strength: Strength
    reason: str


def match_my_strength(stats: Stats) -> LevelChoice:
    """The level whose own accuracy is nearest yours over your recent matches against the computer (without hints),
    or ``FIRST_MATCHED`` with none to go by."""
    recent = stats.recent_accuracy()
    if recent is None:
        return LevelChoice(FIRST_MATCHED, f"Level {FIRST_MATCHED.label} chosen: a gentle start, with no match "
                                           "against the computer without hints to go by yet")
    accuracy, count = recent
    strength = nearest_in_accuracy(accuracy)
    matches = "match" if count == 1 else f"{count} matches"
    return LevelChoice(strength, f"Level {strength.label} chosen: your accuracy in your last {matches} was "
                                 f"{accuracy:.0%}")


class StatsStore:
    """The stats file of one data directory."""

    def __init__(self, data_dir: Path | None = None) -> None:
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self.problem: str | None = None

    @property
    def path(self) -> Path:
        return self.data_dir / STATS_FILE

    def load(self) -> Stats:
        """The stats so far; a damaged file is moved aside (``problem`` says so) and counting restarts."""
        self.problem = None
        if not os.path.lexists(self.path):
            return Stats()
        try:
            return Stats.from_document(read_json_document(self.path, STATS_FORMAT, STATS_VERSION))
        except SaveError as error:
            try:
                self.problem = f"{error}; it was moved to {move_aside(self.path)}"
            except OSError as move_error:
                self.problem = f"{error}; it could not be moved aside ({move_error.strerror})"
            return Stats()

    def save(self, stats: Stats) -> None:
        try:
            write_atomically(self.path, stats.to_json())
        except OSError as error:
            raise SaveError(f"cannot save stats to {self.data_dir}: {error.strerror or error}") from None

    def update(self, change: Callable[[Stats], None]) -> Stats:
        """Load, apply ``change(stats)``, save: one read-modify-write, under the stats lock so that
        another copy of the game updating at the same moment is counted too (not written over)."""
        with file_lock(self.data_dir / STATS_LOCK, STATS_FILE):
            remove_leftovers(self.path)  # of a write killed half-way: nobody else writes it now
            stats = self.load()
            change(stats)
            self.save(stats)
        return stats


#: The width of the table's lines (the mode, then four numbers); narrower, each mode is told in two lines.
TABLE_WIDTH = 51


def describe(stats: Stats, bar: tuple[str, str] = ("#", "."), width: int = 80) -> list[str]:
    """The stats as lines of text, for ``soluna stats`` and the stats screen; in ``width`` columns (a phone's
    screen: the table's rows and the accuracy bars in two lines each)."""
    lines = []
    narrow = width < TABLE_WIDTH
    summaries = stats.by_mode()
    if summaries:
        lines.append("Matches" if narrow else f"{'Matches':<24}{'played':>7}{'won':>6}{'rounds':>8}{'won':>6}")
        for mode in sorted(summaries):
            summary = summaries[mode]
            computer = mode != "two players"
            won = str(summary.matches_won) if computer else "-"
            rounds_won = str(summary.rounds_won) if computer else "-"
            if narrow:
                lines.append(mode)
                lines.append(f"  {summary.matches} played, {won} won; {summary.rounds} rounds, {rounds_won} won")
            else:
                lines.append(f"{mode:<24}{summary.matches:>7}{won:>6}{summary.rounds:>8}{rounds_won:>6}")
            if not computer:
                wins = ", ".join(f"{name} {count}" for name, count in sorted(summary.wins_by_name.items()))
                lines.append(f"  match wins: {wins}")
            for gave_up, losers in sorted(summary.gave_up.items()):
                lines.append(f"  {gave_up}: {', '.join(f'{name} {count}' for name, count in sorted(losers.items()))}")
    else:
        lines.append("No finished matches yet.")
    points = stats.latest_accuracies()
    if points:
        lines.append("")
        lines.append("Accuracy, latest matches (moves that kept the best outcome):")
        full, empty = bar
        for date, name, against, accuracy in points:
            filled = round(accuracy * 10)
            shown = f"{full * filled}{empty * (10 - filled)} {accuracy:.0%}"
            if narrow:
                lines.append(f"  {date} {name[:10]} vs {against[:19]}")
                lines.append(f"    {shown}")
            else:
                lines.append(f"  {date} {name[:10]:<10} vs {against[:19]:<19} {shown}")
    puzzles = stats.puzzles
    lines.append("")
    lines.append(f"Puzzles: {puzzles.solved} solved, {puzzles.failed} failed; "
                 f"streak {puzzles.streak} (best {puzzles.best_streak})")
    return lines
