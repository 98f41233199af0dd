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
    names_at,
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


def side_line(match: Match, rng: random.Random, swap: bool, names: tuple[str, str],
              before: SideLineStart | None = None) -> tuple[Match, SideLineStart]:
    """A side line from a random position of ``match`` (one with a move to play), the sides handed over there
    if ``swap``, played out to the round's end; ``before``: where ``match``, a side line itself, started."""
    starts = [(number, ply) for number, played in enumerate(match.rounds, start=1)
              for ply in range(played.ply + 1) if played.position_at(ply).legal_moves]
    round_number, ply = rng.choice(starts)
    side = match.branch(round_number, ply, players=(names[1], names[0]) if swap else names)
    while not side.round.is_over:
        side.play(choose_move("random", side.position, rng))
    return side, SideLineStart.at(round_number, ply, swap, before)


def assert_reads_as_before(before: Match, before_start: SideLineStart | None, after: Match,
                           start: SideLineStart) -> None:
    """Everything played before ``start`` reads in the side line ``after`` as it did in ``before`` (its history
    line, its last move, the turn's marker on who had it); the round it starts in is none won; the side line's
    own moves are named by who plays each side now."""
    theirs, ours = history_entries(before, before_start), history_entries(after, start)
    branch = (start.round_number, start.ply)
    for entry, shown in zip(theirs, ours, strict=False):
        if (entry.round_number, entry.ply) > branch:
            break
        if entry.heading and entry.round_number == start.round_number:  # the side line's round: none won
            opener = before.rounds[start.round_number - 1].opener
            names = short_names(names_at(before.players, start.round_number, -1, before_start))
            assert shown.text == f"Round {start.round_number}: {names[opener]} opened"
        else:
            assert shown == entry
        assert last_move_words(after, shown, start) == last_move_words(before, entry, before_start)
        tally = tally_info(before, FACTS, viewing(before, entry), before_start)
        if tally.to_move is not None and (entry.round_number, entry.ply) < branch:
            shown_tally = tally_info(after, FACTS, viewing(after, shown), start)
            assert shown_tally.names[shown_tally.to_move] == tally.names[tally.to_move]
    for entry in ours:
        if not entry.heading and (entry.round_number, entry.ply - 1) >= branch:
            mover = after.rounds[entry.round_number - 1].mover_at(entry.ply - 1)
            assert entry.text.split()[1] == short_names(after.players)[mover]
    assert not any(entry.heading and entry.round_number == start.round_number and entry.text.endswith("won")
                   for entry in ours)


def assert_stars_stay_with_who_won_them(match: Match, side: Match, start: SideLineStart) -> None:
    won = [played.outcome.winner for played in match.rounds[:start.round_number - 1] if played.outcome is not None]
    stars = stars_of(side, start)  # each star with who won it, and none for the side line's round
    assert [stars[side.players.index(player)] for player in match.players] == [won.count(0), won.count(1)]


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans(), st.booleans())
def test_what_was_played_reads_the_same_in_a_side_line_and_in_a_side_line_from_it(
        rng: random.Random, swap: bool, swap_again: bool) -> None:
    """A side line from a random position of a match, you taking the computer's side or not; then a side line
    from a random position of that one, the sides handed over again or not."""
    match = played_match(rng)
    side, start = side_line(match, rng, swap, match.players)
    assert_reads_as_before(match, None, side, start)
    assert_stars_stay_with_who_won_them(match, side, start)
    again, start_again = side_line(side, rng, swap_again, side.players, start)
    assert_reads_as_before(side, start, again, start_again)
    assert_stars_stay_with_who_won_them(match, again, start_again)
