"""The lobby files a keyed player's rated match against the computer once, tells them what it did, and gives up the
rated match they left when they start another: on SQLite and PostgreSQL, with fake guests."""

from __future__ import annotations

import random

from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.rules import Match, MatchOptions
from soluna_tui.rules.strengths import strength_of

from .test_lobby import FakeGuest

LEVEL = strength_of("5")


def rated_setup(seed: int, stars: int = 1, **flags: bool) -> MatchSetup:
    options = MatchOptions(stars_to_win=stars)
    return MatchSetup.against_computer("5", options, name="ann", seed=seed,
                                       **{"hints": False, "review": False, "rated": True, **flags})


def save(setup: MatchSetup, match: Match, hints_used: tuple[int, int] = (0, 0)) -> dict:
    return {"type": "computer_saved",
            "save": {"setup": setup.to_dict(), "match": match.to_dict(), "hints_used": list(hints_used)}}


def played(setup: MatchSetup, rounds: int) -> Match:
    """The match after ``rounds`` rounds played out with random moves (the next round begun, if any)."""
    match, rng = setup.new_match(), random.Random(setup.seed)
    for _ in range(rounds):
        while not match.round.is_over:
            match.play(rng.choice(match.position.legal_moves), match.to_move)
        if not match.is_over:
            match.start_next_round(match.next_opener(0))  # the loser chooses: the player opens
    return match


async def play_out(lobby, guest: FakeGuest, setup: MatchSetup, hints_used: tuple[int, int] = (0, 0)) -> Match:
    """As the child does with a one-star match: a save after the first move, then the match over: dropped, and sent
    as it ended."""
    first = setup.new_match()
    first.play(first.position.legal_moves[0], first.to_move)
    await lobby.handle(guest, save(setup, first, hints_used))
    finished = played(setup, 1)  # one star wins
    assert finished.is_over
    await lobby.handle(guest, {"type": "computer_dropped"})
    await lobby.handle(guest, save(setup, finished, hints_used))
    return finished


async def test_a_rated_match_is_filed_once_and_its_player_told_the_ratings(make_lobby) -> None:
    lobby = await make_lobby()
    ann = FakeGuest("ann", fingerprint="SHA256:ann")
    await lobby.arrive(ann)
    finished = await play_out(lobby, ann, rated_setup(seed=1))
    result = ann.last("computer_result")
    mine, its = result["ratings"]
    assert result["unrated"] is None and mine["name"] == "ann" and mine["before"] == 1000
    assert (mine["after"] > 1000) == (finished.winner == 0)
    assert its == {"name": "Computer (level 5)", "before": LEVEL.rating, "after": LEVEL.rating}
    await lobby.handle(ann, save(rated_setup(seed=1), finished))  # the same end again: filed once
    (filed,) = await lobby.store.finished.newest()
    assert filed.rated and filed.code == "computer-5" and lobby.games.playing == {}


async def test_no_key_a_hint_or_a_practice_match_is_not_rated(make_lobby) -> None:
    lobby = await make_lobby()
    guest, keyed = FakeGuest("cyd"), FakeGuest("ann", fingerprint="SHA256:ann")
    for player in (guest, keyed):
        await lobby.arrive(player)
    await play_out(lobby, guest, rated_setup(seed=2))
    await play_out(lobby, keyed, rated_setup(seed=3), hints_used=(1, 0))
    await play_out(lobby, keyed, rated_setup(seed=4, hints=True, rated=False))
    await play_out(lobby, keyed, MatchSetup.against_computer("5", MatchOptions(stars_to_win=1, discs=8), name="ann",
                                                             seed=5, hints=False, rated=True))
    assert await lobby.store.finished.newest() == []
    assert all(message["type"] != "computer_result" for message in guest.inbox + keyed.inbox)


async def test_a_rated_match_left_then_another_begun_is_lost_and_rated_once_a_round_was_decided(make_lobby) -> None:
    lobby = await make_lobby()
    ann = FakeGuest("ann", fingerprint="SHA256:ann")
    await lobby.arrive(ann)
    left = rated_setup(seed=6, stars=3)
    await lobby.handle(ann, save(left, played(left, 1)))  # a round decided, the next begun: then gone
    await lobby.depart(ann)
    back = FakeGuest("ann", fingerprint="SHA256:ann")
    await lobby.arrive(back)
    assert back.last("lobby")["computer"]["level"] == "5"  # held for ann, offered back
    fresh = rated_setup(seed=7)
    begun = fresh.new_match()
    await lobby.handle(back, save(fresh, begun))
    (filed,) = await lobby.store.finished.newest()
    assert (filed.result, filed.winner, filed.rated) == ("forfeit", 1, True)
    after = filed.rating_changes[0].after.shown
    assert back.last("notice")["text"] == f"Lost: your unfinished rated match (level 5), rating 1000 to {after}."
    assert after < 1000 and lobby.held_games == [] and await lobby.store.computer_games.held() == []
    assert [game.saved.match.seed for game in lobby.games.playing.values()] == [7]


def test_a_rated_match_takes_no_move_back_and_says_so_in_the_tally() -> None:
    from soluna_tui.local.table import LocalTable

    for setup, can in ((rated_setup(seed=8), False), (rated_setup(seed=8, hints=True, rated=False), True)):
        table = LocalTable(setup)
        table.play(table.match.position.legal_moves[0], 0)
        assert table.can_undo is can
    assert rated_setup(seed=8).mode_label == "level 5, rated"
    assert MatchSetup.from_dict(rated_setup(seed=8).to_dict()).rated
