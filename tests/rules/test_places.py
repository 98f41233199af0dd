"""The table keeps still, and a move is its places: played, undone, redone, saved, loaded and
exported, a move between alike towers leaves the same towers in the same places."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from soluna_tui.play.match_text import export_match
from soluna_tui.rules import (
    Arrangement,
    IllegalMoveError,
    Match,
    MatchFormatError,
    MatchOptions,
    Move,
    NotationError,
    PlacedMove,
    Position,
    Round,
    Solver,
    arrange,
    drop,
    parse_move_record,
)


def random_placed(table: Arrangement, move: Move, rng: random.Random) -> PlacedMove:
    """``move`` from and onto places chosen at random among the towers like its own (as a player picks)."""
    mover = rng.choice([slot for slot, tower in enumerate(table) if tower == move.mover])
    target = rng.choice([slot for slot, tower in enumerate(table) if tower == move.target and slot != mover])
    return PlacedMove(move, mover, target)


def play_out(match: Match, rng: random.Random, moves: int) -> list[list[Arrangement]]:
    """Random legal moves on random places, rounds started as the rules allow; every table seen, by round."""
    seen: list[list[Arrangement]] = [[match.round.table]]
    for _ in range(moves):
        if match.is_over:
            break
        if match.between_rounds:
            match.start_next_round(rng.choice((0, 1)))
            seen.append([match.round.table])
            continue
        placed = random_placed(match.round.table, rng.choice(match.position.legal_moves), rng)
        match.play(placed)
        seen[-1].append(match.round.table)
    return seen


@st.composite
def placed_rounds(draw: st.DrawFn) -> tuple[Round, list[PlacedMove]]:
    """A round of random legal moves from a random drop (or a table of alike towers), each from and
    onto places chosen at random among the towers like the move's."""
    discs = draw(st.sampled_from([2, 5, 12, 16, 24]))
    if draw(st.booleans()):
        start = drop(discs, random.Random(draw(st.integers(0, 10**6))))
    else:  # many alike towers: every choice of places matters
        start = Position.parse(" ".join(["1S"] * (discs // 2) + ["1M"] * (discs - discs // 2)))
    played = Round(start)
    rng = random.Random(draw(st.integers(0, 10**6)))
    placed: list[PlacedMove] = []
    for _ in range(draw(st.integers(0, discs))):
        if played.is_over:
            break
        placed.append(random_placed(played.table, rng.choice(played.position.legal_moves), rng))
        played.play(placed[-1])
    return played, placed


@settings(max_examples=200, deadline=None)
@given(placed_rounds())
def test_every_table_holds_exactly_the_positions_towers(case: tuple[Round, list[PlacedMove]]) -> None:
    played, placed = case
    assert played.placed_moves == tuple(placed)
    for ply in range(played.ply + 1):
        table = played.table_at(ply)
        assert len(table) == len(played.start)
        assert Counter(table.towers) == Counter(played.position_at(ply).towers)
        assert table.position == played.position_at(ply)
        if ply:
            step, before = placed[ply - 1], played.table_at(ply - 1)
            # The places chosen are kept: the mover's empties, the target's holds the new tower, nothing else moves.
            assert table[step.mover_slot] is None and table[step.target_slot] == step.move.result
            assert all(table[slot] == before[slot] for slot in range(len(table))
                       if slot not in (step.mover_slot, step.target_slot))
    assert arrange(played.start, placed) == played.table


@settings(max_examples=200, deadline=None)
@given(placed_rounds())
def test_undo_and_redo_give_back_the_same_places(case: tuple[Round, list[PlacedMove]]) -> None:
    played, placed = case
    tables = [played.table_at(ply) for ply in range(played.ply + 1)]
    for ply in reversed(range(len(placed))):
        assert played.undo() == placed[ply]
        assert played.table == tables[ply]
    for ply in range(len(placed)):
        assert played.redo() == placed[ply]
        assert played.table == tables[ply + 1]


@pytest.mark.parametrize("discs", [16, 24])
@pytest.mark.parametrize("seed", range(6))
def test_a_match_saved_and_loaded_shows_the_same_table_after_every_move(discs: int, seed: int) -> None:
    """Random playouts over whole matches with many alike towers: the document read back (a save, the
    server's store, a replay) has every round's every table as it was played, and so does its JSON."""
    rng = random.Random(seed)
    match = Match(MatchOptions(discs=discs, stars_to_win=2), ("Ann", "Bob"), seed=seed)
    seen = play_out(match, rng, moves=80)
    for again in (Match.from_dict(match.to_dict()), Match.from_json(match.to_json())):
        assert [[played.table_at(ply) for ply in range(played.ply + 1)] for played in again.rounds] == seen
        assert [played.placed_moves for played in again.rounds] == [played.placed_moves for played in match.rounds]


def test_undone_moves_keep_their_places_in_the_document() -> None:
    match = Match(MatchOptions(discs=16), ("Ann", "Bob"), seed=4)
    rng = random.Random(4)
    play_out(match, rng, moves=4)
    tables = [match.round.table_at(ply) for ply in range(match.round.ply + 1)]
    match.undo()
    match.undo()
    again = Match.from_dict(match.to_dict())
    assert again.round.table == tables[2]
    again.redo()
    again.redo()
    assert again.round.table == tables[4]


def test_a_move_between_alike_towers_lands_where_it_was_played() -> None:
    """The defect players saw: 2 Enter 1 Enter (a one-disc sun onto another) left the new tower in
    place 1 on the mover's screen and in place 2 on everyone else's."""
    match = Match(MatchOptions(discs=12, stars_to_win=1), ("Ann", "Bob"), seed=11)
    table = match.round.table
    assert table[0] == table[1]  # two alike towers in places 1 and 2
    move = Move(table[1], table[0])  # type: ignore[arg-type]
    match.play(PlacedMove(move, 1, 0))
    document = match.to_dict()
    assert document["version"] == 2 and document["rounds"][0]["moves"] == [f"2:{move.mover}>1:{move.target}"]
    again = Match.from_dict(document)
    assert again.round.table[1] is None and again.round.table[0] == move.result


def test_version_one_documents_place_their_moves_on_the_first_places() -> None:
    match = Match(MatchOptions(discs=12), ("Ann", "Bob"), seed=11)
    document = match.to_dict()
    first = match.position.legal_moves[0]
    document["version"] = 1
    document["rounds"][0]["moves"] = [str(first)]
    old = Match.from_dict(document)
    assert old.round.placed_moves == (match.round.table.resolve(first),)


def test_export_names_the_places_of_a_move_between_alike_towers() -> None:
    match = Match(MatchOptions(discs=12, stars_to_win=1), ("Ann", "Bob"), seed=11)
    table = match.round.table
    move = Move(table[1], table[0])  # type: ignore[arg-type]
    match.play(PlacedMove(move, 1, 0))
    lines = export_match(match, solver=Solver()).splitlines()
    assert any(f"{move} 2>1" in line for line in lines)


@pytest.mark.parametrize("text", ["2:1S>1:1S", "10:3M>12:1C", " 1 : 1s > 2 : 1 sun "])
def test_placed_move_notation_round_trips(text: str) -> None:
    placed = PlacedMove.parse(text)
    assert PlacedMove.parse(str(placed)) == placed
    assert parse_move_record(str(placed)) == placed
    assert eval(repr(placed)) == placed


@pytest.mark.parametrize("text", ["2:1S>1S", "0:1S>1:1S", "x:1S>1:1S", "2:1S>2:1S", "2:1S", "123:1S>1:1S",
                                  "²:1S>1:1S", "2:>1:1S", "-1:1S>1:1S"])
def test_broken_placed_moves_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move_record(text)


def test_a_placed_move_must_name_places_holding_its_towers() -> None:
    played = Round(Position.parse("1S 1S 1S 1M"))
    with pytest.raises(IllegalMoveError, match="place 4 holds 1M, not 1S"):
        played.play(PlacedMove.parse("4:1S>2:1S"))
    with pytest.raises(IllegalMoveError, match="place 9 is not on this table"):
        played.play(PlacedMove.parse("2:1S>9:1S"))
    played.play(PlacedMove.parse("2:1S>3:1S"))
    with pytest.raises(IllegalMoveError, match="place 2 is empty"):
        played.play(PlacedMove.parse("2:1S>4:1M"))
    assert played.ply == 1


def test_a_document_whose_places_break_the_table_is_refused() -> None:
    match = Match(MatchOptions(discs=12), ("Ann", "Bob"), seed=11)
    document = match.to_dict()
    move = match.position.legal_moves[0]
    wrong = next(slot for slot, tower in enumerate(match.round.table) if tower != move.mover)
    right = match.round.table.resolve(move)
    document["rounds"][0]["moves"] = [str(PlacedMove(move, wrong, right.target_slot))]
    with pytest.raises(MatchFormatError):
        Match.from_dict(document)


def test_the_same_move_on_other_places_is_not_a_redo() -> None:
    played = Round(Position.parse("1S 1S 1S 1M"))
    first = PlacedMove.parse("1:1S>2:1S")
    played.play(first)
    played.undo()
    assert played.redo_moves == (first,)
    played.play(PlacedMove.parse("3:1S>2:1S"))
    assert played.redo_moves == ()
    played.undo()
    played.play(first)  # the same places as the move undone: it was that redo
    assert played.redo_moves == ()
    assert played.table_at(1) == Arrangement.opening(played.start).after(first)


def test_notation_says_when_alike_towers_leave_a_choice() -> None:
    table = Arrangement.opening(Position.parse("1S 1S 1M 2C"))
    assert table.is_ambiguous(Move.parse("1S>1S"))
    assert table.is_ambiguous(Move.parse("1S>1M"))  # which sun?
    assert not Arrangement.opening(Position.parse("1S 1M 2C")).is_ambiguous(Move.parse("1S>1M"))
