"""Picking as a state machine: every press's outcome, and the refusals in words."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from soluna_tui.play.picker import Outcome, Picker, Pressed
from soluna_tui.rules import Arrangement, Move, Position
from soluna_tui.rules import PlacedMove as Placed

# Sorted as the notation sorts: 2S (no move: no other tower is 2 high or a sun), 1M, 1C.
STUCK = Arrangement.opening(Position.parse("2S 1M 1C"))
OPEN = Arrangement.opening(Position.parse("1S 1S 1M 2C"))


def slot_of(table: Arrangement, text: str) -> int:
    return [str(tower) for tower in table].index(text)


def test_a_press_picks_a_tower_up_and_a_second_press_on_it_puts_it_back() -> None:
    picker = Picker()
    slot = slot_of(OPEN, "1M")
    assert picker.press(OPEN, slot) == Outcome(Pressed.PICKED, slot=slot)
    assert picker.picked_slot == slot and str(picker.picked_tower(OPEN)) == "1M"
    assert picker.press(OPEN, slot) == Outcome(Pressed.PUT_BACK, slot=slot)
    assert picker.picked_slot is None and picker.picked_tower(OPEN) is None


def test_a_press_on_a_lit_target_chooses_the_move_with_its_places_and_empties_the_hand() -> None:
    picker = Picker()
    picker.press(OPEN, 3)
    outcome = picker.press(OPEN, 2)  # the second of the two suns
    assert outcome.pressed is Pressed.MOVE and outcome.placed == Placed(Move.parse("1M>1S"), 3, 2)
    assert picker.picked_slot is None


def test_an_empty_place_cannot_be_picked_up_or_played_onto() -> None:
    table = OPEN.after(OPEN.resolve(Move.parse("1S>1S"), 1, 2))  # place 2 (slot 1) is empty now
    picker = Picker()
    assert picker.press(table, 1) == Outcome(Pressed.REFUSED, reason="That place is empty: its tower was moved "
                                                                      "onto another.", kind="warning")
    assert picker.press(table, 2).pressed is Pressed.PICKED  # 2S, onto 2C
    assert picker.press(table, 1).pressed is Pressed.REFUSED and picker.picked_slot == 2


def test_a_wrong_target_is_refused_with_the_reason_and_the_tower_stays_in_hand() -> None:
    picker = Picker()
    mover = slot_of(OPEN, "1M")
    picker.press(OPEN, mover)
    outcome = picker.press(OPEN, slot_of(OPEN, "2C"))
    assert outcome.pressed is Pressed.REFUSED and outcome.kind == "error"
    assert outcome.reason.startswith("Not there: ") and outcome.reason.endswith(".")
    assert picker.picked_slot == mover


def test_a_tower_without_a_move_cannot_be_picked_up() -> None:
    picker = Picker()
    outcome = picker.press(STUCK, slot_of(STUCK, "2S"))
    assert outcome == Outcome(Pressed.REFUSED, reason="2S cannot go anywhere: no other tower is 2 high "
                                                      "or has a sun on top.", kind="warning")
    assert picker.picked_slot is None


def test_escape_puts_back_only_what_is_in_hand() -> None:
    picker = Picker()
    assert picker.put_back() is None
    picker.press(OPEN, 2)
    assert picker.put_back() == Outcome(Pressed.PUT_BACK, slot=2) and picker.picked_slot is None


def test_the_hand_is_emptied_when_its_place_empties() -> None:
    after = OPEN.after(OPEN.resolve(Move.parse("1M>1S")))  # 1M leaves place 4 (slot 3) for the first sun
    picker = Picker()
    picker.press(OPEN, 3)
    picker.forget_gone(after)
    assert picker.picked_slot is None
    picker.press(OPEN, 2)
    picker.forget_gone(after)
    assert picker.picked_slot == 2


@pytest.mark.parametrize(("text", "placed"), [("1M>1S", ("1M>1S", 3, 1)), (" 1m > 1s ", ("1M>1S", 3, 1)),
                                              ("4>3", ("1M>1S", 3, 2)), ("3>2", ("1S>1S", 2, 1)),
                                              ("1s>2", ("1S>1S", 2, 1))])
def test_a_typed_move_by_notation_or_by_keys(text: str, placed: tuple[str, int, int]) -> None:
    outcome = Picker().typed(OPEN, text)
    move, mover, target = placed
    assert outcome.pressed is Pressed.MOVE and outcome.placed == Placed(Move.parse(move), mover, target)


def test_a_typed_key_of_an_empty_place_says_so() -> None:
    table = OPEN.after(OPEN.resolve(Move.parse("1S>1S"), 1, 2))
    outcome = Picker().typed(table, "2>4")
    assert outcome == Outcome(Pressed.REFUSED, reason="Nothing stands at 2 now: its tower was moved onto another.",
                              kind="error")


@pytest.mark.parametrize(("text", "reason"), [
    ("1M", "A move is A>B"),  # what was typed is on the prompt's line: not quoted again
    ("9>1", "No tower has the key 9: the keys are 1 to 4."),
    ("99>1", "No tower has the key 99: the keys are 1 to 4."),
    ("2>2", "2>2 puts a tower on itself"),
    ("3M>1S", "There is no 3M tower to move."),
    ("1M>2C", "1M cannot go on 2C: "),
])
def test_a_typed_move_is_refused_in_the_words_of_picking(text: str, reason: str) -> None:
    outcome = Picker().typed(OPEN, text)
    assert outcome.pressed is Pressed.REFUSED and outcome.kind == "error"
    assert outcome.reason.startswith(reason)


def test_a_typed_stuck_tower_is_refused_as_picking_it_up_is() -> None:
    picker = Picker()
    assert picker.typed(STUCK, "2S>1M") == picker.press(STUCK, slot_of(STUCK, "2S"))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("0123456789SMC*smc>☀☾✶☄ sunmoonstarscomet"), max_size=80))
@example("0CCCCCCCCCCCC>0")  # found by hypothesis: a long unknown symbol and its tower, both quoted whole
def test_a_refusal_of_a_typed_move_fits_the_two_lines_the_prompt_leaves_at_80x24(text: str) -> None:
    """At 80x24 the prompt leaves two lines of 48 cells (80 less the sidebar's 30 and a margin either side:
    ``tests/app/test_move_prompt.py`` reads them off the screen): every refusal fits them whole."""
    from soluna_tui.widgets.text_lines import wrap

    outcome = Picker().typed(OPEN, text)
    if outcome.pressed is Pressed.REFUSED:
        assert not wrap(outcome.reason, 48, 2, "…")[-1].endswith("…"), outcome.reason
