"""The guided round's lesson, without a screen: every way a newcomer may play it reaches each step and ends."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from soluna_tui.play.guided import COMPUTER, LAYOUT, YOU, Lesson, Step, by_symbol_only
from soluna_tui.rules import Move, Tower, shared_solver


def every_way_through() -> Counter:
    """Play every move each step accepts, from the first pick to the end; count what was met."""
    met: Counter = Counter()

    def walk(lesson: Lesson, seen: frozenset[Step]) -> None:
        seen = seen | {lesson.step}
        if lesson.over:
            met["won" if lesson.winner == YOU else "lost"] += 1
            met["every step"] += seen >= {Step.BY_HEIGHT, Step.BY_SYMBOL, Step.TO_THE_END}
            return
        position = lesson.table.position
        fitting = [move for move in position.legal_moves if lesson.refusal(move) is None]
        assert fitting, f"stuck at {lesson.step} on {position}"
        if lesson.step is Step.BY_SYMBOL:
            assert all(by_symbol_only(move) for move in fitting)
        if lesson.step is Step.TO_THE_END and Step.TO_THE_END not in seen - {lesson.step}:
            met["step 4 begins won for you"] += shared_solver.verdict(position).wins
        for move in fitting:
            walk(lesson.played(lesson.table.resolve(move)), seen)

    walk(Lesson.start().picked(), frozenset({Step.PICK}))
    return met


def test_every_way_through_shows_each_step_and_ends_the_round() -> None:
    met = every_way_through()
    ends = met["won"] + met["lost"]
    assert ends > 20 and met["every step"] == ends  # no way skips a step, none is stuck
    assert met["step 4 begins won for you"] > 0


def test_the_layout_is_real_and_the_first_step_is_picking() -> None:
    lesson = Lesson.start()
    assert lesson.step is Step.PICK and lesson.table.position == LAYOUT and len(LAYOUT) == 8
    assert "pick a tower up" in lesson.text and "n skips" in lesson.text
    assert lesson.picked().step is Step.BY_HEIGHT and "SAME HEIGHT" in lesson.picked().text


def test_the_symbol_step_refuses_a_move_by_height_and_says_why() -> None:
    lesson = Lesson.start().picked()
    lesson = lesson.played(lesson.table.resolve(Move(Tower.parse("1S"), Tower.parse("1M"))))
    assert lesson.step is Step.BY_SYMBOL and lesson.reply is not None
    assert f"The computer put {lesson.reply.move.mover} on {lesson.reply.move.target}" in lesson.text
    ones = [tower for tower in lesson.table.towers if tower.height == 1]
    by_height = next(Move(a, b) for a in ones for b in ones if a is not b)
    assert "Legal by height, but this step is about symbols: choose a lit tower." in (lesson.refusal(by_height) or "")
    assert not lesson.lights(by_height)
    by_symbol = next(move for move in lesson.table.position.legal_moves if by_symbol_only(move))
    assert lesson.refusal(by_symbol) is None and lesson.lights(by_symbol)


def test_the_end_says_who_has_no_move_and_why() -> None:
    lesson = Lesson.start().picked()
    while not lesson.over:
        move = next(move for move in lesson.table.position.legal_moves if lesson.refusal(move) is None)
        lesson = lesson.played(lesson.table.resolve(move))
    assert lesson.winner in (YOU, COMPUTER)
    assert ("LOSES the round" if lesson.winner == YOU else "you LOSE the round") in lesson.text
    assert "share a height or a symbol" in lesson.text or "One tower is left" in lesson.text


def test_the_lesson_answers_while_a_proof_holds_the_shared_solver() -> None:
    """A level-10 proof in a game's worker may hold the shared solver for seconds when the help's g opens the
    guided round over it: the lesson's replies (chosen on the event loop) never wait for it."""

    def play_to_the_end() -> Lesson:
        lesson = Lesson.start().picked()
        while not lesson.over:
            move = next(move for move in lesson.table.position.legal_moves if lesson.refusal(move) is None)
            lesson = lesson.played(lesson.table.resolve(move))
        return lesson

    with ThreadPoolExecutor(1) as pool, shared_solver._lock:  # as a proof holds it, from another thread
        played = pool.submit(play_to_the_end)
        lesson = played.result(timeout=10)  # instant on eight discs; it waited forever on the shared solver
    assert lesson.over and lesson.winner in (YOU, COMPUTER)
