"""Files that must not crash or hang the game: absurd numbers, pipes, devices, control characters.

Whatever is in the data directory, every reader (saves, finished matches, preferences, stats)
refuses it in one line and moves it aside; ``soluna export`` refuses any file it is given in
one line and exit 1, reading nothing it should not. Reads that a regression could turn into a hang or an
endless read run in a child process with a time limit and a memory limit.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from soluna_tui.local.files import MAX_DOCUMENT_BYTES, SaveError, read_json_document
from soluna_tui.local.match_setup import MatchSetup
from soluna_tui.local.player_stats import MatchRecord, Stats, StatsStore, describe
from soluna_tui.local.preferences import Preferences
from soluna_tui.local.saves import FINISHED_KEPT, FinishedStore, SavedMatch, SaveStore
from soluna_tui.rules import MatchOptions

HUGE = "9" * 4301
ODD_NUMBERS = {"a 4,301-digit number": HUGE, "Infinity": "Infinity", "-Infinity": "-Infinity", "NaN": "NaN",
               "1e999": "1e999", "a 25-digit number": "1" * 25}
ESCAPE = "\x1b[2J\x1b[HEve\x07\x00\u202e"


def saved_match_json(names=("Ann", "Bob"), seed: int = 4) -> str:
    setup = MatchSetup(MatchOptions(), names, None, seed)
    match = setup.new_match()
    match.play(match.position.legal_moves[0])
    return SavedMatch(setup, match).to_json()


def preferences_json() -> str:
    return json.dumps({"format": "soluna-preferences", "version": 1, "theme": "nord",
                       "last_setup": MatchSetup(seed=None).to_dict()})


def stats_json(record_overrides: dict | None = None, puzzles: dict | None = None) -> str:
    record = {"finished": "2026-01-02T03:04:05", "mode": "two players", "level": None, "names": ["Ann", "Bob"],
              "winner": 0, "stars": [4, 1], "round_winners": [0, 0, 1, 0, 0], "accuracy": [0.5, 0.75],
              "hints": [0, 1], **(record_overrides or {})}
    return json.dumps({"format": "soluna-stats", "version": 1, "matches": [record],
                       "puzzles": puzzles or {"solved": 1, "failed": 0, "streak": 1, "best_streak": 1}})


def with_number(text: str, field_value: str, number: str) -> str:
    """``text`` (JSON) with the value ``field_value`` replaced by a raw ``number`` token."""
    assert field_value in text
    return text.replace(field_value, number, 1)


def run_child(code: str, timeout: float = 30) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh Python with at most ``timeout`` seconds and 1 GB of memory."""
    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=timeout, preexec_fn=limit_memory)


# ---- numbers no file of ours holds ------------------------------------------------------------

@pytest.mark.parametrize("number", ODD_NUMBERS.values(), ids=ODD_NUMBERS.keys())
def test_an_odd_number_in_a_saved_match_is_refused_and_moved_aside(tmp_path: Path, number: str) -> None:
    (tmp_path / "current-match.json").write_text(with_number(saved_match_json(), '"seed": 4', f'"seed": {number}'))
    store = SaveStore(tmp_path)
    with pytest.raises(SaveError, match="which no Soluna file has"):
        store.load()
    aside = store.move_aside()
    assert aside.name.startswith("current-match.json.corrupt-") and number[:20] in aside.read_text()


@pytest.mark.parametrize("number", ODD_NUMBERS.values(), ids=ODD_NUMBERS.keys())
def test_an_odd_number_in_the_preferences_sets_them_aside_with_a_notice(tmp_path: Path, number: str) -> None:
    text = with_number(preferences_json(), '"version": 1', f'"version": 1, "size": {number}')
    (tmp_path / "preferences.json").write_text(text)
    preferences = Preferences(tmp_path)
    assert preferences.theme is None and preferences.last_setup is None
    assert "Preferences unreadable" in preferences.problem and "moved to" in preferences.problem
    assert not (tmp_path / "preferences.json").exists()
    assert [path.read_text() for path in tmp_path.glob("preferences.json.corrupt-*")] == [text]


