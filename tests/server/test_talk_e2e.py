"""Table talk over real SSH: asyncssh clients with pseudo-terminals read by pyte, the server in this process (two
servers sharing one PostgreSQL: ``tests/fleet/test_talk_fleet.py``). Players talk to each other, spectators among
themselves (the players read them only once the match is over), a mute holds, a flood is held to the limit while the
moves still reach the screens at once, and hostile text is shown cleaned or refused in one line."""

from __future__ import annotations

import re
import time

from soluna_tui.link.safe_talk import CHAT_LONGEST, Room
from soluna_tui.server.lobby.talk import PERSON_BURST, PERSON_EVERY

from .helpers import TIMEOUT, SshTerminal, play_a_move, running_server, terminals, wait_until
from .test_online_e2e import WATCH_FIRST_KEYS
from .test_two_players import create_match, join_match

#: Talk's key, everywhere over SSH.
TALK = "C"
#: A move (or a line) reaches the other screens within this long on a loaded shared machine, flood or not.
USUAL_TIME = 3.0
#: How long a flood's 1,690 keys may take to be typed into the chat line: about a second on a quiet machine, past
#: the usual 15 s on a busy CI runner once (the lines said are judged against the time it took, not by it).
TYPING_TIME = 90.0
#: Bracketed paste, as a terminal wraps what is pasted.
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


