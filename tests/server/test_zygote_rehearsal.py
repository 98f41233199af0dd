"""The zygote's rehearsal: a session played headless before any fork, so what every session builds alike is built once
(``online/rehearsal.py``); and what the zygote does when it cannot rehearse."""

from __future__ import annotations

import asyncio
import gc
import socket
import sys
import threading
import weakref

import pytest

from soluna_tui.link.messages import Welcome
from soluna_tui.link.protocol import Link
from soluna_tui.online import rehearsal, zygote
from soluna_tui.online.child_app import ChildApp


async def lobby_drawn(rehearsed: bool) -> tuple[str, bool]:
    """A session's lobby at 80x24 as an SVG (with the rehearsal's stylesheet, or its own), and whether it was the
    rehearsal's."""
    ours, theirs = socket.socketpair()
    app = ChildApp(name="ann", link=theirs)
    parsed = rehearsal.REHEARSED[0].stylesheet
    if rehearsed:
        rehearsal.take_rehearsed_stylesheet(app)
    taken = app.stylesheet is parsed
    async with app.run_test(size=(80, 24)) as pilot:
        (await Link.over(ours)).send(Welcome(secret="KQXPMR", hold_seconds=300, name="ann"))
        for _ in range(100):
            if app.screen is app.lobby and "Welcome, ann" in app.lobby.query_one("#lobby-status").render().plain:
                break
            await pilot.pause(0.02)
        await pilot.pause(0.1)
        drawn = app.export_screenshot()
    ours.close()
    return drawn, taken


def test_the_rehearsal_plays_to_its_match_and_a_session_takes_its_stylesheet_drawing_the_same() -> None:
    threads = threading.active_count()
    rehearsal.rehearse()  # raises if it did not reach its match, or if its app or a thread outlived it
    assert threading.active_count() == threads
    for name in rehearsal.TERMINAL_MODULES:  # what a session's driver imports on a real terminal: there already
        assert name in sys.modules
    (own, own_taken), (handed, handed_taken) = asyncio.run(lobby_drawn(False)), asyncio.run(lobby_drawn(True))
    assert (own_taken, handed_taken) == (False, True)
    assert handed == own
    assert rehearsal.REHEARSED == []  # taken once: no other app of this process shares what that one changes


@pytest.mark.parametrize("callers_thread_ends", [False, True], ids=["alone", "a caller's thread ending meanwhile"])
def test_a_rehearsal_that_leaves_a_thread_running_is_refused(monkeypatch, callers_thread_ends: bool) -> None:
    """Found by the suite: another thread of the process (a test worker's) ending during the rehearsal hid the one
    the rehearsal left, when the check counted threads rather than naming them."""
    release, callers_release = threading.Event(), threading.Event()
    left = threading.Thread(target=release.wait, args=(10,))
    callers = threading.Thread(target=callers_release.wait, args=(10,))
    callers.start()

    class Gone:
        pass

    async def session() -> weakref.ref[Gone]:
        left.start()
        if callers_thread_ends:
            callers_release.set()
            callers.join(10)
        return weakref.ref(Gone())

    monkeypatch.setattr(rehearsal, "_session", session)
    try:
        with pytest.raises(rehearsal.RehearsalError, match="1 threads left running"):
            rehearsal.rehearse()
    finally:
        release.set()
        callers_release.set()
        left.join(10)
        callers.join(10)


def test_a_zygote_that_cannot_rehearse_says_so_in_one_line_and_forks_all_the_same(monkeypatch, capsys) -> None:
    def fails() -> None:
        raise rehearsal.RehearsalError("the rehearsal ended before its match")

    monkeypatch.setattr(rehearsal, "rehearse", fails)
    gc.unfreeze()
    try:
        zygote.preload()
        assert gc.get_freeze_count() > 0  # what it imported is frozen for its children, as without the rehearsal
    finally:
        gc.unfreeze()
    said = capsys.readouterr().err
    assert said == ("soluna: the zygote's rehearsal failed (RehearsalError: the rehearsal ended before its match); "
                    "sessions start without it\n")
