"""Side lines: play on from an earlier position (the history, a replay, a round's review) without
touching the match, and come back to it with Escape."""

from __future__ import annotations

import random

from textual.widgets import Static

from soluna_tui.app.soluna_app import SolunaApp
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.table import COMPUTER, HUMAN
from soluna_tui.rules import Match, MatchOptions, choose_move, shared_solver
from soluna_tui.screens.game import GameScreen
from soluna_tui.screens.play_on import PlayOnScreen
from soluna_tui.screens.replay import ReplayScreen
from soluna_tui.screens.review import ReviewScreen
from soluna_tui.screens.side_line import SideLineScreen

from .helpers import (
    footer_keys,
    game,
    help_and_palette,
    make_app,
    play_by_keys,
    replay_of_the_newest_finished_match,
    screen_text,
    settle,
    wait_for,
    wait_for_text,
)
from .test_footers_fit import assert_fits


async def side_line_opened(pilot, app) -> SideLineScreen:
    await wait_for(pilot, app, lambda: isinstance(app.screen, SideLineScreen), "the side line")
    side = app.screen
    assert isinstance(side, SideLineScreen)
    await wait_for(pilot, app, lambda: not side.flow.thinking, "the side line's computer")
    return side


async def test_a_side_line_from_the_history_plays_on_and_leaves_the_match_exactly_as_it_was(tmp_path) -> None:
    setup = MatchSetup.against_computer("perfect", MatchOptions(discs=8), seed=5)
    app = make_app(tmp_path, setup)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game(app)
        rng = random.Random(5)
        for _ in range(2):  # two moves of yours, two replies
            await play_by_keys(pilot, app, choose_move("random", screen.match.position, rng))
            await settle(pilot, app)
        assert screen.match.round.ply == 4
        saved = tmp_path / "current-match.json"
        file_before, match_before = saved.read_bytes(), screen.match.to_json()
        await pilot.press("tab", "up", "up")  # the position after move 2: yours to play
        await wait_for(pilot, app, lambda: screen.browsing.viewing is not None and screen.browsing.viewing.ply == 2,
                       "move 2")
        assert footer_keys(app)["Play on"]
        await pilot.press("p")
        await wait_for(pilot, app, lambda: isinstance(app.screen, PlayOnScreen), "the question")
        assert "Round 1, after move 2: your move." in screen_text(app)
        await pilot.press("c")  # the computer answers
        side = await side_line_opened(pilot, app)
        assert app.game is screen and app.side_line is side  # the match is still the match
        assert side.match is not screen.match and side.match.round.ply == 2
        assert side.match.round.placed_moves == screen.match.round.placed_moves[:2]
        assert (side.table.seat(0), side.table.seat(1)) == (HUMAN, COMPUTER)
        text = screen_text(app)
        assert "Side line" in text and "side line" in text and "Your move" in text
        assert_fits(app, "a side line")
        # Its own commands and keys: take-backs and hints act on it; no new match, rematch or resignation.
        keys, titles = await help_and_palette(pilot, app)
        assert {"Undo", "Redo", "Hint", "Analysis mode"} <= set(titles)
        assert not {"New match", "Rematch", "Resign"} & set(titles)
        assert "back to where the side line started from" in keys and "R (shift+r)" not in keys
        await play_by_keys(pilot, app, shared_solver.analyse(side.match.position).moves[0].move, side)
        await wait_for(pilot, app, lambda: side.match.round.ply == 4 and not side.flow.thinking,
                       "the computer's answer")
        assert side.match.round.placed_moves[:2] == screen.match.round.placed_moves[:2]
        await pilot.press("H")
        await wait_for(pilot, app, lambda: side.table.hints_used[0] == 1, "a hint")
        await pilot.press("n")
        await wait_for_text(pilot, app, "In a side line: Esc returns to the match first.")
        await pilot.press("u")
        await wait_for(pilot, app, lambda: side.match.round.ply == 2, "the take-back")
        assert saved.read_bytes() == file_before and screen.match.to_json() == match_before
        await pilot.press("escape")
        await wait_for(pilot, app, lambda: app.screen is screen, "the match again")
        await pilot.pause()
        assert screen.browsing.viewing is None and screen.match.round.ply == 4  # where the match stands
        assert "Last move: Computer" in screen_text(app) and "side line" not in screen_text(app)
        assert saved.read_bytes() == file_before and screen.match.to_json() == match_before
        assert screen.table.hints_used == [0, 0]


