"""Runs in the zygote, before it forks any session.

A session rehearsed once, headless: the lobby, then a match against the computer and a few keys, with this module
playing the server's part (a welcome, nothing else). What every session would build the same way is then built
once, in the zygote, and its pages are shared by every child instead of written by each: the modules a session
imports as it starts (the terminal's driver and its parser, the layouts, Rich's table of character widths), the
caches that the first frames fill (Textual's, Rich's, the game's own), the classes Textual makes on first use, and
the interpreter's own work on the code a session runs (Python 3.11 rewrites a function's bytecode in place after its
first calls: done here, it is done once for all the children). What was measured: docs/benchmarks.md, "Where a
session's memory goes".

Nothing of the rehearsal outlives it but what is shared by design (modules, classes, caches keyed by what they
hold): its app, screens and link are dropped before the zygote freezes what it has and forks, and no thread is left
(forking is only safe so). ``RehearsalError`` says if either outlived it, or if the rehearsal did not reach its
match; the zygote then says so in one line and forks all the same.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import socket
import threading
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App
    from textual.css.stylesheet import Stylesheet

#: Modules a session imports once it runs on a real terminal, which the headless rehearsal does not.
TERMINAL_MODULES = ("textual.drivers.linux_driver", "textual._xterm_parser", "textual.drivers._writer_thread")
#: The rehearsal's terminal, the size most players have (``ssh_load.py``'s too).
SIZE = (80, 24)
#: The keys played against the computer: moves between towers, a tower picked up and put back, a move made.
KEYS = ("right", "right", "space", "space", "right", "enter", "right", "enter")
#: Pauses of the rehearsal's pilot (seconds): for the lobby's first frame, and after each key.
WELCOME_WAIT, KEY_PAUSE = 0.05, 0.02
#: The most the rehearsal may take (seconds): a zygote that cannot rehearse forks all the same.
TIME_LIMIT = 30.0


class RehearsalError(ValueError):
    """The rehearsal could not be played to its end, or left its app or a thread behind."""


@dataclass(frozen=True)
class Rehearsed:
    """What the rehearsal's app left that a session's app may take: its stylesheet, every sheet and widget's default
    CSS read and parsed, for the CSS variables of its theme (Textual parses them per app)."""

    stylesheet: Stylesheet
    variables: dict[str, str]


#: What this process's rehearsal left (a zygote's, inherited by each child it forks); empty without one.
REHEARSED: list[Rehearsed] = []


def take_rehearsed_stylesheet(app: App[Any]) -> None:
    """In a child forked after the rehearsal, before ``app`` runs: the stylesheet the rehearsal parsed, if ``app``'s
    theme gives the same CSS variables (Textual's public ``App.stylesheet``). The child has its own copy of the
    zygote's pages, written only where it changes them: no session parses the sheets again, and the rules stay
    shared. Sheets it reads later (ASCII mode's, the narrow layouts) and a theme changed are parsed once for the
    process (``compat.share_parsed_stylesheets``: the rehearsal's parses are in it too, so the other apps of a house
    parse nothing the rehearsal read); a child of ``--spawn exec`` (no rehearsal) parses its own once. Taken once:
    the app changes it as it reads more, so no other app of the process may have it."""
    if REHEARSED and app.theme_variables == REHEARSED[0].variables:
        app.stylesheet = REHEARSED.pop().stylesheet


def import_terminal_modules() -> None:
    """What a session imports as its driver starts on the terminal, and the driver class it writes through."""
    from ..terminal.driver import compact_driver

    for name in TERMINAL_MODULES:
        importlib.import_module(name)
    from textual.drivers.linux_driver import LinuxDriver

    compact_driver(LinuxDriver)


def rehearse() -> None:
    """Play a session headless in this process; then check that nothing of it lives on (its app, a thread)."""
    import_terminal_modules()
    # The threads themselves, not their number: one of the caller's ending meanwhile must not hide one left here.
    threads = set(threading.enumerate())
    try:
        app = asyncio.run(asyncio.wait_for(_session(), TIME_LIMIT))
    finally:
        asyncio.set_event_loop_policy(None)  # the children make their own loops, as a fresh process would
    gc.collect()
    if app() is not None:
        raise RehearsalError("the rehearsal's app outlived it")
    if left := [thread for thread in threading.enumerate() if thread not in threads]:
        raise RehearsalError(f"{len(left)} threads left running by the rehearsal")


async def _session() -> weakref.ref[Any]:
    """The lobby, a match against the computer, ``KEYS``; a weak reference to the app it ran."""
    from ..link.messages import Welcome
    from ..link.protocol import Link
    from ..screens.game import GameScreen
    from .child_app import ChildApp

    ours, theirs = socket.socketpair()
    app = ChildApp(name="rehearsal", link=theirs, computer_pause=0, reveal_pause=0)
    reached: list[bool] = []

    async def play(pilot: Any) -> None:
        link = await Link.over(ours)
        link.send(Welcome(secret="REHEARSAL", hold_seconds=300, name="rehearsal"))
        while app.screen is not app.lobby:
            await pilot.pause(WELCOME_WAIT)
        await pilot.pause(WELCOME_WAIT)
        await pilot.press("enter")  # the lobby's first choice: a match against the computer
        while not isinstance(app.screen, GameScreen):
            await pilot.pause(KEY_PAUSE)
        for key in KEYS:
            await pilot.press(key)
            await pilot.pause(KEY_PAUSE)
        reached.append(True)
        REHEARSED[:] = [Rehearsed(app.stylesheet, dict(app.theme_variables))]
        app.exit()
        link.close()

    try:
        await app.run_async(headless=True, size=SIZE, auto_pilot=play)
    finally:
        ours.close()
    if not reached:
        raise RehearsalError("the rehearsal ended before its match")
    return weakref.ref(app)
