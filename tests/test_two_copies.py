"""Two copies of the game on one data directory: nothing one does is lost to the other.

The save slots and the stats are tried with real processes running at once (bounded by
timeouts); the preferences' merge with two stores as two copies would hold them; ``soluna
export`` beside a real game on a PTY reads the match it plays and writes nothing.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.player_stats import StatsStore
from soluna_tui.local.preferences import Preferences
from soluna_tui.local.saves import SavedMatch, SaveError, SaveStore
from soluna_tui.rules import MatchOptions

UPDATES_PER_COPY = 300


def saved(seed: int) -> SavedMatch:
    setup = MatchSetup(MatchOptions(), ("Ann", "Bob"), None, seed)
    return SavedMatch(setup, setup.new_match())


def test_a_second_copy_saves_in_its_own_slot_and_says_so(tmp_path: Path) -> None:
    first, second = SaveStore(tmp_path), SaveStore(tmp_path)
    first.save(saved(1))
    assert first.current_path.name == "current-match.json" and not first.elsewhere
    assert second.load() is None and second.elsewhere  # it does not offer the first copy's match
    second.save(saved(2))
    assert second.current_path.name == "current-match-2.json"
    assert first.load().match.seed == 1 and second.load().match.seed == 2
    second.discard()  # the second copy's match ended
    assert first.load().match.seed == 1


def test_after_both_copies_close_each_unfinished_match_is_offered_in_turn(tmp_path: Path) -> None:
    first, second = SaveStore(tmp_path), SaveStore(tmp_path)
    first.save(saved(1))
    second.save(saved(2))
    first.release()
    second.release()
    later = SaveStore(tmp_path)
    assert later.load().match.seed == 1 and not later.elsewhere
    later.discard()  # finished
    later.release()
    again = SaveStore(tmp_path)
    assert again.load().match.seed == 2  # the second copy's match was kept, and comes next
    assert again.current_path.name == "current-match-2.json"


def test_when_every_slot_is_taken_the_match_is_not_saved_and_says_why(tmp_path: Path) -> None:
    stores = [SaveStore(tmp_path) for _ in range(10)]
    for seed, store in enumerate(stores[:9]):
        store.save(saved(seed))
    try:
        stores[9].save(saved(9))
    except SaveError as error:
        assert "not saved" in str(error)
    else:
        raise AssertionError("a tenth copy saved over another")
    assert [store.load().match.seed for store in stores[:9]] == list(range(9))


HOLD_A_SLOT = """
    import sys
    from soluna_tui.local.saves import SaveStore
    store = SaveStore({folder!r})
    store.load()
    print(store.current_path.name, store.elsewhere, flush=True)
    sys.stdin.read()  # hold the slot until told to go
"""


def test_slots_are_held_across_real_processes(tmp_path: Path) -> None:
    code = textwrap.dedent(HOLD_A_SLOT.format(folder=str(tmp_path)))
    holders = []
    try:
        for _ in range(2):
            holder = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      text=True)
            holders.append(holder)
            holder.stdout.readline()
        first, second = holders
        here = SaveStore(tmp_path)
        assert here.current_path.name == "current-match-3.json" and here.elsewhere
        here.release()
        first.communicate("", timeout=20)  # the first copy closes: its slot is free again
        assert SaveStore(tmp_path).current_path.name == "current-match.json"
    finally:
        for holder in holders:
            holder.kill()
            holder.wait(timeout=20)


COUNT_PUZZLES = """
    import sys
    from soluna_tui.local.player_stats import StatsStore
    store = StatsStore({folder!r})
    sys.stdin.readline()  # start together
    for number in range({count}):
        store.update(lambda stats: stats.puzzles.count(True))
