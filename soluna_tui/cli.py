"""The ``soluna`` command: play, analyze, and the rest. Bad input is one line on stderr and exit 2."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Callable, NoReturn, Sequence

from . import __version__
from .rules import Position, SolunaError, shared_solver
from .rules.solver import Analysis
from .wording import plies, plural

USAGE_ERROR = 2


class CliError(Exception):
    """A bad value on the command line: printed as one line, exit status 2."""


def _fail(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    print(f"{parser.prog}: error: {message}", file=sys.stderr)
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
    position = Position.parse(" ".join(args.position))
    analysis = shared_solver.analyse(position)
    if args.json:
        print(json.dumps(analysis.to_dict(), ensure_ascii=False))
    else:
        print(format_analysis(analysis))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="soluna",
        description=(
            "Soluna, Bruno Faidutti's two-player stacking game, in the terminal. "
            "Stack a tower on another of the same height or the same top symbol; "
            "the player left without a move loses the round."
        ),
        epilog="Run 'soluna COMMAND --help' for a command's options. Without a command, the game starts.",
    )
    parser.add_argument("--version", action="version", version=f"soluna {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

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
    analyze.add_argument("--json", action="store_true", help="print the JSON object of RULES.md instead of a table")
    analyze.set_defaults(run=run_analyze, parser=analyze)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 0
    try:
        return run(args)
    except (SolunaError, CliError) as error:
        _fail(args.parser, str(error))
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
