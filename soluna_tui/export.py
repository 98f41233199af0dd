"""A match as text: every move in notation, round by round, judged by perfect play.

``export_match`` is pure (no Textual, no disk): the moves of each round with, for each, its
outcome for the player who made it (``win in 5``, ``loss in 4``) and the judgement of
``rules.teaching`` (kept the win, threw the win away ``??``, best resistance, gave in sooner ``?``),
then who won the round, each player's accuracy and the first blunder. ``soluna export`` finds the
match: the unfinished one in the data directory, a match file, or a server's store.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .rules import Budget, Match, MatchFormatError, SearchAborted, SolunaError, shared_solver
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
    """Who won the match and how (or where it stands, unfinished)."""
    stars = f"{match.stars[0]}-{match.stars[1]}"
    if match.forfeited_by is not None:
        return (f"Result: {match.players[match.forfeited_by]} forfeited; {match.players[match.winner]} wins "
                f"the match (stars {stars}).")
    if match.winner is not None:
        return f"Result: {match.players[match.winner]} wins the match, {stars}."
    return f"Result: not over (round {match.round_number}, stars {stars})."


def _round_lines(number: int, played: Round, match: Match, review: RoundReview | None) -> list[str]:
    names = match.players
    lines = [f"Round {number}: {names[played.opener]} opened; layout {played.start}"]
    if review is None:
        lines.append("  (not judged: perfect play took too long to find for this many discs)")
    width = max((len(name) for name in names), default=0)
    move_width = max((len(str(move)) for move in played.moves), default=0)
    for ply, move in enumerate(played.moves):
        line = f"  {ply + 1:>2}. {names[played.mover_at(ply)]:<{width}}  {move!s:<{move_width}}"
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


# ---- where a match comes from ------------------------------------------------------------


def match_from_document(document: Any, where: str) -> tuple[Match, list[str]]:
    """The match in any of our JSON files (a save, a server archive file, a bare match) and context lines."""
    if not isinstance(document, dict):
        raise ExportError(f"{where} is not a Soluna match file")
    kind = document.get("format")
    try:
        if kind == "soluna-save":
            from .saves import SavedMatch

            saved = SavedMatch.from_document(document)
            return saved.match, [f"Saved game: {saved.setup.mode_label}, saved {document.get('saved_at', '?')}"]
        if kind == "soluna-server-match":
            match = Match.from_dict(document.get("match"))
            return match, [f"Server match {document.get('code', '?')}: {document.get('result', '?')}, "
                           f"saved {document.get('saved_at', '?')}"]
        if kind == "soluna-match":
            return Match.from_dict(document), []
    except (SolunaError, ValueError) as error:
        raise ExportError(f"{where}: {error}") from None
    raise ExportError(f"{where} is not a Soluna match file")


def read_match_file(path: Path) -> tuple[Match, list[str]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise ExportError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ExportError(f"{path} is not a Soluna match file") from None
    try:
        document = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ExportError(f"{path} is not valid JSON") from None
    return match_from_document(document, str(path))


def stored_match_details(finished: Any) -> list[str]:
    """Context lines for a server's finished match: code, when, how it ended, rating changes."""
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(finished.finished_at))
    lines = [f"Server match {finished.code} (#{finished.id}), {finished.result}, finished {stamp}"]
    if finished.rating_changes:
        moves = [f"{seat.name} {change.before.shown} -> {change.after.shown}"
                 for seat, change in zip(finished.seats, finished.rating_changes, strict=True)]
        lines.append(f"Ratings: {', '.join(moves)}")
    else:
        lines.append("Unrated")
    return lines


async def match_from_store(location: str | None, data_dir: Path | None, code: str | None,
                           match_id: int | None) -> tuple[Match, list[str]]:
    """A server's match: by ``match_id``, or the latest finished (else in play) under ``code``."""
    from .server.storage import DEFAULT_FILE, StorageError, open_storage

    if location is None or "://" not in str(location):
        path = Path(location).expanduser() if location is not None else _data_dir(data_dir) / DEFAULT_FILE
        if not path.is_file():  # reading must not create a database
            raise ExportError(f"no server database at {path}")
    try:
        store = await open_storage(location, _data_dir(data_dir))
    except StorageError as error:
        raise ExportError(str(error)) from None
    try:
        if match_id is not None:
            finished = await store.finished_match(match_id)
            if finished is None:
                raise ExportError(f"no finished match #{match_id} in the store")
        else:
            finished = await store.latest_finished(code)
            if finished is None:
                playing = await store.get_match(code)
                if playing is None or playing.document is None:
                    raise ExportError(f"no match with the code {code} in the store")
                return _checked(playing.document, code), [f"Server match {code}, in play (version {playing.version})"]
        return _checked(finished.document, code or f"#{match_id}"), stored_match_details(finished)
    except StorageError as error:
        raise ExportError(str(error)) from None
    finally:
        await store.close()


def _checked(document: dict[str, Any], where: str) -> Match:
    try:
        return Match.from_dict(document)
    except MatchFormatError as error:
        raise ExportError(f"match {where} is damaged: {error}") from None


def _data_dir(data_dir: Path | None) -> Path:
    from .files import default_data_dir

    return data_dir if data_dir is not None else default_data_dir()


def unfinished_match(data_dir: Path | None) -> tuple[Match, list[str]]:
    """The unfinished match saved in the data directory."""
    from .files import SaveError
    from .saves import CURRENT_SAVE, SaveStore

    folder = _data_dir(data_dir)
    try:
        saved = SaveStore(folder).load()
    except SaveError as error:
        raise ExportError(str(error)) from None
    if saved is None:
        raise ExportError(f"no unfinished match in {folder} (no {CURRENT_SAVE}): give a match file, "
                          "or --code for a server's match")
    return saved.match, [f"Unfinished game: {saved.setup.mode_label}"]


def last_finished_match(data_dir: Path | None) -> tuple[Match, list[str]]:
    """The local match that ended last (kept in ``DATA_DIR/finished/``)."""
    from .files import SaveError
    from .saves import FinishedStore

    store = FinishedStore(_data_dir(data_dir))
    try:
        saved = store.last()
    except SaveError as error:
        raise ExportError(str(error)) from None
    if saved is None:
        raise ExportError(f"no finished match kept in {store.folder}")
    return saved.match, [f"Finished game: {saved.setup.mode_label}"]


# ---- soluna export -----------------------------------------------------------------------


def run_export(args: argparse.Namespace) -> int:
    data_dir = getattr(args, "data_dir", None)
    try:
        if args.file is not None and (args.code, args.id, args.database) != (None, None, None):
            raise ExportError("give a match file or a server's match (--code, --id), not both")
        if args.last and (args.file, args.code, args.id, args.database) != (None, None, None, None):
            raise ExportError("--last is the local match that ended last: give no file or server's match with it")
        if args.last:
            match, details = last_finished_match(data_dir)
        elif args.file is not None:
            match, details = read_match_file(args.file)
        elif args.code is not None or args.id is not None:
            import asyncio

            match, details = asyncio.run(match_from_store(args.database, data_dir, args.code, args.id))
        elif args.database is not None:
            raise ExportError("--database needs --code CODE or --id N")
        else:
            match, details = unfinished_match(data_dir)
    except ExportError as error:
        print(f"{args.parser.prog}: error: {error}", file=sys.stderr)
        return 1
    seconds = args.seconds if args.seconds > 0 else None
    sys.stdout.write(export_match(match, details, seconds_per_round=seconds))
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
