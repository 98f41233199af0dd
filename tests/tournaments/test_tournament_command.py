"""Issue 42: ``soluna serve tournament create|list|cancel``, the owner's commands, on SQLite and PostgreSQL; bad
input is one line and status 2, a refusal one line and status 1, and a missing SQLite file is never created."""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time
from pathlib import Path

import pytest

from soluna_tui.cli import main
from soluna_tui.rules.clock import ClockSetting
from soluna_tui.server.admin.serve_command import add_serve_command, config_from
from soluna_tui.server.storage import DEFAULT_FILE, open_storage
from soluna_tui.server.tournaments.records import Entrant, TournamentKind, TournamentState

pytestmark = pytest.mark.slow


async def a_server_s_database(location: str, folder: Path) -> None:
    store = await open_storage(location, folder)
    await store.close()


async def tournaments(location: str, folder: Path) -> list:
    store = await open_storage(location, folder)
    try:
        return await store.tournaments.listed()
    finally:
        await store.close()


async def won_by_ann(location: str, folder: Path, tournament: int) -> None:
    """The tournament ``tournament`` finished at 2026-12-06 12:00 UTC, ann its winner."""
    store = await open_storage(location, folder)
    try:
        await store.tournaments.enter(tournament, Entrant("SHA256:ann", "ann", None, 1.0))
        store.clock = lambda: 1_796_558_400.0
        await store.tournaments.move(tournament, [TournamentState.UPCOMING], TournamentState.FINISHED, "SHA256:ann")
    finally:
        await store.close()


def test_the_owner_announces_lists_and_cancels_tournaments(database: str, tmp_path: Path, capsys) -> None:
    asyncio.run(a_server_s_database(database, tmp_path))
    where = ["--database", database, "--data-dir", str(tmp_path)]
    before = time.time()
    assert main(["serve", "tournament", "create", *where, "--name", "Friday  Swiss", "--swiss", "5", "--starts-in",
                 "60", "--clock", "3+2", "--rated", "--stars", "2", "--discs", "8", "--rules", "online",
                 "--min-rating", "1100", "--min-rated-matches", "3"]) == 0
    announced = capsys.readouterr().out
    assert announced.startswith("Announced tournament 1: Friday Swiss: a Swiss of 5 rounds, 3+2, rated, online rules, "
                                "2 stars, 8 discs, rating 1100+, 3+ rated matches; upcoming, starts ")
    assert main(["serve", "tournament", "create", *where, "--name", "Blitz", "--arena", "1", "--starts-in", "0"]) == 0
    [swiss, arena] = asyncio.run(tournaments(database, tmp_path))
    assert swiss.plan.kind is TournamentKind.SWISS and swiss.plan.length == 5 and swiss.plan.rated
    assert before + 3600 <= swiss.plan.starts_at <= time.time() + 3600
    assert swiss.plan.terms.clock == ClockSetting(180, 2) and swiss.plan.terms.options == {
        "stars_to_win": 2, "discs": 8, "next_layout": "new", "next_opener": "loser-opens", "first_opener": 0}
    assert (swiss.plan.min_rating, swiss.plan.min_rated_matches, swiss.plan.created_by) == (1100, 3, None)
    assert arena.plan.kind is TournamentKind.ARENA and arena.plan.length == 1 and not arena.plan.rated
    assert arena.plan.terms.clock == ClockSetting(300, 3) and arena.plan.terms.options["stars_to_win"] == 4
    capsys.readouterr()
    assert main(["serve", "tournament", "cancel", "1", *where]) == 0
    assert capsys.readouterr().out == "Cancelled tournament 1 (Friday Swiss).\n"
    assert main(["serve", "tournament", "list", *where]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in listed] == ["2  Blitz", "1  Friday Swiss"]  # the open ones first
    assert " upcoming, starts " in listed[0] and "; cancelled " in listed[1]
    assert main(["serve", "tournament", "cancel", "1", *where]) == 1
    assert capsys.readouterr().err == "soluna serve tournament cancel: error: tournament 1 is cancelled already\n"
    assert main(["serve", "tournament", "cancel", "7", *where]) == 1
    assert capsys.readouterr().err == "soluna serve tournament cancel: error: there is no tournament 7\n"
    assert [each.state for each in asyncio.run(tournaments(database, tmp_path))] == [
        TournamentState.CANCELLED, TournamentState.UPCOMING]
    asyncio.run(won_by_ann(database, tmp_path, 2))
    assert main(["serve", "tournament", "list", *where]) == 0
    assert capsys.readouterr().out.splitlines()[1].endswith("; finished 2026-12-06 12:00 UTC, won by ann")


def test_as_the_owner_types_them_a_missing_database_and_bad_input_are_one_line_each(tmp_path: Path) -> None:
    """The command in a process of its own: no server database is status 1 (and none is created), bad input 2."""
    def soluna(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "soluna_tui.cli", "serve", "tournament", *arguments],
                              capture_output=True, text=True, timeout=60)

    missing = tmp_path / "none"
    done = soluna("list", "--data-dir", str(missing))
    assert (done.returncode, done.stdout, done.stderr) == (
        1, "", f"soluna serve tournament list: error: no server database at {missing / DEFAULT_FILE}\n")
    done = soluna("create", "--data-dir", str(tmp_path), "--name", "x", "--swiss", "3", "--arena", "5",
                  "--starts-in", "5")
    assert (done.returncode, done.stdout) == (2, "") and done.stderr.startswith(
        "soluna serve tournament create: error: argument --arena: not allowed with argument --swiss")
    assert len(done.stderr.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("arguments", "error"), [
    (["--swiss", "31"], "argument --swiss: --swiss must be 1 to 30, not 31"),
    (["--arena", "30", "--clock", "3x"], "argument --clock: '3x' is not a clock"),
    (["--arena", "30", "--name", " \t"], "a tournament's name is 1 to 40 printable characters"),
    (["--arena", "30", "--stars", "9"], "argument --stars: --stars must be 1 to 7, not 9"),
    (["--arena", "30", "--starts-in", "-1"], "argument --starts-in: --starts-in must be 0 to"),
])
def test_each_bad_option_is_one_line_and_status_2(arguments: list[str], error: str, tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "tournament", "create", "--data-dir", str(tmp_path), "--name", "x", "--starts-in", "5",
              *arguments])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and len(err.splitlines()) == 1 and err.startswith(
        "soluna serve tournament create: error: ") and error in err, err


def test_keyed_players_announce_tournaments_only_where_the_owner_allows_it() -> None:
    parser = argparse.ArgumentParser()
    add_serve_command(parser.add_subparsers(), lambda low, high, what: int, Path)
    assert config_from(parser.parse_args(["serve"])).player_tournaments is False
    assert config_from(parser.parse_args(["serve", "--player-tournaments"])).player_tournaments is True
