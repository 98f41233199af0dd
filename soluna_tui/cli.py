"""The ``soluna`` command: play, analyze, and the rest. Bad input is one line on stderr and exit 2."""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from . import __version__
from .local.files import default_data_dir, one_line, write_atomically
from .rules import DEFAULT_DISCS, MAX_DISCS, MIN_DISCS, OptionError, Position, SolunaError
from .rules.clock import ClockSetting, ClockSettingError
from .rules.match import DEFAULT_STARS, MAX_STARS, MIN_STARS
from .rules.puzzles import DIFFICULTIES, MIN_CHOICES, PUZZLE_MIN_DISCS
from .rules.strengths import FIRST_MATCHED, MATCHED_FROM, STRENGTHS, check_level
from .rules.wording import plies, plural

if TYPE_CHECKING:
    from .local.preferences import Preferences
    from .rules.solver import Analysis

USAGE_ERROR = 2
#: The status of a command whose reader went away (``soluna analyze ... | head``), as if killed by SIGPIPE.
BROKEN_PIPE = 141


class CliError(Exception):
    """A bad value on the command line: printed as one line, exit status 2."""


def _fail(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    print(f"{parser.prog}: error: {one_line(message)}", file=sys.stderr)
    raise SystemExit(USAGE_ERROR)


class _Parser(argparse.ArgumentParser):
    """argparse, but its errors are one line (no usage dump) so they read like ours."""

    def error(self, message: str) -> NoReturn:
        _fail(self, f"{message} (see {self.prog} --help)")


def format_analysis(analysis: Analysis) -> str:
    """The readable table of ``soluna analyze``: every move, its outcome and plies."""
    position = analysis.position
    verdict = analysis.verdict
    lines = [
        f"Position  {position}   ({plural(len(position), 'tower')}, {plural(position.disc_count, 'disc')})",
        f"To move   {verdict.outcome} in {plies(verdict.plies)}"
        + ("  (no legal move: the player to move has lost)" if not analysis.moves else ""),
    ]
    if analysis.moves:
        move_width = max(4, *(len(str(item.move)) for item in analysis.moves))
        result_width = max(6, *(len(str(item.result)) for item in analysis.moves))
        lines.append("")
        lines.append(f"  {'Move':<{move_width}}  {'Result':<{result_width}}  Outcome  Plies")
        for item in analysis.moves:
            lines.append(
                f"  {str(item.move):<{move_width}}  {str(item.result):<{result_width}}  "
                f"{item.verdict.outcome:<7}  {item.verdict.plies:>5}"
            )
    return "\n".join(lines)


def run_analyze(args: argparse.Namespace) -> int:
    from .rules.solver import shared_solver

    position = Position.parse(" ".join(args.position))
    analysis = shared_solver.analyse(position)
    if args.json:
        print(json.dumps(analysis.to_dict(), ensure_ascii=False))
    else:
        print(format_analysis(analysis))
    return 0


def _clock(text: str) -> ClockSetting:
    """An argparse type: a clock, ``3+2`` (minutes each, seconds added a move)."""
    try:
        return ClockSetting.parse(text)
    except ClockSettingError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _int_in(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, with a clear message otherwise."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, not {text!r}") from None
        if not low <= value <= high:
            allowed = f"{low} or {high}" if high == low + 1 else f"{low} to {high}"
            raise argparse.ArgumentTypeError(f"{what} must be {allowed}, not {value}")
        return value

    return convert


#: ``--vs match``: the level your recent accuracy matches ("Match my strength").
MATCH_LEVEL = "match"


def _level(text: str) -> str:
    """An argparse type: a computer level, by its number or its name, or ``match``."""
    if text.strip().lower() == MATCH_LEVEL:
        return MATCH_LEVEL
    try:
        return check_level(text)
    except OptionError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _theme(name: str) -> str:
    from textual.theme import BUILTIN_THEMES

    if name not in BUILTIN_THEMES:
        raise argparse.ArgumentTypeError(f"unknown theme {name!r}; themes: {', '.join(sorted(BUILTIN_THEMES))}")
    return name


def _data_dir(text: str) -> Path:
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} exists and is not a directory")
    return path


