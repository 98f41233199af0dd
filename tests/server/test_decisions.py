"""The match policy without a server: each decision from a match as read, a moment and a request."""

from __future__ import annotations

from dataclasses import replace

import pytest

from soluna_tui.link.messages import PlayMove, StartNextRound
from soluna_tui.rules import Match, MatchOptions, Move, PlacedMove
from soluna_tui.rules.end_reason import EndReason
from soluna_tui.server.lobby.decision_values import (
    TOURNAMENT_TERM,
    BadOptions,
    Change,
    MatchRead,
    Moment,
    Newcomer,
    Refused,
    Resync,
    match_options,
)
from soluna_tui.server.lobby.decisions import ABANDONED, CREATOR_SILENT, Referee
from soluna_tui.server.lobby.news import NO_NEWS, MovePlayed, News
from soluna_tui.server.storage import SeatRecord, StoredMatch

HERE, THERE, DEAD = "here", "there", "dead"
NOW = 10_000.0
REFEREE = Referee(hold_time=300)
MOMENT = Moment(NOW, HERE, frozenset({HERE, THERE}))


def seat(name: str, server: str | None = HERE, **changes) -> SeatRecord:
    return SeatRecord(name, name, None, False, "scrypt$hash", server=server, **changes)


def read(match: Match | None, *seats: SeatRecord, version: int = 5) -> MatchRead:
    options = match.options.to_dict() if match is not None else MatchOptions(discs=4).to_dict()
    stored = StoredMatch("ABCD", version, options, seats, match.to_dict() if match is not None else None, 1.0, 2.0)
    return MatchRead(stored)


def new_match(**options) -> Match:
    return Match(MatchOptions(**{"discs": 4, **options}), ("ann", "bob"), seed=3)


def round_over(**options) -> Match:
    match = new_match(**options)
    while not match.round.is_over:
        match.play(match.position.legal_moves[0], match.to_move)
    return match


def match_over() -> Match:
    match = round_over(stars_to_win=1)
    assert match.is_over
    return match


def move_request(match: Match, index: int = 0) -> PlayMove:
    """The move as a child sends it: with the places it is played from and onto."""
    placed = match.round.table.resolve(match.position.legal_moves[index])
    return PlayMove(str(placed), match.round_number, match.round.ply)


# ---- seats ---------------------------------------------------------------------------------------


def test_the_second_player_sits_down_and_only_the_creator_is_told() -> None:
    waiting = read(None, seat("ann"))
    change = REFEREE.seat_opponent(waiting, MOMENT, Newcomer("ann", "SHA256:x", True, "scrypt$b"))
    assert isinstance(change, Change) and change.match is not None
    assert change.match.players == ("ann", "ann 2")  # the same name told apart
    assert change.seats[1] == SeatRecord("ann 2", "ann", "SHA256:x", True, "scrypt$b", server=HERE)
    assert change.news == News(("ann 2 has joined: the match begins.", None))
    begun = read(new_match(), seat("ann"), seat("bob"))
    assert REFEREE.seat_opponent(begun, MOMENT, Newcomer("cyd", None, False, "h")) == Refused(
        "Someone else joined match ABCD first.")
    silent = read(None, seat("ann", DEAD))  # its creator's server not heard for a while (kept: see hold_gone)
    assert REFEREE.seat_opponent(silent, MOMENT, Newcomer("cyd", None, False, "h")) == Refused(CREATOR_SILENT)
    assert isinstance(REFEREE.seat_opponent(read(None, seat("ann", THERE)), MOMENT, Newcomer("cyd", None, False, "h")),
                      Change)  # another server's, alive


