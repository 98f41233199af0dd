"""Runs in the server process.

The PROXY protocol (v1 text, v2 binary): the real client's address from a trusted load balancer.

Behind HAProxy every connection comes from the proxy's address, so the per-address
limits would count all players as one. A proxy configured with ``send-proxy`` (or
``send-proxy-v2``) starts each connection with a header naming the client; the
server believes it only from the addresses given with ``--proxy-from``.

``ProxyListener`` is asyncssh's own hook for listening elsewhere (``listen(tunnel=...)``):
it accepts the TCP connections itself, reads the header, and hands the connection to
asyncssh with the header's address as its peer, so the gate and every log line see the
real client. From a trusted address a connection must start with a header (HAProxy always
sends one); from any other address a connection that starts with one is refused. Past the
process's bound on open files (``open_files.py``), a connection is closed as it is accepted.
"""

from __future__ import annotations

import asyncio
import ipaddress
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..open_files import OpenFiles

V1_PREFIX = b"PROXY "
#: The longest v1 header, CRLF included (the specification's own bound).
V1_MAX_LENGTH = 107
V2_SIGNATURE = b"\r\n\r\n\x00\r\nQUIT\n"
V2_FIXED_LENGTH = 16
#: The most address and TLV bytes accepted after a v2 header's fixed part (HAProxy sends far fewer).
V2_MAX_PAYLOAD = 1024
#: Seconds a trusted proxy has to send its header (it sends it at once), and a client to send its first bytes.
HEADER_TIMEOUT = 5.0
SNIFF_TIMEOUT = 1.0
#: Connections waiting for their first bytes at once; past this, others are not made to wait.
MAX_PENDING = 256

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = tuple[str, int]


class ProxyHeaderError(ValueError):
    """A PROXY header that is malformed, too long, or not allowed where it came from."""


@dataclass(frozen=True)
class ProxyHeader:
    """What a header says: the client (``None`` for LOCAL / UNKNOWN: the proxy's own connection)."""

    source: Address | None
    destination: Address | None
    #: How many bytes the header took; what follows is the client's own.
    length: int


def parse_network(text: str) -> Network:
    """A ``--proxy-from`` value: an address or a CIDR block (``10.0.0.0/8``, ``::1``)."""
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise ProxyHeaderError(f"not an address or CIDR block: {text!r}") from None


def looks_like_header(data: bytes) -> bool | None:
    """Whether ``data`` starts with a PROXY signature: ``None`` while too short to tell."""
    for signature in (V1_PREFIX, V2_SIGNATURE):
        shared = min(len(data), len(signature))
        if data[:shared] == signature[:shared]:
            return True if shared == len(signature) else None
    return False


def parse_header(data: bytes) -> ProxyHeader | None:
    """The header at the start of ``data``; ``None`` while incomplete; ``ProxyHeaderError`` when bad."""
    kind = looks_like_header(data)
    if kind is None:
        return None
    if not kind:
        raise ProxyHeaderError("no PROXY header")
    if data.startswith(V1_PREFIX):
        return _parse_v1(data)
    return _parse_v2(data)


def _parse_v1(data: bytes) -> ProxyHeader | None:
    end = data.find(b"\r\n", 0, V1_MAX_LENGTH)
    if end < 0:
        if len(data) >= V1_MAX_LENGTH or b"\n" in data[:V1_MAX_LENGTH]:
            raise ProxyHeaderError("PROXY v1 header too long or not ended by CRLF")
        return None
    try:
        fields = data[:end].decode("ascii").split(" ")
    except UnicodeDecodeError:
        raise ProxyHeaderError("PROXY v1 header is not ASCII") from None
    if len(fields) >= 2 and fields[1] == "UNKNOWN":
        return ProxyHeader(None, None, end + 2)
    if len(fields) != 6 or fields[1] not in ("TCP4", "TCP6"):
        raise ProxyHeaderError("PROXY v1 header malformed")
    version = 4 if fields[1] == "TCP4" else 6
    source = (_address(fields[2], version), _port(fields[4]))
    destination = (_address(fields[3], version), _port(fields[5]))
    return ProxyHeader(source, destination, end + 2)


