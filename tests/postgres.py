"""A throwaway PostgreSQL for the tests, from the ``pgserver`` wheel's binaries: a Unix socket only, no TCP port.

``initdb`` is the slow part (seconds on a loaded machine), so a test run makes one data folder, the
template, and each worker (each xdist process) starts a server of its own on a copy of it, in a
fraction of a second. Every step has a bound: a server that does not stop when asked is killed.

Run as root, the servers run as the system user ``pgserver`` (PostgreSQL refuses to run as root).
The run's folder is in memory where the machine has a ``/dev/shm`` (copying a data folder, and every write,
waits on no disk that other work keeps busy), and not under pytest's temporary root: pytest keeps that
private to the user running the tests, and the server must reach it.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from pathlib import Path

#: Where the run's template and servers live (set by the process that starts the run, inherited by its workers).
RUN_FOLDER = "SOLUNA_TEST_POSTGRES"
#: Throwaway data: no waiting for the disk, so creating a database per test is quick.
SETTINGS = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")
#: Seconds ``initdb`` may take, a server may take to start, and to stop before it is killed.
INITDB_WAIT, START_WAIT, STOP_WAIT = 180.0, 60.0, 10.0
#: The run folders' names begin so; each holds the process id of the run that made it.
PREFIX, OWNER = "soluna-postgres-", "owner"
#: The system user the servers run as when the tests run as root.
SYSTEM_USER = "pgserver"
#: A folder in memory, where there is one with room for the servers (a template and a copy a worker, some 40 MB
#: each, and the tests' databases; a container's is often 64 MB).
IN_MEMORY, IN_MEMORY_ROOM = Path("/dev/shm"), 1 << 30


def make_run_folder() -> Path:
    """A folder for this run's PostgreSQL servers, named in the environment for the workers to find (and the
    folders of runs killed before they could remove theirs, removed)."""
    in_memory = (IN_MEMORY.is_dir() and os.access(IN_MEMORY, os.W_OK | os.X_OK)
                 and shutil.disk_usage(IN_MEMORY).free >= IN_MEMORY_ROOM)
    parent = IN_MEMORY if in_memory else Path(tempfile.gettempdir())
    for left in parent.glob(f"{PREFIX}*/{OWNER}"):
        with contextlib.suppress(OSError, ValueError):
            if not _running(int(left.read_text())):
                remove_run_folder(left.parent)
    folder = Path(tempfile.mkdtemp(prefix=PREFIX, dir=parent))
    folder.chmod(0o755)  # the servers' user goes through it
    (folder / OWNER).write_text(str(os.getpid()))
    os.environ[RUN_FOLDER] = str(folder)
    return folder


def remove_run_folder(folder: Path) -> None:
    """The run's folder, once its workers are done: any server a worker left behind (it crashed) is killed."""
    for pid_file in folder.glob("*/data/postmaster.pid"):
        _kill(pid_file)
    shutil.rmtree(folder, ignore_errors=True)


class ThrowawayPostgres:
    """A PostgreSQL server of this worker's, on a copy of the run's template; ``stop()`` ends it within seconds."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.data = folder / "data"

    @classmethod
    def start(cls, run_folder: Path, name: str) -> ThrowawayPostgres:
        server = cls(run_folder / name)
        template = _template(run_folder)
        shutil.copytree(template, server.data, symlinks=True)
        _give_to_system_user(server.folder)
        options = " ".join(["-h ''", f"-k {server.folder}", *(f"-c {setting}" for setting in SETTINGS)])
        try:
            _as_system_user(["pg_ctl", "-D", str(server.data), "-l", str(server.folder / "log"), "-o", options,
                             "-w", "-t", str(int(START_WAIT)), "start"], START_WAIT + 5)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
            log = server.folder / "log"
            server.stop()
            raise RuntimeError(f"PostgreSQL did not start: {log.read_text() if log.exists() else error}") from None
        return server

    def get_uri(self, database: str = "postgres") -> str:
        return f"postgresql://postgres:@/{database}?host={self.folder}"

    def stop(self) -> None:
        """Stop at once (no shutdown checkpoint: the data is thrown away), kill if that takes too long, and
        remove the folder."""
        pid_file = self.data / "postmaster.pid"
        if pid_file.exists():
            try:
                _as_system_user(["pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "-t", str(int(STOP_WAIT)),
                                 "stop"], STOP_WAIT + 5)
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
                _kill(pid_file)
        shutil.rmtree(self.folder, ignore_errors=True)


def _template(run_folder: Path) -> Path:
    """The run's initialised data folder: the first worker to ask makes it, the others wait for it."""
    template = run_folder / "template"
    with _locked(run_folder / "template.lock", INITDB_WAIT + 10):
        if not (template / "PG_VERSION").exists():
            partial = run_folder / "template.partial"
            shutil.rmtree(partial, ignore_errors=True)
            partial.mkdir(mode=0o700)
            _give_to_system_user(partial)
            _as_system_user(["initdb", "-D", str(partial), "--auth=trust", "--encoding=utf8", "-U", "postgres",
                             "--no-sync"], INITDB_WAIT)
            partial.rename(template)
    return template


@contextlib.contextmanager
def _locked(path: Path, timeout: float):
    """An exclusive lock on ``path`` between the run's processes (the kernel frees it if its holder dies)."""
    with open(path, "a") as handle:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{path} stayed locked for {timeout:g} s") from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _as_system_user(command: list[str], timeout: float) -> None:
    """One of the wheel's PostgreSQL programs, as the servers' user; its output goes to a file, not a pipe (a
    server that ``pg_ctl`` starts would hold a pipe open, and the call would not return)."""
    with tempfile.TemporaryFile() as output:
        done = subprocess.run([str(_binaries() / command[0]), *command[1:]], stdin=subprocess.DEVNULL,
                              stdout=output, stderr=output, timeout=timeout, cwd="/",
                              user=SYSTEM_USER if os.geteuid() == 0 else None)
        if done.returncode != 0:
            output.seek(0)
            raise subprocess.CalledProcessError(done.returncode, command, output.read().decode(errors="replace"))


@functools.cache
def _binaries() -> Path:
    """The wheel's ``bin`` folder (the layout of its ``pginstall``), open to the servers' user when run as root."""
    import pgserver

    binaries = Path(pgserver.__file__).parent / "pginstall" / "bin"
    if os.geteuid() == 0:
        from pgserver.utils import ensure_folder_permissions, ensure_prefix_permissions

        ensure_prefix_permissions(binaries)
        everyone = stat.S_IRGRP | stat.S_IROTH | stat.S_IXGRP | stat.S_IXOTH
        ensure_folder_permissions(binaries, everyone)
        ensure_folder_permissions(binaries.parent / "lib", stat.S_IRGRP | stat.S_IROTH)
    return binaries


def _give_to_system_user(folder: Path) -> None:
    if os.geteuid() != 0:
        return
    from pgserver.utils import ensure_user_exists

    entry = ensure_user_exists(SYSTEM_USER)
    for path in (folder, *folder.rglob("*")):
        os.chown(path, entry.pw_uid, entry.pw_gid, follow_symlinks=False)


def _kill(pid_file: Path) -> None:
    """The server whose ``postmaster.pid`` this is: told to quit at once (its processes with it), then killed."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        pid = int(pid_file.read_text().split()[0])
        os.kill(pid, signal.SIGQUIT)
        deadline = time.monotonic() + STOP_WAIT
        while _running(pid):
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                return
            time.sleep(0.05)


def _running(pid: int) -> bool:
    """The process is there and not a zombie (the server is not this process's child: nobody may reap it)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"