@pytest.mark.parametrize("number", ODD_NUMBERS.values(), ids=ODD_NUMBERS.keys())
def test_an_odd_number_in_the_stats_does_not_lose_the_match_being_counted(tmp_path: Path, number: str) -> None:
    (tmp_path / "stats.json").write_text(with_number(stats_json(), "0.75", number))
    store = StatsStore(tmp_path)
    record = MatchRecord("2026-02-03T04:05:06", "computer", "greedy", ("You", "Computer"), 0, (4, 0),
                         (0, 0, 0, 0), (1.0, None), (0, 0))
    stats = store.update(lambda stats: stats.record_match(record))
    assert stats.matches == [record] and "moved to" in store.problem
    assert StatsStore(tmp_path).load().matches == [record]  # counted in a fresh file
    assert len(list(tmp_path.glob("stats.json.corrupt-*"))) == 1
    describe(stats)


@pytest.mark.parametrize("damage", [
    {"accuracy": [1.5, 0.5]}, {"accuracy": [-0.1, None]}, {"stars": [-1, 4]}, {"hints": [0, -3]},
    {"mode": "chess"}, {"level": "godlike"}, {"winner": 2},
])
def test_stats_out_of_range_are_damage_too(tmp_path: Path, damage: dict) -> None:
    (tmp_path / "stats.json").write_text(stats_json(damage))
    store = StatsStore(tmp_path)
    assert store.load() == Stats() and "damaged" in store.problem


def test_a_negative_puzzle_count_is_damage(tmp_path: Path) -> None:
    (tmp_path / "stats.json").write_text(stats_json(puzzles={"solved": -5}))
    store = StatsStore(tmp_path)
    assert store.load() == Stats() and "damaged" in store.problem


def test_sane_numbers_still_load(tmp_path: Path) -> None:
    (tmp_path / "stats.json").write_text(stats_json(puzzles={"solved": 10**18, "failed": 0, "streak": 0,
                                                            "best_streak": 3}))
    store = StatsStore(tmp_path)
    assert store.load().puzzles.solved == 10**18 and store.problem is None


# ---- things that are not files ------------------------------------------------------------------

READ_EACH_FILE = """
    import time
    from pathlib import Path
    from soluna_tui.local.saves import SaveStore, SaveError
    from soluna_tui.local.preferences import Preferences
    from soluna_tui.local.player_stats import StatsStore
    folder = Path({folder!r})
    started = time.monotonic()
    try:
        SaveStore(folder).load()
        print("save: loaded")
    except SaveError as error:
        print("save:", error)
    preferences = Preferences(folder)
    print("preferences:", preferences.problem)
    stats = StatsStore(folder)
    stats.load()
    print("stats:", stats.problem)
    print(f"seconds: {{time.monotonic() - started:.1f}}")
"""


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "directory", "dangling link"])
def test_every_reader_refuses_what_is_not_a_file_without_hanging(tmp_path: Path, kind: str) -> None:
    for name in ("current-match.json", "preferences.json", "stats.json"):
        path = tmp_path / name
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "directory":
            path.mkdir()
        else:
            path.symlink_to("/dev/zero" if kind == "link to /dev/zero" else tmp_path / "nowhere")
    result = run_child(READ_EACH_FILE.format(folder=str(tmp_path)))
    assert result.returncode == 0, result.stderr
    lines = dict(line.split(": ", 1) for line in result.stdout.splitlines())
    expected = {"fifo": "is a pipe, not a file", "link to /dev/zero": "is a device, not a file",
                "directory": "is a directory, not a file", "dangling link": "No such file"}[kind]
    assert expected in lines["save"]
    assert expected in lines["preferences"] and "moved to" in lines["preferences"]
    assert expected in lines["stats"] and "moved to" in lines["stats"]
    assert float(lines["seconds"]) < 10


def test_a_file_beyond_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"
    with path.open("wb") as stream:
        stream.truncate(MAX_DOCUMENT_BYTES + 1)  # sparse: nothing is written, the size says it all
    with pytest.raises(SaveError, match="too large"):
        read_json_document(path, "soluna-stats", 1)


# ---- names with control characters --------------------------------------------------------------

def test_names_from_a_saved_match_are_cleaned_like_typed_ones(tmp_path: Path) -> None:
    text = saved_match_json().replace('"Ann"', json.dumps(ESCAPE))
    (tmp_path / "current-match.json").write_text(text)
    saved = SaveStore(tmp_path).load()
    assert saved.match.players == saved.setup.names == ("2JHEve", "Bob")


