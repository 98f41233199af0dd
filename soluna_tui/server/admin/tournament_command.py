"""Runs in the server process: ``soluna serve tournament``, run by the owner beside the server (never in it).

``create`` announces a tournament (a Swiss of ``--swiss ROUNDS`` or an arena of ``--arena MINUTES``) starting
``--starts-in MINUTES`` from now, on match terms of its own (rules, stars, discs, clock, rated or not) and for whom
(``--min-rating``, ``--min-rated-matches``); ``list`` prints the tournaments, upcoming and running first (an
ended one with its winner); ``cancel ID`` cancels one that has not ended. Each reads the server's database
(``--data-dir``, ``--database``), which must be there: a running server sees the tournament within seconds (on
PostgreSQL, every server of the fleet at once). Bad input is one line and status 2; a tournament that cannot be
announced or cancelled, or a database that cannot be read or written, one line and status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from ...link.messages import MatchTerms
from ...rules import DEFAULT_DISCS, MAX_DISCS, MIN_DISCS, MatchOptions
from ...rules.clock import ClockSetting, ClockSettingError
from ...rules.match import DEFAULT_STARS, MAX_STARS, MIN_STARS, PRESETS
from ...rules.wording import plural
from ..storage import Storage, StorageError, existing_location, open_storage
from ..tournaments.records import (
    LONGEST_NAME,
    LONGEST_NOTICE_MINUTES,
    MOST_MINUTES,
    MOST_ROUNDS,
    Tournament,
    TournamentError,
    TournamentKind,
    TournamentPlan,
    TournamentState,
)

#: A tournament's clock unless ``--clock`` says otherwise (``none``: no clock, which a tournament should not have).
DEFAULT_CLOCK = "5+3"


def add_tournament_command(commands: argparse._SubParsersAction[Any], data_dir: Callable[[str], Path],
                           whole_number: Callable[[int, int, str], Callable[[str], int]]) -> None:
    """``soluna serve tournament`` and its actions, among ``soluna serve``'s subcommands."""
    tournament = commands.add_parser(
        "tournament", help="announce, list or cancel tournaments (soluna serve tournament --help)",
        description=("Tournaments on this server: a Swiss (a fixed number of rounds, paired by score) or an arena "
                     "(a fixed time, each player paired again as soon as they finish). Players with an SSH key "
                     "join from the lobby (t). See docs/serving.md, \"Tournaments\"."),
        epilog=("Example: soluna serve tournament create --data-dir /var/lib/soluna --name 'Friday Swiss' "
                "--swiss 5 --starts-in 60 --clock 5+3 --rated"))
    actions = tournament.add_subparsers(dest="tournament_action", metavar="ACTION", required=True)
    create = actions.add_parser("create", help="announce a tournament",
                                description="Announce a tournament: players see it in the lobby's tournaments (t), "
                                            "join it before or while it runs, and are seated at each pairing.")
    create.add_argument("--name", required=True, help=f"its name (up to {LONGEST_NAME} characters)")
    kind = create.add_mutually_exclusive_group(required=True)
    kind.add_argument("--swiss", type=whole_number(1, MOST_ROUNDS, "--swiss"), metavar="ROUNDS",
                      help="a Swiss of this many rounds")
    kind.add_argument("--arena", type=whole_number(1, MOST_MINUTES, "--arena"), metavar="MINUTES",
                      help="an arena lasting this many minutes")
    create.add_argument("--starts-in", type=whole_number(0, LONGEST_NOTICE_MINUTES, "--starts-in"), required=True,
                        metavar="MINUTES", help="minutes from now it starts (0: at once)")
    create.add_argument("--clock", type=_clock, default=_clock(DEFAULT_CLOCK), metavar="M+S",
                        help=f"each match's clock: minutes a player, plus seconds a move (default {DEFAULT_CLOCK}); "
                             "any clock, whether or not the server offers it for other matches")
    create.add_argument("--rated", action="store_true", help="its matches are rated")
    create.add_argument("--stars", type=whole_number(MIN_STARS, MAX_STARS, "--stars"), default=DEFAULT_STARS,
                        metavar="N", help=f"stars to win a match (default {DEFAULT_STARS})")
    create.add_argument("--discs", type=whole_number(MIN_DISCS, MAX_DISCS, "--discs"), default=DEFAULT_DISCS,
                        metavar="N", help=f"discs a round (default {DEFAULT_DISCS})")
    create.add_argument("--rules", choices=tuple(PRESETS), default="box",
                        help="box (the same symbols each round, the loser chooses who opens) or online (a fresh "
                             "drop each round, the loser opens); default box")
    create.add_argument("--min-rating", type=whole_number(0, 10_000, "--min-rating"), metavar="R",
                        help="only players rated R or more may join")
    create.add_argument("--min-rated-matches", type=whole_number(0, 100_000, "--min-rated-matches"), metavar="N",
                        help="only players with N rated matches or more may join")
    listing = actions.add_parser("list", help="print the tournaments",
                                 description="Print every tournament: upcoming and running first, then those ended.")
    cancel = actions.add_parser("cancel", help="cancel a tournament",
                                description="Cancel a tournament that has not ended: no more pairings; matches in "
                                            "play go on.")
    cancel.add_argument("id", type=whole_number(1, 2**62, "the tournament's number"), metavar="ID",
                        help="the tournament's number (soluna serve tournament list)")
    for parser, run in ((create, run_create), (listing, run_list), (cancel, run_cancel)):
        parser.add_argument("--database", metavar="URL|PATH",
                            help="the server's database (default: DIR/soluna.sqlite3)")
        parser.add_argument("--data-dir", type=data_dir, metavar="DIR",
                            help="the server's data directory (default: the user data directory)")
        parser.set_defaults(run=run, parser=parser)


