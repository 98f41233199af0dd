"""The solver is exact: brute force agrees on small positions; the known facts hold."""

from __future__ import annotations

import random
import threading
import time
from functools import cache

import pytest
from hypothesis import given, settings

from soluna_tui.rules import Budget, Position, SearchAborted, Solver, Verdict, drop, every_drop

from .strategies import positions


@cache
def brute_force(position: Position) -> tuple[bool, int]:
    """Plain minimax over towers-with-symbols: (mover wins, plies), winner fastest, loser longest."""
    results = [brute_force(position.after(move)) for move in position.legal_moves]
    if not results:
        return (False, 0)
    losing_for_opponent = [plies for wins, plies in results if not wins]
    if losing_for_opponent:
        return (True, min(losing_for_opponent) + 1)
    return (False, max(plies for _, plies in results) + 1)


@settings(max_examples=300, deadline=None)
@given(positions(max_discs=11, max_height=4))
def test_solver_agrees_with_brute_force(position: Position) -> None:
    solver = Solver()
    verdict = solver.verdict(position)
    assert (verdict.wins, verdict.plies) == brute_force(position)
    for item in solver.analyse(position).moves:
        wins, plies = brute_force(item.result)
        assert item.verdict == Verdict(not wins, plies + 1)
        assert item.result == position.after(item.move)


@pytest.mark.slow
def test_known_facts_of_the_twelve_disc_set() -> None:
    solver = Solver()
    drops = list(every_drop(12))
    assert sum(solver.verdict(start).wins for start in drops) == 712

    reachable: set[Position] = set(drops)
    frontier = set(drops)
    while frontier:
        frontier = {position.after(move) for position in frontier for move in position.legal_moves} - reachable
        reachable |= frontier
    assert len(reachable) == 33_203


def test_renaming_symbols_does_not_change_the_verdict() -> None:
    solver = Solver()
    original = Position.parse("3S 2S 2M 1* 1C 1C")
    renamed = Position.parse("3C 2C 2* 1M 1S 1S")
    assert solver.verdict(original) == solver.verdict(renamed) == Verdict(*brute_force(original))


def test_a_blocked_position_is_lost_in_zero() -> None:
    analysis = Solver().analyse(Position.parse("4S 2M 1C"))
    assert analysis.verdict == Verdict(False, 0) and analysis.moves == ()


def test_analysis_orders_wins_fastest_first_then_losses_longest_first() -> None:
    for seed in range(20):
        analysis = Solver().analyse(drop(10, random.Random(seed)))
        keys = [(not item.verdict.wins, item.verdict.plies if item.verdict.wins else -item.verdict.plies)
                for item in analysis.moves]
        assert keys == sorted(keys)
        best = analysis.moves[0].verdict
        assert analysis.verdict == best


def test_analysis_json_shape_matches_the_spec() -> None:
    document = Solver().analyse(Position.parse("2S 1M 1M 1*")).to_dict()
    assert document == {
        "position": "2S 1M 1M 1*",
        "to_move": "loss",
        "plies": 2,
        "moves": [
            {"move": "1M>1M", "result": "2S 2M 1*", "outcome": "loss", "plies": 2},
            {"move": "1M>1*", "result": "2S 2M 1M", "outcome": "loss", "plies": 2},
            {"move": "1*>1M", "result": "2S 2* 1M", "outcome": "loss", "plies": 2},
        ],
    }


def test_a_budget_stops_the_search_and_the_work_is_kept() -> None:
    solver = Solver()
    start = drop(16, random.Random(3))
    with pytest.raises(SearchAborted):
        solver.verdict(start, Budget(max_positions=1000))
    kept = solver.positions_solved
    assert kept >= 1000
    with pytest.raises(SearchAborted, match="cancelled"):
        solver.verdict(start, Budget(cancelled=lambda: True))
    verdict = solver.verdict(start, Budget(seconds=60))
    assert solver.positions_solved > kept
    assert verdict == Solver().verdict(start)
    assert solver.is_solved(start)


def test_the_cache_is_shared_across_calls() -> None:
    solver = Solver()
    start = drop(12, random.Random(5))
    solver.verdict(start)
    solved = solver.positions_solved
    for move in start.legal_moves:
        assert solver.is_solved(start.after(move))
    solver.analyse(start)
    assert solver.positions_solved == solved


@pytest.mark.slow
@pytest.mark.parametrize("discs", range(13, 19))
def test_reachable_positions_of_larger_sets_agree_with_brute_force(discs: int) -> None:
    rng = random.Random(discs)
    solver = Solver()
    for _ in range(3):
        position = drop(discs, rng)
        for _ in range(discs - 11):
            if position.is_blocked:
                break
            position = position.after(rng.choice(position.legal_moves))
        analysis = solver.analyse(position)
        assert (analysis.verdict.wins, analysis.verdict.plies) == brute_force(position)
        for item in analysis.moves:
            wins, plies = brute_force(item.result)
            assert item.verdict == Verdict(not wins, plies + 1)


# ---- a solver for each of several players in one process (a house of sessions) ------------------------------------


def test_a_context_that_asks_for_its_own_solver_solves_apart_and_never_waits_on_another() -> None:
    import contextvars
    import threading

    from soluna_tui.rules import shared_solver
    from soluna_tui.rules.solver import real_solver, use_own_solver
    from soluna_tui.rules.swindle import swindler_for

    position = drop(10, random.Random(7))
    ann, bob = contextvars.copy_context(), contextvars.copy_context()
    ann_solver, bob_solver = ann.run(use_own_solver), bob.run(use_own_solver)
    process_solver = real_solver(shared_solver)
    assert len({id(ann_solver), id(bob_solver), id(process_solver)}) == 3
    before = process_solver.positions_solved

    ann.run(lambda: shared_solver.analyse(position))  # ann's calls go to ann's table alone
    assert ann_solver.positions_solved > 0 and bob_solver.positions_solved == 0
    assert process_solver.positions_solved == before

    holding = threading.Event()
    release = threading.Event()

    def ann_solves_on() -> None:  # ann's table taken, as by a long proof
        with ann_solver._lock:
            holding.set()
            release.wait(10)

    thread = threading.Thread(target=ann_solves_on)
    thread.start()
    try:
        holding.wait(5)
        answer = bob.run(lambda: shared_solver.analyse(position, Budget(seconds=5)))  # bob's table is free
    finally:
        release.set()
        thread.join()
    assert answer == ann.run(lambda: shared_solver.analyse(position))
    assert bob.run(swindler_for, shared_solver) is not ann.run(swindler_for, shared_solver), \
        "a swindler is kept by the solver whose keys it holds"


def test_a_busy_solver_is_said_busy_at_once_and_a_free_one_is_kept_for_the_asker() -> None:
    """``unless_busy``: an event loop's question never waits for a worker's long search; asked of a free solver, the
    calls made in the block run (the lock is the asker's meanwhile, taken again by each call)."""
    solver = Solver()
    start = Position.parse("1S 1S 1M 1M 1* 1*")
    with solver.unless_busy() as free:
        assert free
        assert solver.analyse(start).verdict == Solver().verdict(start)
    holding, done = threading.Event(), threading.Event()

    def search() -> None:
        with solver.unless_busy() as free:
            assert free
            holding.set()
            done.wait(10)

    worker = threading.Thread(target=search)
    worker.start()
    try:
        assert holding.wait(10)
        asked = time.perf_counter()
        with solver.unless_busy() as free:
            assert not free
        assert time.perf_counter() - asked < 0.5  # told at once, not after the search
    finally:
        done.set()
        worker.join(10)
    with solver.unless_busy() as free:
        assert free