def _add_app_options(parser: argparse.ArgumentParser) -> None:
    """Options of the app itself, shared by bare ``soluna`` and ``soluna play``."""
    group = parser.add_argument_group("display and storage")
    group.add_argument("--ascii", action="store_true", default=argparse.SUPPRESS,
                       help="draw with plain 7-bit ASCII (automatic when the locale is not UTF-8 or TERM=linux)")
    group.add_argument("--theme", type=_theme, default=argparse.SUPPRESS, metavar="NAME",
                       help="a Textual theme, e.g. textual-dark, nord, gruvbox, textual-light")
    group.add_argument("--data-dir", type=_data_dir, default=argparse.SUPPRESS, metavar="DIR",
                       help="where the unfinished match, the stats and your preferences are kept "
                            "(default: the user data directory)")
    group.add_argument("--screen-reader", action=argparse.BooleanOptionalAction, default=argparse.SUPPRESS,
                       help="play in lines for a screen reader or a braille display: no full screen, moves typed "
                            "as 3>7 (docs/accessibility.md); remembered until --no-screen-reader "
                            "(SOLUNA_SCREEN_READER=1 or 0 for one run)")
    group.add_argument("--cursor-follows-focus", action=argparse.BooleanOptionalAction, default=argparse.SUPPRESS,
                       help="in the full screen, show the terminal's cursor on the focused tower or control, for a "
                            "braille display or a screen reader's review cursor (docs/accessibility.md); remembered "
                            "until --no-cursor-follows-focus (SOLUNA_CURSOR=focus or hidden for one run)")


def _app_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    from .terminal.sizes import wants_ascii

    return {
        "ascii_mode": getattr(args, "ascii", False) or wants_ascii(),
        "theme": getattr(args, "theme", None),
        "data_dir": getattr(args, "data_dir", None),
    }


def _in_lines(args: argparse.Namespace, preferences: Preferences) -> bool:
    """Whether to play in lines (``--screen-reader``, ``SOLUNA_SCREEN_READER``, or as the preferences remember)."""
    from .line_mode.lines_wanted import wanted

    return wanted(getattr(args, "screen_reader", None), preferences)


def _run_lines(args: argparse.Namespace, preferences: Preferences, setup: Any = None, start_notice: str = "",
               puzzle: tuple[int | None, str, int] | None = None) -> int:
    """The game in lines on this terminal: no full screen, so any terminal (``TERM=dumb`` too) will do."""
    from .terminal.sizes import wants_ascii

    ascii_only = getattr(args, "ascii", False) or wants_ascii()
    data_dir = getattr(args, "data_dir", None)
    if puzzle is not None:
        from .line_mode.local_start import puzzles_in_lines

        return puzzles_in_lines(*puzzle, data_dir, ascii_only=ascii_only)
    from .line_mode.local_start import play_in_lines

    if setup is None:  # bare ``soluna``: the last match's setup again, else the computer at your strength
        from .local.match_setup import MatchSetup
        from .local.player_stats import StatsStore, match_my_strength

        last = preferences.last_setup
        if last is not None:
            setup = last.with_seed(None)
        else:
            store = StatsStore(data_dir)
            chosen = match_my_strength(store.load())
            start_notice = chosen.reason + "."
            setup = MatchSetup.against_computer(chosen.strength.level, matched=True)
    return play_in_lines(setup, data_dir, notice=start_notice, ascii_only=ascii_only, preferences=preferences)


