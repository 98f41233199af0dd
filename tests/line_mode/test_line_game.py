"""The line mode's core without a terminal: lines in, lines out, at a real ``LocalTable`` and a real save store.

The runner here answers at once, on the caller's thread (the solver and the computer are the real ones), so a
reply holds the computer's move and each test reads exactly what a player would hear, line by line.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from soluna_tui.line_mode.line_game import LineGame
from soluna_tui.line_mode.line_puzzle import LinePuzzle
from soluna_tui.line_mode.lines_wanted import wanted
from soluna_tui.line_mode.local_start import LocalLines
from soluna_tui.line_mode.speech import (
    legal_moves_lines,
    move_line,
    round_move_line,
    table_line,
    tower_words,
    where_it_goes,
)
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.player_stats import StatsStore
from soluna_tui.local.preferences import Preferences
from soluna_tui.local.saves import SaveStore
from soluna_tui.local.table import LocalTable, Table
from soluna_tui.rules import Match, MatchOptions, Move, PlacedMove, Tower
from soluna_tui.rules.puzzles import make_puzzle
from soluna_tui.rules.solver import Budget
from soluna_tui.rules.wording import plies


class AtOnce:
    """A runner that does the work at once on the caller's thread; timers are kept, never fired."""

    def __init__(self) -> None:
        self.timers: list[float] = []

    def solve(self, job: Callable[[Budget], object], seconds: float | None,
              done: Callable[[object | None], None]) -> Callable[[], None]:
        done(job(Budget(seconds)))
        return lambda: None

    def later(self, seconds: float, then: Callable[[], None]) -> Callable[[], None]:
        self.timers.append(seconds)
        return lambda: None


class Heard:
    """Every batch of lines the core said, and the prompt after each."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.core: LineGame | LinePuzzle | None = None

    def __call__(self, lines: list[str]) -> None:
        self.batches.append(list(lines))

    @property
    def last(self) -> list[str]:
        return self.batches[-1]

    @property
    def lines(self) -> list[str]:
        return [line for batch in self.batches for line in batch]


def game_at(setup: MatchSetup, tmp_path: Path, match: Match | None = None) -> tuple[LineGame, Heard]:
    heard = Heard()
    table = LocalTable(setup, match, SaveStore(tmp_path))
    game = LineGame(table, AtOnce(), heard, stats_store=StatsStore(tmp_path),
                    rematch=lambda old: LocalTable(setup, old.rematch(), SaveStore(tmp_path)))
    game.start()
    return game, heard


def first_legal(game: LineGame) -> str:
    """The first legal move, typed by the towers' numbers as a player reading ``moves`` would."""
    table = game.table.match.round.table
    placed = table.resolve(table.position.legal_moves[0])
    return f"{placed.places[0]}>{placed.places[1]}"


def answer_between_rounds(game: LineGame) -> None:
    prompt = game.prompt
    game.take("open" if prompt.startswith("Type open") else "")


def test_a_whole_match_against_level_1_every_move_announced_once(tmp_path: Path) -> None:
    options = MatchOptions(stars_to_win=2)
    game, heard = game_at(MatchSetup.against_computer("1", options, seed=3), tmp_path)
    assert heard.last[0].startswith("Soluna. You against Computer at level 1 (random)")
    assert heard.last[-2].startswith("Round 1. Twelve towers. 1: one ")
    assert heard.last[-1] == "You open."
    assert game.prompt == "Your move> "
    for _ in range(200):
        match = game.table.match
        if match.is_over:
            break
        if match.round.is_over:
            answer_between_rounds(game)
            continue
        game.take(first_legal(game))
    match = game.table.match
    assert match.is_over
    said = heard.lines
    moves = [(name, line) for line in said for name in match.players if line.startswith(f"{name}: ")]
    every = [(match.players[played.mover_at(ply)], move_line(match.players[played.mover_at(ply)],
                                                             played.placed_at(ply)))
             for played in match.rounds for ply in range(played.ply)]
    assert moves == every  # each move once, in order, whoever made it
    ends = [line for line in said if "cannot move:" in line]
    assert len(ends) == len(match.rounds)
    assert any(line.startswith("Match over. ") and "the match 2-" in line for line in said)
    assert game.prompt == "Match over> "
    assert all(line.isascii() for line in said)


