"""Legal moves exactly as docs/rules.md says, checked against a direct reading of the rules."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given

from soluna_tui.rules import IllegalMoveError, Move, Position, Tower, every_drop

from .strategies import positions


def moves_by_the_book(position: Position) -> set[tuple[Tower, Tower]]:
    """Every (mover, target) over physical towers, same height or same symbol, duplicates folded."""
    towers = list(position.towers)
    return {
        (towers[i], towers[j])
        for i in range(len(towers))
        for j in range(len(towers))
        if i != j and (towers[i].height == towers[j].height or towers[i].symbol == towers[j].symbol)
    }


@given(positions())
def test_legal_moves_match_the_rules_and_are_listed_once(position: Position) -> None:
    listed = [(move.mover, move.target) for move in position.legal_moves]
    assert len(listed) == len(set(listed))
    assert set(listed) == moves_by_the_book(position)
    assert [move.sort_key for move in position.legal_moves] == sorted(move.sort_key for move in position.legal_moves)


@given(positions())
def test_playing_a_move_stacks_the_mover_on_the_target(position: Position) -> None:
    for move in position.legal_moves:
        after = position.play(move)
        assert len(after) == len(position) - 1
        assert after.disc_count == position.disc_count
        expected = Counter(position.towers)
        expected.subtract([move.mover, move.target])
        expected[Tower(move.mover.height + move.target.height, move.mover.symbol)] += 1
        assert Counter(after.towers) == +expected


def test_the_new_tower_keeps_the_movers_symbol() -> None:
    assert Position.parse("2* 2M").play(Move.parse("2*>2M")) == Position.parse("4*")
    assert Position.parse("2* 2M").play(Move.parse("2M>2*")) == Position.parse("4M")
    assert Position.parse("3S 1S").play(Move.parse("1S>3S")) == Position.parse("4S")


@pytest.mark.parametrize(
    ("position", "move", "reason"),
    [
        ("3C 2*", "3C>2*", "the heights differ (3, 2) and so do the symbols (comet, stars)"),
        ("1S 1M", "1S>1S", "only one 1S tower"),
        ("1S 1M", "2S>1M", "no 2S tower"),
        ("1S 1M", "1S>1C", "no 1C tower"),
    ],
)
def test_illegal_moves_say_why(position: str, move: str, reason: str) -> None:
    board = Position.parse(position)
    assert reason in board.why_illegal(Move.parse(move))
    with pytest.raises(IllegalMoveError, match="not allowed"):
        board.play(Move.parse(move))


def test_a_position_without_pairs_is_blocked() -> None:
    assert Position.parse("4S 3M 2* 1C").is_blocked
    assert Position.parse("12S").is_blocked
    assert not Position.parse("4S 3M 2* 1S").is_blocked


def perft(position: Position, depth: int) -> int:
    """Number of move sequences of ``depth`` moves (distinct moves only)."""
    if depth == 0:
        return 1
    return sum(perft(position.after(move), depth - 1) for move in position.legal_moves)


def test_perft_from_the_balanced_start_pins_the_move_generator() -> None:
    start = Position.parse("1S 1S 1S 1M 1M 1M 1* 1* 1* 1C 1C 1C")
    assert len(start.legal_moves) == 16  # 4 same-symbol pairs + 12 ordered different-symbol pairs
    assert [perft(start, depth) for depth in range(5)] == [1, 16, 284, 5196, 88080]
    assert [perft(Position.parse("2S 1M 1M 1*"), depth) for depth in range(4)] == [1, 3, 8, 2]


def test_every_drop_of_twelve_discs_has_three_of_each_symbol_pair() -> None:
    drops = list(every_drop(12))
    assert len(drops) == 4096
    assert all(drop.disc_count == 12 and len(drop) == 12 for drop in drops)
    assert str(drops[0]) == "1S 1S 1S 1S 1S 1S 1M 1M 1M 1M 1* 1*"