def _run_app(args: argparse.Namespace, **start: Any) -> int:
    from .local.preferences import Preferences

    # Read once, for the choice of lines and for the game: a file found unreadable is set aside as it is read,
    # and the game tells the player so only if it is the one that read it.
    preferences = Preferences(getattr(args, "data_dir", None))
    if _in_lines(args, preferences):
        return _run_lines(args, preferences, **start)
    from .terminal.sizes import refusal

    reason = refusal()
    if reason is not None:
        print(f"soluna: {reason}", file=sys.stderr)
        return 1
    from rich.console import Console

    from .app.focus_cursor import cursor_wanted
    from .app.soluna_app import SolunaApp

    kwargs = _app_kwargs(args)
    cursor = cursor_wanted(getattr(args, "cursor_follows_focus", None), preferences)
    app = SolunaApp(**start, **kwargs, preferences=preferences, cursor_follows_focus=cursor)
    details = io.StringIO()
    # Textual prints an unexpected error's traceback here as it exits: kept for a report, not shown.
    app.error_console = Console(file=details, width=100, color_system=None, markup=False, highlight=False)
    app.run()
    status = app.return_code or 0  # 1 when the app stopped on an unexpected error
    if status and details.getvalue():
        from .local.table import LocalTable

        table = app.game.table if app.game is not None else None
        saved = (isinstance(table, LocalTable) and table.store is not None and table.save_problem is None
                 and not table.match.is_over)
        print(f"soluna: {_file_crash_report(kwargs['data_dir'], details.getvalue(), saved)}", file=sys.stderr)
    return status


def _file_crash_report(data_dir: Path | None, details: str, saved: bool) -> str:
    """Keep the traceback of a crash in the data directory; the one line that tells the player (that
    their match was saved only where there was one, saved)."""
    folder = data_dir or default_data_dir()
    path = folder / time.strftime("crash-%Y%m%d-%H%M%S.log")
    what = "a bug; the match was saved after its last move" if saved else "a bug"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(path, details)
    except OSError:
        return f"the game stopped on an internal error ({what})"
    return f"the game stopped on an internal error ({what}); details in {path}"


def run_start(args: argparse.Namespace) -> int:
    return _run_app(args)


def run_play(args: argparse.Namespace) -> int:
    from .local.match_setup import MatchSetup
    from .rules import MatchOptions

    options = MatchOptions.preset(args.rules, stars_to_win=args.stars, discs=args.discs,
                                  first_opener=args.opener - 1)
    hints, review = not args.no_hints, not args.no_review
    notice = ""
    if args.vs == MATCH_LEVEL:
        from .local.player_stats import StatsStore, match_my_strength

        store = StatsStore(getattr(args, "data_dir", None))
        chosen = match_my_strength(store.load())
        notice = " ".join(filter(None, [store.problem, chosen.reason + "."]))
        setup = MatchSetup.against_computer(chosen.strength.level, options, seed=args.seed, clock=args.clock,
                                            hints=hints, review=review, matched=True)
    elif args.vs is not None:
        setup = MatchSetup.against_computer(args.vs, options, seed=args.seed, clock=args.clock, hints=hints,
                                            review=review)
    else:
        setup = MatchSetup(options, seed=args.seed, clock=args.clock, hints=hints, review=review)
    return _run_app(args, setup=setup, start_notice=notice)


def run_puzzle(args: argparse.Namespace) -> int:
    from .rules.puzzles import make_puzzle

    if not args.json:
        return _run_app(args, puzzle=(args.seed, args.difficulty, args.discs))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    print(json.dumps(make_puzzle(seed, args.difficulty, args.discs).to_dict(), ensure_ascii=False))
    return 0


