"""``soluna export``: a match as text (``play/match_text.py``), judged by perfect play.

``soluna export`` finds the match: the unfinished one in the data directory, a match file, or a
server's store; judges what the game did not keep judged; and prints it.

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
from typing import TYPE_CHECKING, Any

from .local.files import one_line, shorten
from .local.judgements import RoundVerdicts, review_from_verdicts
from .play.match_text import export_match
from .rules import Budget, Match, MatchFormatError, SearchAborted, SolunaError, Verdict, shared_solver
from .rules.clock import clock_face
from .rules.end_reason import EndReason, read_end_reason
from .rules.round import Round
from .rules.solver import Solver
from .rules.teaching import RoundReview

if TYPE_CHECKING:
    from .local.saves import SavedMatch

#: Seconds the solver may spend judging one round before the export gives up judging it.
DEFAULT_SECONDS_PER_ROUND = 60.0


class ExportError(ValueError):
    """Nothing to export where the user pointed (missing, unreadable, not a match)."""


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
    #: How it ended when the board does not say (a match on this computer lost on time).
    ended: EndReason | None = None


def saved_found(saved: SavedMatch, where: str) -> Found:
    """A match saved on this computer, where it comes from, its clock, and how it ended (on time)."""
    details = [where]
    clock, names = saved.clock, saved.match.players
    if clock is not None:
        left = ", ".join(f"{name} {clock_face(seconds)}" for name, seconds in zip(names, clock.left, strict=True))
        details.append(f"Clock {clock.setting.label}: {left} left")
    return Found(saved.match, details, saved.verdicts, saved.ended)


def match_from_document(document: Any, where: str) -> Found:
    """The match in any of our JSON files (a save, a server archive file, a bare match) and context lines."""
    if not isinstance(document, dict):
        raise ExportError(f"{where} is not a Soluna match file")
    kind = document.get("format")
    try:
        if kind == "soluna-save":
            from .local.saves import SavedMatch

            saved = SavedMatch.from_document(document)
            return saved_found(saved, f"Saved match: {saved.setup.mode_label}, saved {document.get('saved_at', '?')}")
        if kind == "soluna-server-match":
            match = Match.from_dict(document.get("match"))
            return Found(match, [f"Server match {document.get('code', '?')}: {document.get('result', '?')}, "
                                 f"saved {document.get('saved_at', '?')}"],
                         ended=read_end_reason(document.get("result")))
        if kind == "soluna-match":
            return Found(Match.from_dict(document), [])
    except (SolunaError, ValueError) as error:
        raise ExportError(f"{where}: {error}") from None
    raise ExportError(f"{where} is not a Soluna match file")


def read_match_file(path: str | Path) -> Found:
    """The match in a file, read as carefully as the game reads its own: a pipe, a device, a huge file or
    absurd numbers are refused in one line, without hanging or filling the memory. Messages name the path
    as given (``cannot read ./saves/x.json``), not its last part."""
    from .local.files import SaveError, parse_json, read_document_bytes

    shown = str(path)
    try:
        document = parse_json(read_document_bytes(Path(path), shown=shown), shown)
    except SaveError as error:
        raise ExportError(str(error)) from None
    return match_from_document(document, shown)


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
    ended = read_end_reason(finished.result)
    how = ended.words if ended is not None else finished.result
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
    from .server.storage import StorageError, existing_location, open_storage

    try:  # reading must not create a database: the file must be there
        store = await open_storage(existing_location(location, _data_dir(data_dir)), _data_dir(data_dir),
                                   read_only=True)
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
        return Found(_checked(finished.document, code or f"#{match_id}"), stored_match_details(finished),
                     ended=read_end_reason(finished.result))
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
    from .local.files import default_data_dir

    return data_dir if data_dir is not None else default_data_dir()


def unfinished_match(data_dir: Path | None) -> Found:
    """The unfinished match saved in the data directory, read as it is, even while the game plays it:
    nothing is locked, created or moved."""
    from .local.files import SaveError
    from .local.saves import CURRENT_SAVE, read_unfinished

    folder = _data_dir(data_dir)
    try:
        found = read_unfinished(folder)
    except SaveError as error:
        raise ExportError(str(error)) from None
    if found is None:
        raise ExportError(f"no unfinished match in {folder} (no {CURRENT_SAVE}): --last exports the match that "
                          "ended last, or give a match file, or --code for a server's match")
    _, saved = found
    return saved_found(saved, f"Unfinished match: {saved.setup.mode_label}")


def last_finished_match(data_dir: Path | None) -> Found:
    """The local match that ended last (kept in ``DATA_DIR/finished/``), with the verdicts the game kept."""
    from .local.files import SaveError
    from .local.saves import FinishedStore

    store = FinishedStore(_data_dir(data_dir))
    try:
        saved = store.last()
    except SaveError as error:
        raise ExportError(str(error)) from None
    if saved is None:
        raise ExportError(f"no finished match kept in {store.folder}")
    return saved_found(saved, f"Finished match: {saved.setup.mode_label}")


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
    sys.stdout.write(printable(export_match(found.match, found.details, reviews=reviews, ended=found.ended)))
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
    export.add_argument("file", nargs="?", metavar="FILE",
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
