"""Level 10 never errs, whatever the discs and the load; the fallible levels think as long on a loaded machine.

A cold proof of the first move takes seconds on 20-24 discs (``docs/playing.md``): the top level solves on
rather than guess when a wall-clock budget runs out, and the others' budget is CPU time, which a loaded
machine does not spend for them. The load is a wall clock running ten times faster than the thread's CPU time (what
a tenth of a core looks like), which costs the test run nothing.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from soluna_tui.rules import Budget, Position, SearchAborted, Solver, choose_move, drop, players
from soluna_tui.rules.players import THINK_CPU_SECONDS, move_chances, think_budget

#: The round of the issue: a win in 17 for the opener, where a guess (1S>1M) is a loss in 18.
WON_IN_17 = Position.parse(" ".join(["1S"] * 7 + ["1M"] * 2 + ["1*"] * 6 + ["1C"] * 5))


@contextmanager
def wall_clock_ten_times_faster(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The load a thread meets on a busy machine, without spending the machine: while the block runs, the wall's
    clock (``time.monotonic``) runs ten times faster than the thread's own CPU time, as it does for a thread
    that gets a tenth of a core (a budget in wall seconds runs out ten times sooner; one in CPU seconds not)."""
    real = time.monotonic
    started = real()
    monkeypatch.setattr(time, "monotonic", lambda: started + 10 * (real() - started))
    try:
        yield
    finally:
        monkeypatch.setattr(time, "monotonic", real)


def proven_best_first_move_cold_on_a_loaded_machine(position: Position, monkeypatch: pytest.MonkeyPatch) -> Solver:
    """Level 10's first move on ``position`` from a cold start under load (``wall_clock_ten_times_faster``): proved
    best, never a guess; the solver it proved it with."""
    solver = Solver()  # cold, as in a fresh process
    with wall_clock_ten_times_faster(monkeypatch):
        move = choose_move("perfect", position, random.Random(0), solver=solver)
    assert solver.is_solved(position), "it guessed instead of proving its move"
    best = solver.analyse(position)
    chosen = next(item for item in best.moves if item.move == move)
    if best.verdict.wins:
        assert chosen.verdict == best.verdict  # the fastest win
    assert dict(move_chances("perfect", position, solver=solver))[move] > 0  # lost: the traps it sets, proved
    return solver


@pytest.mark.parametrize("position", [drop(20, random.Random(1)), drop(22, random.Random(1))], ids=["20-lost", "22"])
def test_level_10_plays_a_proven_best_first_move_cold_on_a_loaded_machine(position: Position,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Its cold proof takes 1-2 CPU seconds on 20 discs and 4-6 on 22: on a loaded machine, ten times more on the
    wall's clock (``wall_clock_ten_times_faster``), far beyond any wall-clock budget. (24 discs, 10-15 CPU seconds,
    would prove nothing more: that its budget is the same up to 24 is ``test_level_10_solves_on_...``'s.)"""
    proven_best_first_move_cold_on_a_loaded_machine(position, monkeypatch)


def test_the_issues_round_is_won_by_level_10_cold_on_a_loaded_machine_and_thrown_by_a_guess(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The round of the issue, proved once: level 10 plays a fastest win, a win in 17, where the guess 1S>1M
    is a loss in 18."""
    best = proven_best_first_move_cold_on_a_loaded_machine(WON_IN_17, monkeypatch).analyse(WON_IN_17)
    assert str(best.verdict) == "win in 17"
    assert str(next(item.verdict for item in best.moves if str(item.move) == "1S>1M")) == "loss in 18"


def test_level_10_never_guesses_when_called_off() -> None:
    """Out of budget (its caller calls it off), it raises rather than play a move it has not proved."""
    with pytest.raises(SearchAborted):
        choose_move("perfect", drop(22, random.Random(1)), random.Random(0), solver=Solver(),
                    budget=Budget(max_positions=200))
    with pytest.raises(SearchAborted, match="cancelled"):
        choose_move("perfect", drop(22, random.Random(1)), random.Random(0), solver=Solver(),
                    budget=Budget(cancelled=lambda: True))


#: The fallible levels' CPU seconds in the tests that spend them: a sixth of ``THINK_CPU_SECONDS``, the same
#: budget in CPU time, spent sooner (under the ten times faster wall clock, a budget of wall seconds gives up after
#: a tenth of it, and the test fails all the same).
TEST_THINK_CPU_SECONDS = 0.5


def test_a_fallible_level_spends_its_cpu_seconds_however_loaded_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Level 9 on 24 discs gives up after ``THINK_CPU_SECONDS`` of its own CPU time, however long that takes
    on a loaded machine, then guesses (it may err)."""
    position, solver = drop(24, random.Random(1)), Solver()
    assert think_budget("9", position).cpu_seconds == THINK_CPU_SECONDS
    monkeypatch.setattr(players, "THINK_CPU_SECONDS", TEST_THINK_CPU_SECONDS)
    with wall_clock_ten_times_faster(monkeypatch):
        started = time.thread_time()
        move = choose_move("9", position, random.Random(0), solver=solver)
        spent = time.thread_time() - started
    assert move in position.legal_moves
    assert not solver.is_solved(position)  # a 24-disc proof takes 10-15 CPU seconds
    assert TEST_THINK_CPU_SECONDS <= spent < TEST_THINK_CPU_SECONDS + 2


def test_a_cpu_budget_is_not_spent_by_waiting_and_a_wall_clock_budget_is() -> None:
    cpu, wall = Budget(cpu_seconds=0.05), Budget(seconds=0.05)
    cpu.spend(0)  # its first look starts its CPU clock
    time.sleep(0.2)
    cpu.spend(0)
    with pytest.raises(SearchAborted, match="0.05 seconds"):
        wall.spend(0)
    started = time.thread_time()
    while time.thread_time() - started < 0.1:
        pass
    with pytest.raises(SearchAborted, match="0.05 CPU seconds"):
        cpu.spend(0)


@pytest.mark.parametrize("discs", [20, 21, 22, 23, 24])
def test_level_10_solves_on_and_a_fallible_level_has_cpu_seconds_on_large_positions(discs: int) -> None:
    large, small = drop(discs, random.Random(1)), drop(18, random.Random(1))
    for level in ("perfect", "10"):
        budget = think_budget(level, large)
        assert (budget.seconds, budget.cpu_seconds, budget.max_positions) == (None, None, None)
    for level in ("3", "9"):
        budget = think_budget(level, large)
        assert (budget.seconds, budget.cpu_seconds) == (None, THINK_CPU_SECONDS)
        assert think_budget(level, small).cpu_seconds is None
