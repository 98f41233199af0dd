"""Shared test configuration, and the databases the server's tests run against.

PostgreSQL comes from the ``pgserver`` wheel (its own binaries, a Unix socket only, no TCP port): one
server a worker, started when a test first needs it (see ``tests/postgres.py``); each test gets a
database of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.metadata
import os
import re
import sys
import tomllib
import uuid
from pathlib import Path

import pytest

# asyncssh through the one module that keeps cryptography's deprecations of asyncssh's code quiet, before a test
# module imports it: the warnings it would print as it loads stay out of the run's summary too.
import soluna_tui.server.ssh.quiet_asyncssh  # noqa: F401

from .known_environment import TERMINAL_SIZE, XDG_FOLDERS, known_environment, use_environment
from .postgres import RUN_FOLDER, ThrowawayPostgres, make_run_folder, remove_run_folder

#: Test folders that start servers, child processes or installed commands: ``pytest -m "not slow"`` skips them.
SLOW_FOLDERS = {"server", "e2e", "storage", "fleet", "web"}
#: The databases the store (and the server on it) is tested on.
BACKENDS = ("sqlite", "postgresql")
#: The longest tests (15-90 s each with two workers on a loaded 2-core machine: real outages, idle timeouts and
#: clocks, a scaled-down attack, whole matches over SSH; mypy, cold in a fresh clone), longest first. They start
#: first, from one queue all workers take from (``--dist load --maxschedchunk 1``): none starts last and leaves
#: the other workers idle while it runs on alone. A file's name stands for all its tests, a folder's (ending in
#: ``/``) for all of its files: the fleet's tests each start two ``soluna serve`` processes and wait on heartbeats.
LONGEST_FIRST = (
    "tests/server/test_hostile_clients.py::test_connections_that_never_start_a_game_keep_no_player_out",
    "tests/fleet/test_outage.py",
    "tests/fleet/",
    "tests/server/test_remote_match_e2e.py",
    "tests/test_terminal_output.py::test_compacted_frames_show_the_same_screen",
    "tests/test_typing.py::test_the_package_passes_mypy_strict",
    # A cold proof of 24 discs: 10-15 CPU seconds, more on a loaded machine (the 22 discs' 4-6).
    "tests/rules/test_thinking_under_load.py::test_level_10_plays_a_proven_best_first_move_cold_on_a_loaded_machine",
    "tests/app/test_thinking_on_many_discs.py",
    # Fifty move-undo cycles at 3+2 by keys, in real time: about 20 s each.
    "tests/app/test_clock_undo.py::test_fifty_moves_and_replies_taken_back_against_the_computer_gain_no_time",
    "tests/app/test_clock_undo.py::test_fifty_moves_taken_back_on_one_terminal_gain_no_time",
    "tests/server/test_clocks_e2e.py",
    "tests/app/test_match_flow.py::test_a_whole_hot_seat_match_to_four_stars_by_keys_only",
    "tests/server/test_endings_told_e2e.py",
    "tests/server/test_hostile_clients.py",
    "tests/server/test_places_e2e.py",
    # A rated match, a rename, three name dialogs and a record over SSH: 16-20 s each.
    "tests/server/test_names_e2e.py::test_a_name_given_up_stays_its_key_s_until_released_and_records_show_the_name_held_now",
    "tests/web/test_web_browser.py::test_a_chromium_guest_plays_an_ssh_player_by_keyboard_and_by_mouse",
    "tests/web/test_web_phone.py",
    "tests/server/test_restart.py",
    "tests/rules/test_solver.py::test_known_facts_of_the_twelve_disc_set",
    "tests/server/test_fair_play.py::test_an_idle_sqlite_server_writes_nothing_and_empties_its_log_after_play",
)


#: ``-n auto``'s most workers, however many cores: each runs a PostgreSQL of its own (``tests/postgres.py``).
MOST_WORKERS = 16


def pytest_xdist_auto_num_workers(config) -> int:
    """``-n auto``: five workers a core. Most tests spend most of their time waiting (on a server,
    a child process, a timer, a pseudo-terminal), so fewer workers leave the cores idle while the
    long waiting tests run: on a 2-core machine (2026-12-07, 2,502 tests, ``/proc/stat`` over the run)
    6 workers took 324 s with the cores 69% busy, 10 took 270 s (92% busy), 12 took 272 s (95%)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return min(5 * cores, MOST_WORKERS)