def flat(terminal: SshTerminal) -> str:
    """The screen's words on one line, and the panel beside the board's on another (a line wraps there)."""
    beside = "\n".join(line[-30:] for line in terminal.display)
    return "\n".join(" ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split()) for text in (terminal.text, beside))


async def say(terminal: SshTerminal, text: str) -> None:
    """Open the chat line, say ``text``, close it."""
    await terminal.press(TALK)
    await terminal.wait_for_text("Enter says it")
    terminal.send(text + "\r")
    await terminal.answered()
    await terminal.press("escape")
    # Closed: keys are the board's again. Its footer says so, not only the hint gone from the panel (a frame read
    # half drawn lacked the hint while the line was still open, and the next key was a canned line).
    await terminal.wait_for(lambda screen: "Enter says it" not in screen and "Close talk" not in screen
                            and "C Talk" in screen)
    await terminal.answered()


async def sees(terminal: SshTerminal, words: str, timeout: float = TIMEOUT) -> None:
    await terminal.wait_for(lambda _: words in flat(terminal), timeout)


async def a_match_with_a_spectator(server, ann: SshTerminal, bob: SshTerminal, eve: SshTerminal) -> str:
    code = await create_match(ann)
    await join_match(bob, code)
    await ann.wait_for_text("Your move", "bob has joined")
    await eve.wait_for_text("ann vs bob: round 1")
    await eve.press(*WATCH_FIRST_KEYS)
    await eve.wait_for_text("You are watching")
    return code


async def test_players_talk_and_the_spectators_room_reaches_them_only_once_the_match_is_over(tmp_path) -> None:
    async with running_server(tmp_path, hold_time=120) as server, terminals(server.port) as opened:
        ann, bob, eve = [await opened.open(name, local_addr=(f"127.0.0.{number + 2}", 0))
                         for number, name in enumerate(("ann", "bob", "eve"))]
        code = await a_match_with_a_spectator(server, ann, bob, eve)
        await say(ann, "good luck bob")
        await sees(bob, "ann: good luck bob")
        await say(eve, "ann will blunder")
        await sees(eve, "eve: ann will blunder")
        await say(bob, "thanks")
        await sees(ann, "bob: thanks")
        await sees(bob, "bob: thanks")
        assert b"blunder" not in ann.received + bob.received  # never drawn on a player's screen
        assert b"good luck" not in eve.received and b"thanks" not in eve.received  # nor the players' on hers
        await bob.press("2")  # the chat line is closed: 2 is a tower's key again, not a canned line
        assert len(server.lobby.talk.rooms[(Room.PLAYERS, code)]) == 2
        for _ in range(2):
            await play_a_move(server, code, [ann, bob])
        await ann.press("R")
        await ann.wait_for_text("Resign?")
        await ann.press("y")
        for player in (ann, bob):
            await player.wait_for_text("Match over")
            await player.press("escape")
            await sees(player, "eve (watching): ann will blunder")


async def test_a_muted_player_never_reaches_the_one_who_muted_them(tmp_path) -> None:
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        ann, bob, cyd = [await opened.open(name, local_addr=(f"127.0.0.{number + 2}", 0))
                         for number, name in enumerate(("ann", "bob", "cyd"))]
        for terminal in (ann, bob, cyd):
            await terminal.wait_for_text("Welcome,")
        await say(bob, "hello everyone")
        await sees(ann, "1 new line of talk")  # the lobby's talk, counted over the matches while it is closed
        for terminal in (ann, bob, cyd):
            await terminal.press(TALK)
        await sees(ann, "bob: hello everyone")
        ann.send("/mute bob\r")
        await sees(ann, "Muted bob")
        bob.send("psst ann\r")
        cyd.send("hi from cyd\r")
        await sees(ann, "cyd: hi from cyd")
        await sees(cyd, "bob: psst ann")
        assert b"psst" not in ann.received
        cyd.send("/report bob\r")  # his last line cyd read
        await sees(cyd, "Reported to the server's owner.")
        (report,) = await server.store.chat.reports()
        assert (report.line.name, report.line.text, report.reporter) == ("bob", "psst ann", "cyd")
        ann.send("/mute\r")  # all talk
        await sees(ann, "All talk muted")
        cyd.send("anyone there\r")
        await sees(bob, "cyd: anyone there")
        ann.send("I hear only myself\r")
        await sees(ann, "ann: I hear only myself")
        await sees(cyd, "ann: I hear only myself")
        assert b"anyone there" not in ann.received


async def a_move_seen_by_both(server, code: str, ann: SshTerminal, bob: SshTerminal) -> float:
    """The player to move plays (by the towers' keys); the seconds from the first key until both screens show the
    move in the history."""
    match = server.lobby.tables[code].match
    entry = f"{match.round.ply + 1}. {match.players[match.to_move]} "  # its line in the moves beside the board
    started = time.monotonic()
    await play_a_move(server, code, [ann, bob])
    for terminal in (ann, bob):
        await terminal.wait_for(lambda _, terminal=terminal: entry in flat(terminal), USUAL_TIME)
    return time.monotonic() - started


async def test_a_flood_is_held_to_the_limit_while_the_moves_reach_the_screens_in_the_usual_time(tmp_path) -> None:
    async with running_server(tmp_path, hold_time=120) as server, terminals(server.port) as opened:
        ann = await opened.open("ann", local_addr=("127.0.0.2", 0))
        bob = await opened.open("bob", local_addr=("127.0.0.3", 0))
        code = await create_match(ann)
        await join_match(bob, code)
        await ann.wait_for_text("Your move", "bob has joined")  # ann opens: bob floods while she moves
        usual = [await a_move_seen_by_both(server, code, ann, bob) for _ in range(2)]  # ann's, then bob's
        await bob.press(TALK)
        await bob.wait_for_text("Enter says it")
        started = time.monotonic()
        bob.send("".join(f"spam {number}\r" for number in range(200)))  # as fast as the terminal sends it
        flooded_move = await a_move_seen_by_both(server, code, ann, bob)
        print(f"\na move from its first key to both screens: {usual[0]:.2f} s and {usual[1]:.2f} s without talk, "
              f"{flooded_move:.2f} s while the opponent floods")
        assert flooded_move < USUAL_TIME
        await sees(bob, "Slow down: not sent")  # told why the rest is not said (until a line passes again)
        await bob.wait_for(lambda _: "spam 199" not in flat(bob) and "Enter says it" in bob.text,  # all typed
                           TYPING_TIME)
        await wait_until(lambda: all(visitor.queue.empty() for visitor in server.lobby.visitors.values()),
                         what="the flood taken")
        flooded = time.monotonic() - started
        said = [heard.said.text for heard in server.lobby.talk.rooms[(Room.PLAYERS, code)]]
        print(f"{len(said)} of 200 lines said in the {flooded:.1f} s the flood took to type")
        assert said[:PERSON_BURST] == [f"spam {number}" for number in range(PERSON_BURST)]
        assert len(said) <= PERSON_BURST + flooded / PERSON_EVERY + 1  # a burst, then one every few seconds
        await sees(ann, f"bob: {said[-1]}")


async def test_hostile_text_is_shown_cleaned_and_a_page_is_refused_in_one_line(tmp_path) -> None:
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        ann = await opened.open("ann", local_addr=("127.0.0.2", 0))
        bob = await opened.open("bob", local_addr=("127.0.0.3", 0))
        for terminal in (ann, bob):
            await terminal.wait_for_text("Welcome,")
        await ann.press(TALK)
        await bob.press(TALK)
        hostile = "\x1b[2J\x1b]0;pwned\x07zero\u200bwidth\u2060 \u202egnp.exe \x1b[31mred\x1b[0m\x07"
        ann.send(PASTE_START + hostile + PASTE_END + "\r")
        await sees(bob, "zerowidth gnp.exe")
        await sees(ann, "zerowidth gnp.exe")
        (said,) = [heard.said.text for heard in server.lobby.talk.rooms[(Room.LOBBY, None)]]
        assert said.isprintable() and not set(said) & set("\x1b\x07\u200b\u2060\u202e") and "pwned" in said
        # Not wiped (the menu still there: the welcome makes way for the talk), the title untouched.
        assert "Play the computer" in bob.text and b"\x1b]0;pwned" not in bob.received
        assert "\u200b" not in bob.text and "\u202e" not in bob.text
        ann.send(PASTE_START + "x" * 10_000 + PASTE_END + "\r")
        await sees(ann, f"Not sent: 10000 characters; a line has at most {CHAT_LONGEST}. It is back in the chat line, "
                        "cut to fit")
        await ann.wait_for(lambda text: "x" * 40 in text)  # kept in the chat line, cut to fit
        ann.send("\x15still here\r")  # ctrl+u empties it
        await sees(bob, "ann: still here")
        assert len(server.lobby.talk.rooms[(Room.LOBBY, None)]) == 2
        assert "x" * 50 not in flat(bob)
