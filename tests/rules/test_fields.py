"""The one field check every reader of documents and messages shares."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from soluna_tui.rules import MatchFormatError, OptionError
from soluna_tui.rules.json_fields import LONGEST, checked, read_field, read_items


@pytest.mark.parametrize(("value", "kinds"), [
    (True, (int,)), (False, (int, type(None))), (True, (float,)),
    (1, (str,)), ("1", (int,)), (None, (int,)), ([], (dict,)), ({}, (list,)), (1.5, (int,)),
])
def test_a_value_of_the_wrong_kind_is_refused_with_the_readers_error(value, kinds) -> None:
    with pytest.raises(OptionError, match="the field"):
        checked(value, kinds, "the field", OptionError)


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan])
def test_a_float_is_finite(value) -> None:
    with pytest.raises(ValueError, match="not a finite number"):
        checked(value, (float,), "a share")


def test_a_bool_is_itself_where_bools_are_wanted_and_a_whole_number_is_a_float() -> None:
    assert checked(True, (bool,), "a flag") is True
    assert checked(300, (float,), "seconds") == 300


@given(st.integers(min_value=0, max_value=3 * LONGEST))
def test_strings_lists_and_objects_are_at_most_their_length(length: int) -> None:
    for value in ("x" * length, [0] * length, {str(key): 0 for key in range(length)}):
        if length <= LONGEST:
            assert checked(value, (type(value),), "a field") == value
        else:
            with pytest.raises(ValueError, match="too long"):
                checked(value, (type(value),), "a field")
    assert checked("x" * length, (str,), "a field", longest=3 * LONGEST) == "x" * length


def test_a_field_is_there_unless_it_has_a_default_and_the_document_is_an_object() -> None:
    assert read_field({"seed": 7}, "seed", int, where="setup") == 7
    assert read_field({}, "seed", int, type(None), where="setup", default=None) is None
    with pytest.raises(MatchFormatError, match="match has no 'seed' field"):
        read_field({}, "seed", int, where="match", error=MatchFormatError)
    with pytest.raises(MatchFormatError, match="match is not an object"):
        read_field(["seed"], "seed", int, where="match", error=MatchFormatError)


def test_items_are_each_checked_and_counted() -> None:
    assert read_items({"stars": [1, 2]}, "stars", int, where="record", count=2) == [1, 2]
    assert read_items({}, "stars", int, where="record", default=[0, 0]) == [0, 0]
    with pytest.raises(ValueError, match="3 items, not 2"):
        read_items({"stars": [1, 2, 3]}, "stars", int, where="record", count=2)
    with pytest.raises(ValueError, match="item 2 is true or false"):
        read_items({"stars": [1, True]}, "stars", int, where="record", count=2)
