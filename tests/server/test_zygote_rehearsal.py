"""The zygote's rehearsal: a session played headless before any fork, so what every session builds alike is built once
(``online/rehearsal.py``); and what the zygote does when it cannot rehearse."""

from __future__ import annotations

import gc
import sys
import threading
import weakref

import pytest

from soluna_tui.online import rehearsal, zygote


def test_the_rehearsal_plays_to_its_match_and_leaves_nothing_running() -> None:
    threads = threading.active_count()
    rehearsal.rehearse()  # raises if it did not reach its match, or if its app or a thread outlived it
    assert threading.active_count() == threads
    for name in rehearsal.TERMINAL_MODULES:  # what a session's driver imports on a real terminal: there already
        assert name in sys.modules


def test_a_rehearsal_that_leaves_a_thread_running_is_refused(monkeypatch) -> None:
    release = threading.Event()
    left = threading.Thread(target=release.wait, args=(10,))

    class Gone:
        pass

    async def session() -> weakref.ref[Gone]:
        left.start()
        return weakref.ref(Gone())

    monkeypatch.setattr(rehearsal, "_session", session)
    try:
        with pytest.raises(rehearsal.RehearsalError, match="1 threads left running"):
            rehearsal.rehearse()
    finally:
        release.set()
        left.join(10)


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