def test_two_players_on_one_terminal_the_prompt_names_who_moves(tmp_path: Path) -> None:
    game, heard = game_at(MatchSetup(seed=4, names=("Ann", "Bob")), tmp_path)
    assert game.prompt == "Ann's move> "
    game.take(first_legal(game))
    assert heard.last[0].startswith("Ann: ") and game.prompt == "Bob's move> "
    game.take(first_legal(game))
    assert heard.last[0].startswith("Bob: ") and game.prompt == "Ann's move> "
    game.take("undo")
    assert heard.last[0].startswith("Taken back: Bob ") and game.prompt == "Bob's move> "


def test_every_command_answers_in_a_few_lines(tmp_path: Path) -> None:
    game, heard = game_at(MatchSetup.against_computer("1", seed=5, clock=None), tmp_path)
    game.take("1>2")
    assert [line.split(":")[0] for line in heard.last] == ["You", "Computer"]
    answers = {}
    for command in ("board", "tower 4", "moves", "last", "stars", "clock", "hint", "hint", "hint", "analysis",
                    "history", "stats", "help", "review", "undo"):
        game.take(command)
        answers.setdefault(command, []).append(heard.last)
    assert answers["board"][0][0].startswith("Round 1. Ten towers. 2: two high, sun on top. ")
    assert answers["tower 4"][0][0].startswith("Tower 4: ")
    assert answers["moves"][0][0].endswith("legal moves, by the tower that moves.")
    assert answers["last"][0] == [f"Last move: {heard.batches[1][1]}"]
    assert answers["stars"][0] == ["Round 1. Stars: You 0, Computer 0; 4 to win."]
    assert answers["clock"][0] == ["This match has no clock."]
    hints = [batch[0] for batch in answers["hint"]]
    assert hints[0].startswith("Hint: ") and "tower" in hints[1] and re.search(r"Type \d+>\d+\.$", hints[2])
    assert answers["analysis"][0][0].startswith("Analysis: the player to move ")
    assert answers["history"][0][0] == "Round 1: You opened, 2 moves."
    assert answers["stats"][0][0] == "No finished matches yet."
    assert len(answers["help"][0]) == 2
    assert answers["review"][0] == ["No round is over yet: a review judges a finished round."]
    assert answers["undo"][0][0].startswith("Taken back: You 1S>1S (1 onto 2); Computer ")
    assert game.table.hints_used == [4, 0]  # three hint steps, and the analysis (once a turn), as on the screen
    for batch in (batch for batches in answers.values() for batch in batches):
        assert 1 <= len(batch) <= 14


@pytest.mark.parametrize(("typed", "said"), [
    ("foo", "I do not know 'foo': type a move like 3>7 or 1M>1M, or help for the commands."),
    ("7", "A move is two towers, like 7>1 (tower 7 onto tower 1); tower 7 tells of tower 7."),
    ("40>2", "There is no tower 40: the towers are numbered 1 to 12. Type board to hear the towers."),
    ("3>3", "That puts tower 3 on itself: name two towers, like 3>7."),
    ("2X>1S", "Unknown symbol 'X' in '2X': use S, M, * or C (or sun, moon, stars, comet). Type board to hear the "
              "towers."),
    ("3M>1S", "There is no 3M tower to move. Type board to hear the towers."),
    ("tower", "Which tower? Type tower and its number, 1 to 12, like tower 7."),
    ("tower 99", "There is no tower 99: the towers are numbered 1 to 12."),
    ("next", "There is no round to start now."),
    ("rematch", "A rematch is for when the match is over."),
])
def test_bad_input_is_answered_in_one_line_saying_what_would_work(tmp_path: Path, typed: str, said: str) -> None:
    game, heard = game_at(MatchSetup.against_computer("1", seed=5), tmp_path)
    before = str(game.table.match.position)
    game.take(typed)
    assert heard.last == [said]
    assert str(game.table.match.position) == before
    assert game.prompt == "Your move> "


