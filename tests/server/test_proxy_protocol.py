"""PROXY protocol v1/v2: the header parser, the listener on its own, and a real SSH client behind a relay."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import struct
from collections.abc import AsyncIterator

import asyncssh
import pytest

from soluna_tui.server.admin.serve_command import _proxy_network
from soluna_tui.server.ssh.proxy_protocol import (
    V2_SIGNATURE,
    ProxyHeader,
    ProxyHeaderError,
    ProxyListener,
    TrustedProxies,
    header_v1,
    header_v2,
    looks_like_header,
    parse_header,
)
from soluna_tui.server.ssh.ssh_server import SolunaServer

from .helpers import TIMEOUT, SshTerminal, client_options, running_server, session_named, wait_until

CLIENT = ("203.0.113.7", 40_001)
SERVER = ("198.51.100.1", 22)


# ---- the parser -----------------------------------------------------------------------------


def test_a_v1_header_gives_the_client_and_the_bytes_after_it_are_left() -> None:
    data = header_v1(CLIENT, SERVER) + b"SSH-2.0-x\r\n"
    header = parse_header(data)
    assert header == ProxyHeader(CLIENT, SERVER, len(header_v1(CLIENT, SERVER)))
    assert data[header.length:] == b"SSH-2.0-x\r\n"
    six = parse_header(b"PROXY TCP6 2001:db8::1 ::1 1234 22\r\n")
    assert six.source == ("2001:db8::1", 1234)


def test_v1_unknown_and_v2_local_leave_the_proxy_s_own_address() -> None:
    assert parse_header(b"PROXY UNKNOWN\r\n") == ProxyHeader(None, None, 15)
    assert parse_header(b"PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n").source is None
    local = header_v2(None)
    assert parse_header(local + b"SSH-") == ProxyHeader(None, None, len(local))


@pytest.mark.parametrize("source", [CLIENT, ("2001:db8::7", 5555)])
def test_v2_headers_give_the_client_for_ipv4_and_ipv6(source) -> None:
    data = header_v2(source, SERVER if ":" not in source[0] else ("2001:db8::1", 22))
    header = parse_header(data)
    assert header.source == source and header.length == len(data)


def test_v2_tlvs_after_the_addresses_are_skipped() -> None:
    payload = ipaddress.ip_address(CLIENT[0]).packed + ipaddress.ip_address(SERVER[0]).packed
    payload += struct.pack("!HH", CLIENT[1], SERVER[1]) + b"\x05\x00\x03abc"  # a UNIQUE_ID TLV
    data = V2_SIGNATURE + struct.pack("!BBH", 0x21, 0x11, len(payload)) + payload
    assert parse_header(data + b"SSH-") == ProxyHeader(CLIENT, SERVER, len(data))


def test_an_incomplete_header_asks_for_more_bytes() -> None:
    whole = header_v2(CLIENT, SERVER)
    for cut in (1, 5, 12, 15, len(whole) - 1):
        assert parse_header(whole[:cut]) is None
    assert parse_header(b"PROXY TCP4 203.0.113.7 198.5") is None
    assert looks_like_header(b"PRO") is None and looks_like_header(b"SSH-2.0") is False


@pytest.mark.parametrize("data", [
    b"PROXY TCP4 203.0.113.7 198.51.100.1 40001\r\n",          # a field missing
    b"PROXY TCP4 2001:db8::1 198.51.100.1 1 2\r\n",              # an IPv6 address under TCP4
    b"PROXY TCP4 203.0.113.7 198.51.100.1 70000 22\r\n",         # no such port
    b"PROXY TCP4 203.0.113.7 198.51.100.1 0022 22\r\n",          # leading zeros
    b"PROXY TCP5 203.0.113.7 198.51.100.1 1 22\r\n",
    b"PROXY TCP4 203.0.113.7 198.51.100.1 1 22\n",               # not CRLF
    b"PROXY " + b"9" * 120,                                      # longer than any v1 header
    b"PROXY TCP4 \xff\xfe 198.51.100.1 1 22\r\n",
    V2_SIGNATURE + struct.pack("!BBH", 0x31, 0x11, 12) + bytes(12),   # version 3
    V2_SIGNATURE + struct.pack("!BBH", 0x2F, 0x11, 12) + bytes(12),   # no such command
    V2_SIGNATURE + struct.pack("!BBH", 0x21, 0x11, 4) + bytes(4),     # IPv4 addresses cut short
    V2_SIGNATURE + struct.pack("!BBH", 0x21, 0x12, 12) + bytes(12),   # UDP
    V2_SIGNATURE + struct.pack("!BBH", 0x21, 0x11, 60_000),           # oversized: refused before reading it
    b"SSH-2.0-OpenSSH_9.6\r\n",
])
def test_malformed_and_oversized_headers_are_errors(data) -> None:
    with pytest.raises(ProxyHeaderError):
        parse_header(data)


def test_trusted_blocks_and_bad_cidrs() -> None:
    trusted = TrustedProxies([_proxy_network("10.0.0.0/8"), _proxy_network("2001:db8::/32")])
    assert "10.1.2.3" in trusted and "::ffff:10.1.2.3" in trusted and "2001:db8::9" in trusted
    assert "11.0.0.1" not in trusted and "?" not in trusted
    with pytest.raises(Exception, match="not an address or CIDR block"):
        _proxy_network("10.0.0.0/33")


# ---- the listener on its own: what reaches the connection behind it --------------------------------


class Recorder(asyncio.Protocol):
    def __init__(self, seen: list) -> None:
        self.seen = seen

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.seen.append(transport.get_extra_info("peername"))

    def data_received(self, data: bytes) -> None:
        self.seen.append(data)


@contextlib.asynccontextmanager
async def listener(trusted: str, **timeouts) -> AsyncIterator[tuple[int, list, list]]:
    seen: list = []
    lines: list = []
    proxy = ProxyListener([_proxy_network(trusted)], lambda text, *args: lines.append(text % args), **timeouts)
    server = await proxy.create_server(lambda host, port: Recorder(seen), "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1], seen, lines
    finally:
        server.close()
        await server.wait_closed()


async def closed(reader: asyncio.StreamReader) -> bool:
    return await asyncio.wait_for(reader.read(), TIMEOUT) == b""


async def test_the_listener_hands_over_with_the_header_s_address_and_the_bytes_after_it() -> None:
    async with listener("127.0.0.1") as (port, seen, lines):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(header_v1(CLIENT, SERVER)[:9])  # a header in pieces
        await asyncio.sleep(0.05)
        writer.write(header_v1(CLIENT, SERVER)[9:] + b"SSH-2.0-x\r\n")
        await wait_until(lambda: len(seen) == 2)
        assert seen == [CLIENT, b"SSH-2.0-x\r\n"] and lines == []
        writer.close()


async def test_a_local_header_is_the_proxy_s_own_connection_and_a_health_check_leaves_no_line() -> None:
    async with listener("127.0.0.1") as (port, seen, lines):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(header_v2(None))
        await asyncio.sleep(0.1)
        writer.close()  # the health check is over
        await asyncio.sleep(0.1)
        assert seen == [] and lines == []
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(header_v2(None) + b"SSH-2.0-x\r\n")
        await wait_until(lambda: len(seen) == 2)
        assert seen == [("127.0.0.1", writer.get_extra_info("sockname")[1]), b"SSH-2.0-x\r\n"] and lines == []
        writer.close()


async def test_a_slow_header_from_a_trusted_proxy_is_refused_after_the_timeout() -> None:
    async with listener("127.0.0.1", header_timeout=0.3) as (port, seen, lines):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"PROXY TCP4 203.0")
        assert await closed(reader)
        assert seen == [] and len(lines) == 1 and "no PROXY header within 0.3 s" in lines[0]


async def test_a_trusted_proxy_without_a_header_is_refused() -> None:
    async with listener("127.0.0.1") as (port, seen, lines):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"SSH-2.0-OpenSSH_9.6\r\n")
        assert await closed(reader)
        assert seen == [] and lines == [f"connection from 127.0.0.1:{writer.get_extra_info('sockname')[1]} "
                                        "refused: no PROXY header"]


async def test_an_untrusted_header_is_refused_and_an_untrusted_client_passes_untouched() -> None:
    async with listener("10.0.0.0/8", sniff_timeout=0.3) as (port, seen, lines):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(header_v2(CLIENT, SERVER))
        assert await closed(reader)
        assert seen == [] and len(lines) == 1 and "not trusted with --proxy-from" in lines[0]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"SSH-2.0-x\r\n")
        await wait_until(lambda: len(seen) == 2)
        assert seen[0][0] == "127.0.0.1" and seen[1] == b"SSH-2.0-x\r\n"
        reader, writer = await asyncio.open_connection("127.0.0.1", port)  # says nothing: handed over anyway
        await wait_until(lambda: len(seen) == 3)
        assert len(lines) == 1
        writer.close()


# ---- a real SSH client behind a relay that plays HAProxy ----------------------------------------


@contextlib.asynccontextmanager
async def relay(target_port: int, header: bytes) -> AsyncIterator[int]:
    """A loopback TCP relay that starts every connection with ``header``, then copies both ways."""

    async def copy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        writer.close()

    writers: list[asyncio.StreamWriter] = []

    async def serve(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
        writers.extend((client_writer, server_writer))
        server_writer.write(header)
        await asyncio.gather(copy(client_reader, server_writer), copy(server_reader, client_writer))

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()
        for writer in writers:  # the copies end as their sockets close
            writer.close()
        await server.wait_closed()


def server_behind_proxy(tmp_path, proxy_from: str, **limits) -> contextlib.AbstractAsyncContextManager[SolunaServer]:
    return running_server(tmp_path, proxy_from=(_proxy_network(proxy_from),), **limits)


@pytest.mark.parametrize("make_header", [header_v1, header_v2], ids=["v1", "v2"])
async def test_behind_a_proxy_the_per_address_limit_counts_the_real_clients(tmp_path, caplog, make_header) -> None:
    caplog.set_level(logging.INFO, logger="soluna.server")
    async with server_behind_proxy(tmp_path, "127.0.0.1/32", per_ip=1) as server:
        async with relay(server.port, make_header(CLIENT, SERVER)) as first_port, \
                relay(server.port, make_header(("203.0.113.8", 5), SERVER)) as other_port:
            ann = await asyncssh.connect("127.0.0.1", first_port, **client_options("ann"))
            await wait_until(lambda: any(c.address == CLIENT[0] for c in server.connections))
            assert [(c.address, c.port) for c in server.connections] == [CLIENT]
            with pytest.raises(asyncssh.DisconnectError, match="per address|Server full|at once"):
                await asyncssh.connect("127.0.0.1", first_port, **client_options("ann2"))  # the same client again
            bob = await asyncssh.connect("127.0.0.1", other_port, **client_options("bob"))  # another one: welcome
            assert sorted(c.address for c in server.connections) == [CLIENT[0], "203.0.113.8"]
            ann.close()
            bob.close()
            await ann.wait_closed()
            await bob.wait_closed()
        await wait_until(lambda: not server.connections)
    refused = [record.getMessage() for record in caplog.records if "refused" in record.getMessage()]
    assert len(refused) == 1 and refused[0].startswith(f"connection from {CLIENT[0]}:{CLIENT[1]} refused")


async def test_a_server_refuses_headers_from_elsewhere_and_plain_clients_still_play(tmp_path, caplog) -> None:
    caplog.set_level(logging.INFO, logger="soluna.server")
    async with server_behind_proxy(tmp_path, "10.0.0.0/8") as server:
        async with relay(server.port, header_v1(CLIENT, SERVER)) as port:
            with pytest.raises((asyncssh.Error, OSError)):
                await asyncssh.connect("127.0.0.1", port, **client_options("ann"))
        assert any("not trusted with --proxy-from" in record.getMessage() for record in caplog.records)
        plain = await asyncssh.connect("127.0.0.1", server.port, **client_options("ann"))
        assert [c.address for c in server.connections] == ["127.0.0.1"]
        plain.close()
        await plain.wait_closed()


async def test_a_whole_game_session_plays_through_the_proxy(tmp_path) -> None:
    async with server_behind_proxy(tmp_path, "127.0.0.0/8") as server:
        async with relay(server.port, header_v2(("2001:db8::7", 6000), ("2001:db8::1", 22))) as port:
            terminal = await SshTerminal.open(port)
            try:
                await terminal.wait_for_text("Welcome, ann.")
                assert session_named(server, "ann").connection.address == "2001:db8::7"
                await terminal.press("enter")  # play the computer: the screen flows both ways
                await terminal.wait_for_text("Your move")
            finally:
                await terminal.close()