#: Seconds the tests' own statements on the PostgreSQL server (creating and dropping a database) may take.
ADMIN_WAIT = 30
RUN_FOLDER_KEY = pytest.StashKey[Path]()
#: The name at the start of a requirement such as ``psycopg[binary,pool]>=3.2,<4``.
PACKAGE_NAME = re.compile(r"[A-Za-z0-9._-]+")


def pytest_configure(config) -> None:
    """The run's folder (for PostgreSQL servers and the run's home; a run killed before it could remove it has
    it removed by the next) and environment (see ``known_environment``), made by the process that starts the
    run: its workers, started after this, inherit both."""
    if hasattr(config, "workerinput"):
        # As the run gave it, less the terminal size readline put back as the worker started.
        use_environment({name: value for name, value in os.environ.items() if name not in TERMINAL_SIZE})
        return
    run_folder = config.stash[RUN_FOLDER_KEY] = make_run_folder()
    environment = known_environment(os.environ, run_folder / "home")  # removed with the run's folder
    for folder in XDG_FOLDERS:
        Path(environment[folder]).mkdir(mode=0o700, parents=True)
    use_environment(environment)
    if config.getoption("numprocesses", None) and not sys.dont_write_bytecode:
        rewrite_test_modules_ahead(config)


def rewrite_test_modules_ahead(config) -> None:
    """Import the run's test modules once here, before the workers start, so that each worker's collection reads
    them rewritten and compiled from ``__pycache__``.

    Every worker collects every test module. The first import of a test module has pytest rewrite its asserts and
    compile it (7-8 CPU seconds for the suite's, with the app's own modules compiled); an import that finds them in
    ``__pycache__`` takes 3 s. The workers start together, so without this each would do the first kind, all at
    once. A module that fails to import here is left to the workers, which report it as they collect it.
    """
    for path in _test_modules(config):
        name = ".".join(path.relative_to(config.rootpath).with_suffix("").parts)
        with contextlib.suppress(Exception, pytest.skip.Exception, pytest.fail.Exception):
            importlib.import_module(name)


def _test_modules(config) -> list[Path]:
    """The test modules and ``conftest.py`` files under the paths the run was given, in the tests' package."""
    tests = config.rootpath / "tests"
    found: set[Path] = set()
    for argument in config.args:
        given = Path(argument.split("::")[0])
        path = next((place / given for place in (config.invocation_params.dir, config.rootpath)
                     if (place / given).exists()), given).resolve()
        if path.is_dir():
            found.update(path.rglob("test_*.py"), path.rglob("conftest.py"))
        elif path.suffix == ".py":
            found.add(path)
    return sorted(path for path in found if path.is_relative_to(tests) and path.name != "__init__.py")


def pytest_report_header(config) -> list[str]:
    """The installed versions of the packages pyproject.toml names, first in the run's output: a run that breaks
    after a new release names it (``.ci/run`` installs the newest the bounds allow)."""
    project = tomllib.loads((config.rootpath / "pyproject.toml").read_text())["project"]
    groups = {"dependencies": project["dependencies"],
              **{f"[{extra}] extra": named for extra, named in project["optional-dependencies"].items()}}
    return [f"{group}: " + ", ".join(f"{name} {_installed(name)}" for name in names)
            for group, required in groups.items()
            if (names := [name for line in required if (name := PACKAGE_NAME.match(line)[0]) != project["name"]])]


