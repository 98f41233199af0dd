"""A session's process: its resource limits, an internal error that never shows a traceback, and a child that
reaches its memory limit under the player."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from soluna_tui.link.child_config import FAILED, ChildConfig
from soluna_tui.link.messages import CrashReport
from soluna_tui.link.protocol import decode
from soluna_tui.online.child import MEMORY_RESERVE_MB
from soluna_tui.server.sessions.spawn import base_environment

from .helpers import TIMEOUT, SshTerminal, process_gone, running_server, session_named, wait_until
from .test_hostile_clients import ALTERNATE_SCREEN, MOUSE_REPORTS, SGR_MOUSE

BROKEN_APP = ("import sys; from soluna_tui.online import child, child_app; "
              "child_app.ChildApp.get_default_screen = lambda self: 1 / 0; "
              "raise SystemExit(child.main(sys.argv[1:]))")


def read_all(fd: int, timeout: float = TIMEOUT) -> bytes:
    """Everything the other end writes until it closes (EOF or EIO), or ``timeout``."""
    data = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
    return data


def test_an_internal_error_is_a_report_to_the_server_never_a_traceback_on_the_terminal() -> None:
    master, terminal = os.openpty()
    ours, theirs = socket.socketpair()
    environment = base_environment() | {"TERM": "xterm-256color",
                                        "PYTHONPATH": os.pathsep.join(path for path in sys.path if path)}
    config = ChildConfig(name="ann", environment=environment)
    process = subprocess.Popen([sys.executable, "-c", BROKEN_APP, config.to_json(), str(theirs.fileno())],
                               stdin=terminal, stdout=terminal, stderr=terminal, pass_fds=(theirs.fileno(),),
                               start_new_session=True, env=environment)
    os.close(terminal)
    theirs.close()
    try:
        shown = read_all(master)
        reports = [decode(line) for line in read_all(ours.fileno()).splitlines() if line]
        assert process.wait(timeout=TIMEOUT) == FAILED
    finally:
        process.kill()
        process.wait()
        os.close(master)
        ours.close()
    assert b"\x1b[?1049l" in shown  # the app restored the terminal; the server says the one line (below)
    assert b"Traceback" not in shown and b"ZeroDivisionError" not in shown
    assert [type(report) for report in reports] == [CrashReport] and "ZeroDivisionError" in reports[0].text


@pytest.mark.parametrize("sessions_per_process", [1, 8])
async def test_each_session_process_has_memory_and_cpu_limits(tmp_path, sessions_per_process) -> None:
    """A session's own process has the session's limits; a house of eight, the sum of its sessions'."""
    async with running_server(tmp_path, child_memory_mb=700, child_cpu_seconds=120,
                              sessions_per_process=sessions_per_process) as server:
        terminal = await SshTerminal.open(server.port)
        try:
            await terminal.wait_for_text("Welcome, ann.")
            child = session_named(server, "ann").child.process
            with open(f"/proc/{child.pid}/limits") as stream:
                limits = {line[:26].strip(): line[26:].split() for line in stream.read().splitlines()[1:]}
            mib = 1024 * 1024
            memory, cpu = 700 * sessions_per_process, 120 * sessions_per_process
            assert limits["Max address space"][:2] == [str(memory * mib), str((memory + MEMORY_RESERVE_MB) * mib)]
            assert limits["Max cpu time"][:2] == [str(cpu), str(cpu + 5)]
            assert limits["Max core file size"][:2] == ["0", "0"]
            with open(f"/proc/{child.pid}/stat") as stream:
                session_id = int(stream.read().rsplit(")", 1)[1].split()[3])
            assert session_id == child.pid  # a session leader, apart from the zygote and the server
        finally:
            await terminal.close()


#: Loaded by every Python the test's server starts (``PYTHONPATH``): "?" makes the session's app take memory until
#: its limit refuses more (untouched pages: address space, as the limit counts, and little real memory).
MEMORY_HOG = """
from soluna_tui.online import child_app

def eat_memory(self):
    self.eaten = []
    while True:
        self.eaten.append(bytes(1 << 20))

child_app.ChildApp.action_help = eat_memory
"""