def _address(text: str, version: int) -> str:
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        raise ProxyHeaderError(f"PROXY header address {text[:40]!r} malformed") from None
    if address.version != version:
        raise ProxyHeaderError(f"PROXY header address {text!r} is not IPv{version}")
    return str(address)


def _port(text: str) -> int:
    if not text.isdigit() or len(text) > 5 or (len(text) > 1 and text[0] == "0") or int(text) > 65535:
        raise ProxyHeaderError(f"PROXY header port {text[:8]!r} malformed")
    return int(text)


def _parse_v2(data: bytes) -> ProxyHeader | None:
    if len(data) < V2_FIXED_LENGTH:
        return None
    version_command, family_protocol, length = struct.unpack("!BBH", data[12:V2_FIXED_LENGTH])
    if version_command >> 4 != 2 or version_command & 0xF not in (0, 1):
        raise ProxyHeaderError("PROXY v2 header: unknown version or command")
    if length > V2_MAX_PAYLOAD:
        raise ProxyHeaderError(f"PROXY v2 header too long ({length} bytes of addresses)")
    total = V2_FIXED_LENGTH + length
    if len(data) < total:
        return None
    if version_command & 0xF == 0:  # LOCAL: the proxy's own connection (a health check)
        return ProxyHeader(None, None, total)
    family, protocol = family_protocol >> 4, family_protocol & 0xF
    if protocol == 2:
        raise ProxyHeaderError("PROXY v2 header for a datagram connection")
    payload = data[V2_FIXED_LENGTH:total]
    if family == 1 and protocol == 1:
        if length < 12:
            raise ProxyHeaderError("PROXY v2 header: IPv4 addresses cut short")
        source, destination, source_port, destination_port = struct.unpack("!4s4sHH", payload[:12])
    elif family == 2 and protocol == 1:
        if length < 36:
            raise ProxyHeaderError("PROXY v2 header: IPv6 addresses cut short")
        source, destination, source_port, destination_port = struct.unpack("!16s16sHH", payload[:36])
    else:  # unspecified or a Unix socket: nothing usable, the proxy's address stands
        return ProxyHeader(None, None, total)
    return ProxyHeader((str(ipaddress.ip_address(source)), source_port),
                       (str(ipaddress.ip_address(destination)), destination_port), total)


def header_v1(source: Address, destination: Address) -> bytes:
    """A v1 header, as HAProxy's ``send-proxy`` writes it (for tests and tools)."""
    kind = "TCP6" if ipaddress.ip_address(source[0]).version == 6 else "TCP4"
    return f"PROXY {kind} {source[0]} {destination[0]} {source[1]} {destination[1]}\r\n".encode("ascii")


def header_v2(source: Address | None, destination: Address | None = None) -> bytes:
    """A v2 header, as ``send-proxy-v2`` writes it; ``source=None`` makes a LOCAL one."""
    if source is None:
        return V2_SIGNATURE + struct.pack("!BBH", 0x20, 0x00, 0)
    destination = destination or (("::" if ":" in source[0] else "0.0.0.0"), 0)
    packed = [ipaddress.ip_address(address).packed for address in (source[0], destination[0])]
    family = 0x11 if len(packed[0]) == 4 else 0x21  # (AF_INET or AF_INET6) << 4 | STREAM
    payload = packed[0] + packed[1] + struct.pack("!HH", source[1], destination[1])
    return V2_SIGNATURE + struct.pack("!BBH", 0x20 | 0x01, family, len(payload)) + payload


class TrustedProxies:
    """The ``--proxy-from`` blocks; an IPv4 client seen through a dual-stack socket counts as IPv4."""

    def __init__(self, networks: Iterable[Network]) -> None:
        self.networks = tuple(networks)

    def __contains__(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.networks)


