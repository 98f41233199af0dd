"""A match: options, stars, next layout and opener, serialisation."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from soluna_tui.rules import (
    Match,
    MatchFormatError,
    MatchOptions,
    MatchOverError,
    NextLayout,
    NextOpener,
    OptionError,
    OutOfTurnError,
    PlacedMove,
    RoundOverError,
)


def finish_round(match: Match, rng: random.Random, loser: int | None = None) -> None:
    """Play random moves until the round ends (retrying from the start until ``loser`` loses)."""
    while True:
        while not match.round.is_over:
            match.play(rng.choice(match.position.legal_moves))
        if loser is None or match.round.outcome.loser == loser:
            return
        while match.round.can_undo:
            match.undo()


def test_defaults_are_the_box_rules() -> None:
    options = MatchOptions()
    assert (options.stars_to_win, options.discs, options.first_opener) == (4, 12, 0)
    assert options.next_layout is NextLayout.SAME and options.next_opener is NextOpener.LOSER_CHOOSES
    assert options.preset_name == "box"
    online = MatchOptions.preset("online")
    assert online.next_layout is NextLayout.NEW and online.next_opener is NextOpener.LOSER_OPENS
    assert online.preset_name == "online"
    assert MatchOptions(next_layout="new").preset_name == "custom"


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"stars_to_win": 0}, "stars to win must be 1 to 7"),
        ({"stars_to_win": 8}, "stars to win must be 1 to 7"),
        ({"discs": 1}, "discs must be 2 to 24"),
        ({"discs": 25}, "discs must be 2 to 24"),
        ({"next_layout": "sometimes"}, "'sometimes' is not a valid NextLayout"),
        ({"first_opener": 2}, "first opener"),
    ],
)
def test_options_out_of_range_are_refused(options: dict, words: str) -> None:
    with pytest.raises(OptionError, match=words):
        MatchOptions(**options)
    with pytest.raises(OptionError, match="unknown rules preset"):
        MatchOptions.preset("tournament")


def test_the_same_seed_gives_the_same_layouts() -> None:
    options = MatchOptions.preset("online")
    assert Match(options, seed=7).position == Match(options, seed=7).position
    assert Match(options, seed=7).layout_for(3) == Match(options, seed=7).layout_for(3)
    assert Match(options, seed=7).layout_for(2) != Match(options, seed=7).layout_for(3)


def test_box_rules_same_layout_and_the_loser_chooses() -> None:
    rng = random.Random(1)
    match = Match(MatchOptions(first_opener=1), seed=3)
    first_layout = match.position
    finish_round(match, rng)
    loser = match.round.outcome.loser
    assert match.between_rounds and match.opener_chooser == loser
    with pytest.raises(RoundOverError):
        match.play(match.round.moves[0])
    with pytest.raises(OutOfTurnError, match="only the loser"):
        match.start_next_round(opener=0, chooser=1 - loser)
    with pytest.raises(OutOfTurnError, match="must choose"):
        match.start_next_round()
    second = match.start_next_round(opener=1 - loser, chooser=loser)
    assert second.start == first_layout and second.opener == 1 - loser
    assert match.round_number == 2 and sum(match.stars) == 1


def test_online_rules_new_layout_and_the_loser_opens() -> None:
    rng = random.Random(2)
    match = Match(MatchOptions.preset("online"), seed=11)
    finish_round(match, rng)
    loser = match.round.outcome.loser
    assert match.opener_chooser is None
    with pytest.raises(OutOfTurnError, match="loser .* opens"):
        match.start_next_round(opener=1 - loser)
    second = match.start_next_round()
    assert second.opener == loser and second.start == match.layout_for(2) != match.rounds[0].start


def test_first_to_the_stars_wins_and_nothing_more_happens() -> None:
    rng = random.Random(3)
    match = Match(MatchOptions(stars_to_win=2, next_opener="loser-opens"), seed=1)
    finish_round(match, rng, loser=1)
    match.start_next_round()
    finish_round(match, rng, loser=1)
    assert match.stars == (2, 0) and match.winner == 0 and match.is_over and not match.between_rounds
    with pytest.raises(MatchOverError):
        match.start_next_round()
    match.undo()  # taking back the winning move reopens the round
    assert match.winner is None and match.stars == (1, 0)


def test_forfeit_ends_the_match() -> None:
    match = Match(seed=1)
    match.forfeit(0)
    assert match.winner == 1 and match.is_over
    with pytest.raises(MatchOverError):
        match.play(match.position.legal_moves[0])
    with pytest.raises(MatchOverError):
        match.forfeit(1)


def test_rematch_keeps_players_and_options_and_the_loser_opens() -> None:
    match = Match(MatchOptions(stars_to_win=1), players=("Ada", "Bo"), seed=4)
    finish_round(match, random.Random(1), loser=0)
    again = match.rematch(seed=5)
    assert again.players == ("Ada", "Bo") and again.options.stars_to_win == 1
    assert again.round.opener == 0 and again.stars == (0, 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["box", "online"]), st.integers(1, 3), st.integers(2, 14))
def test_json_round_trip_replays_the_same_match(seed: int, preset: str, stars: int, discs: int) -> None:
    rng = random.Random(seed)
    match = Match(MatchOptions.preset(preset, stars_to_win=stars, discs=discs), ("Ann", "Ben ☾"), seed=seed)
    for _ in range(rng.randrange(1, 5)):
        if match.is_over:
            break
        finish_round(match, rng)
        if match.between_rounds:
            chooser = match.opener_chooser
            match.start_next_round(opener=rng.randrange(2) if chooser is not None else None, chooser=chooser)
    for _ in range(rng.randrange(0, 3)):
        if match.round.can_undo:
            match.undo()
    copy = Match.from_json(match.to_json())
    assert copy.to_dict() == match.to_dict()
    assert copy.stars == match.stars and copy.winner == match.winner
    assert copy.position == match.position and copy.round.redo_moves == match.round.redo_moves


def saved_match() -> dict:
    match = Match(seed=9)
    rng = random.Random(9)
    finish_round(match, rng)
    match.start_next_round(opener=0, chooser=match.opener_chooser)
    match.play(match.position.legal_moves[0])
    return match.to_dict()


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda d: d.pop("format"), "not a Soluna match"),
        (lambda d: d.update(version=99), "version 99 is not supported"),
        (lambda d: d.update(version="1"), "'version' has the wrong type"),
        (lambda d: d.pop("rounds"), "no 'rounds' field"),
        (lambda d: d.update(rounds=[]), "at least one round"),
        (lambda d: d["rounds"][1]["moves"].append("9S>9S"), "9S>9S is not allowed"),
        (lambda d: d["rounds"][0]["moves"].pop(), "unfinished but another round follows"),
        (lambda d: d["rounds"][0].update(start="1S 1M"), "does not start as"),
        (lambda d: d["options"].update(stars_to_win=9), "stars to win"),
        (lambda d: d["options"].update(colour="red"), "malformed"),
        (lambda d: d.update(players=["only one"]), "two players"),
        (lambda d: d["rounds"][1].update(moves="1S>1S"), "wrong type"),
        (lambda d: d["rounds"][1].update(moves=[17]), "malformed"),
    ],
)
def test_malformed_documents_raise_one_clear_error(damage, words: str) -> None:
    document = saved_match()
    Match.from_dict(document)  # the undamaged document loads
    damage(document)
    with pytest.raises(MatchFormatError, match=words) as caught:
        Match.from_json(json.dumps(document))
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '"match"', "\x00\x01", '{"format": "soluna-match"}'])
def test_garbage_is_a_format_error(text: str) -> None:
    with pytest.raises(MatchFormatError):
        Match.from_json(text)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_mutation_of_a_document_loads_or_raises_a_format_error(data) -> None:
    document = saved_match()
    target = document
    path = data.draw(st.lists(st.integers(0, 10), max_size=3))
    for step in path:
        children = list(target.items()) if isinstance(target, dict) else list(enumerate(target))
        containers = [(key, value) for key, value in children if isinstance(value, (dict, list))]
        if not containers:
            break
        target = containers[step % len(containers)][1]
    replacement = data.draw(st.one_of(st.none(), st.integers(-3, 30), st.text(max_size=5), st.booleans(),
                                      st.just([]), st.just({})))
    if isinstance(target, dict) and target:
        key = data.draw(st.sampled_from(sorted(target)))
        target[key] = replacement
    elif isinstance(target, list) and target:
        target[data.draw(st.integers(0, len(target) - 1))] = replacement
    try:
        Match.from_dict(document)
    except MatchFormatError as error:
        assert "\n" not in str(error)


def test_deeply_nested_json_is_a_format_error_not_a_crash() -> None:
    with pytest.raises(MatchFormatError, match="nested too deeply"):
        Match.from_json("[" * 100_000 + "]" * 100_000)


def played_with_places(seed: int, preset: str, discs: int, stars: int) -> Match:
    """A match of random moves from random places among alike towers, some rounds in, perhaps a move
    undone (so something waits to be redone) and perhaps forfeited."""
    rng = random.Random(seed)
    match = Match(MatchOptions.preset(preset, stars_to_win=stars, discs=discs), ("Ann", "Ben"), seed=seed)
    for _ in range(rng.randrange(1, 4)):
        while not match.round.is_over:
            table, move = match.round.table, rng.choice(match.position.legal_moves)
            movers = [slot for slot, tower in enumerate(table) if tower == move.mover]
            mover = rng.choice(movers)
            target = rng.choice([slot for slot, tower in enumerate(table) if tower == move.target and slot != mover])
            match.play(PlacedMove(move, mover, target))
        if not match.between_rounds:
            break
        chooser = match.opener_chooser
        match.start_next_round(opener=rng.randrange(2) if chooser is not None else None, chooser=chooser)
    if match.round.can_undo and rng.random() < 0.5:
        match.undo()
    if not match.is_over and rng.random() < 0.2:
        match.forfeit(rng.randrange(2))
    return match


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["box", "online"]), st.integers(2, 10), st.integers(1, 3), st.data())
def test_a_branch_is_the_match_as_it_stood_then_and_leaves_the_match_alone(seed: int, preset: str, discs: int,
                                                                          stars: int, data) -> None:
    match = played_with_places(seed, preset, discs, stars)
    before = match.to_json()
    number = data.draw(st.integers(1, match.round_number))
    played = match.rounds[number - 1]
    ply = data.draw(st.integers(0, played.ply))
    branch = match.branch(number, ply)
    assert match.to_json() == before  # the match itself is untouched
    assert branch.round_number == number and branch.round.ply == ply
    assert branch.round.placed_moves == played.placed_moves[:ply]  # every move from and onto its places
    assert branch.round.table == played.table_at(ply) and branch.position == played.position_at(ply)
    earlier = [kept.placed_moves for kept in match.rounds[:number - 1]]
    assert [kept.placed_moves for kept in branch.rounds[:-1]] == earlier
    assert not branch.can_redo and branch.forfeited_by is None
    assert (branch.players, branch.seed, branch.options) == (match.players, match.seed, match.options)
    if not branch.round.is_over:  # and it plays on, the match still untouched
        branch.play(branch.position.legal_moves[0], branch.to_move)
        assert match.to_json() == before


def test_a_branch_is_refused_outside_the_match() -> None:
    match = Match(seed=3)
    match.play(match.position.legal_moves[0])
    for number, ply in ((0, 0), (2, 0), (1, 2), (1, -1)):
        with pytest.raises(OutOfTurnError):
            match.branch(number, ply)
