"""The statistics (the palette's "Statistics"): matches by mode, accuracy over time, puzzle streaks."""

from __future__ import annotations

from textual.pilot import Pilot

from soluna_tui.local.player_stats import MatchRecord, Stats, StatsStore
from soluna_tui.screens.stats import StatsScreen

from ..app.helpers import wait_for, wait_for_text
from .helpers import TWO_SIZES, hot_seat_app, idle

#: Six matches over four days: against levels 3 and 10, and two players on this terminal; one resigned.
RECORDS = (
    MatchRecord("2026-11-22T19:05:00", "computer", "3", ("Ann", "Computer"), 0, (4, 2), (0, 1, 0, 0, 1, 0),
                (0.82, 0.9), (2, 0), (31, 30)),
    MatchRecord("2026-11-23T20:40:00", "computer", "3", ("Ann", "Computer"), 1, (3, 4), (1, 0, 1, 0, 0, 1, 1),
                (0.74, 0.88), (0, 0), (36, 36)),
    MatchRecord("2026-11-24T18:10:00", "two players", None, ("Ann", "Bob"), 0, (4, 1), (0, 0, 1, 0, 0),
                (0.91, 0.65), (0, 0), (24, 23)),
    MatchRecord("2026-11-25T21:30:00", "computer", "perfect", ("Ann", "Computer"), 1, (0, 1), (1,),
                (0.6, 1.0), (1, 0), (6, 6), "resigned"),
    MatchRecord("2026-11-26T08:55:00", "computer", "3", ("Ann", "Computer"), 0, (4, 3), (0, 1, 1, 0, 0, 1, 0),
                (0.88, 0.86), (0, 0), (38, 37)),
    MatchRecord("2026-11-26T09:30:00", "two players", None, ("Ann", "Bob"), 1, (2, 4), (1, 0, 1, 1, 0, 1),
                (0.7, 0.79), (3, 1), (30, 30)),
)


def keep_statistics(stats: Stats) -> None:
    for record in RECORDS:
        stats.record_match(record)
    for solved in (True, True, False, True, True, True):
        stats.puzzles.count(solved)


async def open_the_statistics(pilot: Pilot) -> None:
    app = pilot.app
    await idle(pilot)
    await pilot.press("ctrl+p", *"Statistics")
    await wait_for_text(pilot, app, "Matches, rounds, accuracy")
    await pilot.press("enter")
    await wait_for(pilot, app, lambda: isinstance(app.screen, StatsScreen), "the statistics")
    await idle(pilot)


@TWO_SIZES
def test_the_statistics(snap_compare, tmp_path, size) -> None:
    StatsStore(tmp_path).update(keep_statistics)
    assert snap_compare(hot_seat_app(tmp_path), terminal_size=size, run_before=open_the_statistics)
