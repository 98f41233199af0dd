"""``soluna serve`` as a command: its flags, its host key, a clean stop on SIGTERM."""

from __future__ import annotations

import argparse
import os
import re
import signal
import stat
import subprocess
import sys
from pathlib import Path

import asyncssh
import pytest

from soluna_tui.cli import main
from soluna_tui.server.admin.serve_command import add_serve_command, config_from
from soluna_tui.server.ssh.host_key import HostKeyError, load_or_create_host_key

from ..clean_up import killed_after, stopped
from .helpers import TIMEOUT, SshTerminal


@pytest.mark.parametrize(("argv", "message"), [
    (["--port", "99999"], "the port must be 0 to 65535, not 99999"),
    (["--max-sessions", "0"], "--max-sessions must be 1 to 10000, not 0"),
    (["--idle-timeout", "soon"], "--idle-timeout must be a whole number, not 'soon'"),
    (["--spawn", "fork"], "invalid choice: 'fork'"),
    (["--login-timeout", "1"], "--login-timeout must be 2 to 600, not 1"),
])
def test_bad_values_are_one_line_and_exit_2(capsys, argv, message) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", *argv])
    error = capsys.readouterr().err
    assert stopped.value.code == 2 and message in error and error.count("\n") == 1


def test_the_limits_on_connections_that_have_not_started_a_game_are_flags() -> None:
    parser = argparse.ArgumentParser()
    add_serve_command(parser.add_subparsers(), lambda low, high, what: int, Path)
    args = parser.parse_args(["serve", "--max-unstarted", "8", "--max-unstarted-per-ip", "1", "--login-timeout", "9"])
    limits = config_from(args).limits
    assert (limits.unstarted, limits.unstarted_per_ip, limits.login_timeout) == (8, 1, 9)
    defaults = config_from(parser.parse_args(["serve"])).limits
    assert (defaults.unstarted, defaults.unstarted_per_ip, defaults.login_timeout) == (32, 2, 20)


def test_quick_matches_and_challenges_are_on_unless_the_owner_turns_them_off() -> None:
    parser = argparse.ArgumentParser()
    add_serve_command(parser.add_subparsers(), lambda low, high, what: int, Path)
    on = config_from(parser.parse_args(["serve"]))
    off = config_from(parser.parse_args(["serve", "--no-quick-match", "--no-challenges"]))
    assert (on.quick_match, on.challenges, off.quick_match, off.challenges) == (True, True, False, False)
    assert config_from(parser.parse_args(["serve", "--no-challenges"])).quick_match is True


def test_the_web_door_s_host_names_are_flags_and_need_a_web_door_without_a_public_url(capsys) -> None:
    parser = argparse.ArgumentParser()
    add_serve_command(parser.add_subparsers(), lambda low, high, what: int, Path)
    args = parser.parse_args(["serve", "--web", "8080", "--web-host-name", "Soluna.lan",
                              "--web-host-name", "play.example.org"])
    assert config_from(args).web.host_names == ("soluna.lan", "play.example.org")
    assert config_from(parser.parse_args(["serve", "--web", "8080"])).web.host_names == ()
    for argv, said in ((["--web-host-name", "soluna.lan"], "need --web PORT"),
                       (["--web", "8080", "--public-url", "https://soluna.example.org", "--web-host-name", "x.lan"],
                        "--web-host-name is for a web door without --public-url"),
                       (["--web", "8080", "--web-host-name", "http://soluna.lan"], "is not a host name or address"),
                       (["--web", "8080", "--web-host-name", "soluna.lan:8080"], "without a port")):
        with pytest.raises(SystemExit) as stopped:
            main(["serve", "--allow-root", *argv])  # refused before anything runs, as root or not
        error = capsys.readouterr().err
        assert stopped.value.code == 2 and said in error and error.count("\n") == 1, error


def test_the_host_key_is_made_once_with_mode_0600_and_reused(tmp_path) -> None:
    path = tmp_path / "keys" / "host_key"
    first = load_or_create_host_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and first.algorithm == b"ssh-ed25519"
    again = load_or_create_host_key(path)
    assert again.get_fingerprint() == first.get_fingerprint()


