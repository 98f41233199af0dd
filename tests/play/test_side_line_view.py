"""A side line's history, tally and last move: what the match played keeps its names, rounds and stars,
whoever plays which side in the side line; only the side line's own moves are named by who plays them now."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from soluna_tui.play.coach import Turn
from soluna_tui.play.looks import HistoryEntry
from soluna_tui.play.view import (
    Moment,
    SideLineStart,
    TableFacts,
    history_entries,
    last_move_words,
    short_names,
    stars_of,
    tally_info,
)
from soluna_tui.rules import Match, MatchOptions, choose_move

FACTS = TableFacts(local_to_move=True, one_local_player=True, computer_plays=True)


def played_match(rng: random.Random) -> Match:
    """A match against the computer some rounds in (random play), its current round perhaps begun."""
    match = Match(MatchOptions(discs=rng.choice((6, 8)), stars_to_win=4), ("You", "Computer"), seed=rng.randrange(99))
    for _ in range(rng.randrange(1, 4)):
        while not match.round.is_over:
            match.play(choose_move("random", match.position, rng))
        if match.is_over:
            break
        match.start_next_round(rng.randrange(2))
    else:
        for _ in range(rng.randrange(3)):  # a move or two into the next round, unless it is over already
            if not match.round.is_over:
                match.play(choose_move("random", match.position, rng))
    return match


def viewing(match: Match, entry: HistoryEntry) -> Moment:
    return Moment(Turn(1, match.round_number, match.round.ply), viewing=entry)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans())
def test_what_the_match_played_reads_the_same_in_any_side_line_from_it(rng: random.Random, swap: bool) -> None:
    match = played_match(rng)
    starts = [(number, ply) for number, played in enumerate(match.rounds, start=1)
              for ply in range(played.ply + 1) if played.position_at(ply).legal_moves]
    round_number, ply = rng.choice(starts)
    names = ("Computer", "You") if swap else match.players
    side = match.branch(round_number, ply, players=names)
    start = SideLineStart(round_number, ply, swap)
    while not side.round.is_over:  # the side line plays its round out
        side.play(choose_move("random", side.position, rng))

    theirs, ours = history_entries(match), history_entries(side, start)
    for entry, shown in zip(theirs, ours, strict=False):
        if (entry.round_number, entry.ply) > (round_number, ply):
            break
        if entry.heading and entry.round_number == round_number:  # the side line's round: none won
            opener = match.rounds[round_number - 1].opener
            assert shown.text == f"Round {round_number}: {short_names(match.players)[opener]} opened"
        else:
            assert shown == entry
        assert last_move_words(side, shown, start) == last_move_words(match, entry)
        match_tally, side_tally = tally_info(match, FACTS, viewing(match, entry)), \
            tally_info(side, FACTS, viewing(side, shown), start)
        if match_tally.to_move is not None and (entry.round_number, entry.ply) < (round_number, ply):
            # the turn's marker on who really had it there (where the side line starts, on who has it now)
            assert side_tally.names[side_tally.to_move] == match_tally.names[match_tally.to_move]
    for entry in ours:  # the side line's own moves: named by who plays each side now
        if not entry.heading and (entry.round_number, entry.ply - 1) >= (round_number, ply):
            mover = side.rounds[entry.round_number - 1].mover_at(entry.ply - 1)
            assert entry.text.split()[1] == short_names(side.players)[mover]

    won = [played.outcome.winner for played in match.rounds[:round_number - 1] if played.outcome is not None]
    stars = stars_of(side, start)  # each star with who won it, and none for the side line's round
    assert [stars[names.index(player)] for player in match.players] == [won.count(0), won.count(1)]
    assert f"Round {round_number}: " in ours[[e.round_number for e in ours].index(round_number)].text
    assert not any(entry.text.startswith(f"Round {round_number}:") and entry.text.endswith("won") for entry in ours)
