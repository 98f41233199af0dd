"""Helpers for pilot tests: an app wired to a temporary data directory, and the screen as text."""

from __future__ import annotations

import contextlib
import html
import re
import socket
from collections.abc import Iterator
from pathlib import Path

from rich.cells import cell_len

from soluna_tui.app.soluna_app import SolunaApp
from soluna_tui.link.messages import REPLIES
from soluna_tui.link.protocol import encode
from soluna_tui.link.wire import from_wire
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.rules import MatchOptions, Position, Round
from soluna_tui.screens.game import GameScreen

#: Rich draws a screenshot's text in cells 0.61 of its 20-pixel font wide, one ``<text>`` a run.
SVG_CELL_WIDTH = 20 * 0.61
SVG_TEXT = re.compile(r'<text class="[^"]*" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+" '
                      r'clip-path="url\(#[\w-]+-line-(\d+)\)">([^<]*)</text>')


def footer_keys(app: SolunaApp) -> dict[str, bool]:
    """The footer's keys as shown, each description with whether it is lit (not dimmed)."""
    from soluna_tui.widgets.key_footer import KeyFooter

    return {entry.description: entry.enabled for entry in app.screen.query_one(KeyFooter).entries}


def make_app(data_dir: Path, setup: MatchSetup | None = None, **kwargs) -> SolunaApp:
    """An app that saves under ``data_dir``, whose computer moves without pauses, and that skips the guided round."""
    kwargs.setdefault("computer_pause", 0)
    kwargs.setdefault("reveal_pause", 0)
    kwargs.setdefault("offer_guided_round", False)  # a fresh data directory is a first start: tests go straight on
    return SolunaApp(setup=setup, data_dir=data_dir, **kwargs)


@contextlib.contextmanager
def welcomed_session(name: str = "ann") -> Iterator[SolunaApp]:
    """A session's app (``ChildApp``, as an SSH session's child runs it) whose server has already welcomed ``name``
    (rated, the name chosen) and listed no match: run it, and its lobby shows. The server's end of its link is
    closed after."""
    from soluna_tui.online.child_app import ChildApp

    ours, theirs = socket.socketpair()
    said = [{"type": "welcome", "secret": "KQXPMR", "hold_seconds": 300, "name": name, "rated": True,
             "name_chosen": True}, {"type": "lobby", "matches": []}]
    ours.sendall(b"".join(encode(from_wire(wire, REPLIES)) for wire in said))
    try:
        yield ChildApp(name=name, link=theirs, computer_pause=0, reveal_pause=0)
    finally:
        ours.close()


def hot_seat(seed: int = 1, **options) -> MatchSetup:
    return MatchSetup(MatchOptions(**options), ("Ann", "Bob"), None, seed)


def screen_text(app: SolunaApp) -> str:
    """What the terminal shows now, as plain text, each character at its cell (a wide one's second cell empty): the
    screen drawn whole as the app's own screenshot draws it (``App.export_screenshot``: the screens under a dialog
    too), read as text rather than written out as SVG and parsed back, which took ten times as long (9 ms against
    0.8 at 80x24; the tests read the screen some 1,500 times a run). Relies on ``Screen._compositor`` and
    ``App._background_screens`` (private), as ``export_screenshot`` does; ``test_screen_text.py`` checks the two
    readings agree. A character of no width (a zero-width space in a name, a combining accent) is left out, as the
    screenshot's reading left it out (it drew the next character over it), but for one that ends a run of text
    before blanks, which that reading kept, a cell further on."""
    width, height = app.size
    rows = []
    for line in drawn_lines(app)[:height]:
        row: list[str] = []
        for char in line:
            cells = cell_len(char)
            if cells:  # a character of no width is left out (see above)
                row.append(char)
                if cells == 2:
                    row.append("")
        shown = row[:width]
        rows.append("".join(shown).ljust(width - shown.count("")))
    rows.extend(" " * width for _ in range(height - len(rows)))
    return "\n".join(rows)


