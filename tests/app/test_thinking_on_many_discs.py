"""The computer on many discs. Level 10 says it is thinking while it proves its first move (seconds, from a cold
start), its clock runs meanwhile as a person's would, the move it plays is proved best, and the player can still
resign. A fallible level guesses after a few CPU seconds, and says so."""

from __future__ import annotations

import re
import time

from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.rules import MatchOptions, players, shared_solver
from soluna_tui.rules.clock import ClockSetting
from soluna_tui.screens.confirm import ConfirmScreen

from .helpers import game, make_app, screen_text, settle, wait_for

#: The lines of boxes (a toast may lie over a border).
BOX_DRAWING = re.compile("[\u2500-\u257f]")
#: Each player's time: far more than the proof takes.
CLOCK = ClockSetting(600.0, 0.0)


def toast_words(app) -> str:
    """The words of the toasts shown, their lines joined (a toast wraps its words, over the sidebar's borders)."""
    lines = [line.split("\u258c", 1)[1] for line in screen_text(app).splitlines() if "\u258c" in line]
    return " ".join(" ".join(BOX_DRAWING.sub(" ", line).split()) for line in lines)


def computer_opening(seed: int, discs: int = 22, level: str = "perfect") -> MatchSetup:
    """A match against ``level``, the computer opening (on 22 discs a cold proof of 4-6 CPU seconds, on 24 of
    10-15)."""
    return MatchSetup.against_computer(level, MatchOptions(discs=discs, first_opener=1), seed=seed, clock=CLOCK)


async def test_level_10_thinks_on_its_clock_and_plays_a_proved_best_move(tmp_path) -> None:
    app = make_app(tmp_path, computer_opening(seed=2))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = game(app)
        start = screen.match.position
        assert not shared_solver.is_solved(start)  # a cold proof, as in a fresh process
        await wait_for(pilot, app, lambda: screen.flow.thinking and "thinking" in screen_text(app),
                       "the computer thinking")
        seen_thinking = last_seen_thinking = time.monotonic()
        assert screen.table.match_clock is not None and screen.table.match_clock.running == 1  # its clock runs
        for _ in range(1200):  # at most two minutes, however loaded the machine
            if screen.match.round.ply == 1 and not screen.flow.thinking:
                break
            if screen.flow.thinking and screen.match.round.ply == 0:  # its move not landed: its clock still runs
                last_seen_thinking = time.monotonic()
            await pilot.pause(0.1)
        thought = last_seen_thinking - seen_thinking  # the clock stopped later: the move landed after this
        assert screen.match.round.ply == 1, "the computer never moved"
        assert shared_solver.is_solved(start), "it guessed instead of proving its move"
        best = shared_solver.analyse(start)
        played = next(item for item in best.moves if item.move == screen.match.round.moves[0])
        assert best.verdict.wins and played.verdict == best.verdict  # the fastest win, as the solver says
        assert "guess" not in screen_text(app)
        used = CLOCK.seconds - screen.table.match_clock.left[1]
        assert used >= thought > 0  # its clock ran all the while it thought
        assert screen.table.match_clock.running == 0  # and now yours does


async def test_resigning_while_level_10_thinks_calls_its_proof_off(tmp_path) -> None:
    app = make_app(tmp_path, computer_opening(seed=3, discs=24))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = game(app)
        start = screen.match.position
        assert not shared_solver.is_solved(start)
        await wait_for(pilot, app, lambda: screen.flow.thinking and "thinking" in screen_text(app),
                       "the computer thinking")
        await pilot.press("R")
        await wait_for(pilot, app, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")
        await settle(pilot, app)
        await app.workers.wait_for_complete()
        assert screen.match.forfeited_by == 0 and screen.match.round.ply == 0
        assert not shared_solver.is_solved(start)  # called off, not run to its end


async def test_a_fallible_level_guesses_on_24_discs_and_says_so(tmp_path, monkeypatch) -> None:
    # Half a CPU second to think, not THINK_CPU_SECONDS' three: the same guess, said the same way, sooner.
    monkeypatch.setattr(players, "THINK_CPU_SECONDS", 0.5)
    app = make_app(tmp_path, computer_opening(seed=4, discs=24, level="9"))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        screen = game(app)
        start = screen.match.position
        assert not shared_solver.is_solved(start)
        await wait_for(pilot, app, lambda: screen.flow.thinking, "the computer thinking")
        for _ in range(600):  # half a CPU second: at most a minute, however loaded the machine
            if screen.match.round.ply == 1 and not screen.flow.thinking:
                break
            await pilot.pause(0.1)
        assert screen.match.round.ply == 1, "the computer never moved"
        await wait_for(pilot, app, lambda: "the computer played a guess" in toast_words(app), "the toast")
        assert "It plays at its level again once the table is smaller." in toast_words(app)  # not "perfectly"