def finished(seed: int = 3, discs: int = 6) -> Match:
    """A match played to its end, each player always taking the first legal move."""
    match = Match(MatchOptions(discs=discs, stars_to_win=1), ("Ann", "Bob"), seed=seed)
    while not match.is_over:
        match.play(match.position.legal_moves[0], match.to_move)
    return match


async def test_a_side_line_from_a_replay_is_played_by_hand_and_escape_returns_to_the_replay(tmp_path) -> None:
    match = finished()
    kept = match.to_json()
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        replay = ReplayScreen(match)
        await app.push_screen(replay)
        await pilot.press("end", "p")  # the end of the round: nothing to play on
        await wait_for_text(pilot, app, "The round is over")
        assert app.screen is replay
        await pilot.press("home", "right", "right", "p")
        await wait_for(pilot, app, lambda: isinstance(app.screen, PlayOnScreen), "the question")
        assert "Round 1, after move 2: Ann's move." in screen_text(app)
        await pilot.press("b")  # by hand
        side = await side_line_opened(pilot, app)
        assert app.game is None and app.side_line is side
        assert (side.table.seat(0), side.table.seat(1)) == (HUMAN, HUMAN) and side.match.to_move == 0
        assert not side.match.is_over and side.match.round.ply == 2
        for mover in (0, 1):  # both sides by hand, nobody answering
            assert side.match.to_move == mover
            await play_by_keys(pilot, app, side.match.position.legal_moves[-1], side)
            await wait_for(pilot, app, lambda mover=mover: side.match.round.ply == 3 + mover, "the move")
        await pilot.press("escape")
        await wait_for(pilot, app, lambda: app.screen is replay, "the replay again")
        assert replay.index == 2 and match.to_json() == kept


async def test_try_again_from_the_review_puts_the_blunderer_to_move_before_the_blunder_against_perfect_play(
        tmp_path) -> None:
    setup = MatchSetup.against_computer("perfect", MatchOptions(discs=8, stars_to_win=1), seed=0)
    app = make_app(tmp_path, setup)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game(app)
        match = screen.match
        before_blunder = None
        while not match.round.is_over:  # win moves until a loss can be chosen, then choose it
            analysis = shared_solver.analyse(match.position)
            losing = [item.move for item in analysis.moves if not item.verdict.wins]
            if before_blunder is None and match.round.ply and analysis.moves[0].verdict.wins and losing:
                before_blunder = (match.round.ply, match.position)
                await play_by_keys(pilot, app, losing[0])
            else:
                await play_by_keys(pilot, app, analysis.moves[0].move)
            await settle(pilot, app)
        assert before_blunder is not None and match.round.outcome.winner == 1
        ended = match.to_json()
        await wait_for(pilot, app, lambda: isinstance(app.screen, ReviewScreen), "the review")
        review = app.screen
        await wait_for(pilot, app, lambda: review.review is not None, "the verdicts")
        await pilot.pause()
        assert review.review.first_blunder.ply == before_blunder[0]
        assert footer_keys(app)["Try again"]
        lines = str(review.query_one("#review-lines", Static).content)
        assert "Press p to try again from just before it (your move)" in lines
        await pilot.press("p")
        side = await side_line_opened(pilot, app)
        assert side.match.position == before_blunder[1] and side.match.round.ply == before_blunder[0]
        assert side.match.to_move == 0 and (side.table.seat(0), side.table.seat(1)) == (HUMAN, COMPUTER)
        assert side.table.setup.computer_level == "perfect"
        await play_by_keys(pilot, app, shared_solver.analyse(side.match.position).moves[0].move, side)
        ply = before_blunder[0]
        await wait_for(pilot, app, lambda: side.match.round.ply == ply + 2 or side.match.round.is_over,
                       "the computer's answer")
        assert side.match.round.ply == ply + 2  # it answered
        assert match.to_json() == ended  # the match is as it ended
        await pilot.press("escape")
        await wait_for(pilot, app, lambda: app.screen is review, "the review again")
        assert isinstance(app.game, GameScreen) and app.game.match is match


