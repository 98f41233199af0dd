"""Time to the first frame: ``soluna play`` against a bare Textual app, same run, same terminal.

Usage: python benchmarks/startup.py [--runs N]

A third program, Textual's own widgets laid out as the game screen's (``SAME_WIDGETS_APP``), says how much of
the difference is Textual's price for the widgets the game shows and how much is the game's own code; a fourth,
only the widgets the product requires (``REQUIRED_WIDGETS_APP``), is the floor under the target.

Each program is started on a fresh pseudo-terminal (80x24) and timed from launch
until its first screen is drawn (a known text appears in the output: for the game,
the status line, the footer and a tower of the board). Runs alternate between the
four; the medians and their ratios are printed (target: the game at most 1.1 times
the bare app, in CPU).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import textwrap
import time
from pathlib import Path

#: The game may take at most this many times the bare app's time to its first frame.
TARGET = 1.1

BARE_APP = """
from textual.app import App
from textual.widgets import Footer, Static

class Bare(App):
    BINDINGS = [("q", "quit", "Quit")]
    def compose(self):
        yield Static("bare app ready")
        yield Footer()

Bare().run()
"""


def statics_app(name: str, under_board: str, side: str) -> str:
    """A program of Textual's own ``Static``s laid out as the game screen is: twelve towers in a grid with
    ``under_board`` below them, ``side`` in the column beside, the footer (``under_board`` and ``side``: compose
    lines, at any common indent, set in at the depth of the grid and of the side column)."""
    return f"""
from textual.app import App
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Footer, Static

class {name}(App):
    BINDINGS = [("q", "quit", "Quit")]
    CSS = "Grid {{ grid-size: 6; height: 16; }} .tower {{ height: 4; }} #side {{ width: 30; }}"
    def compose(self):
        with Horizontal():
            with Vertical():
                with Grid():
                    for number in range(12):
                        yield Static(f"tower {{number}}", classes="tower")
{textwrap.indent(textwrap.dedent(under_board).strip(), " " * 16)}
            with Vertical(id="side"):
{textwrap.indent(textwrap.dedent(side).strip(), " " * 16)}
        yield Footer()

{name}().run()
"""


#: What the product asks to be widgets, and nothing else: twelve towers, a status line, the star tally panel and the
#: move-history sidebar, the footer, as Textual's own ``Static``s (the game's towers can also be focused and
#: clicked, which costs a little more). Its ratio to the bare app is the floor under the target: no code of the
#: game's can start for less while the towers are widgets.
REQUIRED_WIDGETS_APP = statics_app("RequiredWidgets", '''
    yield Static("bare app ready")
''', '''
    yield Static("tally")
    yield Static("history")
''')

#: The game screen's widget tree (12 towers, the last move, the prompt, the status, the tally, the clock, the
#: history, the talk, the notice, the footer, in the same rows and columns) made of Textual's own ``Static``s,
#: and nothing else: what Textual alone charges for the widgets the game's first frame shows, beside the bare
#: app's two. Printed as a ratio to the bare app, and the game's as a ratio to it: what the game's own code adds.
SAME_WIDGETS_APP = statics_app("SameWidgets", '''
    yield Static("last move")
    with Vertical():
        yield Static("prompt")
        yield Static("bare app ready")
''', '''
    with Vertical():
        yield Static("tally")
        yield Static("clock")
    yield Static("history")
    yield Static("talk")
    yield Static("notice")
''')

def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has spent so far, all its threads, in nanoseconds' precision (their
    ``/proc/PID/task/TID/schedstat``: /proc's user and system times count in 10 ms ticks)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError):  # a thread that ended meanwhile
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def time_to_text(argv: list[str], markers: tuple[bytes, ...], timeout: float = 30.0) -> tuple[float, float]:
    """Seconds from starting ``argv`` on a new PTY until every marker appears in what it draws: wall and CPU.

    The markers are the screen's content and its footer's keys, so the frame timed is complete. The CPU
    time is the process's own (from /proc), which other work on the machine does not inflate.
    """
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8"}
    env.pop("NO_COLOR", None)
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    seen = b""
    try:
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([master], [], [], 0.01)
            if ready:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
                if all(marker in seen for marker in markers):
                    return time.perf_counter() - started, cpu_seconds(process.pid)
        raise RuntimeError(f"{argv[0]} never drew all of {markers!r}")
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        os.close(master)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    soluna = Path(sys.executable).parent / "soluna"
    if not soluna.exists():
        print("install the package first (pip install .): the soluna command is missing", file=sys.stderr)
        return 2
    # pip byte-compiles an installed package; an editable checkout may not have been (and some
    # environments set PYTHONDONTWRITEBYTECODE), so compile it here to time what users run.
    import compileall

    import soluna_tui

    compileall.compile_dir(Path(soluna_tui.__file__).parent, quiet=1)
    with tempfile.TemporaryDirectory() as scratch:
        runs = iter(range(2 * args.runs + 2))

        def game() -> list[str]:
            # A fresh data directory each time: an unfinished match left by the last run
            # would (rightly) be offered for resuming first.
            return [str(soluna), "play", "--seed", "1", "--data-dir", f"{scratch}/{next(runs)}"]

        bare = [sys.executable, "-c", BARE_APP]
        bare_markers = (b"bare app ready", b"Quit")
        game_markers = (b"to move", b"Pick", b"Quit", "─1S".encode())  # a tower: the board is drawn
        same_widgets = [sys.executable, "-c", SAME_WIDGETS_APP]
        required = [sys.executable, "-c", REQUIRED_WIDGETS_APP]
        time_to_text(bare, bare_markers)  # warm the disk cache for all four
        time_to_text(required, bare_markers)
        time_to_text(same_widgets, bare_markers)
        time_to_text(game(), game_markers)
        bare_times, required_times, same_times, game_times = [], [], [], []
        for _ in range(args.runs):
            bare_times.append(time_to_text(bare, bare_markers))
            required_times.append(time_to_text(required, bare_markers))
            same_times.append(time_to_text(same_widgets, bare_markers))
            game_times.append(time_to_text(game(), game_markers))
    ratios = []
    for what, index in (("wall", 0), ("CPU", 1)):
        bare_median = statistics.median(times[index] for times in bare_times)
        game_median = statistics.median(times[index] for times in game_times)
        ratios.append(game_median / bare_median)
        print(f"{what:>4}: bare Textual app median {bare_median * 1000:.0f} ms, soluna play {game_median * 1000:.0f} ms"
              f" over {args.runs} runs: ratio {game_median / bare_median:.2f}")
    required_median = statistics.median(times[1] for times in required_times)
    same_median = statistics.median(times[1] for times in same_times)
    bare_cpu = statistics.median(times[1] for times in bare_times)
    game_cpu = statistics.median(times[1] for times in game_times)
    print(f"  Textual alone with the widgets the product requires (twelve towers, tally, history): "
          f"{required_median * 1000:.0f} ms of CPU, {required_median / bare_cpu:.2f} the bare app (the floor)")
    print(f"  Textual alone with the game's widgets: {same_median * 1000:.0f} ms of CPU, {same_median / bare_cpu:.2f}"
          f" the bare app; the game {game_cpu / same_median:.2f} that")
    met = ratios[1] <= TARGET
    print(f"ratio {ratios[1]:.2f} in CPU, {ratios[0]:.2f} in wall time (target <= {TARGET} in CPU):"
          f" {'met' if met else 'NOT met'}")
    return 0 if met else 1

if __name__ == "__main__":
    raise SystemExit(main())
