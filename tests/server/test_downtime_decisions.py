"""Issue 29's match policy without a server: time nobody could play (every server down, a server dead until
another noticed, a move waiting for the database) counts against no clock and nobody's time away; past a day the
match is adjourned until both players are back (issue 39)."""

from __future__ import annotations

from dataclasses import replace

from soluna_tui.rules.clock import MatchClock
from soluna_tui.rules.end_reason import EndReason
from soluna_tui.rules.wording import minutes
from soluna_tui.server.config import ADJOURN_AFTER
from soluna_tui.server.lobby.decision_values import Change, Keep, MatchRead, Resync
from soluna_tui.server.lobby.decisions import ADJOURNED, DATABASE_AWAY, STILL_ADJOURNED, Referee
from soluna_tui.server.lobby.listing import in_play, listing_for
from soluna_tui.server.lobby.news import MovePlayed, News
from soluna_tui.server.lobby.presence import Presence
from soluna_tui.server.lobby.tables import Table

from .test_decisions import DEAD, HERE, NOW, match_over, move_request, played, seat
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


def test_a_write_that_landed_while_the_try_that_found_the_store_away_waited_is_no_give_back() -> None:
    """Found under load: a server's heartbeat began at NOW and waited for a connection, a move landed at NOW + 0.1
    (another server could still write), then the database went; the try failed at NOW + 3. The match was never given
    back, but it was changed after NOW: taken for given back already, a day's outage was never adjourned and bob lost
    on time. A change is taken for a give back only after the try failed; a change after that still is one."""
    back = NOW + 90_000
    before_the_cut = clocked(played(), seat("ann"), seat("bob"), clock=MatchClock(BLITZ, (60.0, 90.0), 1, NOW - 50))
    before_the_cut = MatchRead(replace(before_the_cut.stored, updated_at=NOW + 0.1))
    change = REFEREE.resume(before_the_cut, at(back), NOW, DATABASE_AWAY, changed_after=NOW + 3)
    assert isinstance(change, Change) and change.adjourned_at == back
    assert REFEREE.resume(before_the_cut, at(back), NOW, DATABASE_AWAY) is None  # what the server did before
    given_back = MatchRead(replace(before_the_cut.stored, updated_at=back - 1))  # another server, back first
    assert REFEREE.resume(given_back, at(back), NOW, DATABASE_AWAY, changed_after=NOW + 3) is None


def test_the_store_is_found_away_when_the_first_try_of_the_outage_fails() -> None:
    """The clocks stop as of the try (``away_since``); a change is taken for a give back only after it failed."""

    class Store:
        SHARED = True
        now = NOW
        reached_at = NOW - 1  # the last transaction that went through

        def clock(self) -> float:
            return self.now

    store = Store()
    presence = Presence(store, HERE)  # type: ignore[arg-type]
    store.now = NOW + 3
    presence.store_away(NOW)  # the heartbeat tried at NOW, failed at NOW + 3
    store.now = NOW + 5
    presence.store_away(NOW + 4)  # a later try, in the same outage
    assert (presence.away_since, presence.found_away_at, presence.store_down) == (NOW, NOW + 3, True)
    presence.store_back()
    assert (presence.away_since, presence.found_away_at, presence.store_down) == (None, None, False)
    # A try that waited while another's transaction (a move's write) went through: the store was there until then.
    store.reached_at, store.now = NOW + 6, NOW + 8
    presence.store_away(NOW + 5)
    assert (presence.away_since, presence.found_away_at) == (NOW + 6, NOW + 8)


def test_a_match_played_on_while_the_database_was_away_is_given_back_as_it_was_however_long() -> None:
    """The database away from NOW for a day, less a few minutes: bob's clock stood at 40 s, ann's seat was held."""
    back = NOW + 86_000
    current = clocked(played(), seat("ann", None, held_until=NOW + 250, away_since=NOW - 50), seat("bob"),
                      clock=MatchClock(BLITZ, (60.0, 90.0), 1, NOW - 50))
    assert REFEREE.due(current, at(back)) is not None  # charged the outage, bob would lose on time
    change = REFEREE.resume(current, at(back), NOW, DATABASE_AWAY)
    assert isinstance(change, Change) and change.finish is None
    assert change.clock == MatchClock(BLITZ, (60.0, 40.0), 1, back)
    assert [(each.held_until, each.away_since) for each in change.seats] == [(back + 250, back - 50), (None, None)]
    assert change.news == News.to_all(f"The database was away for {minutes(86_000)}: no clock ran and no time away "
                                      "counted.")


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


