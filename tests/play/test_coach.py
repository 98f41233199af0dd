"""The coach: hint steps per turn, what it asks the solver, what counts as a hint, the marks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from soluna_tui.play.coach import HINT_STEPS, Coach, Purpose, Turn
from soluna_tui.play.looks import NoteKind
from soluna_tui.rules import Arrangement, Move, Position, Solver
from soluna_tui.rules.teaching import Hint

POSITION = Position.parse("1S 1S 1M 2C")  # lost for the player to move: every move loses in 2
TURN = Turn(1, 1, 0)
NEXT_TURN = Turn(1, 1, 1)


def won_position(solver: Solver) -> Position:
    for text in ("1S 1S 1M 1M 2C", "1S 1M 1C 2S", "1S 1S 1M 1C 2M"):
        position = Position.parse(text)
        if solver.analyse(position).verdict.wins:
            return position
    raise AssertionError("no won position among the samples")


def answered(position: Position) -> Coach:
    coach = Coach()
    coach.answered(position, Solver().analyse(position), Purpose.HINT)
    return coach


def test_a_question_goes_out_once_until_it_is_answered() -> None:
    coach = Coach()
    assert coach.ask(POSITION, Purpose.ANALYSIS)
    assert not coach.ask(POSITION, Purpose.ANALYSIS)
    assert coach.ask(POSITION, Purpose.HINT)  # another purpose is another question
    coach.answered(POSITION, None, Purpose.ANALYSIS)  # gave up: nothing kept, may be asked again
    assert coach.analysis_of(POSITION) is None
    assert coach.ask(POSITION, Purpose.ANALYSIS)
    analysis = Solver().analyse(POSITION)
    coach.answered(POSITION, analysis, Purpose.ANALYSIS)
    assert coach.analysis_of(POSITION) == analysis


def test_hint_steps_count_once_each_and_start_again_on_the_next_turn() -> None:
    coach = answered(POSITION)
    counted = [coach.step_hint(TURN) for _ in range(HINT_STEPS + 2)]
    assert counted == [True] * HINT_STEPS + [False, False]
    assert coach.hints_done(TURN) and not coach.hints_done(NEXT_TURN)
    assert coach.step_hint(NEXT_TURN) and coach.hint_step == 1


def test_the_hint_shows_only_on_its_turn_and_in_the_live_position() -> None:
    coach = answered(POSITION)
    assert coach.current_hint(TURN, POSITION) is None  # not asked yet
    coach.step_hint(TURN)
    assert coach.current_hint(TURN, POSITION) == Hint(Solver().analyse(POSITION))
    assert coach.current_hint(TURN, None) is None  # an earlier position is shown
    assert coach.current_hint(NEXT_TURN, POSITION) is None


def test_hint_marks_name_the_tower_then_where_it_goes() -> None:
    solver = Solver()
    position = won_position(solver)
    coach = answered(position)
    best = solver.analyse(position).moves[0].move
    mover = position.towers.index(best.mover)
    table = Arrangement.opening(position)  # the round's opening: places in canonical order
    coach.step_hint(TURN)
    assert coach.hint_marks(TURN, table) == {}
    coach.step_hint(TURN)
    assert coach.hint_marks(TURN, table) == {mover: ("move", NoteKind.HINT)}
    coach.step_hint(TURN)
    marks = coach.hint_marks(TURN, table)
    target = next(slot for slot, mark in marks.items() if mark == ("onto", NoteKind.HINT))
    assert position.towers[target] == best.target and target != mover and len(marks) == 2


def test_hint_marks_follow_the_towers_to_their_places() -> None:
    """Later in a round the towers are not in canonical order: the marks go where the towers stand."""
    solver = Solver()
    start = Position.parse("1S 1S 1M 1M 1C 1C 1*")
    table = Arrangement.opening(start).after(Arrangement.opening(start).resolve(Move.parse("1S>1C"), 0, 5))
    assert table.places[0] is None and str(table.places[5]) == "2S"
    coach = Coach()
    coach.answered(table.position, solver.analyse(table.position), Purpose.HINT)
    for _ in range(3):
        coach.step_hint(TURN)
    best = solver.analyse(table.position).moves[0].move
    marks = coach.hint_marks(TURN, table)
    mover = next(slot for slot, mark in marks.items() if mark == ("move", NoteKind.HINT))
    target = next(slot for slot, mark in marks.items() if mark == ("onto", NoteKind.HINT))
    assert table.places[mover] == best.mover and table.places[target] == best.target and mover != target


def test_analysis_counts_once_per_turn() -> None:
    coach = Coach()
    assert coach.counts_analysis(TURN)
    assert not coach.counts_analysis(TURN)
    assert coach.counts_analysis(NEXT_TURN)


def test_analysis_notes_mark_each_towers_best_move_or_each_target() -> None:
    table = Arrangement.opening(POSITION)
    coach = Coach()
    assert coach.analysis_notes(table, None) == {}  # not known yet: no marks, and nothing asked
    coach = answered(POSITION)
    # 2C has no move; the others lose in 2 plies whatever they do.
    assert coach.analysis_notes(table, None) == {0: ("-", NoteKind.NONE), 1: ("L2", NoteKind.LOSS),
                                                 2: ("L2", NoteKind.LOSS), 3: ("L2", NoteKind.LOSS)}
    # With 1M (slot 3) in hand: the suns are targets (L2), 2C is not (no mark), 1M is itself.
    assert coach.analysis_notes(table, 3) == {0: ("", ""), 1: ("L2", NoteKind.LOSS),
                                              2: ("L2", NoteKind.LOSS), 3: ("L2", NoteKind.LOSS)}
    # An empty place has no mark.
    emptied = Arrangement((None, *table.places[1:]))
    coach.answered(emptied.position, Solver().analyse(emptied.position), Purpose.ANALYSIS)
    assert 0 not in coach.analysis_notes(emptied, None)


def test_the_prompt_tells_the_hint_step_then_the_analysis() -> None:
    coach = answered(POSITION)
    assert coach.prompt(TURN, POSITION, POSITION, False, "Ann") is None
    assert coach.prompt(TURN, POSITION, POSITION, True, "Ann") == (
        "Analysis: lost, holding out 2 plies; 0 of 3 moves win. Under each tower, its best move: L2 loses in "
        "2 plies.", "info")  # the marks this position has (L2), never ones it has not
    coach.step_hint(TURN)
    text, kind = coach.prompt(TURN, POSITION, POSITION, True, "Ann")
    assert text.startswith("Hint: this position is lost") and kind == "info"
    unknown = Position.parse("1S 1M 1C 2S")
    assert coach.prompt(TURN, None, unknown, True, "Ann") == ("Analysis: solving...", "thinking")
    blocked = Position.parse("2S 1M")
    coach.answered(blocked, Solver().analyse(blocked), Purpose.ANALYSIS)
    assert coach.prompt(TURN, None, blocked, True, "Ann") == (
        "Analysis: no move is left; the player to move has lost.", "info")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["1S", "1M", "1*", "1C", "2S", "2M", "2*", "2C", "3S", "3M"]), min_size=3, max_size=7))
def test_the_legend_names_only_marks_the_position_shown_has(towers: list[str]) -> None:
    """Analysis mode's line explains the marks by marks under the towers shown: never ``W3`` on a board
    without one."""
    import re

    table = Arrangement.opening(Position.parse(" ".join(towers)))
    coach = answered(table.position)
    said = coach.prompt(TURN, table.position, table.position, True, "Ann")
    assert said is not None
    marks = {note for note, _ in coach.analysis_notes(table, None).values()}
    named = re.findall(r"\b([WL]\d+) (?:wins|loses) in (\d+)", said[0])
    assert {mark for mark, _ in named} <= marks
    assert all(mark[1:] == count for mark, count in named)
    if any(mark[0] in "WL" for mark in marks):  # a mark to explain: one of each kind shown is explained
        assert {mark[0] for mark, _ in named} == {mark[0] for mark in marks if mark[0] in "WL"}
