"""Types read from outside are taken exactly: ``0.0`` or ``false`` is never the seat ``0``.

``0.0 in (0, 1)`` is true in Python, so a save with ``"first_opener": 0.0`` once passed every
check and then crashed the game wherever the opener indexed the players.
"""

from __future__ import annotations

import enum
import math

import pytest

from soluna_tui.rules import Match, MatchFormatError, MatchOptions, OptionError, OutOfTurnError, Position, Round
from soluna_tui.rules.json_fields import checked, is_one_of, read_field

NOT_A_SEAT = [0.0, 1.0, True, False, "0", None]


class Seat(enum.IntEnum):
    FIRST = 0


@pytest.mark.parametrize("value", NOT_A_SEAT, ids=repr)
def test_only_the_ints_0_and_1_are_seats(value) -> None:
    assert not is_one_of(value, (0, 1))
    assert is_one_of(0, (0, 1)) and is_one_of(1, (0, 1))


@pytest.mark.parametrize("value", NOT_A_SEAT, ids=repr)
def test_match_options_refuse_a_first_opener_that_is_not_exactly_a_seat(value) -> None:
    with pytest.raises(OptionError, match="first opener"):
        MatchOptions(first_opener=value)


@pytest.mark.parametrize("value", NOT_A_SEAT, ids=repr)
def test_a_round_refuses_an_opener_that_is_not_exactly_a_seat(value) -> None:
    with pytest.raises(OutOfTurnError, match="opener"):
        Round(Position.parse("1S 1M"), value)


@pytest.mark.parametrize("value", [0.0, 1.0, True], ids=repr)
def test_a_match_document_with_a_float_or_bool_first_opener_is_malformed(value) -> None:
    document = Match(MatchOptions(), ("Ann", "Bob"), seed=4).to_dict()
    document["options"]["first_opener"] = value
    with pytest.raises(MatchFormatError, match="first opener"):
        Match.from_dict(document)


def test_forfeit_and_the_next_opener_take_only_exact_seats() -> None:
    match = Match(MatchOptions(stars_to_win=2, discs=4), seed=4)
    with pytest.raises(OutOfTurnError):
        match.forfeit(1.0)
    while not match.round.is_over:
        match.play(match.position.legal_moves[0])
    with pytest.raises(OutOfTurnError):
        match.next_opener(0.0)
    assert match.next_opener(0) == 0


def test_the_shared_check_takes_no_subclass_and_no_float_for_an_int() -> None:
    with pytest.raises(ValueError, match="wrong type"):
        checked(Seat.FIRST, (int,), "a seat")
    with pytest.raises(ValueError, match="wrong type"):
        checked(0.0, (int,), "a seat")
    with pytest.raises(ValueError, match="true or false"):
        read_field({"seat": False}, "seat", int, where="a move")
    assert checked(3, (float,), "seconds") == 3  # JSON writes 3 for 3.0


@pytest.mark.parametrize("value", [[1.5, math.inf], {"a": {"b": [-math.inf]}}, [[[math.nan]]]], ids=repr)
def test_no_number_inside_a_list_or_object_is_infinite_or_not_a_number(value) -> None:
    with pytest.raises(ValueError, match="not finite"):
        checked(value, (type(value),), "a document")


def test_the_finite_check_walks_any_nesting_without_recursion() -> None:
    nested: list = [math.inf]
    for _ in range(100_000):
        nested = [nested]
    with pytest.raises(ValueError, match="not finite"):
        checked(nested, (list,), "a document")