def _installed(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


def pytest_unconfigure(config) -> None:
    warm_zygotes = sys.modules.get(f"{__package__}.warm_zygotes")  # imported by the tests that start servers
    if warm_zygotes is not None:
        warm_zygotes.close_mothers()  # in each worker: its warm zygotes' process, reaped before the worker exits
    folder = config.stash.get(RUN_FOLDER_KEY, None)
    if folder is not None:
        remove_run_folder(folder)


def pytest_collection_modifyitems(config, items):
    """Mark every test in a slow folder, so the rules and app tests run on their own in seconds; the longest first."""
    for item in items:
        if SLOW_FOLDERS.intersection(item.path.relative_to(config.rootpath).parts[1:2]):
            item.add_marker(pytest.mark.slow)
    items.sort(key=_rank)  # stable: the others keep their order


def _rank(item) -> int:
    """Where ``item`` stands in ``LONGEST_FIRST`` (a test's own id first), after all of it if it is not there."""
    for index, start in enumerate(LONGEST_FIRST):
        if item.nodeid == start or item.nodeid.startswith((f"{start}::", f"{start}[") if start[-1] != "/" else start):
            return index
    return len(LONGEST_FIRST)


@pytest.fixture(scope="session")
def postgres_server():
    """This worker's PostgreSQL server, for the rest of its tests (a fraction of a second to start)."""
    pytest.importorskip("pgserver")
    server = ThrowawayPostgres.start(Path(os.environ[RUN_FOLDER]), os.environ.get("PYTEST_XDIST_WORKER", "main"))
    yield server
    server.stop()


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path):
    """Where a fresh store lives: a SQLite file (none yet), or a new PostgreSQL database, its schema already this
    program's (a copy of one migrated once a worker: migrating each test's anew cost about 30 ms of CPU and 70 ms);
    empty, as a new server finds it, for a test marked ``empty_database``."""
    if request.param == "sqlite":
        yield str(tmp_path / "store.sqlite3")
        return
    yield request.getfixturevalue("postgres_database")


@pytest.fixture
def postgres_database(request: pytest.FixtureRequest, postgres_server):
    """A new PostgreSQL database's URL (for servers that share it), its schema already this program's (empty for a
    test marked ``empty_database``)."""
    empty = request.node.get_closest_marker("empty_database") is not None
    with fresh_database(postgres_server, empty=empty) as url:
        yield url


#: The database each worker's server migrates once, copied for every test that wants a migrated store.
MIGRATED_TEMPLATE = "soluna_migrated"
_MIGRATED: set[str] = set()  # the servers (by URL) whose template is made


def _migrated_template(server: ThrowawayPostgres) -> str:
    """``MIGRATED_TEMPLATE`` on ``server``, made (and migrated by the program itself) on first use."""
    if server.get_uri() not in _MIGRATED:
        from concurrent.futures import ThreadPoolExecutor

        from soluna_tui.server.storage import open_storage

        async def migrate() -> None:
            store = await open_storage(server.get_uri(database=MIGRATED_TEMPLATE))
            await store.close()

        with _admin(server) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {MIGRATED_TEMPLATE} WITH (FORCE)")  # a try cut short
            connection.execute(f"CREATE DATABASE {MIGRATED_TEMPLATE} STRATEGY FILE_COPY")
        with ThreadPoolExecutor(1) as thread:  # a loop of its own: a test's may be running; bounded inside it
            thread.submit(asyncio.run, asyncio.wait_for(migrate(), ADMIN_WAIT)).result()
        _MIGRATED.add(server.get_uri())
    return MIGRATED_TEMPLATE


@contextlib.contextmanager
def fresh_database(server: ThrowawayPostgres, empty: bool = False):
    name = f"test_{uuid.uuid4().hex[:12]}"
    template = "" if empty else f" TEMPLATE {_migrated_template(server)}"
    with _admin(server) as connection:
        # FILE_COPY: quicker than WAL_LOG without fsync
        connection.execute(f"CREATE DATABASE {name}{template} STRATEGY FILE_COPY")
    try:
        yield server.get_uri(database=name)
    finally:
        with _admin(server) as connection:
            connection.execute(f"DROP DATABASE {name} WITH (FORCE)")  # its connections left open are ended


def _admin(server: ThrowawayPostgres):
    """A connection for the tests' own statements, each given a bound."""
    import psycopg

    return psycopg.connect(server.get_uri(), autocommit=True, connect_timeout=ADMIN_WAIT,
                           options=f"-c statement_timeout={ADMIN_WAIT * 1000}")


@pytest.fixture
def backend(database: str) -> str:
    return "postgresql" if database.startswith("postgresql://") else "sqlite"