def _clock(text: str) -> ClockSetting | None:
    if text.strip().lower() == "none":
        return None
    try:
        return ClockSetting.parse(text)
    except ClockSettingError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def plan_from(args: argparse.Namespace, now: float) -> TournamentPlan:
    """The tournament the options announce (``TournamentError``: a name that is not one)."""
    options = MatchOptions.preset(args.rules, stars_to_win=args.stars, discs=args.discs).to_dict()
    kind, length = (TournamentKind.SWISS, args.swiss) if args.swiss is not None else (TournamentKind.ARENA, args.arena)
    return TournamentPlan(args.name, kind, length, now + args.starts_in * 60,
                          MatchTerms(options, args.clock, rated=args.rated), args.min_rating, args.min_rated_matches)


def run_create(args: argparse.Namespace) -> int:
    try:
        plan = plan_from(args, time.time())
    except TournamentError as error:
        args.parser.error(str(error))

    async def announce(store: Storage) -> list[str]:
        from ..tournaments.engine import TournamentEngine

        made = await TournamentEngine(store).announce(plan)
        return [f"Announced tournament {made.id}: {tournament_line(made)}"]

    return _run(args, announce)


def run_list(args: argparse.Namespace) -> int:
    async def listed(store: Storage) -> list[str]:
        tournaments = await store.tournaments.listed()
        ordered = sorted(tournaments, key=lambda each: each.state.over)  # upcoming and running first
        lines = []
        for each in ordered:
            line = f"{each.id}  {tournament_line(each)}"
            snapshot = await store.tournaments.snapshot(each.id) if each.winner is not None else None
            winner = snapshot.entrant(each.winner) if snapshot is not None and each.winner is not None else None
            lines.append(line + (f", won by {winner.name}" if winner is not None else ""))
        return lines or ["No tournament."]

    return _run(args, listed)


def run_cancel(args: argparse.Namespace) -> int:
    async def cancel(store: Storage) -> list[str]:
        from ..tournaments.engine import TournamentEngine

        known = await store.tournaments.get(args.id)
        if known is None:
            raise TournamentError(f"there is no tournament {args.id}")
        if not await TournamentEngine(store).cancel(args.id):
            raise TournamentError(f"tournament {args.id} is {known.state.value} already")
        return [f"Cancelled tournament {args.id} ({known.plan.name})."]

    return _run(args, cancel)


def _run(args: argparse.Namespace, work: Callable[[Storage], Awaitable[list[str]]]) -> int:
    """The store found (a SQLite file must be there: this never creates one), ``work`` done, its lines printed."""
    from ...local.files import default_data_dir, one_line

    directory = args.data_dir or default_data_dir()

    async def opened(location: str) -> list[str]:
        store = await open_storage(location, directory)
        try:
            return await work(store)
        finally:
            await store.close()

    try:
        lines = asyncio.run(opened(existing_location(args.database, directory)))
    except (StorageError, TournamentError) as error:
        print(f"{args.parser.prog}: error: {one_line(str(error))}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


def tournament_line(tournament: Tournament) -> str:
    """``Friday Swiss: a Swiss of 5 rounds, 5+3, rated, box rules, 4 stars, 12 discs; upcoming, starts ...``."""
    plan = tournament.plan
    length = f"a Swiss of {plural(plan.length, 'round')}" if plan.kind is TournamentKind.SWISS else \
        f"an arena of {plural(plan.length, 'minute')}"
    options = plan.terms.options
    terms = [plan.terms.clock.label if plan.terms.clock else "no clock", "rated" if plan.rated else "unrated",
             f"{_rules_name(options)} rules", plural(int(options.get("stars_to_win", DEFAULT_STARS)), "star"),
             plural(int(options.get("discs", DEFAULT_DISCS)), "disc")]
    if plan.min_rating is not None:
        terms.append(f"rating {plan.min_rating}+")
    if plan.min_rated_matches is not None:
        terms.append(f"{plan.min_rated_matches}+ rated matches")
    state = tournament.state.value
    if tournament.state is TournamentState.UPCOMING:
        state += f", starts {_when(plan.starts_at)}"
    elif tournament.state is TournamentState.RUNNING:
        state += f", round {tournament.round}" if plan.kind is TournamentKind.SWISS else \
            f", ends {_when(plan.ends_at or 0.0)}"
    elif tournament.finished_at is not None:
        state += f" {_when(tournament.finished_at)}"
    return f"{plan.name}: {length}, {', '.join(terms)}; {state}"


def _rules_name(options: dict[str, Any]) -> str:
    for name, (layout, opener) in PRESETS.items():
        if (options.get("next_layout"), options.get("next_opener")) == (layout.value, opener.value):
            return name
    return "custom"


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))
