"""The web door stands a flood: every TCP connection counted from its first byte, slow headers and bodies timed
out, connections waiting for a request capped per address and in all, and open files kept under a bound below the
process's limit on both doors; the log says so in a line, never in a traceback."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import re
import time

import aiohttp
import pytest

from soluna_tui.server import gate as gate_module
from soluna_tui.server.config import Limits
from soluna_tui.server.gate import Gate
from soluna_tui.server.open_files import ACCEPT_FAILED, OpenFiles, QuietFailedAccepts
from soluna_tui.server.web import connections

from ..server.helpers import TIMEOUT, SshTerminal, served, wait_until
from .helpers import web_server

#: The deadlines these tests run the door with (the real ones are 10 s).
SHORT = 0.5
REQUEST = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


@pytest.fixture
def short_deadlines(monkeypatch) -> None:
    monkeypatch.setattr(connections, "HEADER_TIMEOUT", SHORT)
    monkeypatch.setattr(connections, "REQUEST_TIMEOUT", SHORT)


async def raw(port: int, source: str = "127.0.0.1") -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A bare TCP connection to ``port`` from the loopback address ``source`` (all of 127/8 is this machine)."""
    return await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), TIMEOUT)


async def answer(reader: asyncio.StreamReader, timeout: float = TIMEOUT) -> bytes:
    """What the server sends before it closes the connection (``b""``: closed without a word)."""
    with contextlib.suppress(ConnectionResetError):
        return await asyncio.wait_for(reader.read(65536), timeout)
    return b""