def test_a_tower_that_cannot_go_there_says_where_it_can(tmp_path: Path) -> None:
    game, heard = game_at(MatchSetup(seed=5, names=("Ann", "Bob")), tmp_path)
    game.take("1>2")  # a tower two high, sun on top, among towers one high
    table = game.table.match.round.table
    mover, target = next((a, b) for a in table.occupied for b in table.occupied
                         if a != b and where_it_goes(table, a) and not table[b].accepts(table[a]))  # type: ignore[union-attr, arg-type]
    game.take(f"{mover + 1}>{target + 1}")
    assert len(heard.last) == 1
    assert "cannot go on" in heard.last[0] and "the heights differ" in heard.last[0]
    assert heard.last[0].endswith(f"Type tower {mover + 1} to hear where it can go.")
    assert game.prompt == "Bob's move> "


def test_the_loser_of_a_round_chooses_who_opens_the_next(tmp_path: Path) -> None:
    game, heard = game_at(MatchSetup(MatchOptions(stars_to_win=2, discs=4), ("Ann", "Bob"), seed=2), tmp_path)
    for _ in range(10):
        if game.table.match.round.is_over:
            break
        game.take(first_legal(game))
    outcome = game.table.match.round.outcome
    assert outcome is not None
    loser, winner = game.table.match.players[outcome.loser], game.table.match.players[outcome.winner]
    assert f"{loser} cannot move: {winner} wins round 1" in " ".join(heard.last)
    assert heard.last[-1] == (f"{loser} chooses who opens round 2: type open for {loser} to open, or second for "
                              f"{winner} to open. Type hint for advice (it counts as a hint).")
    assert game.prompt == "Type open or second> "
    game.take("first")
    assert heard.last[0].startswith("I do not know 'first'")
    game.take("second")
    assert heard.last[0].startswith(f"Round 2: {winner} opens. ")
    assert game.table.match.round.opener == outcome.winner


def test_resigning_is_asked_first_then_told_with_its_reason(tmp_path: Path) -> None:
    game, heard = game_at(MatchSetup.against_computer("1", seed=5), tmp_path)
    game.take("1>2")
    game.take("resign")
    assert heard.last == ["You give the match to Computer. It counts as a loss. Type yes to resign, or no to keep "
                          "playing."]
    assert game.prompt == "Resign? Type yes or no> "
    game.take("no")
    assert heard.last == ["You keep playing."] and not game.table.match.is_over
    game.take("resign")
    game.take("yes")
    assert heard.last[0] == "Match over. You resigned: Computer wins the match."
    assert game.prompt == "Match over> "
    game.take("rematch")
    assert heard.last[0].startswith("Soluna. You against Computer") and game.prompt == "Your move> "


def test_the_clock_is_told_when_asked_and_watched(tmp_path: Path) -> None:
    from soluna_tui.rules.clock import ClockSetting

    game, heard = game_at(MatchSetup.against_computer("1", seed=5, clock=ClockSetting(180.0, 2.0)), tmp_path)
    game.take("clock")
    assert re.fullmatch(r"Clock 3\+2: You (2 min 5\d s|3 minutes), running; Computer 3 minutes\.", heard.last[0])
    assert game.runner.timers  # type: ignore[attr-defined]  # a look at the clock when it would run out


def test_a_move_made_elsewhere_is_announced_once(tmp_path: Path) -> None:
    """What a remote table does: the match changes under the core, and ``changed()`` tells it."""
    game, heard = game_at(MatchSetup(seed=4, names=("Ann", "Bob")), tmp_path)
    table: Table = game.table
    placed = table.match.round.table.resolve(table.match.position.legal_moves[0])
    table.play(placed, 0)
    table.changed("Bob has come back.")
    assert heard.last == ["Bob has come back.", move_line("Ann", placed)]
    table.changed()
    assert heard.last != [move_line("Ann", placed)] or len(heard.batches) == 2


