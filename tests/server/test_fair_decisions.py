"""Issue 16's match policy without a server: time away adds up, clocks, aborted matches, addresses.

Each decision is taken on a match as read, at a moment the test chooses.
"""

from __future__ import annotations

import pytest

from soluna_tui.link.messages import StartNextRound
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.rules.clock import ClockReading, ClockSetting, ClockSettingError, MatchClock, clock_face, clock_turn
from soluna_tui.rules.end_reason import EndReason
from soluna_tui.server.lobby.decision_values import BadOptions, Change, Keep, MatchRead, Moment, Newcomer
from soluna_tui.server.lobby.decisions import Referee, real_play
from soluna_tui.server.storage import SeatRecord, StoredMatch

from .test_decisions import (
    HERE,
    MOMENT,
    NOW,
    THERE,
    match_over,
    move_request,
    new_match,
    played,
    read,
    round_over,
    seat,
)

BLITZ = ClockSetting(180.0, 2.0)
REFEREE = Referee(hold_time=300, clocks=(BLITZ,))


def at(now: float) -> Moment:
    return Moment(now, HERE, frozenset({HERE, THERE}))


def clocked(match: Match | None, *seats: SeatRecord, clock: MatchClock | None) -> MatchRead:
    options = match.options.to_dict() if match is not None else MatchOptions(discs=4).to_dict()
    stored = StoredMatch("ABCD", 5, options, seats, match.to_dict() if match is not None else None, 1.0, 2.0,
                         clock=clock.to_document() if clock is not None else None)
    return MatchRead(stored)


def apply(read: MatchRead, change: Change) -> MatchRead:
    """The match as read again once ``change`` is written."""
    assert change.match is not None
    clock = read.clock if change.clock is Keep.CLOCK else change.clock
    return clocked(change.match, *change.seats, clock=clock)


# ---- time away adds up over a match --------------------------------------------------------------


def test_leaving_and_coming_back_every_three_quarters_of_the_hold_forfeits_on_the_second_absence() -> None:
    """The stall of issue 16 (a 10 s hold, back every 7.5 s), at the referee's own scale: 300 s and 225 s."""
    referee = Referee(hold_time=300)
    current = read(played(), seat("ann"), seat("bob"))
    now = NOW
    for absence in (1, 2):
        change = referee.leave(current, at(now), 1)
        assert isinstance(change, Change) and change.finish is None
        held = change.seats[1].held_until
        assert held == now + (300 if absence == 1 else 75)  # what is left of bob's time away, not 300 again
        current = apply(current, change)
        if absence == 2:
            break
        now += 225
        back = referee.take_back_seat(current, at(now), 1, "scrypt$again")
        assert isinstance(back, Change) and back.seats[1].away_used == 225 and back.seats[1].away_since is None
        assert back.news.seats[1] == "Welcome back. Time away left in this match: 1 min 15 s."
        current = apply(current, back)
        now += 60  # playing again
    assert change.news.seats[0] == ("bob has left: the seat is held for 1 min 15 s, what is left of their time "
                                    "away, then you win by forfeit.")
    assert referee.due(current, at(now + 74)) is None
    forfeit = referee.due(current, at(now + 75))
    assert isinstance(forfeit, Change) and forfeit.finish is EndReason.FORFEIT
    assert forfeit.match is not None and forfeit.match.winner == 0


def test_time_away_under_ten_minutes_is_told_to_the_second_as_the_panel_counts_it() -> None:
    away = read(played(), seat("ann"), seat("bob", None, held_until=NOW + 102, away_since=NOW - 198))
    back = REFEREE.take_back_seat(away, MOMENT, 1, "scrypt$again")
    assert isinstance(back, Change)
    assert back.news.seats[1] == "Welcome back. Time away left in this match: 1 min 42 s."  # the panel said 1:42
    leaving = Referee(hold_time=90).leave(read(played(), seat("ann"), seat("bob")), MOMENT, 1)
    assert isinstance(leaving, Change)
    assert leaving.news.watchers == "bob has left: the seat is held for 1 min 30 s."  # not "2 minutes"


