"""What the game screen shows, from the match, the table's facts and the moment alone."""

from __future__ import annotations

from dataclasses import replace

from soluna_tui.play.coach import Coach, Turn
from soluna_tui.play.looks import HistoryEntry
from soluna_tui.play.view import (
    Moment,
    Phase,
    TableFacts,
    board_looks,
    history_entries,
    last_move_words,
    shown_position,
    shown_table,
    status_prompt,
    tally_info,
)
from soluna_tui.rules import Arrangement, Match, MatchOptions, Move, PlacedMove

HOT_SEAT = TableFacts(local_to_move=True, one_local_player=False)
ONE_HERE = TableFacts(local_to_move=True, one_local_player=True, mode_label="ann vs bob over SSH")
THEIRS = TableFacts(local_to_move=False, one_local_player=True)


def new_match(moves: int = 0) -> Match:
    match = Match(MatchOptions(), ("Ann", "Bob"), seed=3)
    for _ in range(moves):
        match.play(match.position.legal_moves[0], match.to_move)
    return match


def moment(match: Match, **changes: object) -> Moment:
    return replace(Moment(Turn(1, match.round_number, match.round.ply)), **changes)


def finish_round(match: Match) -> None:
    while not match.round.is_over:
        match.play(match.position.legal_moves[0], match.to_move)


def test_whose_move() -> None:
    match = new_match()
    assert status_prompt(match, HOT_SEAT, moment(match), None) == (
        "Ann to move: pick a tower up (arrows, Enter).", "info")
    # One player on this terminal (a remote match, the computer): no doubt who "you" are.
    assert status_prompt(match, ONE_HERE, moment(match), None) == (
        "Your move: pick a tower up (arrows, Enter).", "info")
    assert status_prompt(match, THEIRS, moment(match), None) == ("Waiting for Ann.", "info")


def test_the_tower_in_hand_the_typed_move_and_the_coachs_line() -> None:
    match = new_match()
    picked = match.position.towers[0]
    assert status_prompt(match, HOT_SEAT, moment(match, picked_slot=0, picked=picked), None) == (
        f"Ann: put {match.position.towers[0]} on a lit tower (Enter), or Esc to put it back.", "info")
    text, _ = status_prompt(match, HOT_SEAT, moment(match, prompt_open=True), None)
    assert text.startswith("Ann: type a move, 2S>1S")
    hint = ("Hint: move the 1S tower.", "info")
    assert status_prompt(match, HOT_SEAT, moment(match), hint) == ("Ann to move. Hint: move the 1S tower.", "info")
    analysis = ("Analysis: a win in 5 plies; 2 of 9 moves win.", "info")
    assert status_prompt(match, ONE_HERE, moment(match), analysis)[0].startswith("Your move. Analysis: a win")
    assert status_prompt(match, THEIRS, moment(match), hint) == ("Waiting for Ann.", "info")


def test_the_computer_thinking_then_revealing_its_move() -> None:
    match = new_match()
    assert status_prompt(match, THEIRS, moment(match, phase=Phase.THINKING), None) == (
        "Ann is thinking...", "thinking")
    move = match.position.legal_moves[0]
    assert status_prompt(match, THEIRS, moment(match, phase=Phase.REVEALING, revealing=move), None) == (
        f"Ann plays {move}.", "thinking")
    table = Arrangement.opening(match.position)
    looks = board_looks(table, None, moment(match, phase=Phase.REVEALING, revealing=move), Coach(), False)
    assert [look.tower for look in looks if look.picked] == [move.mover]
    assert [look.tower for look in looks if look.target] == [move.target]  # the very place it lands on
    assert all(look.dimmed for look in looks if not look.picked and not look.target)
    assert tally_info(match, THEIRS, moment(match, phase=Phase.THINKING)).status == "thinking…"
    assert tally_info(match, THEIRS, moment(match, phase=Phase.THINKING, ascii=True)).status == "thinking..."
    assert tally_info(match, THEIRS, moment(match)).status == ""


def test_the_end_of_a_round_and_of_the_match() -> None:
    match = new_match()
    finish_round(match)
    winner = match.players[match.round.outcome.winner]
    assert status_prompt(match, HOT_SEAT, moment(match), None) == (f"{winner} won round 1.", "info")
    assert tally_info(match, HOT_SEAT, moment(match)).to_move is None
    match.forfeit(0)
    assert status_prompt(match, HOT_SEAT, moment(match), None) == (
        "Bob won the match. Press n for a new match.", "info")


def test_an_earlier_position_from_the_history() -> None:
    match = new_match(moves=2)
    viewing = HistoryEntry(1, 1, " 1. Ann 1S>1S")
    assert status_prompt(match, HOT_SEAT, moment(match, viewing=viewing), None) == (
        "Round 1, after move 1 (read-only). Esc returns to play.", "info")
    start = HistoryEntry(1, 0, "Round 1: Ann opened", heading=True)
    assert status_prompt(match, HOT_SEAT, moment(match, viewing=start), ("Analysis: solving...", "thinking")) == (
        "Round 1, start (read-only). Esc returns to play. Analysis: solving...", "thinking")
    assert shown_position(match, start) == match.rounds[0].position_at(0)
    # The earlier position is drawn without the tower in hand, and with its own last move marked:
    # the place it left (empty now) and the place it went to.
    table, last = shown_table(match, viewing)
    looks = board_looks(table, last, moment(match, viewing=viewing, picked_slot=0), Coach(), False)
    assert not any(look.picked for look in looks)
    assert [look.tower for look in looks if look.last] == [None, match.round.moves[0].result]
    assert sum(look.tower is None for look in looks) == 1 and len(looks) == len(match.round.start)