def test_a_move_that_waited_for_the_database_is_decided_as_of_when_it_was_made() -> None:
    """Ann moved at NOW - 20 with 10 s left; the database took it at NOW, when her clock would have run out."""
    match = played()
    current = clocked(match, seat("ann"), seat("bob"), clock=MatchClock(BLITZ, (30.0, 30.0), 0, NOW - 40))
    request = move_request(match)
    change = REFEREE.play_waited_move(current, 0, request, at(NOW), made_at=NOW - 20)
    assert isinstance(change, Change) and change.finish is None
    assert change.clock == MatchClock(BLITZ, (12.0, 30.0), 1, NOW)  # bob's runs from now
    saved = "ann's move waited for the database: it is saved now."
    assert change.news == News(("Your move is saved: the database is back.", saved), saved,
                               MovePlayed(request.round, request.ply, request.move))
    # Made after her time had run out: lost on time, as of then.
    late = REFEREE.play_waited_move(current, 0, request, at(NOW), made_at=NOW - 5)
    assert isinstance(late, Change) and late.finish is EndReason.TIME
    # Waited longer than the hold time (the database away 420 s): saved all the same, as of when it was made, and
    # the wait charged to nobody.
    kept = REFEREE.play_waited_move(current, 0, request, at(NOW + 400), made_at=NOW - 20)
    assert isinstance(kept, Change) and kept.finish is None and kept.news == change.news
    assert kept.clock == MatchClock(BLITZ, (12.0, 30.0), 1, NOW + 400)


def test_a_waited_move_the_match_has_moved_past_is_told_to_every_player_and_puts_the_mover_back() -> None:
    match = played()
    current = clocked(match, seat("ann"), seat("bob"), clock=None)
    not_bobs_turn = REFEREE.play_waited_move(current, 1, move_request(match), at(NOW), made_at=NOW - 1)
    moved_on = "was not saved: the match had moved on."
    assert isinstance(not_bobs_turn, Change) and not_bobs_turn.match is not None
    assert not_bobs_turn.match.to_dict() == match.to_dict() and not_bobs_turn.finish is None
    assert not_bobs_turn.news == News((f"bob's move {moved_on}", f"Your move {moved_on}"), f"bob's move {moved_on}")
    over = clocked(match_over(), seat("ann"), seat("bob"), clock=None)
    assert REFEREE.play_waited_move(over, 1, move_request(match), at(NOW), made_at=NOW - 1) == Resync(
        f"Your move {moved_on}")


#: A day and an hour: longer than a match is kept going for (``ADJOURN_AFTER``).
DAY_AND_MORE = ADJOURN_AFTER + 3600


def written(read: MatchRead, change: Change) -> MatchRead:
    """The match as read again once ``change`` is written (its adjournment too)."""
    assert change.match is not None
    again = clocked(change.match, *change.seats, clock=read.clock if isinstance(change.clock, Keep) else change.clock)
    adjourned = read.adjourned_at if isinstance(change.adjourned_at, Keep) else change.adjourned_at
    return MatchRead(replace(again.stored, adjourned_at=adjourned))


def test_a_match_nobody_could_play_for_over_a_day_is_adjourned_and_nobody_loses_on_time_or_by_forfeit() -> None:
    """The database away from NOW for a day and an hour: bob's clock stood at 40 s, ann had left (held), and bob's
    server is gone meanwhile. The match is kept as it stood, no clock running and no seat held, however long."""
    back = NOW + DAY_AND_MORE
    current = clocked(played(), seat("ann", None, held_until=NOW + 250, away_since=NOW - 50), seat("bob", DEAD),
                      clock=MatchClock(BLITZ, (60.0, 90.0), 1, NOW - 50))
    change = REFEREE.resume(current, at(back), NOW, DATABASE_AWAY)
    assert isinstance(change, Change) and change.finish is None and change.adjourned_at == back
    assert change.clock == MatchClock(BLITZ, (60.0, 40.0))  # both stopped, where they stood
    assert [(each.server, each.held_until, each.away_since, each.away_used) for each in change.seats] == [
        (None, None, None, 50.0), (None, None, None, 0.0)]
    assert change.news == News.to_all(f"The database was away for 25 hours: {ADJOURNED}")
    adjourned = written(current, change)
    assert adjourned.adjourned and REFEREE.next_due(adjourned) is None
    assert REFEREE.due(adjourned, at(back + 10 * DAY_AND_MORE)) is None
    assert REFEREE.resume(adjourned, at(back + DAY_AND_MORE), back, DATABASE_AWAY) is None  # waits as it is
    # Every server down as long (a restart): the same.
    restarted = REFEREE.resume(current, at(back), NOW)
    assert isinstance(restarted, Change) and restarted.news == News.to_all(f"The server was down for 25 hours: "
                                                                           f"{ADJOURNED}")
    # A day less a few minutes is not adjourned (given back as it was: the test above).
    assert REFEREE.resume(current, at(NOW + ADJOURN_AFTER - 300), NOW, DATABASE_AWAY).adjourned_at is Keep.ADJOURNMENT