def test_an_unreadable_host_key_is_never_replaced(tmp_path) -> None:
    path = tmp_path / "host_key"
    path.write_text("not a key")
    path.chmod(0o600)
    with pytest.raises(HostKeyError, match="cannot read the host key"):
        load_or_create_host_key(path)
    assert path.read_text() == "not a key"


def start_serving(tmp_path, *extra: str) -> tuple[subprocess.Popen, int]:
    """``soluna serve`` on a free loopback port; the process and its port (read from its log)."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen([sys.executable, "-m", "soluna_tui.cli", "serve", "--allow-root", "--host", "127.0.0.1",
                                "--port", "0", "--data-dir", str(tmp_path), *extra],
                               stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=environment)
    lines = []
    with killed_after(process, 4 * TIMEOUT):  # silent and still running: killed, and the read ends (a loaded machine
        # took over 15 s to start it: migrations, the zygote)
        while line := process.stderr.readline():
            lines.append(line)
            found = re.search(r"listening on 127\.0\.0\.1 port (\d+)", line)
            if found:
                return process, int(found.group(1))
    process.kill()
    raise AssertionError(f"soluna serve did not start: {''.join(lines)}")


async def test_soluna_serve_plays_and_stops_cleanly_on_sigterm(tmp_path) -> None:
    process, port = start_serving(tmp_path)
    try:
        terminal = await SshTerminal.open(port, username="ann")
        await terminal.wait_for_text("Welcome, ann.")
        process.send_signal(signal.SIGTERM)
        output = await terminal.wait_closed()
        assert b"The server is shutting down" in output
        assert process.wait(timeout=TIMEOUT) == 0
        await terminal.close()
    finally:
        process.kill()
        process.wait()
    log = process.stderr.read()
    assert re.search(r"session 1 from 127\.0\.0\.1:\d+ user='ann' key=none term='xterm-256color' size=80x24 "
                     r"client='SSH-2.0-AsyncSSH_[^']+' lasted \d+s ended: server shutdown", log), log
    key_file = tmp_path / "ssh_host_ed25519_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    again, port = start_serving(tmp_path)
    try:
        async with asyncssh.connect("127.0.0.1", port, known_hosts=None, agent_path=None, client_keys=None,
                                    config=None, username="ann", password="") as connection:
            seen = connection.get_server_host_key()
        assert seen.get_fingerprint() == asyncssh.read_private_key(key_file).get_fingerprint()
    finally:
        assert stopped(again, TIMEOUT) == 0


def test_a_port_in_use_is_one_line_and_exit_1(tmp_path) -> None:
    process, port = start_serving(tmp_path)
    try:
        result = subprocess.run([sys.executable, "-m", "soluna_tui.cli", "serve", "--allow-root", "--host", "127.0.0.1",
                                 "--port", str(port), "--data-dir", str(tmp_path)], capture_output=True, text=True,
                                timeout=TIMEOUT, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
        assert result.returncode == 1
        errors = [line for line in result.stderr.splitlines() if "soluna serve:" in line]
        assert errors == [errors[0]] and "cannot serve" in errors[0] and "Traceback" not in result.stderr
    finally:
        stopped(process, TIMEOUT)


@pytest.mark.parametrize(("database", "said"), [
    ("mysql://db/soluna", "unknown database 'mysql://...': give postgresql://... or a file path"),
    ("postgresql://nobody@/soluna?host=/nonexistent-socket-dir&connect_timeout=2", "cannot reach the database"),
])
def test_a_database_that_cannot_be_used_is_one_line_and_exit_1(tmp_path, database, said) -> None:
    result = subprocess.run([sys.executable, "-m", "soluna_tui.cli", "serve", "--allow-root", "--host", "127.0.0.1",
                             "--port", "0", "--data-dir", str(tmp_path), "--database", database], capture_output=True,
                            text=True, timeout=60, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert result.returncode == 1 and "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if "soluna serve:" in line]
    assert len(errors) == 1 and said in errors[0], result.stderr