def test_try_again_against_the_computer_starts_from_your_mistake_not_its_own() -> None:
    """The computer threw its win away first (move 2), then you yours (move 3): the review names the computer's as
    the turning point, and ``p`` tries again from yours (issue 30's play-test: it offered the computer's)."""
    from soluna_tui.rules import Solver
    from soluna_tui.rules.teaching import review_round
    from soluna_tui.screens.review import describe_review

    from ..rules.test_teaching import both_blunder

    solver = Solver()
    played, threw = both_blunder(0, solver)
    assert threw == {0: 2, 1: 1}
    review = review_round(played, solver)
    text = "\n".join(line for line, _ in describe_review(review, played, ("You", "Computer"), 0, try_again=True))
    assert "The turning point: move 2, Computer's" in text
    assert f"Press p to try again from just before your move 3, {played.moves[2]} (your move)" in text
    alone = "\n".join(line for line, _ in describe_review(review, played, ("Ann", "Bob"), None, try_again=True))
    assert "Press p to try again from just before it (Bob's move)" in alone  # two players here: the turning point


async def test_playing_the_computers_side_names_each_side_by_who_plays_it_and_wins_no_star_of_the_match(
        tmp_path) -> None:
    """From the position after your move 1, the computer's to move, you take its side and perfect play
    yours. The tally, the side line's moves and the status name you "You" and it "Computer"; the match's own
    move 1 and opening stay yours; the round won in the side line is no star and no "won" in the tally or
    the history."""
    setup = MatchSetup.against_computer("perfect", MatchOptions(discs=8), seed=5)
    app = make_app(tmp_path, setup)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = game(app)
        rng = random.Random(5)
        for _ in range(2):
            await play_by_keys(pilot, app, choose_move("random", screen.match.position, rng))
            await settle(pilot, app)
        await pilot.press("tab", "up", "up", "up")  # the position after move 1: the computer's to play
        await wait_for(pilot, app, lambda: screen.browsing.viewing is not None and screen.browsing.viewing.ply == 1,
                       "move 1")
        await pilot.press("p")
        await wait_for(pilot, app, lambda: isinstance(app.screen, PlayOnScreen), "the question")
        assert "you play Computer's side" in screen_text(app)
        await pilot.press("c")
        side = await side_line_opened(pilot, app)
        assert (side.table.seat(0), side.table.seat(1)) == (COMPUTER, HUMAN) and side.flow.you == 1
        assert side.match.players == ("Computer", "You") and screen.match.players == ("You", "Computer")
        text = screen_text(app)
        assert "▶ You" in text and "Your move" in text
        assert " 1. You" in text and " 1. Computer" not in text  # the match's own move: yours, as played
        while not side.match.round.is_over:
            await play_by_keys(pilot, app, shared_solver.analyse(side.match.position).moves[0].move, side)
            await wait_for(pilot, app, lambda: not side.flow.thinking, "the computer's answer")
        await pilot.pause()
        winner = side.match.round.outcome.winner
        said = "You won the side line." if winner == 1 else "Computer won the side line."
        await wait_for_text(pilot, app, said)
        text = screen_text(app)
        assert "★" not in text and text.count("☆☆☆☆ 0/4") == 2  # no star of the match won
        assert "Round 1: You opened" in text and "Round 1: You won" not in text  # you opened the match's round
        assert "Round 1: Computer won" not in text
        assert " 2. You" in text  # the side line's own move 2: yours, playing the computer's side


