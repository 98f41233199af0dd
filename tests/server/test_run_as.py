"""Who ``soluna serve`` runs as: a server started as root becomes ``--user`` (or refuses to start), its
sessions run as that user and the store stays theirs; the shipped systemd unit verifies."""

from __future__ import annotations

import contextlib
import functools
import os
import pwd
import re
import shlex
import shutil
import site
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import soluna_tui
from soluna_tui.cli import build_parser

from ..clean_up import killed_after, stopped
from .helpers import TIMEOUT, SshTerminal
from .test_child_process import children_of
from .test_two_players import create_match, join_match

ROOT = Path(soluna_tui.__file__).resolve().parents[1]
UNIT = ROOT / "docs" / "soluna.service"
USER = "nobody"
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="only a server started as root changes user")


def the_code() -> dict[str, str]:
    """An environment in which a Python imports this tree's code and its installed packages, nothing else."""
    paths = [str(ROOT), *site.getsitepackages()]
    return {"PATH": os.defpath, "LANG": "C.UTF-8", "PYTHONPATH": os.pathsep.join(paths),
            "PYTHONDONTWRITEBYTECODE": "1"}


@functools.cache
def python_for(user: str) -> tuple[str, dict[str, str]]:
    """A Python that ``user`` may run with this code (ours may sit in root's home, out of their reach: then
    the system's own of the same version), and its environment; the test is skipped when there is none."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for python in dict.fromkeys((sys.executable, f"/usr/bin/{version}", f"/usr/local/bin/{version}")):
        if not os.path.exists(python):
            continue
        environment = the_code()
        try:
            importing = "import soluna_tui.server.ssh.ssh_server, soluna_tui.online.child_app"
            tried = subprocess.run([python, "-c", importing], user=user, env=environment, capture_output=True,
                                   timeout=60, cwd="/")
        except PermissionError:
            continue
        if tried.returncode == 0:
            return python, environment
    pytest.skip(f"no Python that user {user} may run with this code")


@contextlib.contextmanager
def folder_for_anyone() -> Iterator[Path]:
    """A fresh folder under /tmp that every user may enter (pytest's own are root's alone)."""
    base = Path(tempfile.mkdtemp(prefix="soluna-run-as-", dir="/tmp"))
    base.chmod(0o755)
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


class Served:
    """``soluna serve`` started in a process of its own; its port, read from its log."""

    def __init__(self, python: str, environment: dict[str, str], *flags: str) -> None:
        self.process = subprocess.Popen([python, "-m", "soluna_tui.cli", "serve", "--host", "127.0.0.1",
                                         "--port", "0", *flags], stderr=subprocess.PIPE,
                                        stdout=subprocess.DEVNULL, text=True, env=environment, cwd="/")
        self.log: list[str] = []
        with killed_after(self.process, 60):  # silent and still running: killed, and the read ends
            while line := self.process.stderr.readline():
                self.log.append(line)
                found = re.search(r"listening on 127\.0\.0\.1 port (\d+)", line)
                if found:
                    self.port = int(found.group(1))
                    return
        self.process.kill()
        raise AssertionError(f"soluna serve did not start:\n{''.join(self.log)}")

    def stop(self) -> int:
        status = stopped(self.process, TIMEOUT)  # killed if it has not stopped by then (and the status says so)
        self.log.append(self.process.stderr.read())
        return status

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def identity(pid: int) -> dict[str, str]:
    """The Uid, Gid and Groups lines of a process's status (real, effective, saved and filesystem ids)."""
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {key: value.split() for key, _, value in (line.partition(":") for line in lines)
            if key in ("Uid", "Gid", "Groups")}


