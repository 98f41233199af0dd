"""Sentences that say something true, in plain English: the resume question, the statistics."""

from __future__ import annotations

from soluna_tui.local.player_stats import MatchRecord, Stats, describe
from soluna_tui.local.saves import SavedMatch, SaveStore
from soluna_tui.screens.resume import ResumeScreen
from soluna_tui.screens.stats import StatsScreen

from .helpers import hot_seat, make_app, screen_text


async def test_a_match_with_no_move_is_not_welcomed_back_at_move_1(tmp_path) -> None:
    store = SaveStore(tmp_path)
    store.save(SavedMatch(hot_seat(seed=3), hot_seat(seed=3).new_match()))
    store.release()
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeScreen)
        text = screen_text(app)
        assert "not started yet" in text and "Ann vs Bob" in text and "move 1" not in text
        assert "Play it" in text


def record(mode: str, level: str | None, names: tuple[str, str], accuracy: tuple[float | None, float | None]):
    return MatchRecord(finished="2026-11-20T10:00:00", mode=mode, level=level, names=names, winner=0,
                       stars=(4, 1), round_winners=(0, 0, 1, 0, 0), accuracy=accuracy, hints=(0, 0))


async def test_the_latest_matches_name_the_opponent_or_the_computers_level(tmp_path) -> None:
    stats = Stats([record("computer", "perfect", ("You", "Computer"), (0.8, None)),
                   record("two players", None, ("Ann", "Bob"), (0.5, 1.0))])
    lines = describe(stats)
    assert any("You" in line and "vs level 10 (perfect)" in line and "80%" in line for line in lines)
    assert any("Ann" in line and "vs Bob" in line and "50%" in line for line in lines)
    assert any("Bob" in line and "vs Ann" in line and "100%" in line for line in lines)
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(StatsScreen(stats))
        await pilot.pause()
        assert "vs level 10 (perfect)" in screen_text(app)


async def test_the_new_match_form_says_its_keys_and_offers_the_names_typed_to_open(tmp_path) -> None:
    """"Opens round 1" offered "Player 1" whatever names were typed, and nothing said that Left/Right change a
    value while Up/Down move between fields."""
    from soluna_tui.screens.new_match import NewMatchScreen
    from soluna_tui.widgets.choice import Choice

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewMatchScreen)
        assert "Left/Right change a value, Up/Down move between fields" in screen_text(app)
        await pilot.press("down", *"Zoe", "down", *"Max")
        opener = app.screen.query_one("#opener", Choice)
        first, second = app.screen.query_one("#name-1").value, app.screen.query_one("#name-2").value
        assert "Zoe" in first and "Max" in second and opener.values == [(first, 0), (second, 1)]
        assert f"◂ {first} ▸" in screen_text(app)
        await pilot.press("up", "up", "right")  # against the computer
        await pilot.pause()
        assert [label for label, _ in app.screen.query_one("#opener", Choice).values][1] == "The computer"


async def test_a_level_is_named_alike_on_every_screen_and_in_every_text(tmp_path) -> None:
    """``level 10 (perfect)`` and ``level 2 (greedy)`` beside ``level 3``: the tally, a save's and a kept
    match's line, the stats (``vs computer (perfect)`` and ``level perfect`` before), the new-match list."""
    from soluna_tui.local.match_setup import MatchSetup
    from soluna_tui.rules.strengths import STRENGTHS, level_words, strength_of

    for level, words in (("perfect", "level 10 (perfect)"), ("greedy", "level 2 (greedy)"), ("3", "level 3"),
                         ("random", "level 1 (random)"), ("10", "level 10 (perfect)")):
        assert level_words(level) == strength_of(level).words == words
        assert MatchSetup.against_computer(level).mode_label == words
        lines = describe(Stats([record("computer", strength_of(level).level, ("You", "Computer"), (0.8, None))]))
        assert any(line.startswith(f"vs {words} ") for line in lines)  # the table of matches
        assert any(f"You        vs {words}" in line for line in lines)  # the latest accuracies
    assert MatchSetup.against_computer("perfect", rated=True).mode_label == "level 10 (perfect), rated"
    from soluna_tui.link.messages import ComputerOffer
    from soluna_tui.online.panes.menu_and_settings import describe_computer_match

    assert describe_computer_match(ComputerOffer("greedy", 2, (1, 0), False)) == (
        "your match against the computer at level 2 (greedy): round 2, stars 1-0")
    assert [strength.summary.split(":")[0] for strength in STRENGTHS[:3]] == [
        f"1 (random), rated {STRENGTHS[0].rating}", f"2 (greedy), rated {STRENGTHS[1].rating}",
        f"3, rated {STRENGTHS[2].rating}"]
    app = make_app(tmp_path, MatchSetup.against_computer("perfect", seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "│ 12 discs" in text and "│ level 10 (perfect)" in text  # whole, on a line of its own
