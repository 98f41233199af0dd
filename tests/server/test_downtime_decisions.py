"""Issue 29's match policy without a server: time nobody could play (every server down, a server dead until
another noticed) counts against no clock and nobody's time away."""

from __future__ import annotations

from soluna_tui.server.lobby.clocks import MatchClock
from soluna_tui.server.lobby.decisions import Change, Keep, Referee
from soluna_tui.server.lobby.news import News

from .test_decisions import DEAD, NOW, played, seat
from .test_fair_decisions import BLITZ, at, clocked

REFEREE = Referee(hold_time=300, clocks=(BLITZ,))


def test_the_clock_credited_for_a_while_is_charged_nothing_then() -> None:
    clock = MatchClock(BLITZ, (60.0, 90.0), 1, NOW - 100)
    assert clock.credited(NOW - 50, NOW) == MatchClock(BLITZ, (60.0, 40.0), 1, NOW)
    assert clock.credited(NOW - 200, NOW) == MatchClock(BLITZ, (60.0, 90.0), 1, NOW)  # started within the while
    stopped = MatchClock(BLITZ, (60.0, 90.0))
    assert stopped.credited(NOW - 50, NOW) == stopped


def test_a_match_no_server_served_is_given_back_as_it_was_when_the_last_one_stopped() -> None:
    """Stopped at NOW - 50, back at NOW: bob's clock had run 50 s of the 100 since his turn began, and ann had been
    away 10 s of her 300 (she left at NOW - 60)."""
    current = clocked(played(), seat("ann", None, held_until=NOW + 240, away_since=NOW - 60), seat("bob", None,
                      held_until=NOW + 250, away_since=NOW - 50), clock=MatchClock(BLITZ, (60.0, 90.0), 1, NOW - 100))
    change = REFEREE.resume(current, at(NOW), since=NOW - 50)
    assert isinstance(change, Change) and change.finish is None
    assert change.clock == MatchClock(BLITZ, (60.0, 40.0), 1, NOW)
    assert [(each.held_until, each.away_since) for each in change.seats] == [(NOW + 290, NOW - 10), (NOW + 300, NOW)]
    assert change.news == News.to_all("The server was down for 50 seconds: no clock ran and no time away counted.")
    # Given back already (another server starting changed it since), or barely down: nothing to do.
    assert REFEREE.resume(current, at(NOW), since=1.0) is None
    assert REFEREE.resume(current, at(NOW), since=NOW - 0.5) is None


def test_a_dead_server_s_player_is_held_from_when_it_is_noticed_and_charged_nothing_since_its_last_heartbeat() -> None:
    current = clocked(played(), seat("ann", DEAD), seat("bob"), clock=MatchClock(BLITZ, (30.0, 30.0), 0, NOW - 20))
    change = REFEREE.hold_gone(current, at(NOW), [0], {DEAD: NOW - 7})
    assert isinstance(change, Change)
    assert (change.seats[0].held_until, change.seats[0].away_since) == (NOW + 300, NOW)
    assert change.clock == MatchClock(BLITZ, (17.0, 30.0), 0, NOW)  # charged until the last heartbeat only
    unheard = REFEREE.hold_gone(current, at(NOW), [0])
    assert isinstance(unheard, Change) and unheard.clock is Keep.CLOCK
    bobs_turn = clocked(played(), seat("ann", DEAD), seat("bob"), clock=MatchClock(BLITZ, (30.0, 30.0), 1, NOW - 20))
    change = REFEREE.hold_gone(bobs_turn, at(NOW), [0], {DEAD: NOW - 7})
    assert isinstance(change, Change) and change.clock is Keep.CLOCK  # bob could move all along