@pytest.mark.parametrize("spawn", ["zygote", "exec"])
async def test_a_child_that_runs_out_of_memory_leaves_a_reset_terminal_one_line_and_its_traceback(
        tmp_path, monkeypatch, caplog, spawn) -> None:
    caplog.set_level(logging.INFO, logger="soluna.server")
    hog = tmp_path / "hog"
    hog.mkdir()
    (hog / "sitecustomize.py").write_text(MEMORY_HOG)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(hog), *(path for path in sys.path if path)]))
    async with running_server(tmp_path, spawn=spawn, child_memory_mb=700) as server:
        terminal = await SshTerminal.open(server.port)
        try:
            await terminal.wait_for_text("Welcome, ann.")
            terminal.send("?")
            output = await terminal.wait_closed()
        finally:
            await terminal.close()
    assert not {ALTERNATE_SCREEN, MOUSE_REPORTS, SGR_MOUSE} & terminal.screen.mode and not terminal.screen.cursor.hidden
    lines = [line for line in output.split(b"\r\n") if b"Sorry" in line]
    assert lines == [b"Sorry: your game stopped unexpectedly (it ran out of memory). Connect again: a match in play "
                     b"keeps your seat for 5 minutes."]
    assert b"Traceback" not in output and b"MemoryError" not in output
    ended = [record.getMessage() for record in caplog.records if "user='ann'" in record.getMessage()]
    assert len(ended) == 1 and ended[0].endswith("ended: child ran out of memory (status 3)")
    reports = [record.getMessage() for record in caplog.records if "the child crashed" in record.getMessage()]
    assert len(reports) == 1 and "Traceback" in reports[0] and "MemoryError" in reports[0]


async def test_a_child_that_does_not_answer_is_killed_and_reaped(tmp_path) -> None:
    async with running_server(tmp_path) as server:
        terminal = await SshTerminal.open(server.port)
        await terminal.wait_for_text("Welcome, ann.")
        session = session_named(server, "ann")
        pid = session.child.process.pid
        os.kill(pid, signal.SIGSTOP)  # SIGTERM now waits; only SIGKILL ends it
        started = time.monotonic()
        await terminal.close()
        await wait_until(lambda: process_gone(pid), what="the stopped child being killed and reaped")
        took = time.monotonic() - started
        await wait_until(lambda: session.ending.status is not None, what="the child's end being noted")
        if session.ending.status == -signal.SIGKILL:
            assert took >= 1.5, f"killed after {took:.2f} s: it should have been asked politely first"
        else:  # the kernel's hang-up of its terminal (SIGHUP with SIGCONT) woke it, and it left when asked
            assert session.ending.status in (-signal.SIGTERM, -signal.SIGHUP, 0), session.ending.status
        await wait_until(lambda: server.gate.sessions == 0, what="the session's place being given back")


def children_of(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found.extend(int(child) for child in (task / "children").read_text().split())
    return found


async def test_when_the_server_is_killed_its_zygote_and_sessions_go_too(tmp_path) -> None:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen([sys.executable, "-m", "soluna_tui.cli", "serve", "--allow-root", "--host", "127.0.0.1",
                                "--port", "0", "--data-dir", str(tmp_path)], stderr=subprocess.PIPE, text=True,
                               env=environment)
    try:
        port = None
        while port is None:
            line = await asyncio.wait_for(asyncio.to_thread(process.stderr.readline), TIMEOUT)
            assert line, "soluna serve exited"
            found = re.search(r"listening on 127\.0\.0\.1 port (\d+)", line)
            port = int(found.group(1)) if found else None
        terminal = await SshTerminal.open(port)
        await terminal.wait_for_text("Welcome, ann.")
        (zygote,) = children_of(process.pid)
        (session,) = children_of(zygote)
        process.kill()
        process.wait(timeout=TIMEOUT)
        await wait_until(lambda: process_gone(session), what="the session process ending")
        await wait_until(lambda: process_gone(zygote), what="the zygote ending")
        await terminal.close()
    finally:
        process.kill()
        process.wait()