"""


def test_two_processes_counting_at_once_lose_nothing(tmp_path: Path) -> None:
    code = textwrap.dedent(COUNT_PUZZLES.format(folder=str(tmp_path), count=UPDATES_PER_COPY))
    copies = [subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True) for _ in range(2)]
    try:
        for copy in copies:
            copy.stdin.write("go\n")
            copy.stdin.flush()
        for copy in copies:
            _, errors = copy.communicate(timeout=120)
            assert copy.returncode == 0, errors
    finally:
        for copy in copies:
            copy.kill()
    puzzles = StatsStore(tmp_path).load().puzzles
    assert puzzles.solved == 2 * UPDATES_PER_COPY and puzzles.best_streak == 2 * UPDATES_PER_COPY


def test_a_stale_copy_writes_only_what_it_changed(tmp_path: Path) -> None:
    first, stale = Preferences(tmp_path), Preferences(tmp_path)  # two copies started together
    first.remember(theme="nord")
    stale.remember(setup=MatchSetup(MatchOptions(stars_to_win=2), ("Zoe", "Yan")))
    later = Preferences(tmp_path)
    assert later.theme == "nord"  # not reset by the copy that never changed it
    assert later.last_setup.names == ("Zoe", "Yan") and later.last_setup.options.stars_to_win == 2
    first.remember(theme="gruvbox")
    assert Preferences(tmp_path).last_setup.names == ("Zoe", "Yan")
    assert stale.theme == "nord"  # the stale copy caught up with the file as it wrote


# ---- a write killed half-way -----------------------------------------------------------------------------

#: A copy of the game killed (SIGKILL, as kill -9 or a power cut) as it renames its temporary file into place.
KILLED_MID_WRITE = """
    import os, signal
    from soluna_tui.local.match_setup import MatchSetup
    from soluna_tui.local.preferences import Preferences
    from soluna_tui.local.saves import SavedMatch, SaveStore
    from soluna_tui.local.player_stats import StatsStore
    folder = {folder!r}
    setup = MatchSetup(seed=1)
    os.replace = lambda *names: os.kill(os.getpid(), signal.SIGKILL)
    {write}
"""
KILLED_WRITES = {
    "the save": ("SaveStore(folder).save(SavedMatch(setup, setup.new_match()))",
                 lambda folder: SaveStore(folder).load()),  # the next start
    "the stats": ("StatsStore(folder).update(lambda stats: stats.puzzles.count(True))",
                  lambda folder: StatsStore(folder).update(lambda stats: stats.puzzles.count(False))),
    "the preferences": ("Preferences(folder).remember(theme='nord')",
                        lambda folder: Preferences(folder).remember(theme='gruvbox')),
}


@pytest.mark.parametrize("kind", KILLED_WRITES, ids=KILLED_WRITES.keys())
def test_what_a_write_killed_half_way_leaves_goes_with_the_next_copy_that_writes_there(tmp_path: Path,
                                                                                        kind: str) -> None:
    write, next_copy = KILLED_WRITES[kind]
    code = textwrap.dedent(KILLED_MID_WRITE.format(folder=str(tmp_path), write=write))
    killed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert len(list(tmp_path.glob(".*.tmp"))) == 1  # the temporary file the write left
    other = SaveStore(tmp_path)  # another copy, playing meanwhile: its write in progress is its own
    other.save(saved(2))
    in_progress = tmp_path / f".{other.current_path.name}.k9x2q1.tmp"
    in_progress.write_text("{")
    next_copy(tmp_path)
    assert [path.name for path in tmp_path.glob(".*.tmp")] == [in_progress.name]


# ---- soluna export while the game plays ---------------------------------------------------------------

def export(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "soluna_tui.cli", "export", *argv], capture_output=True,
                          text=True, timeout=120)


def listing(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder``, with its size and when it last changed."""
    return {str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns)
            for path in sorted(folder.rglob("*"))}


def test_export_reads_the_match_a_running_game_plays_and_writes_nothing(tmp_path: Path) -> None:
    from tests.e2e.pty_terminal import PtyTerminal

    first = saved(5)
    first.match.play(first.match.position.legal_moves[0])
    store = SaveStore(tmp_path)
    store.save(first)
    store.release()
    game = PtyTerminal([sys.executable, "-m", "soluna_tui.cli", "--data-dir", str(tmp_path)],
                       env={**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8"})
    try:
        game.wait_for(lambda text: "Welcome back" in text)
        game.send("\r")  # the game plays the saved match, and holds its slot
        game.wait_for(lambda text: "Bob to move" in text and not (tmp_path / "current-match.resuming").exists())
        assert SaveStore(tmp_path).current_path.name == "current-match-2.json"  # taken, as another copy sees it
        before = listing(tmp_path)
        result = export("--data-dir", str(tmp_path), "--seconds", "5")
        assert result.returncode == 0 and result.stderr == ""  # once: "no unfinished match"
        assert result.stdout.startswith("Soluna: Ann vs Bob\nUnfinished match: two players\n")
        assert f"  1. Ann  {first.match.rounds[0].moves[0]}" in result.stdout
        assert listing(tmp_path) == before  # once: a lock file of its own
    finally:
        game.close()


def test_export_creates_no_data_directory(tmp_path: Path) -> None:
    missing = tmp_path / "not-yet"
    for argv in ((), ("--last",)):
        result = export(*argv, "--data-dir", str(missing))
        assert result.returncode == 1 and result.stderr.count("\n") == 1 and "no " in result.stderr
    assert not missing.exists()
