"""A match as text: every move in notation, round by round, judged by perfect play.

``export_match`` is pure (no Textual, no disk): the moves of each round with, for each, its
outcome for the player who made it (``win in 5``, ``loss in 4``) and the judgement of
``rules.teaching`` (kept the win, threw the win away ``??``, best resistance, gave in sooner ``?``),
then who won the round, each player's accuracy and the first blunder. ``soluna export`` finds the
match: the unfinished one in the data directory, a match file, or a server's store.

Export only reads. A file is read by the game's own careful reader; the unfinished match is read
as it is, even while a game plays it (no lock, no folder made); a store is opened read-only and
what it holds is checked before it is printed, with every control character dropped. The verdicts
the game kept with a finished match are used as they are; what is missing is solved, with a
progress bar on stderr when stderr is a terminal.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .files import one_line, shorten
from .judgements import RoundVerdicts, review_from_verdicts
from .link.end_reason import EndReason
from .play.looks import move_words
from .rules import Budget, Match, MatchFormatError, SearchAborted, SolunaError, Verdict, shared_solver
from .rules.round import Round
from .rules.solver import Solver
from .rules.teaching import ACCURACY_MEANING, MARKS_MEANING, RESULT_CONVENTION, MoveReview, RoundReview, review_round
from .rules.wording import plural

#: Seconds the solver may spend judging one round before the export gives up judging it.
DEFAULT_SECONDS_PER_ROUND = 60.0

RULES_WORDS = {"box": "box rules: the same layout every round, the loser chooses who opens",
               "online": "online rules: a new layout every round, the loser opens"}


class ExportError(ValueError):
    """Nothing to export where the user pointed (missing, unreadable, not a match)."""


def export_match(match: Match, details: Sequence[str] = (), solver: Solver = shared_solver,
                 seconds_per_round: float | None = None,
                 reviews: Sequence[RoundReview | None] | None = None) -> str:
    """The whole match as text; ``details`` are lines of context put under the title (where it was played).

    ``reviews`` (one per round, ``None`` where judging gave up) are used when already made, as the replay
    screen makes them round by round."""
    names = match.players
    if reviews is None:
        reviews = [review_or_none(played, solver, seconds_per_round) for played in match.rounds]
    lines = [f"Soluna: {names[0]} vs {names[1]}", *details, _rules_line(match), result_line(match), "",
             RESULT_CONVENTION, MARKS_MEANING, ACCURACY_MEANING]
    for number, (played, review) in enumerate(zip(match.rounds, reviews, strict=True), start=1):
        lines.append("")
        lines.extend(_round_lines(number, played, match, review))
    return "\n".join(lines) + "\n"


def review_or_none(played: Round, solver: Solver = shared_solver, seconds: float | None = None,
                   cancelled: Callable[[], bool] | None = None) -> RoundReview | None:
    """The round judged by perfect play, or ``None`` when that takes longer than ``seconds`` (or is cancelled)."""
    budget = Budget(seconds=seconds, cancelled=cancelled) if (seconds, cancelled) != (None, None) else None
    try:
        return review_round(played, solver, budget)
    except SearchAborted:
        return None


def move_annotation(judged: MoveReview) -> str:
    """One move's judgement in the export's table: ``win in 5    kept the win``, ``loss in 2  threw ... ??``."""
    text = f"{judged.after!s:<11} {judged.judgement.value}"
    mark = judged.judgement.mark
    return f"{text} {mark}" if mark else text


def _rules_line(match: Match) -> str:
    options = match.options
    rules = RULES_WORDS.get(options.preset_name, f"custom rules: next layout {options.next_layout.value}, "
                                                 f"next opener {options.next_opener.value}")
    return (f"Rules: {rules}; {plural(options.stars_to_win, 'star')} to win; "
            f"{plural(options.discs, 'disc')}; seed {match.seed}")


def result_line(match: Match) -> str:
    """Who won the match and how (or where it stands, unfinished). In the past tense, which reads
    right for every name, "You" (a match against the computer) too; the winner's stars first, as the
    match-over dialog says it ("Computer won the match 4-2")."""
    winner = match.winner
    if winner is None:
        return f"Result: not over (round {match.round_number}, stars {match.stars[0]}-{match.stars[1]})."
    stars = f"{match.stars[winner]}-{match.stars[1 - winner]}"
    if match.forfeited_by is not None:
        return (f"Result: {match.players[match.forfeited_by]} forfeited; {match.players[winner]} won "
                f"the match (stars {stars}).")
    return f"Result: {match.players[winner]} won the match {stars}."


def _round_lines(number: int, played: Round, match: Match, review: RoundReview | None) -> list[str]:
    names = match.players
    lines = [f"Round {number}: {names[played.opener]} opened; layout {played.start}"]
    if review is None:
        lines.append("  (not judged: perfect play took too long to find for this many discs)")
    width = max((len(name) for name in names), default=0)
    written = [move_words(played, ply) for ply in range(played.ply)]
    move_width = max((len(text) for text in written), default=0)
    for ply, move in enumerate(written):
        line = f"  {ply + 1:>2}. {names[played.mover_at(ply)]:<{width}}  {move:<{move_width}}"
        if review is not None:
            line += f"  {move_annotation(review.moves[ply])}"
        lines.append(line.rstrip())
    lines.extend(_round_end(number, played, match, review))
    return lines


def _round_end(number: int, played: Round, match: Match, review: RoundReview | None) -> list[str]:
    names = match.players
    if played.outcome is None:
        if match.forfeited_by is not None:
            return [f"  {names[match.forfeited_by]} forfeited during this round."]
        return [f"  In play: {names[played.to_move]} to move."]
    winner = played.outcome.winner
    stars = [outcome.winner for outcome in match.outcomes[:number]]
    lines = [f"  {names[played.to_move]} cannot move: {names[winner]} won the round "
             f"(stars {stars.count(0)}-{stars.count(1)})."]
    if review is not None:
        shares = []
        for player in (0, 1):
            kept, made = review.kept_and_made(player)
            if made:
                shares.append(f"{names[player]} {kept}/{made} ({round(100 * kept / made)}%)")
        blunder = review.first_blunder
        text = f"  Accuracy: {', '.join(shares)}." if shares else "  Accuracy: no moves."
        if blunder is not None:
            text += f" First blunder: move {blunder.ply + 1}, {names[blunder.player]} ({blunder.move})."
        lines.append(text)
    return lines


# ---- judging, with what the game already solved -----------------------------------------


def judge_round(played: Round, known: Sequence[Verdict | None] = (), solver: Solver = shared_solver,
                seconds: float | None = None, step: Callable[[], None] | None = None) -> RoundReview | None:
    """The round judged by perfect play, or ``None`` when solving takes longer than ``seconds``.

    ``known`` are its positions' verdicts as the game kept them (see ``judgements``): only the
    others are solved, the last position first, so each solve reuses the ones after it and
    ``step`` (called once a position) moves steadily."""
    verdicts: list[Verdict | None] = list(known) if len(known) == played.ply + 1 else [None] * (played.ply + 1)
    budget = Budget(seconds=seconds) if seconds is not None else None
    try:
        for ply in reversed(range(len(verdicts))):
            if verdicts[ply] is None:
                verdicts[ply] = solver.verdict(played.position_at(ply), budget)
            if step is not None:
                step()
    except SearchAborted:
        return None
    return review_from_verdicts(played, [verdict for verdict in verdicts if verdict is not None])


def judge_match(match: Match, known: Sequence[RoundVerdicts] = (), solver: Solver = shared_solver,
                seconds_per_round: float | None = None,
                step: Callable[[], None] | None = None) -> list[RoundReview | None]:
    """Every round judged (``None`` where it took too long), reusing the verdicts ``known``."""
    return [judge_round(played, known[number] if number < len(known) else (), solver, seconds_per_round, step)
            for number, played in enumerate(match.rounds)]


def positions_to_judge(match: Match) -> int:
    """How many positions ``judge_match`` goes through (each round's layout and every move's)."""
    return sum(played.ply + 1 for played in match.rounds)


@contextmanager
def progress_on_terminal(match: Match, solver: Solver = shared_solver) -> Iterator[Callable[[], None] | None]:
    """A progress bar on stderr while the match is judged, when stderr is a terminal (else ``None``):
    positions judged, positions solved so far, and the time it has taken."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn
    from rich.text import Text

    class Solved(ProgressColumn):
        """How much of the game tree the solver has worked through: alive even in one long solve."""

        def render(self, task: Any) -> Text:
            return Text(f"{solver.positions_solved:,} solved")

    columns = (TextColumn("Judging every move"), BarColumn(), MofNCompleteColumn(), TextColumn("positions"),
               Solved(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("judging", total=positions_to_judge(match))
        yield lambda: progress.advance(task)


# ---- where a match comes from ------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """A match to export, the lines that say where it comes from, and its positions' verdicts if kept."""

    match: Match
    details: list[str]
    verdicts: tuple[RoundVerdicts, ...] = ()


def match_from_document(document: Any, where: str) -> Found:
    """The match in any of our JSON files (a save, a server archive file, a bare match) and context lines."""
    if not isinstance(document, dict):
        raise ExportError(f"{where} is not a Soluna match file")
    kind = document.get("format")
    try:
        if kind == "soluna-save":
            from .saves import SavedMatch

            saved = SavedMatch.from_document(document)
            return Found(saved.match, [f"Saved game: {saved.setup.mode_label}, saved {document.get('saved_at', '?')}"],
                         saved.verdicts)
        if kind == "soluna-server-match":
            match = Match.from_dict(document.get("match"))
            return Found(match, [f"Server match {document.get('code', '?')}: {document.get('result', '?')}, "
                                 f"saved {document.get('saved_at', '?')}"])
        if kind == "soluna-match":
            return Found(Match.from_dict(document), [])
    except (SolunaError, ValueError) as error:
        raise ExportError(f"{where}: {error}") from None
    raise ExportError(f"{where} is not a Soluna match file")


def read_match_file(path: Path) -> Found:
    """The match in a file, read as carefully as the game reads its own: a pipe, a device, a huge file or
    absurd numbers are refused in one line, without hanging or filling the memory."""
    from .files import SaveError, parse_json, read_document_bytes

    try:
        document = parse_json(read_document_bytes(path), path.name)
    except SaveError as error:
        raise ExportError(str(error)) from None
    return match_from_document(document, str(path))


#: Latest time a server's store may say a match finished (the year 9999).
LATEST_TIME = 253_402_300_799
#: No rating's estimate or uncertainty comes near this.
RATING_BOUND = 1e6


def _seconds_since_epoch(value: Any, what: str) -> float:
    if type(value) not in (int, float) or not 0 <= value <= LATEST_TIME:
        raise ExportError(f"{what} is damaged: its time is not a time")
    return float(value)


def stored_match_details(finished: Any) -> list[str]:
    """Context lines for a server's finished match: code, when, how it ended, rating changes
    (``ExportError`` if what the store holds for them is not what a server writes)."""
    what = f"match #{finished.id} in the store"
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(_seconds_since_epoch(finished.finished_at, what)))
    # "won, on time", "won, by resignation"... (a result no server writes is shown as it is, made printable)
    how = EndReason(finished.result).words if finished.result in set(EndReason) else finished.result
    lines = [f"Server match {finished.code} (#{finished.id}), {how}, finished {stamp}"]
    changes = finished.rating_changes
    if changes:
        if len(changes) != len(finished.seats) or not all(_sane_rating(rating) for change in changes
                                                          for rating in (change.before, change.after)):
            raise ExportError(f"{what} is damaged: its rating changes are not ratings")
        moves = [f"{seat.name} {change.before.shown} -> {change.after.shown}"
                 for seat, change in zip(finished.seats, changes, strict=True)]
        lines.append(f"Ratings: {', '.join(moves)}")
    else:
        lines.append("Unrated")
    return lines


def _sane_rating(rating: Any) -> bool:
    return all(type(value) is float and math.isfinite(value) and abs(value) <= RATING_BOUND
               for value in (rating.mu, rating.sigma))


#: What the store's own reading of a damaged row raises (JSON that is not JSON or nested too deep,
#: a number of 5,000 digits, keys missing, a value of the wrong kind).
DAMAGED_ROW = (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError, OverflowError)


async def match_from_store(location: str | None, data_dir: Path | None, code: str | None,
                           match_id: int | None) -> Found:
    """A server's match: by ``match_id``, or the latest finished (else in play) under ``code``.

    The store is opened read-only: nothing is created, migrated or written, and a row that is not what
    a server writes is one line."""
    from .server.storage import DEFAULT_FILE, StorageError, open_storage

    if location is None or "://" not in str(location):
        path = Path(location).expanduser() if location is not None else _data_dir(data_dir) / DEFAULT_FILE
        if not path.is_file():  # reading must not create a database
            raise ExportError(f"no server database at {path}")
    try:
        store = await open_storage(location, _data_dir(data_dir), read_only=True)
    except StorageError as error:
        raise ExportError(str(error)) from None
    where = f"match #{match_id}" if match_id is not None else f"match {code}"
    try:
        if match_id is not None:
            finished = await store.finished.get(match_id)
            if finished is None:
                raise ExportError(f"no finished match #{match_id} in the store")
        elif code is None:
            raise ExportError("a server's match is found by --code CODE or --id N")
        else:
            finished = await store.finished.latest_under(code)
            if finished is None:
                playing = await store.matches.get(code)
                if playing is None or playing.document is None:
                    raise ExportError(f"no match with the code {code} in the store")
                return Found(_checked(playing.document, code), [f"Server match {code}, in play "
                                                                 f"(version {playing.version})"])
        return Found(_checked(finished.document, code or f"#{match_id}"), stored_match_details(finished))
    except StorageError as error:
        raise ExportError(str(error)) from None
    except DAMAGED_ROW as error:
        reason = str(error).splitlines()[0] if str(error).strip() else type(error).__name__
        raise ExportError(f"{where} in the store is damaged and cannot be read ({shorten(reason, 80)})") from None
    finally:
        await store.close()


def _checked(document: Any, where: str) -> Match:
    try:
        return Match.from_dict(document)
    except MatchFormatError as error:
        raise ExportError(f"match {where} is damaged: {error}") from None


def _data_dir(data_dir: Path | None) -> Path:
    from .files import default_data_dir

    return data_dir if data_dir is not None else default_data_dir()


def unfinished_match(data_dir: Path | None) -> Found:
    """The unfinished match saved in the data directory, read as it is, even while the game plays it:
    nothing is locked, created or moved."""
    from .files import SaveError
    from .saves import CURRENT_SAVE, read_unfinished

    folder = _data_dir(data_dir)
    try:
        found = read_unfinished(folder)
    except SaveError as error:
        raise ExportError(str(error)) from None
    if found is None:
        raise ExportError(f"no unfinished match in {folder} (no {CURRENT_SAVE}): --last exports the match that "
                          "ended last, or give a match file, or --code for a server's match")
    _, saved = found
    return Found(saved.match, [f"Unfinished game: {saved.setup.mode_label}"], saved.verdicts)


def last_finished_match(data_dir: Path | None) -> Found:
    """The local match that ended last (kept in ``DATA_DIR/finished/``), with the verdicts the game kept."""
    from .files import SaveError
    from .saves import FinishedStore

    store = FinishedStore(_data_dir(data_dir))
    try:
        saved = store.last()
    except SaveError as error:
        raise ExportError(str(error)) from None
    if saved is None:
        raise ExportError(f"no finished match kept in {store.folder}")
    return Found(saved.match, [f"Finished game: {saved.setup.mode_label}"], saved.verdicts)


# ---- soluna export -----------------------------------------------------------------------


def find_match(args: argparse.Namespace) -> Found:
    """The match the command line points at; ``ExportError`` if there is none to be had."""
    data_dir = getattr(args, "data_dir", None)
    if args.file is not None and (args.code, args.id, args.database) != (None, None, None):
        raise ExportError("give a match file or a server's match (--code, --id), not both")
    if args.last and (args.file, args.code, args.id, args.database) != (None, None, None, None):
        raise ExportError("--last is the local match that ended last: give no file or server's match with it")
    if args.last:
        return last_finished_match(data_dir)
    if args.file is not None:
        return read_match_file(args.file)
    if args.code is not None or args.id is not None:
        import asyncio

        return asyncio.run(match_from_store(args.database, data_dir, args.code, args.id))
    if args.database is not None:
        raise ExportError("--database needs --code CODE or --id N")
    return unfinished_match(data_dir)


def printable(text: str) -> str:
    """``text`` with every control character dropped but line ends: nothing read can steer the terminal."""
    return "\n".join("".join(char for char in line if char.isprintable()) for line in text.split("\n"))


def run_export(args: argparse.Namespace) -> int:

    try:
        found = find_match(args)
    except ExportError as error:
        print(f"{args.parser.prog}: error: {one_line(str(error))}", file=sys.stderr)
        return 1
    seconds = args.seconds if args.seconds > 0 else None
    with progress_on_terminal(found.match) as step:
        reviews = judge_match(found.match, found.verdicts, seconds_per_round=seconds, step=step)
    sys.stdout.write(printable(export_match(found.match, found.details, reviews=reviews)))
    return 0


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"the seconds must be a number, 0 or more, not {text!r}")
    return value