def test_a_player_with_no_time_away_left_forfeits_as_they_leave() -> None:
    spent = read(played(), seat("ann"), seat("bob", away_used=300.0))
    change = REFEREE.leave(spent, MOMENT, 1)
    assert isinstance(change, Change) and change.finish is EndReason.FORFEIT
    assert change.news.watchers == "bob has left with no time away left: ann wins by forfeit."


def test_a_departure_written_late_counts_from_when_the_player_left() -> None:
    """A leave the store missed (the database was down) is told as of when it happened: past the hold, a forfeit."""
    current = read(played(), seat("ann"), seat("bob"))
    late = REFEREE.leave(current, MOMENT, 1, at=NOW - 100)
    assert isinstance(late, Change) and late.seats[1].held_until == NOW + 200 and late.seats[1].away_since == NOW - 100
    too_late = REFEREE.leave(current, MOMENT, 1, at=NOW - 400)
    assert isinstance(too_late, Change) and too_late.finish is EndReason.FORFEIT
    assert too_late.match is not None and too_late.match.winner == 0  # never the other way round


def test_a_seat_given_back_by_another_server_counts_no_time_away() -> None:
    given_up = read(played(), seat("ann"), seat("bob", server=None, held_until=NOW + 300, away_since=NOW - 5))
    change = REFEREE.reclaim(given_up, MOMENT, 1)
    assert isinstance(change, Change) and change.seats[1].away_used == 0 and change.seats[1].away_since is None


def test_a_server_gone_silent_holds_each_seat_for_what_is_left_of_its_time_away() -> None:
    gone = read(played(), seat("ann", "dead"), seat("bob", "dead", away_used=240.0))
    change = REFEREE.hold_gone(gone, MOMENT, [0, 1])
    assert isinstance(change, Change)
    assert [each.held_until for each in change.seats] == [NOW + 300, NOW + 60]
    assert change.news.watchers == ("ann lost the connection (held for 5 minutes); bob lost the connection "
                                    "(held for 1 minute): then a forfeit.")


# ---- aborted before real play --------------------------------------------------------------------


@pytest.mark.parametrize(("moves", "real"), [(0, False), (1, False), (2, True), (3, True)])
def test_real_play_is_both_players_having_moved(moves: int, real: bool) -> None:
    assert real_play(played(moves)) is real


def test_a_forfeit_before_both_have_moved_aborts_the_match_unrated() -> None:
    one_move = read(played(1), seat("ann"), seat("bob", None, held_until=NOW))
    change = REFEREE.expire(one_move, MOMENT, 1)
    assert isinstance(change, Change) and change.finish is EndReason.ABORTED and change.goes
    assert change.match is not None and change.match.winner is None and change.match.forfeited_by is None
    assert change.news.watchers == ("bob did not come back before both players had moved: the match is aborted, "
                                    "and not rated.")
    assert not EndReason.ABORTED.has_winner and EndReason.TIME.has_winner


def test_each_seat_keeps_the_addresses_it_sat_down_from() -> None:
    waiting = read(None, seat("ann", addresses=("10.0.0.1",)))
    joined = REFEREE.seat_opponent(waiting, MOMENT, Newcomer("bob", "SHA256:b", False, "h", "10.0.0.2"))
    assert isinstance(joined, Change) and joined.seats[1].addresses == ("10.0.0.2",)
    held = read(played(), seat("ann"), seat("bob", None, held_until=NOW + 9, addresses=("10.0.0.2",)))
    back = REFEREE.take_back_seat(held, MOMENT, 1, "h", "10.0.0.1")
    assert isinstance(back, Change) and back.seats[1].addresses == ("10.0.0.2", "10.0.0.1")


# ---- clocks -------------------------------------------------------------------------------------


