"""``soluna play --screen-reader`` as a blind player meets it: the installed command on a real pseudo-terminal,
read as the raw bytes a screen reader or a braille display gets (no terminal emulator in between).

A whole match against level 1 is typed move by move, each move found the way a player would find it (the
``moves`` command); every line is checked: no escape sequence at all, every move announced once, the end told
with its reason.
"""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .pty_terminal import end_on_pty, start_on_pty
from .test_installed_command import environment

SOLUNA = Path(sys.executable).parent / "soluna"
pytestmark = pytest.mark.skipif(not SOLUNA.exists(), reason="the soluna command is not installed in this venv")
PROMPT = re.compile(rb"[^\n]*> $")
#: A move as announced: ``Computer: moon 3 onto moon 7, now a tower of two, moon on top (1M>1M).``
MOVE = re.compile(r"^(You|Computer): \w+ \d+ .*onto .*, now a tower of \w[\w-]*, \w+ on top \([^)]+\)\.$")


class RawTerminal:
    """``argv`` on a fresh pseudo-terminal; everything it writes kept as bytes."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.output = b""
        self.master, self.process = start_on_pty(argv, 80, 24, env)

    def read_until(self, done: re.Pattern[bytes] | bytes, start: int, timeout: float = 30.0) -> bytes:
        """Read until what came since ``start`` holds ``done`` (a pattern searched, or bytes found), and then a
        moment's quiet; what came since ``start``."""
        deadline = time.monotonic() + timeout
        closed = False
        while time.monotonic() < deadline:
            ready, _, _ = select.select([] if closed else [self.master], [], [], 0.15)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:  # the program has gone and its terminal with it
                    data = b""
                if data:
                    self.output += data
                    continue
                closed = True
            since = self.output[start:]
            if done.search(since) if isinstance(done, re.Pattern) else done in since:
                return since
            if closed:
                break
        raise AssertionError(f"never came: {done!r}; the last output:\n{self.output[-1500:].decode(errors='replace')}")

    def reply(self, line: str, done: re.Pattern[bytes] | bytes = PROMPT) -> list[str]:
        """Type ``line`` and Enter; the lines answered (the echo of what was typed left out), the prompt last."""
        start = len(self.output)
        os.write(self.master, line.encode() + b"\r")
        came = self.read_until(done, start)
        echoed, _, answer = came.partition(b"\r\n")
        assert echoed.endswith(line.encode())
        return answer.decode().split("\r\n")

    def close(self) -> int | None:
        return end_on_pty(self.process, self.master)


def started(tmp_path: Path, *arguments: str, **env: str) -> RawTerminal:
    terminal = RawTerminal([str(SOLUNA), "play", "--screen-reader", "--data-dir", str(tmp_path), *arguments],
                           environment(**env))
    terminal.read_until(PROMPT, 0)
    return terminal


def first_move(answer: list[str]) -> str:
    """The first legal move the ``moves`` command lists, typed as tower numbers: ``Tower 3, one moon: onto 7...``,
    or ``onto any other tower`` (then the next tower standing)."""
    found = next(re.match(r"Tower (\d+), .*: onto (\d+|any other tower)", line)
                 for line in answer if line.startswith("Tower "))
    assert found is not None
    if found.group(2) != "any other tower":
        return f"{found.group(1)}>{found.group(2)}"
    standing = [int(number) for number in re.findall(r"(?:Tower |, | and |: )(\d+)\b", " ".join(answer))]
    return f"{found.group(1)}>{next(number for number in standing if number != int(found.group(1)))}"


def test_a_whole_match_against_level_1_typed_move_by_move(tmp_path: Path) -> None:
    terminal = started(tmp_path, "--vs", "1", "--stars", "2", "--seed", "11")
    try:
        opening = terminal.output.decode().split("\r\n")
        assert opening[0] == ("Soluna. You against Computer at level 1 (random): box rules, 12 discs, 2 stars to "
                              "win.")
        assert opening[2].startswith("Round 1. Twelve towers. 1: one ")
        prompt = opening[-1]
        assert prompt == "Your move> "
        announced: list[str] = []
        for _ in range(120):
            if prompt == "Match over> ":
                break
            if prompt == "Round over, press Enter> ":
                answer = terminal.reply("")
            elif prompt == "Type open or second> ":
                answer = terminal.reply("open")
            else:
                assert prompt == "Your move> "
                answer = terminal.reply(first_move(terminal.reply("moves")))
                assert MOVE.match(answer[0]) and answer[0].startswith("You: ")
            if any(line.startswith("Judging every move") for line in answer):
                answer = answer[:-1] + terminal.reply("", done=b"Match over.")[:]
            announced += [line for line in answer if line.startswith(("You: ", "Computer: "))]
            prompt = answer[-1]
        assert prompt == "Match over> "
        transcript = terminal.output.decode()
        assert "Match over. " in transcript
        end = next(line for line in transcript.split("\r\n") if line.startswith("Match over. "))
        assert re.fullmatch(r"Match over\. (You win|Computer wins) the match 2-[01]\.", end)
        assert all(MOVE.match(line) for line in announced)
        history = terminal.reply("history")
        assert [re.sub(r"^\d+\. ", "", line) for line in history if re.match(r"\d+\. ", line)] == announced
        assert len([line for line in history if line.startswith("Round ")]) >= 2
        assert terminal.reply("quit", done=b"Goodbye.")[0] == "Goodbye."
        assert terminal.process.wait(timeout=10) == 0
    finally:
        terminal.close()
    assert b"\x1b" not in terminal.output  # no escape sequence: no alternate screen, no cursor, no colour
    assert (tmp_path / "stats.json").exists()  # the match counted, as on the full screen