def test_names_from_the_preferences_and_stats_are_cleaned(tmp_path: Path) -> None:
    setup = MatchSetup().to_dict()
    setup["names"] = [ESCAPE, "Bob\r\n"]
    (tmp_path / "preferences.json").write_text(json.dumps(
        {"format": "soluna-preferences", "version": 1, "theme": None, "last_setup": setup}))
    names = Preferences(tmp_path).last_setup.names
    (tmp_path / "stats.json").write_text(stats_json({"names": [ESCAPE, "\x1b]0;owned\x07"],
                                                    "finished": "\x1b[31m2026-01-02"}))
    stats = StatsStore(tmp_path).load()
    shown = "\n".join(describe(stats))
    for text in (*names, *stats.matches[0].names, shown):
        assert not any(char in text for char in "\x1b\x07\x00\r"), repr(text)
    assert names == ("2JHEve", "Bob") and stats.matches[0].names == ("2JHEve", "0;owned")


# ---- soluna export FILE reads as carefully as the game ----------------------------------------

#: Enough for the command to run; far too little to read a runaway file into memory.
EXPORT_MEMORY = 512 << 20


def export_in_child(*argv: str, timeout: float = 30) -> subprocess.CompletedProcess:
    """``soluna export ARGV`` in a fresh process with at most ``timeout`` seconds and 512 MB of memory."""
    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (EXPORT_MEMORY, EXPORT_MEMORY))

    return subprocess.run([sys.executable, "-m", "soluna_tui.cli", "export", *argv], capture_output=True,
                          text=True, timeout=timeout, preexec_fn=limit_memory)


def hostile_match_file(folder: Path, kind: str) -> tuple[Path, str]:
    """A file ``soluna export`` is pointed at, and the words its one line of refusal must hold."""
    path = folder / "match.json"
    if kind == "fifo":
        os.mkfifo(path)
        return path, "is a pipe, not a file"
    if kind == "link to /dev/zero":
        path.symlink_to("/dev/zero")
        return path, "is a device, not a file"
    if kind == "1 GB file":
        with path.open("wb") as stream:
            stream.truncate(1 << 30)
        return path, "too large"
    if kind == "directory":
        path.mkdir()
        return path, "is a directory"
    if kind == "dangling link":
        path.symlink_to(folder / "nowhere")
        return path, "No such file"
    if kind == "nested 100,000 deep":
        path.write_text("[" * 100_000 + "]" * 100_000)
        return path, "nested too deeply"
    if kind == "not UTF-8":
        path.write_bytes(b'{"format": "soluna-match", "players": ["\xff\xfe"]}')
        return path, "not valid JSON"
    texts = {"a 4,301-digit number": (with_number(saved_match_json(), '"seed": 4', f'"seed": {HUGE}'), "4301 digits"),
             "Infinity": (with_number(saved_match_json(), '"seed": 4', '"seed": Infinity'), "Infinity"),
             "first opener 0.0": (saved_match_json().replace('"first_opener": 0', '"first_opener": 0.0'),
                                  "first opener")}
    text, words = texts[kind]
    path.write_text(text)
    return path, words


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "1 GB file", "directory", "dangling link",
                                  "nested 100,000 deep", "not UTF-8", "a 4,301-digit number", "Infinity",
                                  "first opener 0.0"])
def test_export_refuses_a_hostile_file_in_one_line_in_bounded_time_and_memory(tmp_path: Path, kind: str) -> None:
    path, words = hostile_match_file(tmp_path, kind)
    result = export_in_child(str(path))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("soluna export: error: "), result.stderr
    assert words in result.stderr and "Traceback" not in result.stderr