def test_the_words(tmp_path: Path) -> None:
    assert tower_words(Tower.parse("1S")) == "one sun"
    assert tower_words(Tower.parse("1*")) == "one star"  # was "one stars"
    assert tower_words(Tower.parse("2*")) == "two high, stars on top"
    assert tower_words(Tower.parse("3M")) == "three high, moon on top"
    placed = PlacedMove(Move.parse("1M>1M"), 2, 6)
    assert move_line("Computer", placed) == ("Computer: moon 3 onto moon 7, now a tower of two, moon on top "
                                             "(1M>1M).")
    placed = PlacedMove(Move.parse("2*>2S"), 0, 4)
    assert move_line("Ann", placed) == ("Ann: stars 1 (two high) onto sun 5 (two high), now a tower of four, "
                                        "stars on top (2*>2S).")
    from soluna_tui.rules import Arrangement, Position

    table = Arrangement.opening(Position.parse("2S 1M 1C"))
    assert table_line(table) == "Three towers. 1: two high, sun on top. 2: one moon. 3: one comet."
    assert legal_moves_lines(table) == ["2 legal moves, by the tower that moves. Towers that cannot move: 1.",
                                        "Tower 2, one moon: onto 3.", "Tower 3, one comet: onto 2."]


def test_a_puzzle_in_lines(tmp_path: Path) -> None:
    heard = Heard()
    puzzle = LinePuzzle(AtOnce(), heard, seed=7, difficulty="easy", stats_store=StatsStore(tmp_path))
    puzzle.start()
    found = make_puzzle(7, "easy")
    assert heard.last[0].startswith("Puzzle 7, easy difficulty: find the only move that wins")
    assert puzzle.prompt == "Your answer> "
    from soluna_tui.rules import Arrangement

    table = Arrangement.opening(found.position)
    wrong = next(move for move in found.position.legal_moves if move != found.solution)
    placed = table.resolve(wrong)
    puzzle.take(f"{placed.places[0]}>{placed.places[1]}")
    assert heard.last[0].startswith("Not this one: ") and heard.last[1].startswith("Perfect play goes on: ")
    puzzle.take("retry")
    right = table.resolve(found.solution)
    puzzle.take(f"{right.places[0]}>{right.places[1]}")
    assert heard.last[0].startswith(f"Solved: {right.places[0]} onto {right.places[1]}")
    assert "streak counts first answers only" in heard.last[0]
    puzzle.take("stats")
    assert heard.last == ["Puzzles: 0 solved, 1 failed; streak 0 (best 0)."]


def test_an_unfinished_match_is_offered_again(tmp_path: Path) -> None:
    setup = MatchSetup.against_computer("1", seed=5)
    heard = Heard()
    lines = LocalLines(heard, setup, tmp_path, quick_answer=0)
    lines.start()
    assert lines.game is not None
    lines.game.runner = AtOnce()
    lines.take("1>2")
    lines.take("quit")
    lines.stop()
    assert heard.last[-1].startswith("The match is saved")
    heard = Heard()
    again = LocalLines(heard, setup, tmp_path, quick_answer=0)
    again.start()
    assert heard.last[:2] == ["You have an unfinished match:", "You 0 - 0 Computer, round 1, move 3 (level 1 "
                                                                "(random))."]
    assert again.prompt == "Type resume or new> "
    again.take("maybe")
    assert heard.last == ["Type resume to go on with the unfinished match, new to start the new match instead, or "
                          "quit."]
    again.take("resume")
    assert "Round 1, 2 moves played. Stars: You 0, Computer 0; 4 to win." in heard.last
    assert again.prompt == "Your move> "
    again.stop()