def run_stats(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from .local.player_stats import StatsStore, describe

    store = StatsStore(getattr(args, "data_dir", None))
    stats = store.load()
    if store.problem:
        print(f"soluna stats: {one_line(store.problem)}", file=sys.stderr)
    if args.json:
        document = {
            "by_mode": {mode: summary.to_dict(mode != "two players") for mode, summary in stats.by_mode().items()},
            "accuracy": [{"date": date, "player": name, "accuracy": value}
                         for date, name, value in stats.accuracy_over_time(limit=50)],
            "puzzles": asdict(stats.puzzles),
        }
        print(json.dumps(document, ensure_ascii=False))
    else:
        print("\n".join(describe(stats)))
    return 0


#: Commands that start the game on this terminal: their parser leaves out ``serve`` and ``export``,
#: whose options live with the server and the exporter (the app starts without importing them).
APP_COMMANDS = ("play", "puzzle")


def starts_the_app(argv: Sequence[str]) -> bool:
    """Whether ``argv`` asks for the game itself (``soluna``, ``soluna play ...``, ``soluna puzzle ...``)
    and nothing that needs every command known (help, the version, another command)."""
    if any(arg in ("-h", "--help", "--version") for arg in argv):
        return False
    return not argv or argv[0] in APP_COMMANDS


def build_parser(every_command: bool = True) -> argparse.ArgumentParser:
    """The ``soluna`` parser; without ``every_command``, only what starts the game (see ``starts_the_app``)."""
    parser = _Parser(
        prog="soluna",
        description=(
            "Soluna, Bruno Faidutti's two-player stacking game, in the terminal. "
            "Stack a tower on another of the same height or the same top symbol; "
            "the player left without a move loses the round."
        ),
        epilog="Run 'soluna COMMAND --help' for a command's options. Without a command, the game starts. "
               "The rules and the notation in full: docs/rules.md in the source tree.",
    )
    parser.add_argument("--version", action="version", version=f"soluna {__version__}")
    _add_app_options(parser)
    parser.set_defaults(run=run_start, parser=parser)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    play = commands.add_parser(
        "play",
        help="start a match at once (two players here, or --vs [LEVEL] against the computer, 1 to 10 or match)",
        description="Start a match now: two players on this terminal, or you against the computer.",
        epilog="computer levels, each with its rating (as soluna serve rates players):\n"
               + "\n".join(f"  {strength.summary}" for strength in STRENGTHS)
               + f"\n  match: the level whose own accuracy is nearest yours in your last {MATCHED_FROM} matches"
                 f"\n         against the computer without hints (from the statistics; level {FIRST_MATCHED.label}"
                 "\n         with none), said as the match starts",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument("--vs", "--level", type=_level, nargs="?", const=MATCH_LEVEL, metavar="LEVEL",
                      help="play against the computer at LEVEL, 1 to 10 (random, greedy and perfect name 1, 2 and 10), "
                           "or match: the level your recent accuracy matches (--vs alone means match); "
                           "listed below")
    play.add_argument("--seed", type=_int_in(0, 10**9 - 1, "the seed"), help="the seed of the layouts (reproducible)")
    play.add_argument("--discs", type=_int_in(MIN_DISCS, MAX_DISCS, "the number of discs"), default=DEFAULT_DISCS,
                      help=f"discs on the table, {MIN_DISCS} to {MAX_DISCS} (default {DEFAULT_DISCS})")
    play.add_argument("--stars", type=_int_in(MIN_STARS, MAX_STARS, "the stars to win"), default=DEFAULT_STARS,
                      help=f"stars to win the match, {MIN_STARS} to {MAX_STARS} (default {DEFAULT_STARS})")
    play.add_argument("--rules", choices=("box", "online"), default="box",
                      help="box: same layout each round, the loser chooses who opens (default); "
                           "online: a new layout each round, the loser opens")
    play.add_argument("--opener", type=_int_in(1, 2, "the opener"), default=1, metavar="1|2",
                      help="who opens round 1: player 1 (default; you, against the computer) or 2")
    play.add_argument("--clock", type=_clock, metavar="MIN+SEC",
                      help="a clock: minutes each for the match, plus seconds added a move (3+2, 10+5; none by "
                           "default); it stops while a dialog is up or the game is closed, and a player whose time "
                           "runs out loses the match")
    play.add_argument("--no-hints", action="store_true", help="turn hints, analysis and opener advice off")
    play.add_argument("--no-review", action="store_true", help="no review of each round when it ends")
    _add_app_options(play)
    play.set_defaults(run=run_play, parser=play)

    puzzle = commands.add_parser(
        "puzzle",
        help="find the only move that wins (a puzzle screen, or --json)",
        description="A position from a real game where exactly one move wins; find it. The same seed always "
                    "gives the same puzzle.",
    )
    puzzle.add_argument("--seed", type=_int_in(0, 10**9 - 1, "the seed"), help="which puzzle (default: random)")
    puzzle.add_argument("--difficulty", choices=("any", *DIFFICULTIES), default="any",
                        help="by plies to the end and legal moves to choose from: "
                             + "; ".join(f"{name} {low}-{high} plies, {MIN_CHOICES[name]}+ moves"
                                         for name, (low, high) in DIFFICULTIES.items()) + " (default any)")
    puzzle.add_argument("--discs", type=_int_in(PUZZLE_MIN_DISCS, 16, "the number of discs"), default=DEFAULT_DISCS,
                        help=f"discs in the game the puzzle comes from, {PUZZLE_MIN_DISCS} to 16 "
                             f"(default {DEFAULT_DISCS})")
    puzzle.add_argument("--json", action="store_true",
                        help='print {"position": ..., "solution": "A>B", "plies": N} instead of playing')
    _add_app_options(puzzle)
    puzzle.set_defaults(run=run_puzzle, parser=puzzle)

    stats = commands.add_parser(
        "stats",
        help="matches, rounds, accuracy over time and puzzle streaks",
        description="Print the statistics kept in the data directory.",
    )
    stats.add_argument("--json", action="store_true", help="print them as one JSON object")
    stats.add_argument("--data-dir", type=_data_dir, default=argparse.SUPPRESS, metavar="DIR",
                       help="the data directory to read (default: the user data directory)")
    stats.set_defaults(run=run_stats, parser=stats)

    analyze = commands.add_parser(
        "analyze",
        help="solve a position with perfect play",
        description=(
            "Solve a position with perfect play: whether the player to move wins or loses, "
            "in how many plies (winner fastest, loser longest), and the same for every legal move, "
            "winning moves first."
        ),
        epilog=(
            "POSITION is towers separated by spaces, each a height then a symbol: S sun, M moon, "
            "* stars, C comet (words, lower case and glyphs work too). "
            "Example: soluna analyze '2S 1M 1M 1*'. Quote it, or the shell may expand '*'."
        ),
    )
    analyze.add_argument("position", nargs="+", metavar="POSITION", help="the towers, e.g. '3M 2S 1S 1*'")
    analyze.add_argument("--json", action="store_true",
                         help="print the JSON object described in docs/rules.md instead of a table")
    analyze.set_defaults(run=run_analyze, parser=analyze)

    if every_command:
        from .server.admin.serve_command import add_serve_command  # soluna serve: its options live with the server

        add_serve_command(commands, _int_in, _data_dir)
        from .export import add_export_command  # soluna export: a match as text, judged by perfect play

        add_export_command(commands, _data_dir)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    game = starts_the_app(arguments)
    if not game:
        gc.enable()  # off while the program loads (see ``launch``); the app turns it on once drawn
    parser = build_parser(every_command=not game)
    try:
        args = parser.parse_args(arguments)
        status: int = args.run(args)
        sys.stdout.flush()  # here, so a reader that went away is noticed while we can still say nothing
        return status
    except (SolunaError, CliError) as error:
        _fail(args.parser, str(error))
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader (head, less) has all it wanted: stop quietly, and keep the interpreter's
        # final flush from failing on the closed pipe too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE


if __name__ == "__main__":
    raise SystemExit(main())