class _AddressedTransport:
    """The accepted connection's transport, its peer being the client the header named."""

    def __init__(self, transport: asyncio.Transport, peername: Address) -> None:
        self._transport = transport
        self._peername = peername

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        if name == "peername":
            return self._peername
        return self._transport.get_extra_info(name, default)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class _HeaderReader(asyncio.Protocol):
    """The protocol of a connection until its header is read; then asyncssh's connection takes over."""

    def __init__(self, listener: ProxyListener, make_connection: Callable[[], asyncio.Protocol]) -> None:
        self.listener = listener
        self.make_connection = make_connection
        self.transport: asyncio.Transport | None = None
        self.peer: Address = ("?", 0)
        self.trusted = False
        self.buffer = b""
        self.header: ProxyHeader | None = None
        self.done = False
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        peer = transport.get_extra_info("peername") or ("?", 0)
        self.peer = (str(peer[0]), int(peer[1]))
        open_files = self.listener.open_files
        if open_files is not None:
            if not open_files.room():  # logged by ``OpenFiles``, once
                self.done = True
                transport.close()  # nothing is written yet: closed at once
                return
            open_files.kept()
        self.trusted = self.peer[0] in self.listener.trusted
        if not self.trusted and self.listener.pending >= MAX_PENDING:
            self._hand_over(self.peer, b"")  # under a flood, clients are not made to wait
            return
        self.listener.pending += 1
        timeout = self.listener.header_timeout if self.trusted else self.listener.sniff_timeout
        self._timer = asyncio.get_running_loop().call_later(timeout, self._timed_out)

    def data_received(self, data: bytes) -> None:
        if self.done:
            return
        self.buffer += data
        try:
            if self.trusted:
                self.header = self.header or parse_header(self.buffer)
                rest = self.buffer[self.header.length:] if self.header is not None else b""
                # A LOCAL header alone is most often the proxy's health check, closing at once: no log line
                # unless something follows it.
                if self.header is not None and (self.header.source is not None or rest):
                    self._hand_over(self.header.source or self.peer, rest)
            else:
                starts = looks_like_header(self.buffer)
                if starts:
                    self._refuse("a PROXY header from an address not trusted with --proxy-from")
                elif starts is not None:
                    self._hand_over(self.peer, self.buffer)
        except ProxyHeaderError as error:
            self._refuse(str(error))

    def eof_received(self) -> bool | None:
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done:
            self._finish()
            if self.trusted and self.buffer and self.header is None:  # a health check: no line
                self.listener.log("connection from proxy %s:%d closed within its PROXY header", *self.peer)

    def _timed_out(self) -> None:
        self._timer = None
        if self.done:
            return
        if self.trusted and self.header is None:
            self._refuse(f"no PROXY header within {self.listener.header_timeout:g} s")
        else:  # a client that waits for the server to speak first
            self._hand_over(self.peer, self.buffer)

    def _finish(self) -> None:
        if not self.done and self._timer is not None:
            self._timer.cancel()
            self._timer = None
            self.listener.pending -= 1
        self.done = True

    def _refuse(self, reason: str) -> None:
        self._finish()
        self.listener.log("connection from %s:%d refused: %s", self.peer[0], self.peer[1], reason)
        if self.transport is not None:
            self.transport.abort()

    def _hand_over(self, peer: Address, rest: bytes) -> None:
        self._finish()
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        connection = self.make_connection()
        transport.set_protocol(connection)
        connection.connection_made(_AddressedTransport(transport, peer))  # type: ignore[arg-type]
        if rest and not transport.is_closing():
            connection.data_received(rest)


class ProxyListener:
    """asyncssh's listener hook: ``asyncssh.listen(tunnel=ProxyListener(...))`` accepts through it."""

    def __init__(self, trusted: Iterable[Network], log: Callable[..., None], *,
                 header_timeout: float = HEADER_TIMEOUT, sniff_timeout: float = SNIFF_TIMEOUT,
                 open_files: OpenFiles | None = None) -> None:
        self.trusted = TrustedProxies(trusted)
        self.log = log
        #: The process's bound on open files (shared with the web door): past it, connections are closed at once.
        self.open_files = open_files
        self.header_timeout = header_timeout
        self.sniff_timeout = sniff_timeout
        #: Connections still waiting for their first bytes (or their header).
        self.pending = 0

    async def create_server(self, session_factory: Callable[[str, int], asyncio.Protocol],
                            listen_host: str, listen_port: int) -> asyncio.AbstractServer:
        loop = asyncio.get_running_loop()
        return await loop.create_server(
            lambda: _HeaderReader(self, lambda: session_factory("", 0)),
            listen_host or None, listen_port, reuse_address=True)
