"""Match my strength: the level whose own accuracy is nearest the player's recent accuracy against the computer."""

from __future__ import annotations

import json

import pytest

from soluna_tui import cli
from soluna_tui.local.player_stats import MatchRecord, Stats, StatsStore, match_my_strength
from soluna_tui.rules.strengths import FIRST_MATCHED, STRENGTHS, nearest_in_accuracy, strength_of
from soluna_tui.screens.game import GameScreen
from soluna_tui.widgets.choice import Choice

from .helpers import make_app, screen_text, wait_for_text


def computer_match(accuracy: float | None, moves: int | None = 20, hints: int = 0, level: str = "5") -> MatchRecord:
    return MatchRecord("2026-11-26T10:00:00", "computer", level, ("Ann", "Computer"), 0, (4, 2), (0, 1, 0, 0, 1, 0),
                       (accuracy, 0.9), (hints, 0), None if moves is None else (moves, moves))


def two_players(accuracy: float) -> MatchRecord:
    return MatchRecord("2026-11-26T10:00:00", "two players", None, ("Ann", "Bob"), 0, (4, 0), (0, 0, 0, 0),
                       (accuracy, accuracy), (0, 0), (10, 10))


def stats_of(*records: MatchRecord) -> Stats:
    stats = Stats()
    for record in records:
        stats.record_match(record)
    return stats


def test_the_levels_accuracy_rises_with_their_strength_up_to_perfect_play() -> None:
    accuracies = [strength.accuracy for strength in STRENGTHS]
    assert accuracies == sorted(accuracies) and len(set(accuracies)) == len(accuracies)
    assert accuracies[-1] == 1.0 and 0.5 < accuracies[0] < 0.7  # random play keeps the best outcome often
    for strength in STRENGTHS:
        assert nearest_in_accuracy(strength.accuracy) is strength


def test_the_level_is_chosen_from_the_last_five_matches_against_the_computer_without_hints() -> None:
    stats = stats_of(
        computer_match(0.30),  # sixth from last: left out
        computer_match(0.70, moves=10),
        computer_match(0.99, hints=3),  # a hint taken: left out
        two_players(1.0),  # not against the computer
        computer_match(None),  # never judged: left out
        computer_match(0.80, moves=30),
        computer_match(0.75),
        computer_match(0.70),
        computer_match(0.85, moves=None),  # written before moves were kept: weighs as the others (20)
    )
    chosen = match_my_strength(stats)
    # (0.70*10 + 0.80*30 + 0.75*20 + 0.70*20 + 0.85*20) / 100 = 0.77: nearest level 4's own 76.9%
    assert chosen.strength is strength_of("4")
    assert chosen.reason == "Level 4 chosen: your accuracy in your last 5 matches was 77%"


def test_one_match_is_said_as_one_and_a_perfect_player_meets_perfect_play() -> None:
    assert match_my_strength(stats_of(computer_match(1.0))).reason == (
        "Level 10 (perfect) chosen: your accuracy in your last match was 100%")
    assert match_my_strength(stats_of(computer_match(0.4))).strength is strength_of("1")


def test_with_no_match_to_go_by_a_gentle_start_is_said_as_such() -> None:
    for stats in (Stats(), stats_of(two_players(0.9), computer_match(0.9, hints=1))):
        chosen = match_my_strength(stats)
        assert chosen.strength is FIRST_MATCHED is strength_of("3")
        assert chosen.reason == "Level 3 chosen: a gentle start, with no match against the computer without hints" \
                                " to go by yet"


def test_the_moves_made_are_kept_and_an_older_stats_file_still_reads(tmp_path) -> None:
    store = StatsStore(tmp_path)
    store.update(lambda stats: stats.record_match(computer_match(0.75, moves=12)))
    document = json.loads((tmp_path / "stats.json").read_text())
    assert document["version"] == 1 and document["matches"][0]["moves"] == [12, 12]
    del document["matches"][0]["moves"]  # as the versions before wrote it
    (tmp_path / "stats.json").write_text(json.dumps(document))
    record = store.load().matches[0]
    assert store.problem is None and record.moves is None and record.accuracy == (0.75, 0.9)
    document["matches"][0]["moves"] = [-1, 3]
    (tmp_path / "stats.json").write_text(json.dumps(document))
    assert store.load().matches == [] and "negative" in (store.problem or "")


async def test_the_new_match_screen_offers_it_says_why_and_remembers_it(tmp_path) -> None:
    StatsStore(tmp_path).update(lambda stats: stats.record_match(computer_match(0.86)))
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("right")  # against the computer
        level = app.screen.query_one("#level", Choice)
        assert level.value == "match"  # offered first to a player who has not chosen a level
        await wait_for_text(pilot, app, "Level 6 chosen: your accuracy in your last match was 86%.")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        setup = app.screen.table.setup
        assert (setup.computer_level, setup.matched) == ("6", True)
        assert "level 6" in screen_text(app)
    again = make_app(tmp_path)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")  # not the match just started: a new one
        await pilot.pause()
        assert again.screen.query_one("#level", Choice).value == "match"  # as it was last chosen
        assert "Level 6 chosen" in screen_text(again)


@pytest.mark.parametrize("recorded, said", [
    (None, "Level 3 chosen: a gentle start, with no match against the computer without hints to go by yet."),
    (0.93, "Level 8 chosen: your accuracy in your last match was 93%."),
])
def test_play_vs_match_chooses_from_the_stats_and_says_so(monkeypatch, tmp_path, recorded, said) -> None:
    if recorded is not None:
        StatsStore(tmp_path).update(lambda stats: stats.record_match(computer_match(recorded)))
    started = {}
    monkeypatch.setattr(cli, "_run_app", lambda args, **start: started.update(start) or 0)
    assert cli.main(["play", "--vs", "match", "--data-dir", str(tmp_path)]) == 0
    assert started["setup"].computer_level == ("3" if recorded is None else "8") and started["setup"].matched
    assert started["start_notice"] == said


async def test_the_game_says_the_level_chosen_as_it_starts(tmp_path) -> None:
    from soluna_tui.local.match_setup import MatchSetup

    setup = MatchSetup.against_computer("6", seed=1, matched=True)
    app = make_app(tmp_path, setup, start_notice="Level 6 chosen: your accuracy in your last match was 86%.")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await wait_for_text(pilot, app, "Level 6 chosen")