def test_leaving_holds_a_seat_in_play_lets_a_finished_one_go_and_drops_a_waiting_match() -> None:
    change = REFEREE.leave(read(new_match(), seat("ann"), seat("bob")), MOMENT, 1)
    assert isinstance(change, Change) and change.finish is None
    assert (change.seats[1].server, change.seats[1].held_until) == (None, NOW + 300)
    assert change.news == News(("bob has left: the seat is held for 5 minutes, then you win by forfeit.", None),
                               "bob has left: the seat is held for 5 minutes.")
    finished = REFEREE.leave(read(match_over(), seat("ann"), seat("bob", rematch=True)), MOMENT, 1)
    assert isinstance(finished, Change) and finished.news == News.to_all("bob has left.")
    assert (finished.seats[1].server, finished.seats[1].rematch, finished.seats[1].held_until) == (None, False, None)
    assert REFEREE.leave(read(None, seat("ann")), MOMENT, 0) == Change(None, (seat("ann"),), drop=True)
    elsewhere = read(new_match(), seat("ann"), seat("bob", server=THERE))
    assert REFEREE.leave(elsewhere, MOMENT, 1) is None  # not this server's session: nothing to do


def test_a_seat_is_taken_back_with_proof_whether_held_or_taken_by_a_half_dead_session() -> None:
    held = read(new_match(), seat("ann"), seat("bob", server=None, held_until=NOW + 60))
    assert REFEREE.seats_to_take_back(held, {"bob"}) == [1]
    assert REFEREE.seats_to_take_back(held, {"bob (guest)", "bob"}) == [1]  # a keyed bob back without his key
    assert REFEREE.seats_to_take_back(held, {"cyd"}) == []
    change = REFEREE.take_back_seat(held, MOMENT, 1, "scrypt$new")
    assert isinstance(change, Change)
    assert (change.seats[1].server, change.seats[1].held_until, change.seats[1].secret_hash) == (
        HERE, None, "scrypt$new")
    assert change.news == News(("bob is back.", "Welcome back."), "bob is back.")
    # Still taken, as far as the server knows (a frozen connection, another terminal): proof takes it at once.
    taken = read(new_match(), seat("ann"), seat("bob", server=THERE))
    assert REFEREE.seats_to_take_back(taken, {"bob"}) == [1]
    change = REFEREE.take_back_seat(taken, MOMENT, 1, "h")
    assert isinstance(change, Change) and change.seats[1].server == HERE
    assert change.news == News(("bob reconnected.", "Welcome back."), "bob reconnected.")
    on_a_dead_server = read(new_match(), seat("ann"), seat("bob", server=DEAD))
    assert REFEREE.seats_to_take_back(on_a_dead_server, {"bob"}) == [1]
    over = read(match_over(), seat("ann"), seat("bob", server=None))
    assert REFEREE.seats_to_take_back(over, {"bob"}) == []
    assert REFEREE.take_back_seat(over, MOMENT, 1, "h") == Refused("Match ABCD is over.")


def test_a_seat_given_up_for_a_living_guest_is_reclaimed_once() -> None:
    given_up = read(new_match(), seat("ann"), seat("bob", server=None, held_until=NOW + 60))
    change = REFEREE.reclaim(given_up, MOMENT, 1)
    assert isinstance(change, Change) and change.seats[1].server == HERE
    assert change.news == News(("bob is back.", None), "bob is back.")  # every screen told "held" hears it
    assert REFEREE.reclaim(read(new_match(), seat("ann"), seat("bob")), MOMENT, 1) is None
    # Taken back with proof on another server meanwhile: the player is there now, not here.
    assert REFEREE.reclaim(read(new_match(), seat("ann"), seat("bob", server=THERE)), MOMENT, 1) is None


# ---- presence ------------------------------------------------------------------------------------


def test_a_moment_says_which_seats_are_free_and_how_long_they_are_held() -> None:
    assert not MOMENT.seat_free(seat("a", HERE)) and not MOMENT.seat_free(seat("b", THERE))
    assert MOMENT.seat_free(seat("c", DEAD)) and MOMENT.seat_free(seat("d", None))
    assert MOMENT.away(seat("a", HERE)) is None
    assert MOMENT.away(seat("d", None)) == 0.0
    assert MOMENT.away(seat("e", None, held_until=NOW + 42.5)) == 42.5
    assert MOMENT.away(seat("f", None, held_until=NOW - 1)) == 0.0


