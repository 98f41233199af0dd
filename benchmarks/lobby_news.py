"""What one change of who is online, or one line of talk, costs a lobby listing N people (issue 43).

Usage: python benchmarks/lobby_news.py [--people 20,100,400] [--changes 12] [--size 80x24] [--heard 0]

Runs a session's app (``ChildApp``, as a session's child runs it) on a real pseudo-terminal, its link a
socketpair whose other end this script holds, playing the server: the player's welcome, no match in play,
and who is online (N people: the server lists at most ``ONLINE_LISTED`` of them and counts the rest), then
``o`` to list them (``--heard``: the lobby's talk heard so far first, as a lobby open a while has it: a session
keeps the last 500 lines). Then, one at a time, each after the screen has settled: someone arrives (sorted in view,
so the lines under them shift), the same person leaves, someone in view changes what they are doing, and a
line of the lobby's talk comes (counted in the list's title); then, the talk open in the list's place (``C``),
lines of talk, each drawn as it comes. Each is timed from the message sent until the
screen shows it and the app's process has settled: its CPU (every thread, from /proc, as ``keys.py`` reads
it), the bytes it wrote, its frames. A lobby draws news at a moment of its own, once a second, so each change
is waited for, not hurried.

The cost of a change should not grow with N: the script prints each kind's CPU at each N and its ratio to the
same kind at the first N. The bare Textual app's arrow key (``keys.py``'s reference app) is measured in the
same run as the machine's yardstick, with each figure's ratio to it.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass

from keys import Figures, MeasureError, Sample, Terminal, cpu_ns, reference_arrow

from soluna_tui.link.messages import ONLINE_LISTED, REPLIES, Doing
from soluna_tui.link.protocol import encode
from soluna_tui.link.wire import from_wire

#: The session's app, on the terminal it is started on, its link the socket passed as its first argument.
CHILD = r'''
import socket, sys
from soluna_tui.online.child_app import ChildApp
ChildApp(name="ann", link=socket.socket(fileno=int(sys.argv[1])), computer_pause=0, reveal_pause=0).run()
'''

KINDS = ("arrives", "leaves", "changes activity", "a line of talk", "a line of talk, read")


@dataclass
class Lobby:
    """A session's app on a terminal, and the server's end of its link."""

    term: Terminal
    server: socket.socket

    def send(self, wire: dict) -> None:
        """A message as the server sends it (read back through the link's own check first)."""
        self.server.sendall(encode(from_wire(wire, REPLIES)))
        self._drain()

    def _drain(self) -> None:
        """What the app said to the server, read and dropped (its socket never fills)."""
        try:
            while self.server.recv(1 << 16):
                pass
        except BlockingIOError:
            pass

    def change(self, wire: dict, shown: Callable[[str], bool], what: str) -> Sample:
        """Send ``wire`` and measure until the screen shows it and the app has settled."""
        term = self.term
        written, frames, before = term.written, term.frames, cpu_ns(term.pid)
        self.send(wire)
        term.wait_for(shown, what, timeout=5)
        term.settle()
        return Sample((cpu_ns(term.pid) - before) / 1e6, term.written - written, term.frames - frames)


def person(number: int, name: str, doing: Doing = Doing.LOBBY, others: tuple[str, ...] = ()) -> dict:
    keyed = number % 3 == 0
    return {"id": number, "name": name, "keyed": keyed, "rating": 1500 + number if keyed else None,
            "doing": doing.value, "others": list(others)}


def talk_line(number: int, text: str, at: float) -> dict:
    """A line of the lobby's talk, said by one of thirty people."""
    return {"id": number, "room": "lobby", "speaker": 12 + number % 30, "name": f"p{2 + number % 30:03}", "text": text,
            "at": at, "yours": False}


def open_lobby(people: int, size: tuple[int, int], heard: int = 0) -> Lobby:
    ours, theirs = socket.socketpair()
    term = Terminal([sys.executable, "-c", CHILD, str(theirs.fileno())], *size, pass_fds=(theirs.fileno(),))
    theirs.close()
    ours.setblocking(False)
    lobby = Lobby(term, ours)
    lobby.send({"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300, "name": "ann", "rated": True,
                "name_chosen": True})
    lobby.send({"type": "lobby", "matches": []})
    listed = min(people, ONLINE_LISTED - 1)  # room for one more: the one who arrives is listed
    crowd = [person(1, "ann")] + [person(10 + number, f"p{number:03}") for number in range(listed - 1)]
    lobby.send({"type": "online", "people": crowd, "total": people, "you": 1})
    if heard:
        lobby.send({"type": "chat", "room": "lobby", "whole": True,
                    "lines": [talk_line(number + 1, f"said before {number}", 50.0 + number / 100)
                              for number in range(heard)]})
    term.wait_for(lambda text: f"{people} online" in text, "the lobby counting who is online")
    term.send("o")
    term.wait_for(lambda text: f"Who is online ({people})" in text, "who is online, listed")
    term.settle()
    return lobby


def changes(lobby: Lobby, people: int, count: int, heard: int = 0) -> dict[str, Figures]:
    """Each kind of change ``count`` times (after two not measured); the lines of talk numbered after the ``heard``
    before them."""
    figures = {kind: Figures() for kind in KINDS}
    for round_number in range(count + 2):
        samples = {
            "arrives": lobby.change(
                {"type": "online_changes", "came": [person(5, "p000a")], "total": people + 1},
                lambda text: f"{people + 1} online" in text and "p000a" in text, "someone arriving"),
            "leaves": lobby.change(
                {"type": "online_changes", "went": [5], "total": people},
                lambda text: f"{people} online" in text and "p000a" not in text, "someone leaving"),
            "changes activity": lobby.change(
                {"type": "online_changes", "total": people,
                 "came": [person(11, "p001", *((Doing.COMPUTER, ("5",)) if round_number % 2 == 0 else ()))]},
                (lambda text: "computer at level 5" in text) if round_number % 2 == 0
                else (lambda text: "computer at level 5" not in text), "someone's activity"),
            "a line of talk": lobby.change(
                {"type": "chat", "room": "lobby", "whole": False,
                 "lines": [talk_line(heard + round_number + 1, f"hello {round_number}", 100.0 + round_number)]},
                lambda text, unread=round_number + 1: f"{unread} new line" in text, "a line of talk"),
        }
        if round_number >= 2:
            for kind, sample in samples.items():
                figures[kind].add(sample)
    lobby.term.send("C")  # the lobby's talk in the list's place, its chat line open: each line drawn as it comes
    lobby.term.wait_for(lambda text: "Talk in the lobby" in text, "the lobby's talk")
    lobby.term.settle()
    for round_number in range(count + 2):
        said = f"and again {round_number}"
        sample = lobby.change(
            {"type": "chat", "room": "lobby", "whole": False,
             "lines": [talk_line(heard + 1000 + round_number, said, 200.0 + round_number)]},
            lambda text, said=said: said in text, "a line of talk, read")
        if round_number >= 2:
            figures["a line of talk, read"].add(sample)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", default="20,100,400", help="comma-separated: how many are online in each run")
    parser.add_argument("--changes", type=int, default=12, help="measured changes of each kind at each N")
    parser.add_argument("--size", default="80x24", help="the terminal's size")
    parser.add_argument("--heard", type=int, default=0, help="lines of the lobby's talk heard before (at most 500)")
    args = parser.parse_args()
    crowds = [int(each) for each in args.people.split(",")]
    columns, lines = (int(each) for each in args.size.lower().split("x"))
    if not all(2 <= each <= 1000 for each in crowds) or not 1 <= args.changes <= 100 or not 0 <= args.heard <= 500:
        parser.error("2-1000 people, 1-100 changes, 0-500 lines heard")
    print(f"lobby_news.py: {args.changes} changes of each kind at each N, {columns}x{lines}; CPU of every thread of "
          f"the session's process; {args.heard} lines of talk heard before; {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}")
    try:
        yardstick = reference_arrow((columns, lines))
        results: dict[int, dict[str, Figures]] = {}
        for people in crowds:
            lobby = open_lobby(people, (columns, lines), args.heard)
            try:
                results[people] = changes(lobby, people, args.changes, args.heard)
            finally:
                lobby.term.close()
                lobby.server.close()
    except MeasureError as error:
        print(f"lobby_news.py: could not measure: {error}", file=sys.stderr)
        return 1
    first = crowds[0]
    print(f"  {'change':<22} {'N':>5} {'CPU':>8} {'median':>7} {'KB':>6} {'frames':>6} {'x N=' + str(first):>7} "
          f"{'x arrow':>7}")
    for kind in KINDS:
        for people in crowds:
            got = results[people][kind]
            print(f"  {kind:<22} {people:>5} {got.cpu_ms:>5.1f} ms {got.median_ms:>4.1f} ms {got.kilobytes:>5.2f} "
                  f"{got.frames:>6.1f} {got.median_ms / results[first][kind].median_ms:>7.2f} "
                  f"{got.median_ms / yardstick.median_ms:>7.2f}")
    print(f"  {'the bare app: arrow':<28} {yardstick.cpu_ms:>5.1f} ms {yardstick.median_ms:>4.1f} ms "
          f"{yardstick.kilobytes:>5.2f} {yardstick.frames:>6.1f}  (the yardstick; medians compared)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
