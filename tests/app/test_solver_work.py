"""Slow rules work in one pattern: answers posted, a search out of time says so, a cancelled question is silent."""

from __future__ import annotations

import asyncio
import random
import threading
import time

from textual.app import App
from textual.message import Message
from textual.pilot import Pilot
from textual.screen import Screen

from soluna_tui.rules import DEFAULT_DISCS, Budget, Solver, drop
from soluna_tui.screens.solver_work import pause_until, solve_in_worker

from .helpers import make_app


async def until_set(event: threading.Event) -> None:
    """Wait until a worker thread sets ``event``, the event loop (which starts workers) running meanwhile."""
    assert await asyncio.to_thread(event.wait, 5), "the worker never got there"


async def settle(pilot: Pilot[None]) -> None:
    """Time for a worker that has returned to post (it would at once) and for the message to arrive."""
    await asyncio.sleep(0.1)
    await pilot.pause()


class Answer(Message):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class Asking(Screen[None]):
    def __init__(self) -> None:
        super().__init__()
        self.heard: list[str] = []

    def on_answer(self, message: Answer) -> None:
        self.heard.append(message.text)


async def test_the_answer_is_posted_and_a_search_out_of_time_posts_what_was_given_for_it() -> None:
    app = App[None]()
    async with app.run_test() as pilot:
        screen = Asking()
        await app.push_screen(screen)
        start = drop(DEFAULT_DISCS, random.Random(1))  # the full set: seconds of solving for a fresh solver
        solve_in_worker(screen, lambda budget: Answer(str(Solver().verdict(start, budget))),
                        seconds=0.0, aborted=Answer("gave up"), group="a")
        solve_in_worker(screen, lambda budget: Answer(f"seconds {budget.seconds}"), seconds=2.5, group="b")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert sorted(screen.heard) == ["gave up", "seconds 2.5"]


class SlowJob:
    """A job that waits up to 10 s for its worker to be cancelled, then returns ``Answer(text)``."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.started = threading.Event()
        self.returned = threading.Event()
        self.stopped_by_cancel = False

    def __call__(self, budget: Budget) -> Answer:
        self.started.set()
        pause_until(time.monotonic() + 10, budget)
        self.stopped_by_cancel = budget.is_cancelled
        self.returned.set()
        return Answer(self.text)  # what a cancelled worker must not post


async def test_a_question_cancelled_by_a_newer_one_in_its_group_is_never_answered() -> None:
    app = App[None]()
    async with app.run_test() as pilot:
        screen = Asking()
        await app.push_screen(screen)
        first = SlowJob("first")
        began = time.monotonic()
        solve_in_worker(screen, first, group="same")
        await until_set(first.started)
        solve_in_worker(screen, lambda budget: Answer("second"), group="same")  # exclusive: cancels the first
        await until_set(first.returned)
        await settle(pilot)
        assert first.stopped_by_cancel and time.monotonic() - began < 5
        assert screen.heard == ["second"]


async def test_a_question_whose_screen_closed_is_never_answered() -> None:
    app = App[None]()
    async with app.run_test() as pilot:
        screen = Asking()
        await app.push_screen(screen)
        slow = SlowJob("too late")
        solve_in_worker(screen, slow)
        await until_set(slow.started)
        app.pop_screen()  # the screen's workers are cancelled with it
        await until_set(slow.returned)
        await settle(pilot)
        assert slow.stopped_by_cancel and screen.heard == []


async def test_a_session_of_the_server_solves_at_the_lowest_priority_and_draws_at_its_own(monkeypatch) -> None:
    """In ``soluna serve``'s sessions (``solve_in_idle_time``), a proof of many CPU seconds takes only what the
    other players' sessions leave: the solving thread alone is at niceness 19, the session's own thread is not."""
    import os

    from soluna_tui.screens import solver_work

    def niceness() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    drawing = niceness()
    app = App[None]()
    async with app.run_test() as pilot:
        screen = Asking()
        await app.push_screen(screen)
        solve_in_worker(screen, lambda budget: Answer(f"before {niceness()}"), group="a")
        await app.workers.wait_for_complete()
        monkeypatch.setattr(solver_work, "_solving_niceness", 0)
        solver_work.solve_in_idle_time()
        solve_in_worker(screen, lambda budget: Answer(f"after {niceness()}"), group="b")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert sorted(screen.heard) == [f"after {max(drawing, 19)}", f"before {drawing}"]
        assert niceness() == drawing


async def test_answers_that_arrive_as_their_screen_loses_its_parts_are_dropped_quietly(tmp_path) -> None:
    """Found by the suite: a round's verdicts arrived while the app was closing, the review's list already gone,
    and the review asked for it by its id (a traceback). The screens that hear a worker's answer hold the widgets
    they update, so an answer landing on a closing screen changes a widget nobody sees."""
    from soluna_tui.rules import Match, MatchOptions
    from soluna_tui.rules.teaching import review_round
    from soluna_tui.screens.replay import ReplayScreen
    from soluna_tui.screens.review import ReviewScreen
    from soluna_tui.screens.round_over import RoundOverScreen
    from soluna_tui.terminal.glyphs import glyphs_for

    match = Match(MatchOptions(discs=4), ("ann", "bob"), seed=3)
    while not match.round.is_over:
        match.round.play(match.position.legal_moves[0])
    review = review_round(match.rounds[0])
    answered = [
        (lambda: ReviewScreen(match, 1), "#review-body", ReviewScreen.Reviewed(review)),
        (lambda: RoundOverScreen(match, glyphs_for(False), (0, 1)), "#round-explanation",
         RoundOverScreen.Advised("Open: the first mover wins.")),
        (lambda: ReplayScreen(match), "#play-area", ReplayScreen.Judged(1, review)),
    ]
    for make, part, answer in answered:
        app = make_app(tmp_path)
        async with app.run_test() as pilot:
            screen = make()
            await app.push_screen(screen)
            await pilot.pause()
            await screen.query_one(part).remove()
            screen.post_message(answer)
            await pilot.pause()
            assert app.screen is screen