def test_the_seats_of_a_server_gone_silent_are_held() -> None:
    gone = read(new_match(), seat("ann", DEAD), seat("bob", DEAD))
    change = REFEREE.hold_gone(gone, MOMENT, [0, 1])
    assert isinstance(change, Change)
    assert [(each.server, each.held_until) for each in change.seats] == [(None, NOW + 300)] * 2
    assert change.news == News.to_all("ann lost the connection; bob lost the connection: held for 5 minutes, "
                                      "then a forfeit.")
    assert REFEREE.hold_gone(read(new_match(), seat("ann"), seat("bob")), MOMENT, [0, 1]) is None
    assert REFEREE.hold_gone(read(None, seat("ann", DEAD)), MOMENT, [0]) == Change(None, (seat("ann", DEAD),),
                                                                                   drop=True)


def test_a_waiting_match_of_a_silent_server_waits_as_long_as_a_seat_would_be_held() -> None:
    """Its creator's server missed a few beats (slow, not dead): the match is not dropped under them (nobody may
    join it meanwhile); once that server has been silent for the hold time, or was never heard, it goes."""
    waiting = read(None, seat("ann", DEAD))
    dropped = Change(None, (seat("ann", DEAD),), drop=True)
    assert REFEREE.hold_gone(waiting, MOMENT, [0], {DEAD: NOW - 7}) is None
    assert REFEREE.hold_gone(waiting, MOMENT, [0], {DEAD: NOW - 299}) is None
    assert REFEREE.hold_gone(waiting, MOMENT, [0], {DEAD: NOW - 300}) == dropped
    assert REFEREE.hold_gone(waiting, MOMENT, [0], {HERE: NOW}) == dropped


def played(moves: int = 2) -> Match:
    """A match in its first round after ``moves`` moves (2: both players have moved)."""
    match = new_match()
    for _ in range(moves):
        match.play(match.position.legal_moves[0], match.to_move)
    return match


def test_a_held_seat_that_runs_out_is_a_forfeit_or_an_abandonment() -> None:
    match = played()
    change = REFEREE.expire(read(match, seat("ann"), seat("bob", None, held_until=NOW)), MOMENT, 1)
    assert isinstance(change, Change) and change.finish is EndReason.FORFEIT
    assert change.match is not None and change.match.winner == 0 and change.match.forfeited_by == 1
    assert change.news == News.to_all("bob did not come back: ann wins by forfeit.")
    assert match.forfeited_by is None  # the match as read is never changed
    both = REFEREE.expire(read(match, seat("ann", None, held_until=NOW + 9), seat("bob", None, held_until=NOW)),
                          MOMENT, 1)
    assert isinstance(both, Change) and both.finish is EndReason.ABANDONED and both.news == News.to_all(ABANDONED)
    assert REFEREE.expire(read(match, seat("ann"), seat("bob")), MOMENT, 1) is None  # came back meanwhile


# ---- play ----------------------------------------------------------------------------------------


def test_a_move_is_news_as_a_move_alone_and_a_late_or_illegal_one_puts_the_screen_back() -> None:
    match = new_match()
    before = match.to_dict()
    request = move_request(match)
    change = REFEREE.play_move(read(match, seat("ann", rematch=True), seat("bob")), 0, request, MOMENT)
    assert isinstance(change, Change) and change.match is not None and change.match.round.ply == 1
    assert change.news == News(moved=MovePlayed(1, 0, request.move)) and change.finish is None
    assert not change.seats[0].rematch
    assert match.to_dict() == before  # decided on a copy
    out_of_turn = REFEREE.play_move(read(match, seat("ann"), seat("bob")), 1, request, MOMENT)
    assert isinstance(out_of_turn, Resync) and out_of_turn.notice.startswith("Move not accepted: ")
    nonsense = REFEREE.play_move(read(match, seat("ann"), seat("bob")), 0, PlayMove("9S>9M", 1, 0), MOMENT)
    assert isinstance(nonsense, Resync) and nonsense.notice.startswith("Move not accepted: ")
    placed = PlacedMove.parse(request.move)
    elsewhere = next(slot for slot, tower in enumerate(match.round.table)
                     if tower != placed.move.mover and slot != placed.target_slot)
    wrong_place = PlayMove(str(PlacedMove(placed.move, elsewhere, placed.target_slot)), 1, 0)
    refused = REFEREE.play_move(read(match, seat("ann"), seat("bob")), 0, wrong_place, MOMENT)
    assert isinstance(refused, Resync) and f"place {elsewhere + 1} holds" in refused.notice
    late = PlayMove(request.move, 1, 7)
    assert REFEREE.play_move(read(match, seat("ann"), seat("bob")), 0, late, MOMENT) == Resync(
        "That move came too late: the match had moved on.")
    assert REFEREE.play_move(read(match_over(), seat("ann"), seat("bob")), 0, request, MOMENT) == Resync(
        "The match is over.")