def test_export_reads_a_sound_save_file_under_the_same_limits(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(saved_match_json())
    result = export_in_child(str(path))
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.startswith("Soluna: Ann vs Bob\nSaved match: two players")


# ---- a save whose opener is a float or a bool ---------------------------------------------------

@pytest.mark.parametrize("opener", ["0.0", "1.0", "true", "false"])
def test_a_save_whose_first_opener_is_not_exactly_a_seat_is_refused_and_moved_aside(tmp_path: Path,
                                                                                      opener: str) -> None:
    text = saved_match_json().replace('"first_opener": 0', f'"first_opener": {opener}')
    (tmp_path / "current-match.json").write_text(text)
    store = SaveStore(tmp_path)
    with pytest.raises(SaveError, match="first opener"):
        store.load()
    assert store.move_aside().read_text() == text


# ---- finished matches that cannot be read --------------------------------------------------------

def finished_document(seed: int) -> str:
    setup = MatchSetup(MatchOptions(stars_to_win=1, discs=4), ("Ann", "Bob"), None, seed)
    match = setup.new_match()
    while not match.is_over:
        match.play(match.position.legal_moves[0])
    return SavedMatch(setup, match).to_json()


def test_a_damaged_finished_match_is_set_aside_when_listed_and_never_pruned(tmp_path: Path) -> None:
    store = FinishedStore(tmp_path)
    store.folder.mkdir()
    damaged = store.folder / "20200101-000000-000000000.json"
    damaged.write_text('{"format": "soluna-save", "version": 1, "match": ')
    (store.folder / "20200101-000001-000000000.json").write_text(finished_document(1))
    listed = store.newest_first()
    assert [kept.saved is None for kept in listed] == [False, True]
    assert "not valid JSON" in listed[1].problem and "set aside" in listed[1].problem
    assert not damaged.exists() and listed[1].path.name.startswith(f"{damaged.name}.corrupt-")
    assert listed[1].path.read_text() == '{"format": "soluna-save", "version": 1, "match": '
    for _ in range(FINISHED_KEPT + 5):  # far past the bound: the oldest go, what was set aside stays
        store.keep(SavedMatch.from_document(json.loads(finished_document(2))))
    assert len(store.paths()) == FINISHED_KEPT and listed[1].path.exists()


def test_pruning_sets_a_damaged_old_file_aside_instead_of_deleting_it(tmp_path: Path) -> None:
    store = FinishedStore(tmp_path)
    store.folder.mkdir()
    oldest = store.folder / "20200101-000000-000000000.json"
    oldest.write_text("not json")  # never listed, so never set aside until it is the one to go
    for _ in range(FINISHED_KEPT):
        store.keep(SavedMatch.from_document(json.loads(finished_document(3))))
    assert not oldest.exists() and len(store.paths()) == FINISHED_KEPT
    assert [path.read_text() for path in store.folder.glob(f"{oldest.name}.corrupt-*")] == ["not json"]


def test_export_last_only_reads_a_damaged_finished_match(tmp_path: Path) -> None:
    store = FinishedStore(tmp_path)
    store.folder.mkdir()
    (store.folder / "20200101-000000-000000000.json").write_text("{")
    result = export_in_child("--last", "--data-dir", str(tmp_path))
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and "not valid JSON" in result.stderr
    assert [path.name for path in store.folder.iterdir()] == ["20200101-000000-000000000.json"]


# ---- the theme in the preferences ----------------------------------------------------------------

def test_an_unknown_theme_is_ignored_with_a_notice_and_the_rest_is_kept(tmp_path: Path) -> None:
    text = preferences_json().replace('"nord"', '"no-such-theme"')
    (tmp_path / "preferences.json").write_text(text)
    preferences = Preferences(tmp_path)
    assert preferences.theme is None and preferences.last_setup == MatchSetup(seed=None)
    assert preferences.problem == "Preferences: unknown theme 'no-such-theme', the default theme is used."
    assert (tmp_path / "preferences.json").read_text() == text


def test_a_theme_that_is_not_a_name_is_damage(tmp_path: Path) -> None:
    (tmp_path / "preferences.json").write_text(preferences_json().replace('"nord"', "[1, 2]"))
    preferences = Preferences(tmp_path)
    assert preferences.theme is None and "Preferences unreadable" in preferences.problem
    assert "'theme' has the wrong type" in preferences.problem and "moved to" in preferences.problem


def test_a_resume_marker_left_without_its_save_never_sets_a_later_save_aside(tmp_path: Path) -> None:
    (tmp_path / "current-match.resuming").write_text("2026-01-01T00:00:00\n")
    store = SaveStore(tmp_path)
    assert store.load() is None and not (tmp_path / "current-match.resuming").exists()
    store.save(SavedMatch.from_document(json.loads(saved_match_json())))
    store.release()
    assert SaveStore(tmp_path).load().match.players == ("Ann", "Bob")