def test_clock_settings_read_and_say_themselves() -> None:
    assert ClockSetting.parse("3+2") == BLITZ and BLITZ.label == "3+2" and BLITZ.brief == "3 min + 2 s a move"
    assert ClockSetting.parse("0.25+1") == ClockSetting(15.0, 1.0) and ClockSetting(15, 1).label == "0:15+1"
    for wrong in ("3", "3+", "+2", "a+b", "0+0", "1441+0", "3+601"):
        with pytest.raises(ClockSettingError):
            ClockSetting.parse(wrong)
    assert [clock_face(seconds) for seconds in (185, 60, 59.2, 9.94, 0.05, -3, 3600 * 2 + 5)] == [
        "3:05", "1:00", "1:00", "0:09.9", "0:00.0", "0:00.0", "2:00:05"]


def test_a_clock_runs_for_the_player_to_move_and_a_move_adds_the_increment() -> None:
    clock = MatchClock.fresh(BLITZ).run(0, NOW)
    assert clock.left_at(0, NOW + 30) == 150 and clock.left_at(1, NOW + 30) == 180
    moved = clock.after_move(0, NOW + 30, 1)
    assert moved.left == (152.0, 180.0) and moved.running == 1 and moved.since == NOW + 30
    assert moved.runs_out_at() == NOW + 210 and moved.flagged(NOW + 209) is None and moved.flagged(NOW + 210) == 1
    assert MatchClock.from_document(moved.to_document()) == moved
    assert moved.reading(NOW + 40) == ClockReading(BLITZ, (152.0, 170.0), 1)
    for garbage in (None, [], {"seconds": 1}, {"seconds": "x", "increment": 0, "left": [1, 2]},
                    {"seconds": 60, "increment": 0, "left": [1]}):
        assert MatchClock.from_document(garbage) is None
    assert MatchClock.from_document({**moved.to_document(), "running": True}) == MatchClock(BLITZ, moved.left)


def test_between_rounds_the_loser_s_clock_runs_and_nobody_s_once_the_match_is_over() -> None:
    match = round_over(stars_to_win=2)
    assert clock_turn(match) == match.round.outcome.loser
    assert clock_turn(new_match()) == 0
    done = round_over(stars_to_win=1)
    assert done.is_over and clock_turn(done) is None


def test_a_match_with_a_clock_starts_it_when_the_opponent_sits_down() -> None:
    assert REFEREE.clock_for(None) is None and REFEREE.clock_for(BLITZ) == MatchClock.fresh(BLITZ)
    with pytest.raises(BadOptions):
        REFEREE.clock_for(ClockSetting(60, 0))  # not one this server offers
    waiting = clocked(None, seat("ann"), clock=MatchClock.fresh(BLITZ))
    change = REFEREE.seat_opponent(waiting, MOMENT, Newcomer("bob", None, False, "h"))
    assert isinstance(change, Change) and change.clock == MatchClock(BLITZ, (180.0, 180.0), 0, NOW)


def test_a_move_stops_the_mover_s_clock_and_starts_the_opponent_s() -> None:
    match = new_match()
    current = clocked(match, seat("ann"), seat("bob"), clock=MatchClock.fresh(BLITZ).run(0, NOW))
    change = REFEREE.play_move(current, 0, move_request(match), at(NOW + 12.5))
    assert isinstance(change, Change) and change.clock == MatchClock(BLITZ, (169.5, 180.0), 1, NOW + 12.5)


