"""Takebacks without a server: asked, answered, lapsed, limited, refused in a tournament's match, and the clock
as the local undo has it (``server/lobby/takebacks.py``)."""

from __future__ import annotations

from dataclasses import replace

from soluna_tui.rules import Match
from soluna_tui.rules.clock import ClockSetting, MatchClock
from soluna_tui.server.lobby import takebacks
from soluna_tui.server.lobby.decision_values import TAKEBACKS_TERM, Change, MatchRead, Refused, match_options
from soluna_tui.server.lobby.news import News
from soluna_tui.server.storage import StoredMatch

from .test_decisions import MOMENT, NOW, REFEREE, move_request, new_match, read, round_over, seat


def after_moves(moves: int) -> Match:
    match = new_match()
    for _ in range(moves):
        match.play(match.position.legal_moves[0], match.to_move)
    return match


def asked(match: Match, seat_index: int) -> MatchRead:
    """ann (seat 0) and bob at ``match``, the player at ``seat_index`` asking for a takeback."""
    seats = [seat("ann"), seat("bob")]
    seats[seat_index] = replace(seats[seat_index], takeback=True, takebacks=1)
    return read(match, *seats)


def test_only_the_last_mover_may_ask_and_the_opponent_is_told() -> None:
    match = after_moves(1)  # ann (seat 0) opened: bob to move
    change = takebacks.ask_takeback(read(match, seat("ann"), seat("bob")), 0, MOMENT)
    assert isinstance(change, Change)
    assert (change.seats[0].takeback, change.seats[0].takebacks) == (True, 1)
    assert change.news == News(("Takeback asked: waiting for bob's answer.",
                                "ann asks to take their last move back: accept or decline."))
    assert takebacks.ask_takeback(read(match, seat("ann"), seat("bob")), 1, MOMENT) == Refused(
        "Only your own last move can be taken back, before your opponent moves.")
    assert takebacks.ask_takeback(read(new_match(), seat("ann"), seat("bob")), 0, MOMENT) == Refused(
        "Only your own last move can be taken back, before your opponent moves.")
    assert takebacks.ask_takeback(read(round_over(), seat("ann"), seat("bob")), 0, MOMENT) == Refused(
        "The round is over: too late to take a move back.")


def test_one_request_at_a_time_a_few_a_match_and_none_in_a_tournament_match() -> None:
    match = after_moves(1)
    assert takebacks.ask_takeback(asked(match, 0), 0, MOMENT) == Refused(
        "A takeback is asked already: wait for the answer.")
    spent = read(match, seat("ann", takebacks=takebacks.TAKEBACKS_PER_MATCH), seat("bob"))
    assert takebacks.ask_takeback(spent, 0, MOMENT) == Refused(
        f"You have asked for {takebacks.TAKEBACKS_PER_MATCH} takebacks in this match: no more.")
    assert takebacks.ask_takeback(read(match, seat("ann"), seat("bob", server=None)), 0, MOMENT) == Refused(
        "bob is away: nobody to ask.")
    stored = StoredMatch("ABCD", 5, {**match.options.to_dict(), TAKEBACKS_TERM: False},
                         (seat("ann"), seat("bob")), match.to_dict(), 1.0, 2.0)
    assert takebacks.ask_takeback(MatchRead(stored), 0, MOMENT) == Refused("No takebacks in a tournament match.")
    assert match_options(stored.options) == match.options  # the term is not an option of the game


def test_accepted_the_move_is_taken_back_with_nothing_to_redo_and_everyone_told() -> None:
    match = after_moves(2)  # ann, bob: ann to move
    last = match.round.placed_moves[-1]
    change = takebacks.answer_takeback(asked(match, 1), 0, True, MOMENT)
    assert isinstance(change, Change) and change.match is not None
    assert (change.match.round.ply, change.match.to_move, change.match.can_redo) == (1, 1, False)
    assert not change.seats[1].takeback and change.seats[1].takebacks == 1
    assert change.news == News((f"You took bob's move {last} back.", f"ann accepted: your move {last} is taken back."),
                               f"bob's move {last} was taken back.")


def test_declined_the_request_lapses_and_each_player_hears_it_once() -> None:
    change = takebacks.answer_takeback(asked(after_moves(1), 0), 1, False, MOMENT)
    assert isinstance(change, Change) and change.match is not None and change.match.round.ply == 1
    assert not change.seats[0].takeback
    # The decliner is told too (their screen showed the request until now), the spectators nothing.
    assert change.news == News(("bob declined your takeback.", "You declined ann's takeback."))
    assert takebacks.answer_takeback(read(after_moves(1), seat("ann"), seat("bob")), 1, True, MOMENT) == Refused(
        "Nobody asks for a takeback now.")


def test_the_opponents_move_lapses_the_request_with_a_line_to_the_asker() -> None:
    match = after_moves(1)
    change = REFEREE.play_move(asked(match, 0), 1, move_request(match), MOMENT)
    assert isinstance(change, Change) and change.news.moved is not None
    assert not change.seats[0].takeback
    assert change.news.seats == ("bob moved: your takeback request lapsed.", None)


def test_the_clock_after_a_takeback_is_the_local_undos_no_time_gained() -> None:
    setting = ClockSetting(60.0, 5.0)
    match = after_moves(1)  # ann moved at NOW - 10 holding 40 s, gained 5; bob's clock has run 10 s since
    clock = MatchClock(setting, (45.0, 60.0), running=1, since=NOW - 10)
    stored = StoredMatch("ABCD", 5, match.options.to_dict(), asked(match, 0).seats, match.to_dict(), 1.0, 2.0,
                         clock=clock.to_document())
    change = takebacks.answer_takeback(MatchRead(stored), 1, True, MOMENT)
    assert isinstance(change, Change) and isinstance(change.clock, MatchClock)
    # ann holds what she held when she moved, the increment taken back; bob keeps what his clock ran off.
    assert change.clock.left == (40.0, 50.0) and (change.clock.running, change.clock.since) == (0, NOW)
    short = replace(clock, left=(5.0, 60.0))  # ann holds no more than the increment: it is spent
    stored = replace(stored, clock=short.to_document())
    refused = takebacks.answer_takeback(MatchRead(stored), 1, True, MOMENT)
    assert isinstance(refused, Change) and refused.match is not None and refused.match.round.ply == 1
    assert refused.news == News.to_all("Too late to take back: ann has spent that move's 5 s.")
