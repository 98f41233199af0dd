"""The flow of a match without a screen: what comes after each change, the computer's questions and its
stale answers, the stats a finished match adds, and why a key does nothing."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from soluna_tui.link.messages import MatchState
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.player_stats import StatsStore
from soluna_tui.local.saves import FinishedStore, SaveStore
from soluna_tui.local.table import LocalTable, SideLineTable
from soluna_tui.online.remote_table import RemoteTable
from soluna_tui.play.match_flow import (
    MATCH_REVIEW_SECONDS,
    ComputerMove,
    KeyFacts,
    Landing,
    MatchFlow,
    MatchJudged,
    MatchOver,
    OpenerChoice,
    Question,
    Reveal,
    RoundOver,
    Step,
    Trouble,
)
from soluna_tui.play.view import Phase
from soluna_tui.rules import Budget, MatchOptions, Move, NextOpener, Position, Round
from soluna_tui.rules.clock import ClockSetting

#: One move ends a round from here: 1S>1S leaves 2S and 1M, and neither can move.
ONE_MOVE_LEFT = "1S 1S 1M"
WINNING_MOVE = Move.parse("1S>1S")


def hot_seat(**options: object) -> LocalTable:
    return LocalTable(MatchSetup(MatchOptions(**options), ("Ann", "Bob"), None, seed=1))  # type: ignore[arg-type]


def against_computer(level: str = "perfect", **options: object) -> LocalTable:
    return LocalTable(MatchSetup.against_computer(level, MatchOptions(**options), name="Ann", seed=1))  # type: ignore[arg-type]


def near_the_end(table: LocalTable, opener: int = 0) -> LocalTable:
    """The round replaced by one that the next move ends (``opener`` moves)."""
    table.match.rounds[-1] = Round(Position.parse(ONE_MOVE_LEFT), opener)
    return table


def end_round(table: LocalTable) -> None:
    """The player to move plays the winning move: they win the round, the other loses it."""
    table.play(table.match.round.table.resolve(WINNING_MOVE), table.match.to_move)


def answer(question: Question | object) -> ComputerMove | OpenerChoice | MatchJudged:
    assert isinstance(question, Question)
    return question.ask(Budget())


# ---- after a change -----------------------------------------------------------------------------


def test_the_computer_is_asked_to_move_on_its_turn_only_and_once() -> None:
    table = near_the_end(against_computer(), opener=1)
    flow = MatchFlow(table)
    assert flow.step() is Step.THINK
    flow.think(0)
    assert flow.phase is Phase.THINKING and flow.thinking
    assert flow.step() is Step.NOTHING  # already thinking
    human = MatchFlow(near_the_end(against_computer(), opener=0))
    assert human.step() is Step.NOTHING and not human.thinking


def test_the_end_of_a_round_is_announced_once_a_turn_until_told_to_announce_it_again() -> None:
    table = near_the_end(hot_seat())
    flow = MatchFlow(table)
    assert flow.step() is Step.NOTHING
    end_round(table)
    assert flow.step() is Step.ANNOUNCE
    assert flow.step() is Step.NOTHING
    flow.announce_again()  # a take-back, or its dialog closed from elsewhere
    assert flow.step() is Step.ANNOUNCE


def test_the_end_of_a_round_against_the_computer_is_announced_not_thought_about() -> None:
    table = near_the_end(against_computer(), opener=0)
    flow = MatchFlow(table)
    end_round(table)  # Ann wins; the computer would be to move in a round that is over
    assert flow.step() is Step.ANNOUNCE
    assert flow.step() is Step.NOTHING and not flow.thinking


def test_a_round_is_reviewed_first_unless_the_setup_says_not_or_the_match_was_given_up() -> None:
    table = hot_seat()
    assert MatchFlow(table).review_first
    assert not MatchFlow(LocalTable(MatchSetup(seed=1, review=False))).review_first
    table.match.forfeit(0)
    assert not MatchFlow(table).review_first


# ---- the end of a round, the end of a match ----------------------------------------------------------


def test_after_the_review_the_loser_here_chooses_who_opens() -> None:
    table = near_the_end(hot_seat())
    flow = MatchFlow(table)
    end_round(table)
    assert flow.after_review(flow.turn) == RoundOver(None)
    assert flow.phase is Phase.IDLE


def test_after_the_review_the_computer_that_lost_chooses_who_opens_then_the_dialog_says_what_it_chose() -> None:
    table = near_the_end(against_computer(), opener=0)
    flow = MatchFlow(table)
    end_round(table)  # the computer lost
    question = flow.after_review(flow.turn)
    assert isinstance(question, Question) and flow.phase is Phase.THINKING
    choice = answer(question)
    assert isinstance(choice, OpenerChoice) and choice.turn == flow.turn
    assert flow.heard(choice) == RoundOver(choice.opens)
    assert flow.phase is Phase.IDLE


def test_where_the_loser_opens_the_computer_has_nothing_to_choose() -> None:
    table = near_the_end(against_computer(next_opener=NextOpener.LOSER_OPENS), opener=0)
    flow = MatchFlow(table)
    end_round(table)
    assert flow.after_review(flow.turn) == RoundOver(None) and not flow.thinking


def test_a_finished_match_is_judged_then_summed_up() -> None:
    table = near_the_end(hot_seat(stars_to_win=1))
    flow = MatchFlow(table)
    end_round(table)
    question = flow.after_review(flow.turn)
    assert isinstance(question, Question) and question.seconds == MATCH_REVIEW_SECONDS
    assert question.aborted == MatchJudged(flow.turn, (None, None))  # a search given up: no accuracy
    assert flow.thinking
    judged = answer(question)
    assert isinstance(judged, MatchJudged) and judged.accuracy == (1.0, None)  # Ann's one move, the best
    assert flow.heard(judged) == MatchOver((1.0, None))
    assert not flow.thinking


def test_the_verdicts_found_judging_a_match_are_kept_with_it(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    try:
        table = LocalTable(MatchSetup(MatchOptions(stars_to_win=1, discs=6), ("Ann", "Bob"), seed=2), store=store)
        while not table.match.is_over:
            table.play(table.match.round.table.resolve(table.match.position.legal_moves[0]), table.match.to_move)
        flow = MatchFlow(table)
        assert flow.step() is Step.ANNOUNCE
        judged = answer(flow.after_review(flow.turn))
        kept = FinishedStore(tmp_path).last()
        assert kept is not None and not kept.verdicts  # kept as it ended, before it was judged
        flow.heard(judged)
        kept = FinishedStore(tmp_path).last()
        assert kept is not None and kept.verdicts and all(all(verdicts) for verdicts in kept.verdicts)
    finally:
        store.release()


def test_a_review_closed_after_the_match_moved_on_leads_nowhere() -> None:
    table = near_the_end(hot_seat())
    flow = MatchFlow(table)
    end_round(table)
    turn = flow.turn
    table.undo()
    assert flow.after_review(turn) is None and not flow.thinking


# ---- the computer's moves ----------------------------------------------------------------------------


def test_the_computer_s_move_is_revealed_then_lands_once() -> None:
    table = near_the_end(against_computer(), opener=1)
    flow = MatchFlow(table)
    question = flow.think(0)
    moved = answer(question)
    assert moved == ComputerMove(flow.turn, WINNING_MOVE, guessed=False)  # its only move, solved
    assert flow.heard(moved) == Reveal(moved)
    assert flow.phase is Phase.REVEALING and flow.revealing == WINNING_MOVE
    landing = flow.land(moved)
    assert landing == Landing(table.match.round.table.resolve(WINNING_MOVE), tell_guess=False)
    assert flow.phase is Phase.IDLE and flow.revealing is None
    assert flow.land(moved) is None  # landed already


def test_a_reveal_for_a_turn_played_since_does_not_land() -> None:
    table = near_the_end(against_computer(), opener=1)
    flow = MatchFlow(table)
    moved = answer(flow.think(0))
    flow.heard(moved)
    table.match.play(WINNING_MOVE)  # the move arrived otherwise (the same move: only the turn tells)
    assert flow.land(moved) is None


def test_the_computer_appears_to_think_for_its_pause() -> None:
    flow = MatchFlow(against_computer(), serial=1)
    flow.table.match.rounds[-1] = Round(Position.parse(ONE_MOVE_LEFT), 1)
    before = time.monotonic()
    question = flow.think(5.0)
    assert before + 5.0 <= question.not_before <= time.monotonic() + 5.0


@pytest.mark.parametrize("called_off", ["undone", "stopped", "another match"])
def test_a_stale_answer_is_ignored(called_off: str) -> None:
    table = near_the_end(against_computer(), opener=1)
    flow = MatchFlow(table, serial=3)
    moved = answer(flow.think(0))
    if called_off == "undone":
        table.match.rounds[-1] = Round(Position.parse("1S 1S 1M 1M"), 1)  # the same round number, played on
        table.match.play(Move.parse("1M>1M"))
        table.match.play(Move.parse("1S>1S"))
    elif called_off == "stopped":
        flow.stop()
    else:
        flow = MatchFlow(table, serial=4)  # the screen shows another match now
        flow.think(0)
    phase = flow.phase
    assert flow.heard(moved) is None
    assert flow.phase is phase and flow.revealing is None


def test_a_reveal_called_off_does_not_land() -> None:
    table = near_the_end(against_computer(), opener=1)
    flow = MatchFlow(table)
    moved = answer(flow.think(0))
    flow.heard(moved)
    flow.stop()  # an undo, a new match, the screen closing
    assert flow.land(moved) is None and flow.phase is Phase.IDLE


def test_a_guess_is_told_once_a_match() -> None:
    table = near_the_end(against_computer(), opener=1)
    flow = MatchFlow(table)
    guess = ComputerMove(flow.turn, WINNING_MOVE, guessed=True)
    flow.think(0)
    flow.heard(guess)
    first = flow.land(guess)
    assert first is not None and first.tell_guess
    table.match.play(first.placed)
    table.match.undo()  # the same turn again (the table takes back no lone move of the computer)
    flow.think(0)
    flow.heard(guess)
    again = flow.land(guess)
    assert again is not None and not again.tell_guess


# ---- the player's keys ------------------------------------------------------------------------------


def test_a_player_here_may_move_on_their_live_turn_only() -> None:
    table = near_the_end(against_computer(), opener=0)
    flow = MatchFlow(table)
    assert flow.human_may_move()
    assert not flow.human_may_move(browsing=True)
    end_round(table)
    assert not flow.human_may_move()  # the round is over
    assert not MatchFlow(near_the_end(against_computer(), opener=1)).human_may_move()
    busy = MatchFlow(near_the_end(hot_seat()))
    busy.phase = Phase.THINKING  # while the computer's work is under way, nobody here moves
    assert not busy.human_may_move()


def test_the_keys_are_lit_on_a_player_s_turn_and_dimmed_on_the_computer_s() -> None:
    yours = MatchFlow(near_the_end(against_computer(), opener=0))
    theirs = MatchFlow(near_the_end(against_computer(), opener=1))
    for action in ("press_focused", "open_move_prompt", "hint"):
        assert (yours.key_state(action, KeyFacts()), theirs.key_state(action, KeyFacts())) == (True, None), action
    assert yours.key_state("put_back", KeyFacts()) is None  # nothing in hand
    assert yours.key_state("put_back", KeyFacts(picked=True)) is True
    assert theirs.key_state("put_back", KeyFacts(picked=True)) is None
    assert yours.key_state("resign", KeyFacts()) is True and yours.key_state("analysis", KeyFacts()) is True
    assert yours.key_state("new_match", KeyFacts()) is True  # a key the flow has no rule for


def test_the_history_hides_the_keys_of_play_but_p_plays_on_there() -> None:
    flow = MatchFlow(near_the_end(against_computer(), opener=0))
    history = KeyFacts(in_history=True, viewing=True)
    for action in ("press_focused", "put_back", "open_move_prompt", "hint"):
        assert flow.key_state(action, history) is False, action
    assert flow.key_state("play_on", history) is True
    assert flow.key_state("play_on", KeyFacts()) is False  # on the board, p is a tower's key
    assert flow.key_state("hint", KeyFacts(viewing=True)) is None  # an earlier position, the history left


def test_a_spectator_is_offered_no_key_of_a_player() -> None:
    state = MatchState("ABCD", 1, None, against_computer().match.to_dict())
    spectator = MatchFlow(RemoteTable(state, lambda request: None))
    for action in ("press_focused", "put_back", "open_move_prompt", "hint", "analysis", "resign"):
        assert spectator.key_state(action, KeyFacts()) is False, action
    assert spectator.key_state("toggle_history", KeyFacts()) is True
    players = RemoteTable(MatchState("ABCD", 1, 0, hot_seat().match.to_dict()), lambda request: None)
    assert MatchFlow(players).key_state("play_on", KeyFacts(in_history=True)) is None  # no side line in play


def test_take_backs_only_from_the_live_position_and_redo_not_while_the_computer_thinks() -> None:
    table = near_the_end(hot_seat())
    flow = MatchFlow(table)
    assert flow.key_state("undo", KeyFacts()) is False  # nothing to take back
    end_round(table)
    assert flow.key_state("undo", KeyFacts()) is True
    assert flow.key_state("undo", KeyFacts(viewing=True)) is False
    table.undo()
    assert flow.key_state("redo", KeyFacts()) is True
    assert flow.key_state("redo", KeyFacts(viewing=True)) is False
    flow.phase = Phase.THINKING
    assert flow.key_state("redo", KeyFacts()) is False


def test_without_hints_their_keys_are_hidden_and_a_finished_match_offers_a_rematch() -> None:
    table = near_the_end(hot_seat(stars_to_win=1))
    flow = MatchFlow(table)
    assert flow.key_state("hint", KeyFacts(hints=False)) is False
    assert flow.key_state("analysis", KeyFacts(hints=False)) is False
    assert flow.key_state("rematch", KeyFacts()) is False
    end_round(table)
    assert flow.key_state("rematch", KeyFacts()) is True
    assert flow.key_state("resign", KeyFacts()) is False  # nothing left to give up


def test_a_key_that_does_nothing_says_why_unless_it_is_another_s_key() -> None:
    theirs = MatchFlow(near_the_end(against_computer(), opener=1))
    assert theirs.why_silent("enter", KeyFacts()) == "It is Computer's move: wait for it."
    assert theirs.why_silent("H", KeyFacts(hints=False)) == "Hints are off in this match."
    assert theirs.why_silent("u", KeyFacts()) is None  # not one of the keys that say why
    assert theirs.why_silent("p", KeyFacts()) is None  # on the board, a tower's key
    assert theirs.why_silent("enter", KeyFacts(in_history=True)) is None  # the history's own key there
    assert MatchFlow(near_the_end(against_computer(), opener=0)).why_silent("enter", KeyFacts()) is None  # lit
    players = RemoteTable(MatchState("ABCD", 1, 0, hot_seat().match.to_dict()), lambda request: None)
    assert MatchFlow(players).why_silent("p", KeyFacts(in_history=True)) == "No side lines until this match is over."


def test_why_a_key_does_nothing() -> None:
    table = near_the_end(against_computer(), opener=1)
    flow = MatchFlow(table)
    assert flow.why_not("play_on", True) == "No side lines until this match is over."
    assert flow.why_not("hint", False) == "Hints are off in this match."
    assert flow.why_not("hint", True) == "Hints are for your turn: it is Computer's move."
    assert flow.why_not("press_focused", True) == "It is Computer's move: wait for it."
    flow.think(0)
    assert flow.why_not("press_focused", True) == "Computer is thinking: wait for the move."
    end_round(table)
    assert flow.why_not("press_focused", True) == "The round is over."
    spectator = RemoteTable(MatchState("ABCD", 1, None, against_computer().match.to_dict()), lambda request: None)
    assert MatchFlow(spectator).why_not("press_focused", True) == "You are watching: only the players move here."


def test_the_one_player_here_against_the_computer_is_you() -> None:
    assert MatchFlow(against_computer()).you == 0
    assert MatchFlow(hot_seat()).you is None
    assert MatchFlow(SideLineTable(hot_seat().match)).you is None  # no computer: both players here
    remote = RemoteTable(MatchState("ABCD", 1, 0, hot_seat().match.to_dict()), lambda request: None)
    assert MatchFlow(remote).you is None  # against someone elsewhere: the dialogs name both


def test_resigning_is_asked_in_the_player_s_words() -> None:
    assert MatchFlow(against_computer()).resign_question(0) == "You give the match to Computer. It counts as a loss."
    assert MatchFlow(hot_seat()).resign_question(1) == "Bob gives the match to Ann. It counts as a loss."


def test_saving_trouble_is_told_once_while_it_lasts() -> None:
    table = hot_seat()
    flow = MatchFlow(table)
    assert flow.save_problem_to_tell() is None
    table.save_problem = "the disk is full"
    assert flow.save_problem_to_tell() == "the disk is full"
    assert flow.save_problem_to_tell() is None
    table.save_problem = "the folder is gone"
    assert flow.save_problem_to_tell() == "the folder is gone"
    table.save_problem = None
    assert flow.save_problem_to_tell() is None
    table.save_problem = "the folder is gone"
    assert flow.save_problem_to_tell() == "the folder is gone"  # back after it was put right


# ---- the clock -------------------------------------------------------------------------------------


def test_the_screen_looks_at_a_running_clock_just_after_it_runs_out() -> None:
    table = LocalTable(MatchSetup(seed=1, clock=ClockSetting(60.0, 0.0)))
    flow = MatchFlow(table)
    assert flow.time_left(time.monotonic()) is None  # stopped until a screen shows the match
    table.pause_clock(False)
    deadline = table.time_runs_out_at()
    assert deadline is not None
    assert flow.time_left(deadline - 30) == pytest.approx(30.01)
    assert flow.time_left(deadline + 5) == pytest.approx(0.01)  # late: at once
    assert MatchFlow(hot_seat()).time_left(time.monotonic()) is None  # no clock


# ---- the stats --------------------------------------------------------------------------------------


def finished(table: LocalTable) -> LocalTable:
    near_the_end(table)
    end_round(table)
    assert table.match.is_over
    return table


def test_a_finished_match_counts_in_the_stats_once_and_is_withdrawn_when_taken_back(tmp_path: Path) -> None:
    store = StatsStore(tmp_path)
    table = finished(hot_seat(stars_to_win=1))
    flow = MatchFlow(table)
    assert flow.step() is Step.ANNOUNCE
    assert flow.count_in_stats(store, (1.0, None)) == []
    assert flow.count_in_stats(store, (1.0, None)) == []  # once
    records = store.load().matches
    assert [(record.names, record.winner, record.accuracy) for record in records] == [(("Ann", "Bob"), 0, (1.0, None))]
    table.undo()
    flow.taken_back()
    assert store.load().matches == []
    assert flow.step() is Step.NOTHING  # Ann to move again
    table.redo()
    assert flow.step() is Step.ANNOUNCE  # finished again at the same turn: announced, judged and counted again
    assert flow.count_in_stats(store, (0.5, None)) == []
    assert [record.accuracy for record in store.load().matches] == [(0.5, None)]


def test_a_take_back_that_leaves_the_match_finished_withdraws_nothing(tmp_path: Path) -> None:
    store = StatsStore(tmp_path)
    table = finished(hot_seat(stars_to_win=1))
    flow = MatchFlow(table)
    flow.count_in_stats(store, (None, None))
    flow.taken_back()  # the finished match is still shown (nothing was taken back)
    assert len(store.load().matches) == 1
    assert flow.count_in_stats(store, (None, None)) == [] and len(store.load().matches) == 1


def test_a_record_that_cannot_be_withdrawn_is_saving_trouble(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    store = StatsStore(folder)
    table = finished(hot_seat(stars_to_win=1))
    flow = MatchFlow(table)
    flow.count_in_stats(store, (None, None))
    shutil.rmtree(folder)
    folder.write_text("")  # no folder to write the stats in any more
    table.undo()
    assert table.save_problem is None
    flow.taken_back()
    assert table.save_problem is not None and flow.save_problem_to_tell() == table.save_problem


def test_a_side_line_counts_nowhere(tmp_path: Path) -> None:
    store = StatsStore(tmp_path)
    table = finished(SideLineTable(hot_seat(stars_to_win=1).match))
    assert MatchFlow(table).count_in_stats(store, (None, None)) == []
    assert store.load().matches == []


def test_stats_that_cannot_be_saved_or_read_are_told(tmp_path: Path) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("")
    troubles = MatchFlow(finished(hot_seat(stars_to_win=1))).count_in_stats(StatsStore(blocked), (None, None))
    assert [trouble.title for trouble in troubles] == ["Stats not saved"]
    (tmp_path / "stats.json").write_text("not json")
    store = StatsStore(tmp_path)
    troubles = MatchFlow(finished(hot_seat(stars_to_win=1))).count_in_stats(store, (None, None))
    assert troubles == [Trouble("Stats file unreadable", store.problem or "", 10)]
    assert len(store.load().matches) == 1  # counted in a fresh file