async def page_from(port: int, source: str) -> int:
    """The page's status, fetched from the loopback address ``source``."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(connector=connector) as http, \
            http.get(f"http://127.0.0.1:{port}/", timeout=aiohttp.ClientTimeout(total=TIMEOUT)) as response:
        await response.read()
        return response.status


async def close_all(writers: list[asyncio.StreamWriter]) -> None:
    for writer in writers:
        writer.close()
    for writer in writers:
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


async def test_a_connection_that_sends_no_whole_request_is_closed_at_the_header_deadline(
        tmp_path, short_deadlines) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        port = server.web.port
        started = time.monotonic()
        silent = await raw(port)
        slow = await raw(port)
        slow[1].write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")  # headers begun, never ended
        prompt = await raw(port)
        prompt[1].write(REQUEST)
        try:
            assert (await answer(prompt[0], SHORT / 2)).startswith(b"HTTP/1.1 200")
            for reader, _ in (silent, slow):
                assert await answer(reader) == b""  # closed without a word
                assert SHORT * 0.8 <= time.monotonic() - started <= SHORT + 2
            await wait_until(lambda: server.gate.waiting == 0, what="the waiting places given back")
        finally:
            await close_all([silent[1], slow[1], prompt[1]])
        await wait_until(lambda: server.gate.sockets == 0, what="every web connection's place given back")


async def test_a_request_whose_body_never_comes_is_answered_408_at_the_request_deadline(
        tmp_path, short_deadlines) -> None:
    async with web_server(tmp_path) as server:
        assert server.web is not None
        port = server.web.port
        reader, writer = await raw(port)
        origin = f"http://127.0.0.1:{port}"
        writer.write(f"POST /sign-in HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {origin}\r\n"
                     "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 200\r\n\r\ncode=AB".encode())
        try:
            started = time.monotonic()
            reply = await answer(reader)
            assert reply.startswith(b"HTTP/1.1 408") and time.monotonic() - started <= SHORT + 2
            assert await answer(reader) == b""  # and the connection closed, the body's rest read for a moment only
            assert time.monotonic() - started <= SHORT + connections.LINGERING_TIME + 2
        finally:
            await close_all([writer])


async def test_a_client_that_never_reads_its_answers_is_closed_once_they_have_waited_the_stalled_deadline(
        tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(connections, "STALLED_TIMEOUT", SHORT)
    async with web_server(tmp_path) as server:
        assert server.web is not None
        reader, writer = await raw(server.web.port)
        asked = b"GET /static/textual.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 200  # tens of megabytes, unread
        writer.write(asked)
        try:
            await wait_until(lambda: server.gate.sockets == 1, what="the connection counted")
            await wait_until(lambda: server.gate.sockets == 0, timeout=SHORT + 5, what="the stalled connection closed")
        finally:
            writer.transport.abort()


async def test_connections_past_the_per_address_cap_are_closed_at_once_while_other_addresses_get_in(
        tmp_path, short_deadlines, monkeypatch, caplog) -> None:
    monkeypatch.setattr(connections, "HEADER_TIMEOUT", 30.0)  # the flood's connections outlast the test
    caplog.set_level(logging.INFO)
    async with web_server(tmp_path) as server:
        assert server.web is not None
        port = server.web.port
        flood = [await raw(port) for _ in range(server.gate.waiting_per_ip)]
        try:
            await wait_until(lambda: server.gate.waiting == len(flood), what="the flood waiting")
            for _ in range(20):  # each past the cap: closed at once, nothing read
                reader, writer = await raw(port)
                writer.write(REQUEST)
                assert await answer(reader, 2.0) == b""
                writer.close()
            assert await page_from(port, "127.0.0.2") == 200
            ann = await SshTerminal.open(server.port, username="ann", local_addr=("127.0.0.3", 0))
            try:
                await ann.wait_for_text("Welcome, ann")
            finally:
                await ann.close()
            for reader, _ in flood:  # the flood's own connections still open, waiting
                with pytest.raises(TimeoutError):
                    await asyncio.wait_for(reader.read(1), 0.01)
        finally:
            await close_all([writer for _, writer in flood])
    lines = [record.getMessage() for record in caplog.records]
    refused = [line for line in lines if "web connection from 127.0.0.1" in line]
    assert refused and "may be waiting to send a request at once" in refused[0]
    assert len(refused) <= 3  # a line a second, the rest summed up
    assert not [record for record in caplog.records if record.exc_info]


async def test_when_every_waiting_place_is_taken_the_longest_waiting_at_the_busiest_address_makes_room_for_others(
        tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(connections, "HEADER_TIMEOUT", 30.0)
    monkeypatch.setattr(gate_module, "WAITING_SHARE", 1)
    async with web_server(tmp_path, unstarted=4) as server:
        assert server.web is not None
        port = server.web.port
        assert server.gate.waiting_places == 4
        flood = []
        for _ in range(3):
            flood.append(await raw(port, "127.0.0.2"))
            await wait_until(lambda: server.gate.waiting == len(flood), what="the connection waiting")
        other = await raw(port, "127.0.0.3")
        try:
            await wait_until(lambda: server.gate.waiting == 4, what="every waiting place taken")
            assert await page_from(port, "127.0.0.4") == 200  # a newcomer gets in: the flood's oldest made room
            assert await answer(flood[0][0], 2.0) == b""
            for reader, _ in [*flood[1:], other]:
                with pytest.raises(TimeoutError):
                    await asyncio.wait_for(reader.read(1), 0.01)
            await wait_until(lambda: server.gate.waiting == 3, what="the newcomer's place given back")
            flood.append(await raw(port, "127.0.0.2"))  # the busiest address: it takes the last place, no more
            await wait_until(lambda: server.gate.waiting == 4, what="every waiting place taken again")
            reader, writer = await raw(port, "127.0.0.2")
            assert await answer(reader, 2.0) == b""  # it would only push out its own: refused at once
            writer.close()
            for reader, _ in [*flood[1:], other]:  # and nobody made room for it
                with pytest.raises(TimeoutError):
                    await asyncio.wait_for(reader.read(1), 0.01)
        finally:
            await close_all([writer for _, writer in [*flood, other]])


def test_the_open_files_bound_is_well_below_the_limit_counted_now_and_then_and_logged_as_it_is_crossed(
        caplog) -> None:
    caplog.set_level(logging.INFO)
    now, counts = [0.0], iter([100, 200, 150])
    files = OpenFiles(logging.getLogger("soluna.test"), limit=256, count=lambda: next(counts), clock=lambda: now[0])
    assert files.bound == 192
    assert files.room()  # counted: 100
    for _ in range(50):
        files.kept()
    assert files.room()  # 150: the count and the connections kept since (not counted again so soon)
    now[0] = 0.2
    assert not files.room()  # counted again: 200
    assert not files.room()
    now[0] = 0.4
    assert files.room()  # 150
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2
    assert lines[0].startswith("refusing new connections: 200 files open, past the bound of 192")
    assert lines[1] == "accepting connections again: 150 files open (bound 192); 2 refused meanwhile"


async def test_past_the_open_files_bound_both_doors_close_new_connections_with_a_line_and_no_traceback(
        tmp_path) -> None:
    # A limit of 256 (soft and hard, as LimitNOFILE sets them): the bound is 192. One address may hold many
    # keep-alive connections here, so the bound is reached before any per-address limit.
    async with served(tmp_path, "--web", "0", "--max-per-ip", "400", "--max-new-per-minute", "1000",
                      open_files=256) as server:
        port = int(next(found.group(1) for line in server.log
                        if (found := re.search(r"web door open on http://127\.0\.0\.1:(\d+)", line))))
        held: list[asyncio.StreamWriter] = []
        try:
            refused = None
            for number in range(240):  # each with an answer, then idle: until one is closed at once
                reader, writer = await raw(port, f"127.0.{number // 200}.{number % 200 + 2}")
                writer.write(REQUEST)
                reply = await answer(reader, 5.0)
                if not reply:
                    refused = number
                    writer.close()
                    break
                assert reply.startswith(b"HTTP/1.1 200")
                held.append(writer)
            assert refused is not None and 100 <= refused < 192, refused
            ssh = await raw(server.port, "127.0.3.1")
            assert await answer(ssh[0], 5.0) == b""  # the SSH door too: closed before its banner
            await close_all(held[:60])
            held = held[60:]
            await asyncio.sleep(0.3)  # counted again
            reader, writer = await raw(server.port, "127.0.3.2")
            assert (await reader.readline()).startswith(b"SSH-2.0-Soluna")  # room again
            writer.close()
        finally:
            await close_all(held)
        await asyncio.sleep(0.2)
        log = "\n".join(server.log)
        assert len(re.findall("refusing new connections", log)) == 1, log[-3000:]
        assert "accepting connections again" in log
        assert "Traceback" not in log and "Too many open files" not in log


def test_a_trusted_proxy_s_connections_skip_the_per_address_caps_and_everyone_else_s_do_not() -> None:
    gate = Gate(Limits(unstarted=32))
    for number in range(gate.waiting_per_ip):
        assert gate.admit_socket("10.0.0.5", ("client", number)).refusal is None
    assert "may be waiting" in (gate.admit_socket("10.0.0.5", "one more").refusal or "")
    for number in range(20):  # a reverse proxy carries everyone's connections
        assert gate.admit_socket("127.0.0.1", ("proxy", number), per_address=False).refusal is None
    assert gate.waiting == gate.waiting_per_ip + 20
    gate.socket_heard("127.0.0.1", ("proxy", 0))
    gate.release_socket("127.0.0.1", ("proxy", 0))
    assert gate.waiting == gate.waiting_per_ip + 19 and gate.sockets == gate.waiting_per_ip + 19


def test_a_failed_accept_is_one_line_a_second_and_anything_else_goes_to_the_handler_before(caplog) -> None:
    caplog.set_level(logging.INFO)
    loop = asyncio.new_event_loop()
    seen: list[dict] = []
    loop.set_exception_handler(lambda _, context: seen.append(context))
    quiet = QuietFailedAccepts(logging.getLogger("soluna.test"))
    quiet.install(loop)
    try:
        async def fail_accepting() -> None:
            for _ in range(50):
                loop.call_exception_handler({"message": ACCEPT_FAILED,
                                             "exception": OSError(errno.EMFILE, "Too many open files")})
            loop.call_exception_handler({"message": "something else", "exception": ValueError("kept")})

        loop.run_until_complete(fail_accepting())
    finally:
        quiet.remove()
        loop.close()
    lines = [record.getMessage() for record in caplog.records]
    assert lines == ["accepting a connection failed: Too many open files (errno EMFILE); trying again in a second",
                     "suppressed 49 similar lines (more than 1 a second)"]
    assert not [record for record in caplog.records if record.exc_info]
    assert [context["message"] for context in seen] == ["something else"]
