"""The table keeps still: every tower keeps its place for the round, the moved tower's place empties."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from soluna_tui.play.slots import Arrangement, Placed, PlacesKept, arrange, move_slots
from soluna_tui.rules import IllegalMoveError, Move, Position, Round, drop


@st.composite
def played_rounds(draw: st.DrawFn) -> tuple[Round, dict[int, Placed]]:
    """A round of random legal moves from a random drop, each played from and onto places chosen
    at random among the towers like the move's (as a player picks them)."""
    discs = draw(st.integers(2, 24))
    played = Round(drop(discs, random.Random(draw(st.integers(0, 10**6)))))
    table = Arrangement.opening(played.start)
    placed: dict[int, Placed] = {}
    for ply in range(draw(st.integers(0, discs))):
        moves = played.position.legal_moves
        if not moves:
            break
        move = draw(st.sampled_from(moves))
        movers = [slot for slot, tower in enumerate(table) if tower == move.mover]
        mover = draw(st.sampled_from(movers))
        target = draw(st.sampled_from([slot for slot, tower in enumerate(table)
                                       if tower == move.target and slot != mover]))
        placed[ply] = Placed(move, mover, target)
        table = table.after(placed[ply])
        played.play(move)
    return played, placed


@settings(max_examples=200, deadline=None)
@given(played_rounds())
def test_every_arrangement_holds_exactly_the_positions_towers(case: tuple[Round, dict[int, Placed]]) -> None:
    played, placed = case
    for ply in range(played.ply + 1):
        for known in (placed, {}):  # the places chosen, or only the moves known (another screen)
            table = arrange(played.start, played.moves[:ply], known)
            assert len(table) == len(played.start)
            assert Counter(table.towers) == Counter(played.position_at(ply).towers)
            assert table.position == played.position_at(ply)
            assert len(table.occupied) == len(played.position_at(ply))


@settings(max_examples=200, deadline=None)
@given(played_rounds())
def test_replaying_a_round_gives_the_same_arrangement(case: tuple[Round, dict[int, Placed]]) -> None:
    played, placed = case
    table = Arrangement.opening(played.start)
    for ply, move in enumerate(played.moves):
        step = placed[ply]
        after = table.after(step)
        # The places chosen are kept: the mover's empties, the target's holds the new tower, nothing else moves.
        assert after[step.mover_slot] is None and after[step.target_slot] == move.result
        assert all(after[slot] == table[slot] for slot in range(len(table))
                   if slot not in (step.mover_slot, step.target_slot))
        table = after
        assert arrange(played.start, played.moves[: ply + 1], placed) == table
    assert move_slots(played.start, played.moves, placed) == [placed[ply] for ply in range(played.ply)]
    # Taking the last move back gives the table as it was before it.
    if played.moves:
        before = arrange(played.start, played.moves[:-1], placed)
        assert before.after(placed[played.ply - 1]) == table
    # Without the places, the arrangement is still the same on every screen that replays the moves.
    assert arrange(played.start, played.moves) == arrange(played.start, list(played.moves))


def test_identical_towers_are_taken_from_the_first_place_when_nobody_says() -> None:
    start = Position.parse("1M 1M 1M 1S")
    table = Arrangement.opening(start)
    assert [str(tower) for tower in table] == ["1S", "1M", "1M", "1M"]
    assert table.resolve(Move.parse("1M>1M")) == Placed(Move.parse("1M>1M"), 1, 2)
    assert table.resolve(Move.parse("1M>1M"), 3, 1) == Placed(Move.parse("1M>1M"), 3, 1)
    # Places that do not hold the move's towers are not taken: the first that do are.
    assert table.resolve(Move.parse("1M>1S"), 0, 2) == Placed(Move.parse("1M>1S"), 1, 0)
    after = table.after(table.resolve(Move.parse("1S>1M"), 0, 3))
    assert after.places == (None, Position.parse("1M").towers[0], Position.parse("1M").towers[0],
                            Position.parse("2S").towers[0])
    with pytest.raises(IllegalMoveError):
        after.resolve(Move.parse("1S>1M"))


def test_places_kept_follow_undo_redo_and_a_different_move() -> None:
    start = Position.parse("1M 1M 1M 1S")
    kept = PlacesKept()
    move = Move.parse("1M>1M")
    kept.remember(1, 0, Placed(move, 3, 1))
    assert kept.arrangement(1, start, [move])[3] is None
    assert kept.arrangement(1, start, [])[3] is not None  # taken back
    assert kept.arrangement(1, start, [move])[3] is None  # played again: the same places
    other = Move.parse("1S>1M")
    assert kept.arrangement(1, start, [other])[0] is None  # another move at that ply: the first places
    assert kept.arrangement(2, start, [move])[1] is None  # another round knows nothing of round 1's places
