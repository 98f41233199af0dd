"""How matches end over real SSH, told right (issue 26): a resignation, the rating change on the last mover's
screen whichever comes first, ``r`` for a rematch once the match-over dialog is closed, a loss on time while away
told on return and in the record, quitting from the lobby with a seat held, a spectator kept while the match
moves, and times said to the second under ten minutes.

Real asyncssh clients with pseudo-terminals read by pyte, a real server on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from soluna_tui.rules.clock import ClockSetting

from .helpers import KEYS, TIMEOUT, SshTerminal, play_a_move, running_server, session_named, terminals, wait_until
from .test_clocks_e2e import FIRST_CLOCK, open_keyed
from .test_coming_back_e2e import a_match, last_line
from .test_endings_e2e import watch_the_first_listed
from .test_lobby_e2e import JOIN_KEYS, RECORD_KEYS, create, held_back, play_out, short_match_settings, two_keyed_players
from .test_two_players import secret_shown

#: From the menu: the lobby's sixth setting (Hints) to "allowed", back to the menu.
ALLOW_HINTS = ("tab",) * 6 + ("right", "escape")
#: A rated match's rating lines, as every screen at it shows them.
RATING_LINE = re.compile(r"(ann|bob): rating 1000 to \d+ \([+-]\d+\)")


#: From the menu: two stars to win, four discs (short rounds), back to the menu.
TWO_SHORT_ROUNDS = ("tab", "tab", "tab", "left", "left", "left", "right", "tab", *("left",) * 8, "escape")


async def next_round(server, code: str, players: list[SshTerminal]) -> None:
    """The round just decided on the board: its loser starts the next one (the first choice of their dialog)."""
    match = server.lobby.tables[code].match
    number, loser = match.round_number, players[match.round.outcome.loser]
    await loser.wait_for_text("Round over", f"round {number + 1}")
    await loser.press("enter")
    await wait_until(lambda: server.lobby.tables[code].match.round_number > number, what="the next round")


def words(text: str) -> str:
    """What a screen says as one line of words: each box read alone (a dialog over the lobby, the panels beside
    the board), its frame and line ends gone, so a sentence that wraps reads whole."""
    lines = text.splitlines()
    boxes = []
    for top, line in enumerate(lines):
        for corner in re.finditer("╭", line):
            left = corner.start()
            right = line.find("╮", left)
            inside = []
            for below in lines[top + 1:]:
                if below[left:left + 1] != "│":
                    break
                inside.append(below[left + 1:right])
            boxes.append(" ".join(inside))
    return re.sub(r"\s+", " ", " ".join([*boxes, *lines]))


async def says(terminal: SshTerminal, *sentences: str) -> str:
    """Wait until ``terminal`` shows each of ``sentences`` (wrapped or not); its words."""
    return words(await terminal.wait_for(lambda text: all(each in words(text) for each in sentences)))


async def both_rating_lines(terminal: SshTerminal) -> None:
    await terminal.wait_for(lambda text: {found.group(1) for found in RATING_LINE.finditer(text)} == {"ann", "bob"})


async def test_a_resignation_is_asked_first_rated_as_a_loss_and_told_to_the_opponent_and_a_spectator(
        tmp_path) -> None:
    async with two_keyed_players(tmp_path) as (server, ann, bob):
        eve = await SshTerminal.open(server.port, username="eve", local_addr=("127.0.0.4", 0))
        try:
            await ann.press(*TWO_SHORT_ROUNDS, pause=0.05)
            code = await create(ann)
            await bob.press(*JOIN_KEYS, pause=0.05)
            await bob.wait_for_text("Type the four-letter code")
            await bob.press(code.lower(), "enter")
            await eve.wait_for_text("ann vs bob: round 1")
            await watch_the_first_listed(eve)
            # A round decided on the board: a resignation now is rated (before, it would keep its result, unrated).
            while not server.lobby.tables[code].match.round.is_over:
                await play_a_move(server, code, [ann, bob])
            await next_round(server, code, [ann, bob])
            await ann.wait_for(lambda text: "Round 2" in text and "Round over" not in text)
            await ann.press("R")
            await says(ann, "Resign?", "You give the match to bob. It counts as a loss.")
            assert not server.lobby.tables[code].finished  # asked first: nothing happens until she says yes
            await ann.press("y")
            for terminal in (ann, bob, eve):
                await says(terminal, "Match over", "ann resigned: bob wins the match")
                await both_rating_lines(terminal)
            for player in (ann, bob):  # both still here (read once the screen has settled: a frame may be half drawn)
                await says(player, "Match over", "Rematch: same players")
            (filed,) = await server.store.finished.newest()
            assert (filed.result, filed.winner, filed.rated) == ("resigned", 1, True)
        finally:
            await eve.close()


@pytest.mark.parametrize("order", ["the dialog first", "the ratings first", "the help over the dialog"])
async def test_the_last_mover_sees_the_rating_change_whatever_the_order(tmp_path, order: str) -> None:
    """The dialog first: the mover's screen judges the match and opens it at once, as the result is filed. The
    ratings first: with hints allowed, each round's review comes before the dialog, closed once they are here. The
    help over the dialog: the ratings are held back until the mover has opened the help on it."""
    async with two_keyed_players(tmp_path) as (server, ann, bob):
        await short_match_settings(ann)
        if order == "the ratings first":
            await ann.press(*ALLOW_HINTS, pause=0.05)
            await bob.press(*ALLOW_HINTS, pause=0.05)
        code = await create(ann)
        await bob.press(*JOIN_KEYS, pause=0.05)
        await bob.wait_for_text("Type the four-letter code")
        await bob.press(code.lower(), "enter")
        held = held_back(server.store.finished, "latest_under") if order == "the help over the dialog" else None
        await wait_until(lambda: server.lobby.tables[code].match is not None, what="the match beginning")
        players, last = [ann, bob], ann
        while not server.lobby.tables[code].match.is_over:
            last = players[server.lobby.tables[code].match.to_move]
            await play_a_move(server, code, players)
        if held is not None:
            release, asked = held
            await last.wait_for_text("Match over")
            await last.press("?")
            await last.wait_for_text("Soluna help")
            await asyncio.wait_for(asked.wait(), TIMEOUT)
            release.set()
            await wait_until(lambda: server.lobby.tables[code].ratings != (), what="the ratings told")
            await last.press("escape")
        if order == "the ratings first":
            await wait_until(lambda: server.lobby.tables[code].ratings != (), what="the ratings told")
            for terminal in (ann, bob):
                await terminal.wait_for_text("Round 1 review")
                await terminal.press("enter")
        for terminal in (last, ann if last is bob else bob):
            await terminal.wait_for_text("Match over")
            await both_rating_lines(terminal)


async def test_r_on_the_board_after_the_dialog_starts_the_rematch_and_its_notice_goes(tmp_path) -> None:
    async with running_server(tmp_path, hold_time=120) as server, terminals(server.port) as opened:
        ann, bob = await opened.open("ann"), await opened.open("bob")
        await short_match_settings(ann)
        code = await create(ann)
        await bob.press(*JOIN_KEYS, pause=0.05)
        await bob.wait_for_text("Type the four-letter code")
        await bob.press(code.lower(), "enter")
        await play_out(server, code, [ann, bob])
        for terminal in (ann, bob):
            await terminal.wait_for_text("Match over", "Rematch: same players")
        await ann.press("escape")  # Look at the board
        footer = (await ann.wait_for(lambda text: "Match over" not in text)).splitlines()[-1]
        assert "r Rematch" in footer
        await bob.press("enter")  # Rematch, from the dialog
        await says(ann, "bob asks for a rematch: press r to play again.")
        await ann.press("r")
        await wait_until(lambda: not server.lobby.tables[code].match.is_over, what="the rematch")
        for terminal in (ann, bob):
            await terminal.wait_for(lambda text: "Round 1 " in text and "0/1" in text and "wins the match" not in text)
            await terminal.wait_for(lambda text: "asks for a rematch" not in words(text)
                                    and "Rematch asked" not in words(text))


async def test_a_loss_on_time_while_away_is_told_on_return_and_in_the_record(tmp_path) -> None:
    async with running_server(tmp_path, clocks=(ClockSetting(12.0, 0.0),), hold_time=300) as server:
        players = [await open_keyed(server.port, "ann", 0), await open_keyed(server.port, "bob", 1)]
        back = None
        try:
            await players[0].press(*TWO_SHORT_ROUNDS, *FIRST_CLOCK, pause=0.05)
            code = await create(players[0])
            await players[1].press(*JOIN_KEYS, pause=0.05)
            await players[1].wait_for_text("Type the four-letter code")
            await players[1].press(code.lower(), "enter")
            # A round decided on the board (so the match is rated), then the next round's opener leaves.
            await wait_until(lambda: server.lobby.tables[code].match is not None, what="the match beginning")
            while not server.lobby.tables[code].match.round.is_over:
                await play_a_move(server, code, players)
            await next_round(server, code, players)
            away = server.lobby.tables[code].match.to_move
            name, other = ("ann", "bob")[away], ("ann", "bob")[1 - away]
            await players[away].close()  # their clock runs on while they are away
            await players[1 - away].wait_for_text(f"{name} ran out of time")
            back = await open_keyed(server.port, name, away, first_visit=False)
            text = await says(back, f"While you were away, your match against {other} ended: your time ran out, "
                                    f"so {other} won on time. {name}: rating 1000 to ")
            assert re.search(rf"{name}: rating 1000 to \d+ \(-\d+\)\.", text), text
            await back.press(*RECORD_KEYS, pause=0.05)
            await says(back, f"vs {other}: lost on time, stars ")
        finally:
            for terminal in (*players, back):
                if terminal is not None:
                    await terminal.close()


async def test_quitting_from_the_lobby_with_a_seat_held_says_for_how_long_and_how_to_come_back(tmp_path) -> None:
    async with running_server(tmp_path, hold_time=90) as server, terminals(server.port) as opened:
        ann, bob, code = await a_match(opened)
        secret = secret_shown(ann)
        await ann.press("n")
        await says(ann, "Leave the match?", "Your seat is held for 1 min 30 s")  # to the second, not "2 minutes"
        await ann.press("y")
        await ann.wait_for_text("Welcome, ann.")
        await says(bob, "ann has left: the seat is held for 1 min 30 s, then you win by forfeit.")
        await ann.press("q")
        text = await says(ann, "Quit?", f"Your seat in match {code} is held for 1 min",
                          f"join with the code {code}, secret {secret}.")
        assert re.search(r"held for 1 min [0-3]\d s, then your opponent wins by forfeit", text), text
        await ann.press("y")
        line = last_line(await ann.wait_closed())
        assert re.search(rf"Your seat in match {code} is held for 1 min [0-3]\d s: connect again and join {code} "
                         rf"with your secret {secret}\.", line), line


async def test_a_spectator_is_not_closed_for_idleness_while_the_match_moves(tmp_path) -> None:
    idle = 8.0
    async with (running_server(tmp_path, hold_time=120, idle_timeout=idle, idle_warning=4) as server,
                terminals(server.port) as opened):
        ann, bob = [await opened.open(name) for name in ("ann", "bob")]
        await ann.wait_for_text("Welcome,")
        await ann.press(*("tab",) * 4, *("right",) * 12, "escape", pause=0.05)  # 24 discs: moves enough
        code = await create(ann)
        await bob.press(*JOIN_KEYS, pause=0.05)
        await bob.wait_for_text("Type the four-letter code")
        await bob.press(code.lower(), "enter")
        await ann.wait_for_text("bob has joined")
        # The players press keys while eve comes (on a loaded machine a session's start can outlast the idle timeout).
        keeper = asyncio.get_running_loop().create_task(keep_pressing([ann, bob], "right", every=idle / 4))
        try:
            eve = await opened.open("eve")  # now: the idle timeout is short
            await eve.wait_for_text("ann vs bob: round 1")
            await watch_the_first_listed(eve)
        finally:
            keeper.cancel()
            await asyncio.gather(keeper, return_exceptions=True)
        watching = session_named(server, "eve")
        players, since = [ann, bob], time.monotonic()
        for player in players:
            await player.press("right")  # read what the players' screens drew meanwhile
        for _ in range(60):  # eve presses nothing for one and a half idle timeouts while the players play
            if time.monotonic() - since > 1.5 * idle:
                break
            if server.lobby.tables[code].match.round.is_over:
                await next_round(server, code, players)
            else:
                await play_a_move(server, code, players)
            # At a brisk player's pace, a move every half second: the match moves all through eve's idle time
            # (moves as fast as the machine went were only more frames to draw on three screens).
            await asyncio.sleep(idle / 16)
        else:
            raise AssertionError("the players never played for long enough")
        await eve.pump(1.0, quiet=0.2)  # what the server sent her meanwhile
        assert not watching.ending.requested and not eve.closed, (watching.ending.reason, eve.shown)
        assert "No key pressed" not in eve.text


async def keep_pressing(players: list[SshTerminal], key: str, every: float) -> None:
    """``key`` for each of ``players`` every ``every`` seconds, until cancelled (what they draw is read later)."""
    while True:
        for player in players:
            player.send(KEYS[key])
        await asyncio.sleep(every)


async def test_resigning_before_both_players_moved_says_the_match_is_aborted_and_not_rated(tmp_path) -> None:
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        ann, bob, code = await a_match(opened)
        await ann.press("R")
        asked = await says(ann, "Resign?", "bob has not moved yet: the match is aborted, nobody wins and it is not "
                                           "rated")
        assert "It counts as a loss" not in asked
        await ann.press("y")
        for player in (ann, bob):  # what the confirmation said is what happened
            await says(player, "ann resigned before both players had moved: the match is aborted, and not rated.")