def _code(text: str) -> str:
    code = text.strip().upper()
    if not code.isalpha() or not 1 <= len(code) <= 8:
        raise argparse.ArgumentTypeError(f"a match code is a few letters, such as ABCD, not {text!r}")
    return code


def add_export_command(commands: Any, data_dir_type: Callable[[str], Path]) -> None:
    """``soluna export`` (its options live here, beside what it does)."""
    export = commands.add_parser(
        "export",
        help="print a match as text, every move judged by perfect play",
        description="Print a match move by move in notation, each move judged by perfect play (its outcome "
                    "for the player who made it, blunders marked ??), with each round's result and accuracy. "
                    "Without arguments: the unfinished match in the data directory; --last: the one that ended last.",
        epilog="Examples: soluna export > match.txt; soluna export --last; soluna export saved.json; "
               "soluna export --code ABCD (a server's match, in DIR/soluna.sqlite3); "
               "soluna export --database postgresql://host/soluna --code ABCD",
    )
    export.add_argument("file", nargs="?", type=Path, metavar="FILE",
                        help="a match file: a save (current-match.json), a server archive file, or a match document")
    export.add_argument("--code", type=_code, help="a server's match by its code: the latest finished under it, "
                                                   "else the one in play")
    export.add_argument("--id", type=int, metavar="N", help="a server's finished match by its number")
    export.add_argument("--last", action="store_true",
                        help="the match that ended last on this computer (the last 50 are kept)")
    export.add_argument("--database", metavar="URL|PATH",
                        help="the server's store: postgresql://... or a SQLite file (default: DIR/soluna.sqlite3)")
    export.add_argument("--seconds", type=_seconds, default=DEFAULT_SECONDS_PER_ROUND, metavar="S",
                        help=f"longest the solver may judge one round (default {DEFAULT_SECONDS_PER_ROUND:g}; "
                             "0: no limit)")
    export.add_argument("--data-dir", type=data_dir_type, default=argparse.SUPPRESS, metavar="DIR",
                        help="the data directory (default: the user data directory)")
    export.set_defaults(run=run_export, parser=export)