def command_line(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")


@as_root
async def test_a_server_started_as_root_runs_as_its_user_and_players_still_play() -> None:
    python, environment = python_for(USER)
    account = pwd.getpwnam(USER)
    with folder_for_anyone() as base:
        data = base / "data"
        server = Served(python, environment, "--data-dir", str(data), "--user", USER)
        try:
            assert f"running as user {USER} (uid {account.pw_uid}, gid {account.pw_gid})" in "".join(server.log)
            ann = await SshTerminal.open(server.port, username="ann")
            bob = await SshTerminal.open(server.port, username="bob")
            try:
                code = await create_match(ann)  # written to the store by a server that is no longer root
                await join_match(bob, code)
                await ann.wait_for_text("Your move", "bob has joined")
                await ann.press("enter", "right", "space")
                await bob.wait_for_text(" 1. ann", "Your move")
                zygotes = [pid for pid in children_of(server.process.pid) if "online.zygote" in command_line(pid)]
                assert len(zygotes) == 1
                sessions = children_of(zygotes[0])
                assert len(sessions) == 1  # the house of ann's and bob's sessions (eight to a house by default)
                expected = {"Uid": [str(account.pw_uid)] * 4, "Gid": [str(account.pw_gid)] * 4, "Groups": []}
                for pid in (server.process.pid, zygotes[0], *sessions):
                    assert identity(pid) == expected, command_line(pid)
            finally:
                await ann.close()
                await bob.close()
            assert server.stop() == 0
        finally:
            server.kill()
        assert "Traceback" not in "".join(server.log)
        # What it made is the user's, but the host key, read as root before the drop, stays root's alone.
        assert (data.stat().st_uid, stat.S_IMODE(data.stat().st_mode)) == (account.pw_uid, 0o700)
        assert (data / "soluna.sqlite3").stat().st_uid == account.pw_uid
        key = data / "ssh_host_ed25519_key"
        assert (key.stat().st_uid, stat.S_IMODE(key.stat().st_mode)) == (0, 0o600)
        with contextlib.closing(sqlite3.connect(f"file:{data / 'soluna.sqlite3'}?mode=ro", uri=True)) as store:
            assert store.execute("SELECT count(*) FROM matches").fetchone() == (1,)
        # Started again, the same user keeps the same store: the match is still in play.
        again = Served(python, environment, "--data-dir", str(data), "--user", USER)
        try:
            assert "1 matches in play" in "".join(again.log)
            assert again.stop() == 0
        finally:
            again.kill()


def serve_briefly(*flags: str, user: str | None = None, python: str = sys.executable,
                  environment: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``soluna serve`` that is expected to stop at once (a server that starts would time out)."""
    return subprocess.run([python, "-m", "soluna_tui.cli", "serve", "--host", "127.0.0.1", "--port", "0", *flags],
                          capture_output=True, text=True, timeout=30, user=user, cwd="/",
                          env=environment or {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})


@as_root
@pytest.mark.parametrize(("flags", "line"), [
    ((), "started as root: give --user NAME (an unprivileged user) to run sessions as"),
    (("--user", "root"), "--user root: that is root or root's group; give an unprivileged user"),
    (("--user", "no-such-player-x"), "--user no-such-player-x: no such user"),
])
def test_a_server_started_as_root_without_an_unprivileged_user_refuses_in_one_line(tmp_path, flags, line) -> None:
    result = serve_briefly("--data-dir", str(tmp_path / "data"), *flags)
    assert (result.returncode, result.stderr) == (2, f"soluna serve: error: {line}\n")
    assert not (tmp_path / "data").exists()  # refused before it made anything


@as_root
def test_allow_root_keeps_root_and_says_so(tmp_path) -> None:
    result = serve_briefly("--data-dir", str(tmp_path), "--allow-root", "--database", "mysql://db/soluna")
    assert result.returncode == 1, result.stderr
    assert "running as root (--allow-root): so does every session" in result.stderr


@as_root
def test_not_root_another_user_is_refused_and_its_own_name_is_no_change() -> None:
    python, environment = python_for(USER)
    with folder_for_anyone() as base:
        refused = serve_briefly("--user", "root", user=USER, python=python, environment=environment)
        assert (refused.returncode, refused.stderr) == (
            2, f"soluna serve: error: --user root: only root can run sessions as another user, and this server "
               f"runs as {USER}; leave --user out\n")
        (base / "data").mkdir()
        shutil.chown(base / "data", USER)
        # Its own name changes nothing: the server goes on to its store (here one it cannot use).
        itself = serve_briefly("--user", USER, "--data-dir", str(base / "data"), "--database", "mysql://db/soluna",
                               user=USER, python=python, environment=environment)
        errors = [line for line in itself.stderr.splitlines() if line.startswith("soluna serve:")]
        assert (itself.returncode, errors) == (1, ["soluna serve: cannot serve: unknown database 'mysql://...': "
                                                   "give postgresql://... or a file path"]), itself.stderr


@as_root
def test_a_data_directory_the_user_cannot_write_is_one_line_and_exit_1() -> None:
    python, environment = python_for(USER)
    with folder_for_anyone() as base:
        data = base / "data"
        data.mkdir(mode=0o755)  # root's: the user may enter it, not write in it
        result = serve_briefly("--user", USER, "--data-dir", str(data), python=python, environment=environment)
        errors = [line for line in result.stderr.splitlines() if line.startswith("soluna serve:")]
        assert (result.returncode, errors) == (1, [
            f"soluna serve: cannot serve: user {USER} cannot write {data}: give --data-dir a folder it may write "
            f"(or chown {USER} {data})"]), result.stderr
        assert "Traceback" not in result.stderr


def exec_start(unit: str) -> list[str]:
    return shlex.split(re.search(r"^ExecStart=(.+)$", unit, re.MULTILINE).group(1))


def test_the_systemd_unit_is_sandboxed_and_runs_a_true_soluna_serve() -> None:
    unit = UNIT.read_text()
    settings = set(re.findall(r"^(\w+=.*)$", unit, re.MULTILINE))
    assert {"DynamicUser=yes", "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
            "StateDirectory=soluna", "KillMode=mixed", "CapabilityBoundingSet="} <= settings
    assert {"MemoryMax", "TasksMax"} <= {setting.split("=")[0] for setting in settings}
    program, *arguments = exec_start(unit)
    assert Path(program).name == "soluna" and arguments[0] == "serve" and "--user" not in arguments
    args = build_parser().parse_args(arguments)  # every flag of the unit is one soluna serve has
    assert args.data_dir == Path("/var/lib/soluna") and args.port == 2222


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_systemd_unit_verifies(tmp_path) -> None:
    """``systemd-analyze verify`` says nothing of the unit, its program put where this soluna is installed."""
    program = exec_start(UNIT.read_text())[0]
    here = Path(sys.executable).parent / "soluna"
    if not here.exists():
        pytest.skip("no soluna command installed beside this Python")
    unit = tmp_path / "soluna.service"
    unit.write_text(UNIT.read_text().replace(f"ExecStart={program} ", f"ExecStart={here} "))
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True, text=True,
                            timeout=60)
    assert (result.returncode, result.stderr, result.stdout) == (0, "", "")
