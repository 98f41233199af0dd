"""A round: play in turn, undo, redo, outcome."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from soluna_tui.rules import IllegalMoveError, Move, OutOfTurnError, Position, Round, RoundOverError, drop


def test_players_alternate_from_the_opener() -> None:
    game = Round(Position.parse("1S 1S 1M 1C"), opener=1)
    assert game.to_move == 1
    game.play(Move.parse("1S>1S"), player=1)
    assert game.to_move == 0 and game.ply == 1
    with pytest.raises(OutOfTurnError, match="player 1's turn"):
        game.play(Move.parse("1M>1C"), player=1)
    assert game.position == Position.parse("2S 1M 1C")


def test_illegal_moves_change_nothing() -> None:
    game = Round(Position.parse("1S 1S 1M 1C"))
    with pytest.raises(IllegalMoveError):
        game.play(Move.parse("2S>1M"))
    assert game.ply == 0 and game.position == game.start


def test_the_player_left_without_a_move_loses() -> None:
    game = Round(Position.parse("1S 1M 2C"), opener=0)
    game.play(Move.parse("1S>1M"))  # 2S 2C: player 1 must move
    assert game.outcome is None
    game.play(Move.parse("2C>2S"))  # 4C: player 0 is blocked
    assert game.outcome is not None and game.outcome.winner == 1 and game.outcome.loser == 0
    with pytest.raises(RoundOverError, match="the round is over"):
        game.play(Move.parse("2C>2S"))


def test_undo_and_redo_walk_the_history() -> None:
    game = Round(Position.parse("1S 1S 1M 1M 1C"))
    first, second = Move.parse("1S>1S"), Move.parse("1M>1M")
    game.play(first)
    game.play(second)
    assert game.undo().move == second and game.undo().move == first
    assert game.position == game.start and [placed.move for placed in game.redo_moves] == [first, second]
    with pytest.raises(OutOfTurnError, match="nothing to undo"):
        game.undo()
    assert game.redo().move == first
    assert [placed.move for placed in game.redo_moves] == [second]
    game.play(Move.parse("1M>1C"))  # a different move clears the redo stack
    assert game.redo_moves == () and not game.can_redo
    with pytest.raises(OutOfTurnError, match="nothing to redo"):
        game.redo()


def test_replaying_the_undone_move_keeps_the_rest_of_the_redo_stack() -> None:
    game = Round(Position.parse("1S 1S 1M 1M 1C"))
    moves = [Move.parse("1S>1S"), Move.parse("1M>1M"), Move.parse("2S>2M")]
    for move in moves:
        game.play(move)
    for _ in moves:
        game.undo()
    game.play(moves[0])
    assert [placed.move for placed in game.redo_moves] == moves[1:]


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 16), st.integers(0, 2**32))
def test_random_playouts_end_blocked_within_n_minus_one_moves(discs: int, seed: int) -> None:
    rng = random.Random(seed)
    game = Round(drop(discs, rng), opener=rng.randrange(2))
    while not game.is_over:
        game.play(rng.choice(game.position.legal_moves))
    assert game.ply <= discs - 1
    assert game.position.is_blocked
    assert game.outcome.loser == game.to_move
    positions = [game.position_at(ply) for ply in range(game.ply + 1)]
    while game.can_undo:
        game.undo()
        assert game.position == positions[game.ply]
    assert game.position == game.start