async def test_the_replay_of_a_match_against_the_computer_speaks_to_you_when_playing_on(tmp_path) -> None:
    """From the list of finished matches: "your move", not "You's move", and "you play Computer's side"."""
    from soluna_tui.local.saves import FinishedStore, SavedMatch

    setup = MatchSetup.against_computer("greedy", MatchOptions(discs=6, stars_to_win=1), seed=3)
    match = setup.new_match()
    while not match.is_over:
        match.play(match.position.legal_moves[0], match.to_move)
    FinishedStore(tmp_path).keep(SavedMatch(setup, match))
    app = make_app(tmp_path, MatchSetup(MatchOptions(), ("Ann", "Bob"), None, 1))
    async with app.run_test(size=(80, 24)) as pilot:
        replay = await replay_of_the_newest_finished_match(pilot, app)
        await pilot.press("home", "p")  # the layout: yours to play (you opened)
        await wait_for(pilot, app, lambda: isinstance(app.screen, PlayOnScreen), "the question")
        assert "Round 1, start: your move." in screen_text(app) and "You's" not in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, app, lambda: app.screen is replay, "the replay again")
        await pilot.press("right", "p")  # after move 1: the computer's to play
        await wait_for(pilot, app, lambda: isinstance(app.screen, PlayOnScreen), "the question")
        assert "Computer's move" in screen_text(app) and "you play Computer's side" in screen_text(app)


def round_one_won_by_the_computer(setup: MatchSetup) -> Match:
    """A match against the computer whose round 1 the computer won (random play until it does), round 2
    opened by you (the loser chooses) and two moves into it: yours, then the computer's."""
    for seed in range(100):
        match, rng = setup.new_match(), random.Random(seed)
        while not match.round.is_over:
            match.play(choose_move("random", match.position, rng))
        if match.round.outcome.winner == 1:
            match.start_next_round(opener=0)
            for _ in range(2):
                match.play(choose_move("random", match.position, rng))
            return match
    raise AssertionError("the computer never won round 1")


def resuming_round_two(tmp_path) -> tuple[SolunaApp, Match]:
    """An app offering to resume ``round_one_won_by_the_computer`` (level 10, 6 discs), and that match."""
    from soluna_tui.local.saves import SavedMatch, SaveStore

    setup = MatchSetup.against_computer("perfect", MatchOptions(discs=6), seed=5, review=False)
    match = round_one_won_by_the_computer(setup)
    SaveStore(tmp_path).save(SavedMatch(setup, match))
    return make_app(tmp_path), match


async def computer_side_after_round_two_move_one(pilot, app: SolunaApp) -> SideLineScreen:
    """The match resumed; in its history, the position after your move 1 of round 2 (the computer's to play):
    a side line there, you taking the computer's side."""
    from soluna_tui.screens.resume import ResumeScreen

    await wait_for(pilot, app, lambda: isinstance(app.screen, ResumeScreen), "the offer to resume")
    await pilot.press("enter")
    await wait_for(pilot, app, lambda: app.game is not None and app.screen is app.game, "the match")
    screen = game(app)
    await pilot.press("tab", "up")
    await wait_for(pilot, app, lambda: screen.browsing.viewing is not None and screen.browsing.viewing.ply == 1,
                   "move 1")
    await pilot.press("p")
    await wait_for(pilot, app, lambda: isinstance(app.screen, PlayOnScreen), "the question")
    await pilot.press("c")
    return await side_line_opened(pilot, app)