def drawn_lines(app: SolunaApp) -> list[str]:
    """The screen's lines as Textual draws them whole for a screenshot, their characters as they come (those of no
    width too)."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return ["".join(segment.text for strip in strips for segment in strip if not segment.control)
            for strips in update.strips]


def screenshot_text(app: SolunaApp) -> str:
    """``screen_text`` read the slow way, from the SVG of ``App.export_screenshot`` (public): what it is checked
    against."""
    width, height = app.size
    rows = [[" "] * width for _ in range(height)]
    for x, line, text in SVG_TEXT.findall(app.export_screenshot()):
        column, row = round(float(x) / SVG_CELL_WIDTH), rows[int(line)]
        for char in html.unescape(text).replace("\xa0", " "):
            if column < width:
                row[column] = char
                if cell_len(char) == 2 and column + 1 < width:
                    row[column + 1] = ""
            column += cell_len(char)
    return "\n".join("".join(row) for row in rows)


def set_position(screen: GameScreen, position: Position | str) -> None:
    """Replace the current round by one starting from ``position`` (same opener), and redraw."""
    if isinstance(position, str):
        position = Position.parse(position)
    screen.match.rounds[-1] = Round(position, screen.match.round.opener)
    screen.redraw(cursor=0)


def game(app: SolunaApp) -> GameScreen:
    screen = app.game
    assert screen is not None
    return screen


async def settle(pilot, app: SolunaApp) -> None:
    """Let workers finish and messages drain (the computer moves without pauses in tests)."""
    for _ in range(50):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not (app.game and app.game.flow.thinking):
            return
    raise AssertionError("the computer never finished thinking")


async def wait_for(pilot, app: SolunaApp, condition, what: str) -> None:
    """Until ``condition()`` holds (a worker's answer, a palette's search), at most 10 s."""
    for _ in range(500):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"{what} never came; the screen shows:\n{screen_text(app)}")


async def wait_for_text(pilot, app: SolunaApp, text: str) -> None:
    await wait_for(pilot, app, lambda: text in screen_text(app), repr(text))


async def replay_of_the_newest_finished_match(pilot, app: SolunaApp):
    """The palette's "Replay a finished match", then the list's first (the newest): its replay screen."""
    from soluna_tui.screens.finished import FinishedListScreen
    from soluna_tui.screens.replay import ReplayScreen

    await pilot.press("ctrl+p", *"Replay a fin")
    await wait_for_text(pilot, app, "Replay a finished match")
    await pilot.press("enter")
    await wait_for(pilot, app, lambda: isinstance(app.screen, FinishedListScreen), "the list")
    await pilot.press("enter")
    await wait_for(pilot, app, lambda: isinstance(app.screen, ReplayScreen), "the replay")
    return app.screen


def slot_keys(table, move) -> tuple[str, str]:
    """The keys of the places ``move`` goes from and onto on ``table`` (an ``Arrangement``): its own
    places for a ``PlacedMove``, the first holding its towers for a bare move."""
    from soluna_tui.play.looks import JUMP_KEYS

    placed = table.place(move)
    return JUMP_KEYS[placed.mover_slot], JUMP_KEYS[placed.target_slot]


async def play_by_keys(pilot, app: SolunaApp, move, screen: GameScreen | None = None) -> None:
    """Play ``move`` as a player would: jump to the mover, Enter, jump to the target, Enter (on ``screen``'s
    board: the match's unless told, a side line's)."""
    mover, target = slot_keys((screen or game(app)).picking_arrangement, move)
    await pilot.press(mover, "enter", target, "enter")


async def skip_review(pilot, app: SolunaApp) -> bool:
    """If the round review is showing, wait for its verdicts and go on (Enter); True if it was."""
    from soluna_tui.screens.review import ReviewScreen

    if not isinstance(app.screen, ReviewScreen):
        return False
    await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    return True


async def play_randomly_until(pilot, app: SolunaApp, rng, *screens: type) -> None:
    """Play random legal moves by keys (skipping reviews) until one of ``screens`` shows."""
    import random as _random

    from soluna_tui.rules import choose_move

    assert isinstance(rng, _random.Random)
    for _ in range(100):
        if isinstance(app.screen, screens):
            return
        if not await skip_review(pilot, app):
            await play_by_keys(pilot, app, choose_move("random", game(app).match.position, rng))
            await app.workers.wait_for_complete()
            await pilot.pause()
    raise AssertionError(f"never reached {screens}")


async def help_and_palette(pilot, app: SolunaApp) -> tuple[str, list[str]]:
    """The keys ``?`` lists where the player is now (its lines joined, single-spaced; the help closed again),
    and the palette's commands there."""
    from textual.widgets import Static

    from soluna_tui.screens.help import HelpScreen

    titles = [command.title for command in app.get_system_commands(app.screen)]
    await pilot.press("question_mark")
    await wait_for(pilot, app, lambda: isinstance(app.screen, HelpScreen), "the help")
    keys = " ".join(str(app.screen.query_one("#help-keys", Static).content).split())
    await pilot.press("escape")
    await wait_for(pilot, app, lambda: not isinstance(app.screen, HelpScreen), "the help closed")
    return keys, titles
