"""The ban list over real SSH: asyncssh clients with pseudo-terminals read by pyte, the list edited with ``soluna serve
ban`` while the server runs (in this process; in a process of its own for ``--ban-file`` and its log), and an address
given by a PROXY header."""

from __future__ import annotations

import asyncio
import logging
import time

import asyncssh

from soluna_tui.cli import main
from soluna_tui.server.admin.bans import CLOSED_LINE, REFUSED_LINE
from soluna_tui.server.admin.serve_command import _proxy_network
from soluna_tui.server.ssh.proxy_protocol import header_v2

from .helpers import (
    TIMEOUT,
    SshTerminal,
    client_options,
    keep_the_name,
    running_server,
    served,
    session_named,
    terminals,
    wait_until,
)
from .test_hostile_clients import BannerReader, disconnect_reason
from .test_proxy_protocol import relay
from .test_two_players import create_match, join_match

#: A change of the ban list reaches the players it bans within this long: the file is looked at every second, and a
#: change applied within 0.3-1.1 s on a quiet machine; the bound leaves room for a machine at load 10.
FEW_SECONDS = 10.0
DAN_KEY = asyncssh.generate_private_key("ssh-ed25519")
DAN = DAN_KEY.get_fingerprint("sha256")


def ban(tmp_path, *words: str) -> None:
    assert main(["serve", "ban", *words, "--data-dir", str(tmp_path)]) == 0


async def refused_line(port: int, address: str = "127.0.0.1", key: asyncssh.SSHKey | None = None) -> str:
    """Connect (with ``key``, if any) and be refused: the line read, as banner and as the disconnect's reason (they
    must agree), or ``let in``."""
    reader = BannerReader()
    keys = {"client_keys": [key]} if key is not None else {}
    try:
        async with asyncssh.connect("127.0.0.1", port, **client_options("dan", client_factory=lambda: reader,
                                                                        local_addr=(address, 0), **keys)):
            return "let in"
    except (OSError, asyncssh.Error) as error:
        reason = disconnect_reason(error)
        if reason == CLOSED_LINE and not reader.banners:  # let in, and the ban came as it logged in: closed
            return reason
        assert reader.banners == [f"{reason}\r\n"], (reader.banners, reason)
        return reason


async def refused_soon(port: int, address: str, key: asyncssh.SSHKey | None = None) -> str:
    """The line a server refuses with, once it has read the ban (each server rereads the ban file on its own
    beat: one that has not yet lets the player in meanwhile)."""
    started = time.monotonic()
    while (line := await refused_line(port, address, key)) == "let in":
        assert time.monotonic() - started < FEW_SECONDS, "still let in"
        await asyncio.sleep(0.2)
    return line


async def let_in_again(port: int, address: str, key: asyncssh.SSHKey | None = None) -> float:
    """Try to connect until let in (a lifted ban applies within seconds); how long it took."""
    started = time.monotonic()
    while (line := await refused_line(port, address, key)) != "let in":
        assert line == REFUSED_LINE and time.monotonic() - started < FEW_SECONDS, line
        await asyncio.sleep(0.2)
    return time.monotonic() - started


async def test_a_player_banned_by_key_is_closed_with_one_line_and_kept_out_until_the_ban_is_lifted(
        tmp_path, caplog) -> None:
    caplog.set_level(logging.INFO, logger="soluna.server")
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        dan = await opened.open("dan", DAN_KEY, local_addr=("127.0.0.2", 0))
        ann = await opened.open("ann", local_addr=("127.0.0.3", 0))
        await keep_the_name(dan)
        code = await create_match(dan)
        await join_match(ann, code)
        await dan.wait_for_text("Your move")

        started = time.monotonic()
        ban(tmp_path, "add", DAN, "--reason", "abusive")
        said = (await dan.wait_closed(FEW_SECONDS)).decode(errors="replace")
        took = time.monotonic() - started
        print(f"\nthe banned player was closed {took:.2f} s after the ban")
        assert CLOSED_LINE in dan.text  # the last line on their terminal
        assert said.rstrip().endswith(CLOSED_LINE)  # and no way back to the match after it
        assert session_named(server, "ann").running  # the opponent stays (the seat is held, then forfeited)
        assert any("ended: banned by line 5 of the ban list" in record.getMessage() and "abusive" in
                   record.getMessage() for record in caplog.records)

        assert await refused_line(server.port, "127.0.0.2", DAN_KEY) == REFUSED_LINE  # the key: from anywhere
        assert await refused_line(server.port, "127.0.0.4", DAN_KEY) == REFUSED_LINE
        assert await refused_line(server.port, "127.0.0.2") == "let in"  # the address is not banned
        assert any(f"offered a key banned by line 5 of the ban list ({DAN}" in record.getMessage()
                   for record in caplog.records)

        ban(tmp_path, "remove", DAN)
        print(f"let in again {await let_in_again(server.port, '127.0.0.2', DAN_KEY):.2f} s after the ban was lifted")
        dan = await opened.open("dan", DAN_KEY, local_addr=("127.0.0.2", 0))
        await dan.wait_for_text("Welcome")