async def test_a_side_line_in_round_2_keeps_the_matchs_own_names_for_what_the_match_played(tmp_path) -> None:
    """Round 1 was the computer's; you opened round 2. Taking the computer's side after your move 1 of round 2,
    the history still says the computer won round 1, you opened round 2 and played its move 1; the tally credits
    the computer with its star (it plays the side named "Computer" now, you the other); only the side line's own
    moves are named by who plays them now."""
    from soluna_tui.widgets.tally import Tally

    app, match = resuming_round_two(tmp_path)
    async with app.run_test(size=(80, 30)) as pilot:
        side = await computer_side_after_round_two_move_one(pilot, app)
        assert game(app).match.round_number == 2 and game(app).match.stars == (0, 1)  # the match, under it
        assert side.match.players == ("Computer", "You") and side.flow.you == 1
        text = screen_text(app)
        assert "Round 1: Computer won" in text and "Round 1: You won" not in text
        assert "Round 2: You opened" in text and "Round 2: Computer opened" not in text
        assert " 1. You" in text and "Last move: You" in text  # your real move 1 of round 2
        assert "Your move" in text
        tally = side.query_one(Tally).info
        assert tally.names == ("Computer", "You") and tally.stars == (1, 0)  # the computer's star stays its own
        await play_by_keys(pilot, app, shared_solver.analyse(side.match.position).moves[0].move, side)
        await wait_for(pilot, app, lambda: side.match.round.ply >= 2 and not side.flow.thinking,
                       "the computer's answer")
        text = screen_text(app)
        assert " 2. You" in text and " 1. You" in text  # your side line's move, named by who plays it now
        if side.match.round.ply >= 3:  # its answer, unless your move ended the round
            assert " 3. Computer" in text
        await pilot.press("tab", "home")  # round 1's start, shown in the side line: the computer's star still
        await wait_for(pilot, app,
                       lambda: side.browsing.viewing is not None and side.browsing.viewing.round_number == 1, "round 1")
        tally = side.query_one(Tally).info
        opener = match.rounds[0].opener
        assert tally.names[tally.to_move] == match.players[opener]  # the marker on who really moved there
        assert tally.stars == (1, 0)


async def test_a_side_line_from_a_side_line_that_hands_the_sides_over_again_names_each_move_as_played(
        tmp_path) -> None:
    """You take the computer's side after your move 1 of round 2 and play move 2 there; from the position after
    it, the computer's to move, you take the computer's side again: you are back on your own side. Move 1 (the
    match's) and move 2 (the first side line's) are still yours, round 1 still the computer's, its star too."""
    from soluna_tui.widgets.tally import Tally

    app, _ = resuming_round_two(tmp_path)
    async with app.run_test(size=(80, 30)) as pilot:
        side = await computer_side_after_round_two_move_one(pilot, app)
        going_on = [move for move in side.match.position.legal_moves
                    if side.match.position.play(move).legal_moves]  # a move 2 that leaves the computer one
        await play_by_keys(pilot, app, going_on[0], side)
        await wait_for(pilot, app, lambda: side.match.round.ply == 3 and not side.flow.thinking,
                       "the computer's answer")
        await pilot.press("tab", "up")  # the position after move 2: the computer's to play
        await wait_for(pilot, app, lambda: side.browsing.viewing is not None and side.browsing.viewing.ply == 2,
                       "move 2")
        await pilot.press("p")
        await wait_for(pilot, app, lambda: isinstance(app.screen, PlayOnScreen), "the question")
        await pilot.press("c")
        await wait_for(pilot, app, lambda: app.screen is side and side.match.round.ply == 2
                       and side.match.players == ("You", "Computer") and not side.flow.thinking,
                       "the side line from it")
        text = screen_text(app)
        assert "Round 1: Computer won" in text and "Round 2: You opened" in text
        round_2 = text[text.index("Round 2: You opened"):]
        assert " 1. You" in round_2 and " 2. You" in round_2 and " 2. Computer" not in round_2
        tally = side.query_one(Tally).info
        assert tally.names == ("You", "Computer") and tally.stars == (0, 1)