def test_the_table_keeps_the_places_players_chose() -> None:
    match = new_match()
    move = Move.parse("1M>1M")  # four moons, in places 2 to 5 (slots 1 to 4)
    match.play(PlacedMove(move, 4, 1), 0)
    table, last = shown_table(match, None)
    assert last == PlacedMove(move, 4, 1) and table.places[4] is None and str(table.places[1]) == "2M"
    # The history and the last-move line name the places, since the notation alone does not.
    assert history_entries(match)[-1].text.endswith("1M>1M 5>2")
    assert last_move_words(match, None)[2] == "Last move: Ann 1M>1M 5>2"
    # The same match read back from its document (another screen, a save, a replay) has the same table.
    again, _ = shown_table(Match.from_dict(match.to_dict()), None)
    assert again == table


def test_the_last_move_in_words_from_longest_to_shortest() -> None:
    match = new_match()
    assert last_move_words(match, None) == ("No move yet in round 1.", "No move yet.")
    match.play(match.position.legal_moves[0], 0)  # one of several suns onto one of several moons: keys too
    assert last_move_words(match, None) == ("Last move: Ann 1S>1M 1>2, the sun tower onto the moon tower",
                                            "Last move: Ann 1S>1M 1>2, sun onto moon", "Last move: Ann 1S>1M 1>2",
                                            "Ann 1S>1M 1>2")
    assert last_move_words(match, HistoryEntry(1, 1, ""))[0].startswith("Move 1: Ann 1S>1M 1>2")


def test_the_history_lists_rounds_and_moves() -> None:
    match = new_match(moves=2)
    entries = history_entries(match)
    assert entries[0] == HistoryEntry(1, 0, "Round 1: Ann opened", heading=True)
    first, second = match.round.placed_moves
    assert [entry.text for entry in entries[1:]] == [
        f" 1. Ann       {first.move} {first.mover_slot + 1}>{first.target_slot + 1}",
        f" 2. Bob       {second.move} {second.mover_slot + 1}>{second.target_slot + 1}"]


def test_the_history_names_places_only_where_the_notation_leaves_a_choice() -> None:
    match = Match(MatchOptions(discs=3), ("Ann", "Bob"), seed=2)
    assert len(set(match.round.start)) == 3  # three different towers: every move says where it goes
    match.play(match.position.legal_moves[0], 0)
    assert history_entries(match)[-1].text == f" 1. Ann       {match.round.moves[0]}"


def test_the_history_shortens_names_to_read_whole() -> None:
    match = Match(MatchOptions(), ("ann (guest)", "Bartholomew the Great"), seed=3)
    match.play(match.position.legal_moves[0], 0)
    match.play(match.position.legal_moves[0], 1)
    entries = [entry.text for entry in history_entries(match)]
    assert entries[0] == "Round 1: ann opened"
    assert entries[1].startswith(" 1. ann       ") and entries[2].startswith(" 2. Bartholo… ")
    # Two guests whose names are alike but for the mark keep it.
    twins = Match(MatchOptions(), ("ann (guest)", "ann"), seed=3)
    assert history_entries(twins)[0].text == "Round 1: ann (gue… opened"


def test_the_tally_from_the_match_and_the_table() -> None:
    match = new_match()
    info = tally_info(match, ONE_HERE, moment(match))
    assert info.names == ("Ann", "Bob") and info.to_move == 0 and info.seed == 3
    assert info.mode == f"{match.options.discs} discs, ann vs bob over SSH"


def test_the_tallys_turn_marker_is_on_the_side_to_move_in_the_position_viewed() -> None:
    match = new_match(moves=3)
    assert tally_info(match, HOT_SEAT, moment(match)).to_move == match.to_move == 1
    after_two = HistoryEntry(1, 2, " 2. Bob", heading=False)
    assert tally_info(match, HOT_SEAT, moment(match, viewing=after_two)).to_move == 0
    start = HistoryEntry(1, 0, "Round 1: Ann opened", heading=True)
    assert tally_info(match, HOT_SEAT, moment(match, viewing=start)).to_move == match.round.opener


def test_the_facts_of_a_table_say_who_sits_where() -> None:
    from soluna_tui.link.messages import MatchState
    from soluna_tui.local.match_setup import MatchSetup
    from soluna_tui.local.table import LocalTable
    from soluna_tui.online.remote_table import RemoteTable

    hot_seat = TableFacts.of(LocalTable(MatchSetup(seed=1)), hints=True, analysis_on=False)
    assert hot_seat == TableFacts(local_to_move=True, one_local_player=False, mode_label="two players")
    computer = LocalTable(MatchSetup.against_computer("5", seed=1))
    facts = TableFacts.of(computer, hints=False, analysis_on=True)
    assert facts == TableFacts(local_to_move=True, one_local_player=True, mode_label="level 5", hints=False,
                               analysis_on=True, computer_plays=True)
    document = new_match(1).to_dict()  # Bob to move
    bob = TableFacts.of(RemoteTable(MatchState("ABCD", 1, 1, document), lambda request: None), hints=True,
                        analysis_on=False)
    assert (bob.local_to_move, bob.one_local_player, bob.you, bob.computer_plays) == (True, True, 1, False)
    watching = TableFacts.of(RemoteTable(MatchState("ABCD", 1, None, document), lambda request: None), hints=True,
                             analysis_on=False)
    assert (watching.local_to_move, watching.one_local_player, watching.you) == (False, False, None)