def test_the_mode_is_chosen_by_flag_then_environment_then_preferences(tmp_path: Path) -> None:
    preferences = Preferences(tmp_path)
    assert not wanted(None, preferences, {})
    assert wanted(None, preferences, {"SOLUNA_SCREEN_READER": "1"})
    assert wanted(True, preferences, {})
    assert Preferences(tmp_path).screen_reader  # remembered
    assert wanted(None, Preferences(tmp_path), {})
    assert not wanted(None, Preferences(tmp_path), {"SOLUNA_SCREEN_READER": "0"})
    assert not wanted(False, Preferences(tmp_path), {})
    assert not Preferences(tmp_path).screen_reader
    assert os.path.exists(tmp_path / "preferences.json")


def test_the_c_locale_asks_for_ascii_though_python_reads_utf_8() -> None:
    """Python sets ``LC_CTYPE=C.UTF-8`` itself as it starts under ``LANG=C`` (PEP 538): the terminal still asked
    for ASCII."""
    from soluna_tui.terminal.sizes import wants_ascii

    assert wants_ascii({"LANG": "C", "LC_CTYPE": "C.UTF-8"})
    assert wants_ascii({"LC_CTYPE": "C.UTF-8"})
    assert not wants_ascii({"LANG": "C.UTF-8"})
    assert not wants_ascii({"LANG": "en_GB.UTF-8", "LC_CTYPE": "C.UTF-8"})


def test_a_puzzle_gives_a_hint_a_step_at_a_time_and_counts_it_in_the_streak(tmp_path: Path) -> None:
    heard = Heard()
    puzzle = LinePuzzle(AtOnce(), heard, seed=7, difficulty="easy", stats_store=StatsStore(tmp_path))
    puzzle.start()
    found = make_puzzle(7, "easy")
    from soluna_tui.rules import Arrangement

    mover, target = Arrangement.opening(found.position).resolve(found.solution).places
    puzzle.take("hint")
    assert heard.last == [f"Hint: move the {found.solution.mover} tower. It is tower {mover}. Type hint again for "
                          "the whole move. This puzzle now counts as not solved in your streak."]
    puzzle.take("h")
    assert heard.last == [f"Hint: play {found.solution} (win in {plies(found.plies)}). Type {mover}>{target}."]
    puzzle.take(f"{mover}>{target}")
    assert heard.last[0].startswith(f"Solved: {mover} onto {target}")
    puzzle.take("stats")
    assert heard.last == ["Puzzles: 0 solved, 1 failed; streak 0 (best 0)."]
    puzzle.take("hint")  # solved: nothing more to hint
    assert heard.last == ["Solved. Type next for another puzzle."]


def test_a_finished_match_kept_here_is_listed_and_replayed_in_lines(tmp_path: Path) -> None:
    setup = MatchSetup(MatchOptions(discs=6, stars_to_win=1), ("Ann", "Bob"), None, 4)
    heard = Heard()
    lines = LocalLines(heard, setup, tmp_path, quick_answer=0)
    lines.take("replays")
    assert heard.last == ["No finished match is kept here yet."]
    lines.start()
    assert lines.game is not None
    while not lines.game.table.match.is_over:
        lines.take(first_legal(lines.game))
    lines.take("help")
    assert heard.last == ["Also: replays lists the finished matches kept here, replay 1 replays the first."]
    lines.take("replay 1")
    assert heard.last[0].startswith("Type replays for the list")
    lines.take("replays")
    assert heard.last[0] == "Your finished matches, the last first (replay 1 replays it, move by move):"
    assert heard.last[1].startswith("1. ") and "Ann vs Bob: " in heard.last[1]
    lines.take("replay 1")
    assert heard.last[0] == f"Replaying a match played on this computer: {setup.mode_label}."
    played = lines.game.table.match.round
    assert lines.prompt == f"Replay, move 0 of {played.ply}> "
    lines.take("")
    assert heard.last == [round_move_line(played, ("Ann", "Bob"), 0)]
    lines.take("done")
    assert heard.last == ["Replay closed. Back to the match."] and lines.prompt != f"Replay, move 1 of {played.ply}> "
    lines.stop()
