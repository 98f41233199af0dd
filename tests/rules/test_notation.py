"""Notation of docs/rules.md: printing, parsing, aliases and precise errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from soluna_tui.rules import Move, NotationError, Position, PositionError, SolunaError, Symbol, Tower
from soluna_tui.rules.notation import parse_symbol

from .strategies import positions, symbols, towers


@given(towers)
def test_tower_round_trips(tower: Tower) -> None:
    assert Tower.parse(str(tower)) == tower
    assert eval(repr(tower), {"Tower": Tower, "Symbol": Symbol}) == tower


@given(positions())
def test_position_round_trips(position: Position) -> None:
    assert Position.parse(str(position)) == position
    assert eval(repr(position), {"Position": Position}) == position


@given(towers, towers)
def test_move_round_trips(mover: Tower, target: Tower) -> None:
    move = Move(mover, target)
    assert Move.parse(str(move)) == move
    assert eval(repr(move), {"Move": Move}) == move


@given(st.lists(towers, min_size=1, max_size=8).filter(lambda ts: sum(t.height for t in ts) <= 24), st.randoms())
def test_position_is_canonical_whatever_the_input_order(tower_list: list[Tower], rng) -> None:
    shuffled = list(tower_list)
    rng.shuffle(shuffled)
    assert Position(shuffled) == Position(tower_list)
    assert str(Position(shuffled)) == str(Position(tower_list))


def test_canonical_order_is_height_descending_then_s_m_stars_c() -> None:
    assert str(Position.parse("1C 1* 2C 1M 1S 3*")) == "3* 2C 1S 1M 1* 1C"


@pytest.mark.parametrize(
    ("text", "symbol"),
    [
        ("S", Symbol.SUN), ("s", Symbol.SUN), ("sun", Symbol.SUN), ("SUN", Symbol.SUN), ("☀", Symbol.SUN),
        ("M", Symbol.MOON), ("moon", Symbol.MOON), ("☾", Symbol.MOON), ("☽", Symbol.MOON),
        ("*", Symbol.STARS), ("stars", Symbol.STARS), ("star", Symbol.STARS), ("✶", Symbol.STARS),
        ("C", Symbol.COMET), ("c", Symbol.COMET), ("Comet", Symbol.COMET), ("☄", Symbol.COMET),
    ],
)
def test_symbol_aliases(text: str, symbol: Symbol) -> None:
    assert parse_symbol(text) is symbol


@given(symbols)
def test_glyph_word_and_letter_all_read_back(symbol: Symbol) -> None:
    for spelling in (symbol.letter, symbol.word, symbol.glyph, symbol.letter.lower()):
        assert parse_symbol(spelling) is symbol


def test_aliases_in_positions_and_moves() -> None:
    assert Position.parse("3 moon, 2☀ 1stars 1c") == Position.parse("3M 2S 1* 1C")
    assert Move.parse(" 2 stars > 2m ") == Move.parse("2*>2M")
    assert Move.parse("2✶>2☾") == Move(Tower(2, Symbol.STARS), Tower(2, Symbol.MOON))


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("", NotationError, "at least one tower"),
        ("   ", NotationError, "at least one tower"),
        ("1X", NotationError, "unknown symbol 'X'"),
        ("0S", NotationError, "height 0"),
        ("S1", NotationError, "cannot read 'S1'"),
        ("1S 1M >", NotationError, "cannot read '>'"),
        ("25S", PositionError, "1 to 24"),
        ("13S 12M", PositionError, "at most 24 discs"),
    ],
)
def test_bad_positions_say_what_is_wrong(text: str, error: type, words: str) -> None:
    with pytest.raises(error, match=words) as caught:
        Position.parse(text)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, SolunaError)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("text", ["1S", "1S>", ">1S", "1S>1M>1C", "1S 1M>1C", "1S-1M", "1Q>1S"])
def test_bad_moves_raise_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        Move.parse(text)


@given(st.text(max_size=30))
def test_any_text_parses_or_raises_a_soluna_error(text: str) -> None:
    for parse in (Position.parse, Move.parse, Tower.parse):
        try:
            parse(text)
        except SolunaError as error:
            assert "\n" not in str(error)
