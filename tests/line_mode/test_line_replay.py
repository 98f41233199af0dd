"""A finished match replayed in lines (issue 41): each move told once as the match told it, back and on, both ends,
the table at any moment, each round's start and end, and the match's."""

from __future__ import annotations

from soluna_tui.line_mode.line_replay import LineReplay
from soluna_tui.line_mode.speech import round_move_line, table_line
from soluna_tui.rules import Match, MatchOptions


def finished_match() -> Match:
    """Two players each playing the first legal move, to the end of a match of two stars on six discs."""
    match = Match(MatchOptions.preset("online", stars_to_win=2, discs=6), ("ann", "bob"), seed=5)
    while not match.is_over:
        if match.round.is_over:
            match.start_next_round()
        else:
            match.play(match.position.legal_moves[0])
    return match


def test_a_finished_match_is_replayed_move_by_move_back_and_on() -> None:
    match = finished_match()
    heard: list[str] = []
    replay = LineReplay(match, heard.extend, "Server match #4: ann against bob.", "lobby goes back to the lobby")
    replay.start()
    moves = sum(played.ply for played in match.rounds)
    assert heard[0] == "Server match #4: ann against bob."
    assert heard[1].startswith(f"{moves} moves in {len(match.rounds)} rounds.")
    first = match.rounds[0]
    assert heard[2] == f"Round 1, {match.players[first.mover_at(0)]} opens. {table_line(first.table_at(0))}"
    assert replay.prompt == f"Replay, move 0 of {moves}> "
    told: list[str] = []
    for _ in range(moves):
        heard.clear()
        replay.take("")  # Enter: the next move
        told.extend(heard)
    expected = [round_move_line(played, match.players, ply) for played in match.rounds for ply in range(played.ply)]
    assert [line for line in told if line in expected] == expected  # every move once, in order
    assert sum("wins round" in line for line in told) == len(match.rounds)
    assert told[-1] == f"The end of the match. {match.players[match.winner]} won it."
    heard.clear()
    replay.take("next")
    assert heard == ["That was the last move. Type back, start, or lobby goes back to the lobby."]
    heard.clear()
    replay.take("back")
    assert heard == [f"Taken back: {expected[-1]}"] and replay.prompt == f"Replay, move {moves - 1} of {moves}> "
    heard.clear()
    replay.take("board")
    last = match.rounds[-1]
    assert heard == [f"Round {len(match.rounds)}, after move {last.ply - 1}. {table_line(last.table_at(last.ply - 1))}"]
    heard.clear()
    replay.take("start")
    assert heard[0] == "Back at the start." and replay.prompt == f"Replay, move 0 of {moves}> "
    heard.clear()
    replay.take("back")
    assert heard == ["This is the start: no move yet. Type next for the first."]
    heard.clear()
    replay.take("xyzzy")
    assert len(heard) == 1 and heard[0].startswith("In the replay, type next, back")
