"""The line lobby's part of issue 42's table: the bell as BEL before a line, back at one's table on arrival, a
takeback answered by ``accept``/``decline``, the open seeks by ``seeks`` and ``accept N`` (no server: the lobby
hears the server's messages and says lines)."""

from __future__ import annotations

from dataclasses import replace

from soluna_tui.link.messages import (
    AcceptSeek,
    AnswerTakeback,
    AskTakeback,
    BackAtTable,
    MatchState,
    MatchTerms,
    Moved,
    OpenSeeks,
    Paired,
    SeekLine,
    WatchSeeks,
)
from soluna_tui.rules import Match, MatchOptions

from .test_line_lobby import Heard


def a_match(moves: int) -> Match:
    match = Match(MatchOptions(discs=6, stars_to_win=1), ("ann", "bob"), seed=3)
    for _ in range(moves):
        match.play(match.round.table.resolve(match.position.legal_moves[0]), match.to_move)
    return match


def test_a_pairing_rings_the_bell_unless_the_player_turned_it_off() -> None:
    heard = Heard()
    assert heard.hear(Paired("ABCD", "bob")) == ["\aPaired with bob: the match begins."]
    heard.lobby.choices = replace(heard.lobby.choices, bell=False)
    assert heard.hear(Paired("ABCD", "bob")) == ["Paired with bob: the match begins."]


def test_back_at_the_table_then_the_opponent_s_move_rings_and_a_takeback_is_answered_by_a_word() -> None:
    heard = Heard()
    said = heard.hear(BackAtTable("ABCD"), MatchState("ABCD", 5, 1, a_match(1).to_dict(), takeback=0))
    assert said[0] == "Your match ABCD is running: back at your seat."
    assert any("Playing match ABCD" in line for line in said)
    assert heard.type("accept") == [] and heard.sent == [AnswerTakeback(True)]
    heard.hear(MatchState("ABCD", 6, 1, a_match(1).to_dict()))  # answered: nobody asks now
    # No request: one line says so (it was "I do not know 'decline'"), nothing goes to the server.
    assert heard.type("decline") == ["Nothing to decline: nobody asks for a takeback now."] and not heard.sent
    heard.hear(MatchState("ABCD", 7, 1, a_match(2).to_dict()))  # bob (this seat) moved last: ann to move
    # undo asks the opponent, and answers nothing yet (not "ann is to move..."): the server's line says what came of it
    assert heard.type("undo") == [] and heard.sent == [AskTakeback()]
    assert heard.hear(MatchState("ABCD", 8, 1, a_match(2).to_dict(), takeback=1,
                                 notice="Takeback asked: waiting for ann's answer.")) == [
        "Takeback asked: waiting for ann's answer."]
    anns = a_match(3).round.placed_moves[-1]
    said = heard.hear(MatchState("ABCD", 8, 1, a_match(2).to_dict()), Moved("ABCD", 9, 1, 2, str(anns)))
    assert said and said[0].startswith("\a")  # the opponent's move rings the bell


def test_seeks_lists_the_open_seeks_once_and_accept_n_takes_one_until_challenges_is_typed() -> None:
    heard = Heard()
    terms = MatchTerms(MatchOptions(discs=6, stars_to_win=1).to_dict())
    assert heard.type("seeks") == [] and heard.sent == [WatchSeeks(True)]
    board = OpenSeeks((SeekLine("s:1", "bob", terms, 0.0, 1610), SeekLine("s:2", "ann", terms, 0.0, yours=True)), 2)
    said = heard.hear(board)
    assert said[0].startswith("1. bob (1610): box rules, 1 star, 6 discs, no clock, unrated, waiting ")
    assert said[1:] == ["Type accept 1 to play the first on their terms."]  # her own seek is not listed
    assert heard.sent == [WatchSeeks(True), WatchSeeks(False)]  # once: the lines stay quiet as seeks come and go
    assert heard.hear(board) == []
    assert heard.type("accept 2") == ["No seek numbered 2. Type seeks for the list."]
    assert heard.type("accept 1") == ["Accepting bob's seek..."] and heard.sent == [AcceptSeek("s:1", False)]
    heard.type("challenges")
    assert heard.type("accept 1") != ["Accepting bob's seek..."] and not heard.sent  # a challenge's number again
