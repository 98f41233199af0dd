"""Tournaments in the lobby in lines, without a server: ``tournaments`` lists them by number, ``tournament N`` tells
the standings, ``join N`` and ``withdraw N`` ask the server (``join ABCD`` still joins a match by its code)."""

from __future__ import annotations

from soluna_tui.link.messages import (
    AskTournament,
    AskTournaments,
    JoinMatch,
    JoinTournament,
    MatchState,
    MatchTerms,
    Paired,
    TournamentLine,
    TournamentPage,
    Tournaments,
    TournamentStanding,
    WithdrawTournament,
)
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.rules import MatchOptions

from .test_line_lobby import Heard

TERMS = MatchTerms(MatchOptions.preset("box", stars_to_win=1, discs=4).to_dict())
NOW = 1_790_000_000.0
UPCOMING = TournamentLine(7, "Friday", "swiss", "upcoming", 3, NOW + 125, TERMS, 4)
RUNNING = TournamentLine(5, "Blitz", "arena", "running", 30, NOW - 60, TERMS, 6, joined=True)


def test_the_tournaments_are_told_by_number_and_joined_withdrawn_and_read_by_it() -> None:
    heard = Heard()
    heard.type("tournaments")
    assert heard.sent == [AskTournaments()]
    said = heard.hear(Tournaments((UPCOMING, RUNNING), now=NOW))
    assert said == ["1: Friday · Swiss, 3 rounds · starts in 2:05 · 4 entered.",
                    "2: Blitz · arena, 30 minutes · running · 6 entered, you too.",
                    "tournament 1 tells the first's standings; join 1 enters it, withdraw 1 leaves it."]
    heard.type("join 1")
    assert heard.sent == [JoinTournament(7)]
    heard.type("join abcd")
    assert heard.sent == [JoinMatch("ABCD", False, None)]  # a match's code, as before
    heard.type("withdraw 2")
    assert heard.sent == [WithdrawTournament(5)]
    assert heard.type("join 3") == ["Which tournament? Type tournaments for the list, then tournament, join or "
                                    "withdraw and its number."]
    heard.type("tournament 2")
    assert heard.sent == [AskTournament(5)]
    page = TournamentPage(RUNNING, (TournamentStanding(1, "bob", 4.0, 2), TournamentStanding(2, "ann", 2.0, 1,
                                                                                           you=True)),
                          next_at=NOW + 600, now=NOW, paused=True)
    assert heard.hear(page) == ["Blitz: Running: ends in 10:00. box rules, 1 star, 4 discs, no clock, unrated.",
                                "Standings: 1. bob, 4 points; 2. ann (you), 2 points.",
                                "You are paused: join 2 plays on from the next pairing."]


def test_a_finished_tournament_is_read_with_its_winner_and_one_point_in_the_singular() -> None:
    heard = Heard()
    over = TournamentLine(3, "Late", "swiss", "finished", 1, NOW - 600, TERMS, 2)
    page = TournamentPage(over, (TournamentStanding(1, "cat", 1.0, 1), TournamentStanding(2, "dan", 0.0, 1)), now=NOW)
    assert heard.hear(page) == ["Late: Over: cat won with 1 point. box rules, 1 star, 4 discs, no clock, unrated.",
                                "Standings: 1. cat, 1 point; 2. dan, 0 points."]


def test_at_a_match_tournaments_and_tournament_n_still_read_the_tournaments() -> None:
    heard = Heard()
    heard.hear(Tournaments((UPCOMING, RUNNING), now=NOW))
    match = MatchSetup(MatchOptions.preset("box", stars_to_win=1, discs=6), ("ann", "bob"), seed=3).new_match()
    heard.hear(Paired("ABCD", "bob"), MatchState("ABCD", 0, 0, match.to_dict()))  # seated at a pairing
    assert heard.lobby.game is not None
    heard.type("tournament 2")
    assert heard.sent == [AskTournament(5)]  # not a move the match does not know
    heard.type("tournaments")
    assert heard.sent == [AskTournaments()]