def test_an_adjourned_match_goes_on_once_both_players_are_here_and_a_player_who_leaves_meanwhile_is_held_for_nobody(
        ) -> None:
    back = NOW + DAY_AND_MORE
    adjourned = MatchRead(replace(clocked(played(), seat("ann", None), seat("bob"),
                                          clock=MatchClock(BLITZ, (60.0, 40.0))).stored, adjourned_at=back))
    assert REFEREE.go_on(adjourned, at(back + 60)) is None  # ann is not here
    left = REFEREE.leave(adjourned, at(back + 60), 1)
    assert isinstance(left, Change) and left.finish is None and left.adjourned_at is Keep.ADJOURNMENT
    assert (left.seats[1].server, left.seats[1].held_until) == (None, None)
    assert left.news == News.to_all("bob has left: the match stays adjourned until both players are here.")
    gone = REFEREE.hold_gone(replace_seat(adjourned, 1, DEAD), at(back + 60), [1])
    assert isinstance(gone, Change) and gone.finish is None and gone.seats[1].held_until is None
    # Ann takes her seat back (on any server): the match goes on, her clock (hers to move) running from then as it
    # stood.
    assert adjourned.match is not None and adjourned.match.to_move == 0
    seated = REFEREE.take_back_seat(adjourned, at(back + 100), 0, "scrypt$hash")
    assert isinstance(seated, Change) and seated.adjourned_at is Keep.ADJOURNMENT
    assert seated.news.seats == ("Welcome back: the match is adjourned until both players are here.", "ann is back.")
    both = written(adjourned, seated)
    goes_on = REFEREE.go_on(both, at(back + 101))
    assert isinstance(goes_on, Change) and goes_on.adjourned_at is None
    assert goes_on.clock == MatchClock(BLITZ, (60.0, 40.0), 0, back + 101)
    assert goes_on.news == News.to_all("Both players are here: the adjourned match goes on: ann's clock runs.")
    assert REFEREE.go_on(written(both, goes_on), at(back + 102)) is None


def replace_seat(read: MatchRead, index: int, server: str | None) -> MatchRead:
    seats = tuple(replace(each, server=server) if number == index else each for number, each in enumerate(read.seats))
    return MatchRead(replace(read.stored, seats=seats))


def test_a_move_that_waited_for_the_database_over_a_day_is_saved_and_the_match_adjourned() -> None:
    match = played()
    current = clocked(match, seat("ann"), seat("bob", None, held_until=NOW + 100, away_since=NOW - 10),
                      clock=MatchClock(BLITZ, (30.0, 30.0), 0, NOW - 40))
    request = move_request(match)
    change = REFEREE.play_waited_move(current, 0, request, at(NOW + DAY_AND_MORE), made_at=NOW - 20)
    assert isinstance(change, Change) and change.finish is None and change.adjourned_at == NOW + DAY_AND_MORE
    assert change.clock == MatchClock(BLITZ, (12.0, 30.0))  # ann charged until she moved, bob's clock not running
    assert change.news.moved == MovePlayed(request.round, request.ply, request.move)
    assert change.news.seats[0] == f"Your move is saved, but the database was away for 25 hours: {ADJOURNED}"
    assert change.seats[1].held_until is None and change.seats[0].server == HERE


def test_a_seat_in_an_adjourned_match_is_offered_back_but_said_held_for_no_time() -> None:
    """The lobby's quit dialog said "Your seat ... is held for 0 seconds, then your opponent wins by forfeit"."""
    stored = clocked(played(), seat("ann", None, addresses=("10.0.0.1",)), seat("bob"),
                     clock=MatchClock(BLITZ, (60.0, 40.0))).stored
    for adjourned_at, held in ((None, 0.0), (NOW, None)):
        matches = in_play([Table(replace(stored, adjourned_at=adjourned_at))], {}, at(NOW + 10))
        (entry,) = listing_for({"ann"}, None, "10.0.0.1", matches, None).matches
        assert entry.yours and entry.held == held


def test_an_adjourned_match_takes_no_move_while_a_player_is_away_and_a_move_with_both_here_ends_it() -> None:
    """Else the away player's clock would run: ann (to move) alone moves, and bob, away, could lose on time."""
    back = NOW + DAY_AND_MORE
    match = played()
    stored = clocked(match, seat("ann"), seat("bob", None), clock=MatchClock(BLITZ, (60.0, 40.0))).stored
    alone = MatchRead(replace(stored, adjourned_at=back))
    assert REFEREE.play_move(alone, 0, move_request(match), at(back + 5)) == Resync(STILL_ADJOURNED)
    both = MatchRead(replace(stored, seats=(seat("ann"), seat("bob")), adjourned_at=back))
    moved = REFEREE.play_move(both, 0, move_request(match), at(back + 5))
    assert isinstance(moved, Change) and moved.adjourned_at is None
    assert moved.clock == MatchClock(BLITZ, (60.0 + BLITZ.increment, 40.0), 1, back + 5)
    # A move kept on a server that was back later, into a match another server adjourned first: saved into it.
    waited = REFEREE.play_waited_move(alone, 0, move_request(match), at(back + 5), made_at=NOW)
    assert isinstance(waited, Change) and waited.adjourned_at == back + 5 and waited.news.moved is not None
    assert waited.clock == MatchClock(BLITZ, (60.0 + BLITZ.increment, 40.0))  # stopped, as it was