def test_a_move_between_alike_towers_is_told_to_everyone_with_its_places() -> None:
    """The mover put the second of two alike towers on the first: the news names those places, and a
    move without places (an older child) is placed on the first places holding its towers."""
    match = new_match()
    table = match.round.table
    alike = next((first, second) for first in range(len(table)) for second in range(first + 1, len(table))
                 if table[first] == table[second])
    placed = PlacedMove(Move(table[alike[1]], table[alike[0]]), alike[1], alike[0])
    change = REFEREE.play_move(read(match, seat("ann"), seat("bob")), 0, PlayMove(str(placed), 1, 0), MOMENT)
    assert isinstance(change, Change) and change.news.moved == MovePlayed(1, 0, str(placed))
    assert change.match.round.table[alike[1]] is None and change.match.round.table[alike[0]] == placed.move.result
    bare = REFEREE.play_move(read(match, seat("ann"), seat("bob")), 0, PlayMove(str(placed.move), 1, 0), MOMENT)
    assert isinstance(bare, Change) and bare.news.moved == MovePlayed(1, 0, str(table.resolve(placed.move)))


def test_the_move_that_wins_the_match_finishes_it() -> None:
    match = new_match(stars_to_win=1)
    while True:
        move = match.position.legal_moves[0]
        probe = Match.from_dict(match.to_dict())
        probe.play(move, probe.to_move)
        if probe.round.is_over:
            break
        match.play(move, match.to_move)
    change = REFEREE.play_move(read(match, seat("ann"), seat("bob")), match.to_move, move_request(match), MOMENT)
    assert isinstance(change, Change) and change.finish is EndReason.WON


def test_the_loser_chooses_who_opens_and_a_late_duplicate_says_nothing() -> None:
    match = round_over()
    loser, winner = match.round.outcome.loser, match.round.outcome.winner
    between = read(match, seat("ann"), seat("bob"))
    assert isinstance(REFEREE.start_next_round(between, winner, StartNextRound(winner, 1), MOMENT), Resync)
    change = REFEREE.start_next_round(between, loser, StartNextRound(1 - loser, 1), MOMENT)
    assert isinstance(change, Change) and change.match is not None and change.match.round_number == 2
    names = match.players
    line = f"{names[loser]} chose to move second: {names[1 - loser]} opens round 2."
    assert change.news.for_seat(loser) is None and change.news.for_seat(winner) == line
    assert change.news.for_seat(None) == line
    started = read(change.match, seat("ann"), seat("bob"))
    assert REFEREE.start_next_round(started, winner, StartNextRound(loser, 1), MOMENT) is None
    assert REFEREE.start_next_round(started, winner, StartNextRound(loser, 5), MOMENT) == Resync(
        "The round had already moved on.")


def test_a_rematch_starts_when_both_have_asked_and_each_is_told_what_came_of_asking() -> None:
    over = match_over()
    first = REFEREE.ask_rematch(read(over, seat("ann"), seat("bob")), 0, MOMENT)
    assert isinstance(first, Change) and first.seats[0].rematch and first.match is not None and first.match.is_over
    assert first.news == News(("Rematch asked: it starts when bob asks too.",
                               "ann asks for a rematch: press r to play again."))
    asked = read(over, seat("ann", rematch=True), seat("bob"))
    assert REFEREE.ask_rematch(asked, 0, MOMENT) is None  # asked already: nothing new
    second = REFEREE.ask_rematch(asked, 1, MOMENT)
    assert isinstance(second, Change) and second.match is not None and not second.match.is_over
    opener = over.players[over.round.outcome.loser]
    assert second.match.round.opener == over.round.outcome.loser
    assert second.news == News((f"bob agreed: the rematch begins: {opener} opens.",
                                f"ann had asked already: the rematch begins: {opener} opens."),
                               f"Rematch: {opener} opens.")
    assert not any(each.rematch for each in second.seats)
    assert REFEREE.ask_rematch(read(over, seat("ann"), seat("bob", None)), 0, MOMENT) == Refused(
        "bob has left: no rematch this time.")
    assert REFEREE.ask_rematch(read(new_match(), seat("ann"), seat("bob")), 0, MOMENT) == Refused(
        "The match is not over.")