async def test_an_address_ban_refuses_connections_and_closes_those_in_play_even_before_they_log_in(tmp_path) -> None:
    async with running_server(tmp_path) as server, terminals(server.port) as opened:
        eve = await opened.open("eve", local_addr=("127.0.0.5", 0))
        await eve.wait_for_text("Welcome, eve.")
        waiting = await asyncssh.connect("127.0.0.1", server.port, **client_options("mal", local_addr=("127.0.0.6", 0)))
        ban(tmp_path, "add", "127.0.0.4/31")  # 127.0.0.4 and 127.0.0.5
        ban(tmp_path, "add", "127.0.0.6")
        await eve.wait_closed(FEW_SECONDS)
        assert CLOSED_LINE in eve.text
        await asyncio.wait_for(waiting.wait_closed(), FEW_SECONDS)  # logged in, no game yet: closed with the line
        assert await refused_line(server.port, "127.0.0.4") == REFUSED_LINE
        assert await refused_line(server.port, "127.0.0.5", DAN_KEY) == REFUSED_LINE
        assert await refused_line(server.port, "127.0.0.7") == "let in"
        await wait_until(lambda: not server.connections, what="every banned connection gone")

        ban(tmp_path, "remove", "127.0.0.4/31")
        await let_in_again(server.port, "127.0.0.5")
        assert await refused_line(server.port, "127.0.0.6") == REFUSED_LINE  # the other entry still applies


async def test_behind_a_proxy_the_header_s_address_is_the_one_banned(tmp_path) -> None:
    (tmp_path / "bans.txt").write_text("2001:db8:7::/48  # a network seen only in PROXY headers\n")
    async with running_server(tmp_path, proxy_from=(_proxy_network("127.0.0.1"),)) as server:
        async with relay(server.port, header_v2(("2001:db8:7::9", 6000), ("2001:db8::1", 22))) as banned_port, \
                relay(server.port, header_v2(("2001:db8:8::9", 6000), ("2001:db8::1", 22))) as other_port:
            assert await refused_line(banned_port) == REFUSED_LINE
            terminal = await SshTerminal.open(other_port)
            try:
                await terminal.wait_for_text("Welcome, ann.")
            finally:
                await terminal.close()


async def test_soluna_serve_sums_up_damaged_lines_in_one_line_and_bans_an_ipv4_client_written_as_ipv6(
        tmp_path) -> None:
    bans = tmp_path / "elsewhere" / "owner-bans.txt"
    bans.parent.mkdir()
    bans.write_text("::ffff:127.0.0.8  # a bot, as an IPv6 socket logs it\nnot an entry at all\n")
    async with served(tmp_path, "--ban-file", str(bans)) as server:
        assert await refused_line(server.port, "127.0.0.8") == REFUSED_LINE  # an IPv4 client on an IPv4 socket
        assert await refused_line(server.port, "127.0.0.9") == "let in"
        written = bans.with_name("written.txt")
        written.write_text("127.0.0.9\n" + "127.0.0.300\n" * 100_000)  # the other address now, and a flood of typos
        written.replace(bans)  # at once, as an editor's save or 'soluna serve ban' does: read whole, once
        await wait_until(lambda: sum(" damaged line" in line for line in server.log) == 4, TIMEOUT,
                         "the second reading's lines")
        assert await refused_line(server.port, "127.0.0.9") == REFUSED_LINE
        assert await refused_line(server.port, "127.0.0.8") == "let in"
    damaged = [line.split(" ", 2)[2] for line in server.log if " damaged line" in line]
    assert damaged == [f"ban list {bans}: 1 damaged line ignored (line 2: 'not an entry at all' is not a key "
                       "fingerprint (SHA256:...), an OpenSSH public key, an address or a network)",
                       f"ban list {bans} read: 0 keys, 1 address; 1 damaged line ignored",
                       f"ban list {bans}: 100000 damaged lines ignored (first: line 2: '127.0.0.300' is not a key "
                       "fingerprint (SHA256:...), an OpenSSH public key, an address or a network)",
                       f"ban list {bans} read: 0 keys, 1 address; 100000 damaged lines ignored"]