def test_a_clock_run_out_loses_on_time_after_real_play_and_aborts_before() -> None:
    match = played()
    running = MatchClock(BLITZ, (10.0, 50.0), 0, NOW)
    current = clocked(match, seat("ann"), seat("bob"), clock=running)
    assert REFEREE.flag(current, at(NOW + 9.9)) is None and REFEREE.next_due(current) == NOW + 10
    change = REFEREE.due(current, at(NOW + 10))
    assert isinstance(change, Change) and change.finish is EndReason.TIME
    assert change.match is not None and change.match.winner == 1
    assert change.clock == MatchClock(BLITZ, (0.0, 50.0))
    assert change.news.watchers == "ann's time ran out: bob wins on time."
    assert apply(current, change).ended is EndReason.TIME
    late_move = REFEREE.play_move(current, 0, move_request(match), at(NOW + 11))
    assert isinstance(late_move, Change) and late_move.finish is EndReason.TIME  # a move too late is no move
    first_move = clocked(new_match(), seat("ann"), seat("bob"), clock=running)
    aborted = REFEREE.flag(first_move, at(NOW + 10))
    assert isinstance(aborted, Change) and aborted.finish is EndReason.ABORTED
    assert aborted.news.watchers == ("ann's time ran out before both players had moved: the match is aborted, "
                                     "and not rated.")


def test_a_resignation_stops_the_clock_and_one_after_the_clock_ran_out_is_a_loss_on_time() -> None:
    current = clocked(played(), seat("ann"), seat("bob"), clock=MatchClock(BLITZ, (10.0, 50.0), 0, NOW))
    resigned = REFEREE.resign(current, 1, at(NOW + 4))
    assert isinstance(resigned, Change) and resigned.finish is EndReason.RESIGNED
    assert resigned.clock == MatchClock(BLITZ, (6.0, 50.0))
    late = REFEREE.resign(current, 1, at(NOW + 10))
    assert isinstance(late, Change) and late.finish is EndReason.TIME and late.match is not None
    assert late.match.winner == 1  # ann's clock had run out before bob gave up


def test_the_clock_runs_on_while_its_player_is_away_and_wins_over_the_hold() -> None:
    match = played()
    away = clocked(match, seat("ann", None, held_until=NOW + 300), seat("bob"),
                   clock=MatchClock(BLITZ, (20.0, 50.0), 0, NOW))
    assert REFEREE.next_due(away) == NOW + 20
    change = REFEREE.due(away, at(NOW + 20))
    assert isinstance(change, Change) and change.finish is EndReason.TIME


def test_the_next_round_moves_the_clock_to_its_opener_and_a_rematch_starts_a_fresh_one() -> None:
    match = round_over(stars_to_win=2)
    loser = match.round.outcome.loser
    current = clocked(match, seat("ann"), seat("bob"), clock=MatchClock(BLITZ, (100.0, 90.0), loser, NOW))
    change = REFEREE.start_next_round(current, loser, StartNextRound(1 - loser, 1), at(NOW + 5))
    assert isinstance(change, Change) and isinstance(change.clock, MatchClock)
    assert change.clock.running == 1 - loser and change.clock.left[loser] == (100.0, 90.0)[loser] - 5
    over = round_over(stars_to_win=1)
    finished = clocked(over, seat("ann", rematch=True, away_used=40.0), seat("bob"),
                       clock=MatchClock(BLITZ, (3.0, 90.0)))
    rematch = REFEREE.ask_rematch(finished, 1, at(NOW))
    assert isinstance(rematch, Change) and rematch.match is not None
    assert rematch.clock == MatchClock(BLITZ, (180.0, 180.0), rematch.match.to_move, NOW)
    assert [each.away_used for each in rematch.seats] == [0.0, 0.0]


# ---- issue 29: a seat guessed at -----------------------------------------------------------------


def test_a_seat_guessed_at_warns_its_player_alone_while_they_sit_there() -> None:
    line = "Someone tried a wrong secret for your seat (1 so far): keep yours to yourself."
    change = REFEREE.warn(read(played(), seat("ann"), seat("bob", server=THERE)), 1, line)
    assert isinstance(change, Change) and change.finish is None and change.clock is Keep.CLOCK
    assert (change.news.seats, change.news.watchers) == ((None, line), None)
    assert REFEREE.warn(read(played(), seat("ann"), seat("bob", server=None)), 1, line) is None  # nobody there
    assert REFEREE.warn(read(match_over(), seat("ann"), seat("bob")), 1, line) is None  # over: nothing to guard