def test_no_rematch_after_a_forfeit() -> None:
    forfeited = new_match()
    forfeited.forfeit(1)
    assert REFEREE.ask_rematch(read(forfeited, seat("ann"), seat("bob", rematch=True)), 0, MOMENT) == Refused(
        "No rematch after a forfeit.")


def test_no_rematch_in_a_tournament_match() -> None:
    over = read(match_over(), seat("ann"), seat("bob", rematch=True))
    tournament = MatchRead(replace(over.stored, options={**over.stored.options, TOURNAMENT_TERM: "Friday"}))
    assert REFEREE.ask_rematch(tournament, 0, MOMENT) == Refused(
        "No rematch in a tournament: your next pairing seats you by itself.")
    assert isinstance(REFEREE.ask_rematch(over, 0, MOMENT), Change)  # the same match, no tournament's: it begins


# ---- resigning ------------------------------------------------------------------------------------


def test_a_resignation_is_a_win_for_the_opponent_told_to_everyone_at_the_match() -> None:
    current = read(played(), seat("ann"), seat("bob"))
    change = REFEREE.resign(current, 0, MOMENT)
    assert isinstance(change, Change) and change.finish is EndReason.RESIGNED
    assert change.match is not None and change.match.winner == 1 and change.match.forfeited_by == 0
    assert change.news == News.to_all("ann resigned: bob wins the match.")
    assert [each.resigned for each in change.seats] == [True, False]
    assert read(change.match, *change.seats).ended is EndReason.RESIGNED  # not a forfeit: ann is still there
    assert REFEREE.resign(read(change.match, *change.seats), 1, MOMENT) == Refused("The match is over already.")


def test_a_resignation_before_both_players_have_moved_aborts_the_match() -> None:
    change = REFEREE.resign(read(played(moves=1), seat("ann"), seat("bob")), 1, MOMENT)
    assert isinstance(change, Change) and change.finish is EndReason.ABORTED and change.goes
    assert change.news.watchers == ("bob resigned before both players had moved: the match is aborted, and not "
                                    "rated.")


def test_after_a_resignation_both_may_ask_for_a_rematch_which_forgets_it() -> None:
    change = REFEREE.resign(read(played(), seat("ann"), seat("bob", rematch=True)), 0, MOMENT)
    assert isinstance(change, Change) and change.match is not None
    rematch = REFEREE.ask_rematch(read(change.match, *change.seats[:1], seat("bob", rematch=True)), 0, MOMENT)
    assert isinstance(rematch, Change) and rematch.match is not None and not rematch.match.is_over
    assert not any(each.resigned for each in rematch.seats)


# ---- news and options ----------------------------------------------------------------------------


def test_news_is_kept_in_the_store_in_the_shape_every_server_reads_and_garbage_is_no_news() -> None:
    news = News(("a", None), "w", MovePlayed(2, 3, "a1b2"))
    assert news.to_document() == {"seat": ["a", None], "watchers": "w",
                                  "moved": {"round": 2, "ply": 3, "move": "a1b2"}}
    assert News.from_document(news.to_document()) == news
    assert News.from_document(NO_NEWS.to_document()) == NO_NEWS
    for garbage in (None, [], {"seat": "x"}, {"seat": [1, 2, 3]}, {"moved": {"round": True, "ply": 0, "move": "m"}},
                    {"watchers": 7, "moved": []}):
        assert News.from_document(garbage) == NO_NEWS


def test_options_from_a_request_are_checked_by_the_rules() -> None:
    assert match_options({"discs": 4}).discs == 4
    with pytest.raises(BadOptions):
        match_options({"evil": 1})
    with pytest.raises(ValueError):
        match_options({"stars_to_win": 99})