def test_every_command_answers_and_bad_input_gets_one_line(tmp_path: Path) -> None:
    terminal = started(tmp_path, "--vs", "1", "--seed", "5", "--clock", "3+2")
    try:
        assert terminal.reply("1>2")[:2][0].startswith("You: sun 1 onto sun 2, now a tower of two, sun on top")
        expected = {
            "board": r"Round 1\. Ten towers\. 2: two high, sun on top\. .*",
            "tower 2": r"Tower 2: two high, sun on top \(2S\)\. .*",
            "moves": r"\d+ legal moves, by the tower that moves\..*",
            "last": r"Last move: Computer: .*",
            "stars": r"Round 1\. Stars: You 0, Computer 0; 4 to win\.",
            "clock": r"Clock 3\+2: You \d.*, running; Computer .*\.",
            "hint": r"Hint: .*",
            "analysis": r"Analysis: the player to move .*",
            "review": r"No round is over yet: a review judges a finished round\.",
            "history": r"Round 1: You opened, 2 moves\.",
            "stats": r"No finished matches yet\.",
            "help": r"Type a move as two tower numbers: .*",
            "undo": r"Taken back: You 1S>1S \(1 onto 2\); Computer .*",
            "resign": r"You give the match to Computer\. It counts as a loss\. Type yes to resign, or no to keep "
                      r"playing\.",
            "no": r"You keep playing\.",
            "foo": r"I do not know 'foo': type a move like 3>7 or 1M>1M, or help for the commands\.",
            "3>3": r"That puts tower 3 on itself: name two towers, like 3>7\.",
            "12>40": r"There is no tower 40: the towers are numbered 1 to 12\. Type board to hear the towers\.",
            "2Q>1S": r"Unknown symbol 'Q' in '2Q': use S, M, \* or C \(or sun, moon, stars, comet\)\. Type board "
                     r"to hear the towers\.",
        }
        for command, pattern in expected.items():
            answer = terminal.reply(command)
            assert re.fullmatch(pattern, answer[0]), (command, answer)
            assert answer[-1].endswith("> ")
            if command in ("foo", "3>3", "12>40", "2Q>1S", "stars", "no", "resign"):
                assert len(answer) == 2, (command, answer)  # one line, then the prompt
        terminal.reply("1>2")
        assert terminal.reply("quit", done=b"Goodbye.")[0].startswith("The match is saved")
        assert terminal.process.wait(timeout=10) == 0
    finally:
        terminal.close()
    assert b"\x1b" not in terminal.output
    # Started again, the unfinished match is offered.
    terminal = started(tmp_path, "--vs", "1")
    try:
        assert b"You have an unfinished match:" in terminal.output
        assert terminal.output.endswith(b"Type resume or new> ")
        answer = terminal.reply("resume")
        assert "Round 1, 2 moves played. Stars: You 0, Computer 0; 4 to win." in answer
        assert answer[-1] == "Your move> "
    finally:
        terminal.close()


def test_only_ascii_when_the_locale_is_c(tmp_path: Path) -> None:
    terminal = started(tmp_path, "--seed", "5", LANG="C")
    try:
        answer = terminal.reply("1\u263a>1S")  # a symbol no one knows, quoted back in the refusal
        assert answer[0] == "Unknown symbol '?' in '1?': use S, M, * or C (or sun, moon, stars, comet). Type board " \
                            "to hear the towers."
        assert terminal.reply("1\u263e>1\u263e")[0].startswith("Player 1: moon ")  # the glyphs are read, said in words
        terminal.reply("quit", done=b"Goodbye.")
    finally:
        terminal.close()
    said = terminal.output.replace("1\u263a>1S".encode(), b"").replace("1\u263e>1\u263e".encode(), b"")  # the echo
    assert said.isascii()
    assert b"\x1b" not in said


def test_the_environment_and_the_preferences_choose_the_mode(tmp_path: Path) -> None:
    """``SOLUNA_SCREEN_READER=1`` plays in lines with no flag, even where the full screen could not run."""
    done = subprocess.run([str(SOLUNA), "play", "--seed", "5", "--data-dir", str(tmp_path)], input=b"board\n",
                          capture_output=True, timeout=60, env=environment(SOLUNA_SCREEN_READER="1", TERM="dumb"))
    assert done.returncode == 0
    assert b"Round 1. Twelve towers." in done.stdout and b"The match is saved" in done.stdout
    assert b"\x1b" not in done.stdout and done.stderr == b""
    subprocess.run([str(SOLUNA), "play", "--screen-reader", "--data-dir", str(tmp_path)], input=b"quit\n",
                   capture_output=True, timeout=60, env=environment(), check=True)
    again = subprocess.run([str(SOLUNA), "--data-dir", str(tmp_path)], input=b"new\nquit\n",
                           capture_output=True, timeout=60, env=environment(TERM="dumb"))
    assert b"Type a move as two tower numbers" in again.stdout  # remembered: bare soluna plays in lines
